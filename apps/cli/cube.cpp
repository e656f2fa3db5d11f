// `permuzzle cube check|apply|random|order|solve`: the Rubik's cube group (spec section 6).
#include <fmt/format.h>

#include <memory>

#include "cli.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::cli {

namespace {

using namespace permuzzle::cube;

struct CubeArgs {
  std::string facelets, moves, start;
  std::uint64_t seed = 1;
};

nlohmann::json state_json(const CubieState& c) {
  return {{"r", std::vector<int>(c.r.begin(), c.r.end())},
          {"v", std::vector<int>(c.v.begin(), c.v.end())},
          {"s", std::vector<int>(c.s.begin(), c.s.end())},
          {"w", std::vector<int>(c.w.begin(), c.w.end())}};
}

Result<CommandOutput> check(const std::string& facelets) {
  auto reading = read_facelets(facelets);
  if (!reading) return reading.error();
  CommandOutput out;
  std::vector<std::string> failures = reading->problems;
  bool solvable = false;
  if (reading->valid) {
    auto t = check_theorem(reading->state);
    failures = t.failures();
    solvable = t.solvable();
    out.json["cubies"] = state_json(reading->state);
    out.json["corner_parity"] = t.corner_sign > 0 ? "even" : "odd";
    out.json["edge_parity"] = t.edge_sign > 0 ? "even" : "odd";
    out.json["twist_sum"] = t.twist_sum;
    out.json["flip_sum"] = t.flip_sum;
  }
  out.json["solvable"] = solvable;
  out.json["valid"] = reading->valid;
  out.json["failures"] = failures;
  std::string text = solvable ? "solvable: yes (fundamental theorem: parities agree, twists sum to "
                                "0 mod 3, flips to 0 mod 2)\n"
                              : "solvable: no\n";
  if (!reading->valid) text += "not a reassembled cube:\n";
  for (const auto& f : failures) text += "  " + f + "\n";
  if (reading->valid) text += "cubies: " + reading->state.describe() + "\n";
  out.text = text;
  return out;
}

Result<CubieState> start_state(const std::string& start) {
  if (start.empty()) return CubieState{};
  auto reading = read_facelets(start);
  if (!reading) return reading.error();
  if (!reading->valid) return make_error("--start: " + reading->problems.front(), start);
  return reading->state;
}

// The cube group on GAP's 48 stickers, generators named like the moves.
Result<PermGroup> cube_group() {
  const char* names[6] = {"U", "L", "F", "R", "B", "D"};
  std::vector<Perm> gens;
  for (const char* n : names) {
    auto g = to_gap(move_perm(n));
    if (!g) return g.error();
    gens.push_back(*g);
  }
  return PermGroup::from_generators(gens, {"U", "L", "F", "R", "B", "D"});
}

// Word in the generators -> face moves, merging runs of the same face (exponents mod 4).
std::vector<CubeMove> word_moves(const Word& word, const PermGroup& group) {
  std::vector<CubeMove> moves;
  for (const auto& letter : word) {
    const std::string& name = group.generator_names()[letter.generator];
    int turns = ((letter.exponent % 4) + 4) % 4;
    if (!moves.empty() && moves.back().name == name) {
      moves.back().turns = (moves.back().turns + turns) % 4;
      if (moves.back().turns == 0) moves.pop_back();
    } else if (turns != 0) {
      moves.push_back({name, turns});
    }
  }
  return moves;
}

}  // namespace

static void add_cube_group_commands(CLI::App* cube, Context& ctx, std::shared_ptr<CubeArgs> a);

void add_cube_command(CLI::App& app, Context& ctx) {
  auto* cube =
      app.add_subcommand("cube", "Rubik's cube: facelets, cubies, solvability, group order");
  cube->require_subcommand(1);
  auto a = std::make_shared<CubeArgs>();

  auto* check_cmd = cube->add_subcommand(
      "check",
      "Is this 54-sticker facelet string (URFDLB order) a solvable cube? Names every "
      "failing condition");
  check_cmd->add_option("facelets", a->facelets, "Facelet string, e.g. UUUUUUUUURRR...BBB")
      ->required();
  set_action(ctx, check_cmd, [a]() { return check(a->facelets); });

  auto* apply_cmd =
      cube->add_subcommand("apply", "Apply a move sequence (Singmaster, M E S, x y z, wide)");
  apply_cmd->add_option("moves", a->moves, "Moves as one quoted string, e.g. \"R U R' U'\"")
      ->required();
  apply_cmd->add_option("--start", a->start, "Start facelet string (default: solved)");
  set_action(ctx, apply_cmd, [a]() -> Result<CommandOutput> {
    auto moves = parse_moves(a->moves);
    if (!moves) return moves.error();
    auto start = start_state(a->start);
    if (!start) return start.error();
    Perm seq = moves_perm(*moves);
    Perm total = to_sticker_perm(*start) * seq;
    std::string facelets = facelets_of(total);
    auto reading = read_facelets(facelets);
    if (!reading || !reading->valid) {
      return make_error("internal: moves produced an invalid cube", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    CommandOutput out;
    out.json = {{"moves", format_moves(*moves)},
                {"facelets", facelets},
                {"cubies", state_json(reading->state)},
                {"order", seq.order().get_str()},
                {"solved", reading->state.is_solved()}};
    out.text = fmt::format("moves:    {}\nfacelets: {}\ncubies:   {}\norder of the sequence: {}\n",
                           format_moves(*moves), facelets, reading->state.describe(),
                           seq.order().get_str());
    return out;
  });

  add_cube_group_commands(cube, ctx, a);

  auto* random_cmd = cube->add_subcommand("random", "A uniformly random cube position");
  random_cmd->add_option("--seed", a->seed, "Random seed (default 1)");
  set_action(ctx, random_cmd, [a]() -> Result<CommandOutput> {
    Rng rng(a->seed);
    CubieState c = random_state(rng);
    CommandOutput out;
    out.json = {{"facelets", to_facelets(c)}, {"cubies", state_json(c)}, {"seed", a->seed}};
    out.text = to_facelets(c) + "\n" + c.describe() + "\n";
    return out;
  });
}

static void add_cube_group_commands(CLI::App* cube, Context& ctx, std::shared_ptr<CubeArgs> a) {
  auto* order_cmd =
      cube->add_subcommand("order", "Order of the cube group (Schreier-Sims on GAP's 48 stickers)");
  set_action(ctx, order_cmd, [&ctx]() -> Result<CommandOutput> {
    progress(ctx, "Schreier-Sims on the 6 face turns (48 points)...");
    auto group = cube_group();
    if (!group) return group.error();
    CommandOutput out;
    out.json = {{"order", group->order().get_str()}, {"degree", 48}, {"generators", 6}};
    out.text = "order of the cube group: " + group->order().get_str() + "\n";
    return out;
  });

  auto* solve_cmd = cube->add_subcommand(
      "solve", "Solve a cube via the group core's word problem (correct but NOT short)");
  solve_cmd->add_option("facelets", a->facelets, "Facelet string (URFDLB order)")->required();
  set_action(ctx, solve_cmd, [&ctx, a]() -> Result<CommandOutput> {
    auto reading = read_facelets(a->facelets);
    if (!reading) return reading.error();
    if (!reading->valid) {
      return make_error("not a cube: " + reading->problems.front(), a->facelets, Error::NO_POSITION,
                        ErrorKind::Unsolvable);
    }
    auto theorem = check_theorem(reading->state);
    if (!theorem.solvable()) {
      return make_error("unsolvable: " + theorem.failures().front(), a->facelets,
                        Error::NO_POSITION, ErrorKind::Unsolvable);
    }
    progress(ctx, "Schreier-Sims and the word problem...");
    auto group = cube_group();
    if (!group) return group.error();
    auto state = to_gap(to_sticker_perm(reading->state));
    if (!state) return state.error();
    auto word = group->word(state->inverse());
    if (!word) return word.error();
    std::vector<CubeMove> moves = word_moves(*word, *group);
    // Replay on the cubie state.
    auto end = read_facelets(facelets_of(to_sticker_perm(reading->state) * moves_perm(moves)));
    if (!end || !end->valid || !end->state.is_solved()) {
      return make_error("internal: the solution does not solve the cube", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    CommandOutput out;
    out.json = {{"moves", format_moves(moves)},
                {"length", moves.size()},
                {"verified", true},
                {"short", false},
                {"note", "word problem in the group core (Schreier-Sims); not a short solution"}};
    out.text = fmt::format(
        "solution ({} moves, replayed: solves the cube; NOT short: found by the "
        "group core's word problem, not by a cube solver):\n{}\n",
        moves.size(), format_moves(moves));
    return out;
  });
}

std::string demo_cube() {
  std::string out = "Rubik's cube\n";
  auto sexy = parse_moves("R U R' U'");
  out += fmt::format("  R U R' U' has order {}; R U has order {}\n",
                     moves_perm(*sexy).order().get_str(),
                     moves_perm(*parse_moves("R U")).order().get_str());
  std::string f = solved_facelets();
  f[8] = 'F', f[9] = 'U', f[20] = 'R';
  auto r = read_facelets(f);
  if (r && r->valid) {
    out += "  one corner twisted in place: " + check_theorem(r->state).failures().front() + "\n";
  }
  return out;
}

}  // namespace permuzzle::cli
