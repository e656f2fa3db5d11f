// `cube check|apply|order|solve|random`: the Rubik's cube group (spec section 6).
#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::cube;

nlohmann::json state_json(const CubieState& c) {
  return {{"r", std::vector<int>(c.r.begin(), c.r.end())},
          {"v", std::vector<int>(c.v.begin(), c.v.end())},
          {"s", std::vector<int>(c.s.begin(), c.s.end())},
          {"w", std::vector<int>(c.w.begin(), c.w.end())}};
}

Result<Output> check_command(const Request& q, Session&) {
  auto reading = read_facelets(q.string("facelets"));
  if (!reading) return reading.error();
  Output out;
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
  out.text = std::move(text);
  return out;
}

Result<CubieState> start_state(const Request& q) {
  if (!q.has("start")) return CubieState{};
  const std::string start = q.string("start");
  auto reading = read_facelets(start);
  if (!reading) return reading.error();
  if (!reading->valid) return make_error("--start: " + reading->problems.front(), start);
  return reading->state;
}

Result<Output> apply_command(const Request& q, Session&) {
  auto moves = parse_moves(q.string("moves"));
  if (!moves) return moves.error();
  auto start = start_state(q);
  if (!start) return start.error();
  Perm seq = moves_perm(*moves);
  Perm total = to_sticker_perm(*start) * seq;
  std::string facelets = facelets_of(total);
  auto reading = read_facelets(facelets);
  if (!reading || !reading->valid) {
    return make_error("internal: moves produced an invalid cube", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  Output out;
  out.json = {{"moves", format_moves(*moves)},
              {"facelets", facelets},
              {"cubies", state_json(reading->state)},
              {"order", seq.order().get_str()},
              {"solved", reading->state.is_solved()}};
  out.text =
      fmt::format("moves:    {}\nfacelets: {}\ncubies:   {}\norder of the sequence: {}\n",
                  format_moves(*moves), facelets, reading->state.describe(), seq.order().get_str());
  return out;
}

// The cube group on GAP's 48 stickers, generators named like the moves.
Result<PermGroup> cube_group() {
  return PermGroup::from_generators(gap_generators(), {"U", "L", "F", "R", "B", "D"});
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

Result<Output> solve_command(const Request& q, Session& s) {
  const std::string facelets = q.string("facelets");
  auto reading = read_facelets(facelets);
  if (!reading) return reading.error();
  if (!reading->valid) {
    return make_error("not a cube: " + reading->problems.front(), facelets, Error::NO_POSITION,
                      ErrorKind::Unsolvable);
  }
  auto theorem = check_theorem(reading->state);
  if (!theorem.solvable()) {
    return make_error("unsolvable: " + theorem.failures().front(), facelets, Error::NO_POSITION,
                      ErrorKind::Unsolvable);
  }
  s.note("Schreier-Sims and the word problem...");
  auto group = cube_group();
  if (!group) return group.error();
  auto state = to_gap(to_sticker_perm(reading->state));
  if (!state) return state.error();
  auto word = group->word(state->inverse());
  if (!word) return word.error();
  // The word is checked in the group; the face moves made of it (runs merged) are checked once
  // here, on the cube itself.
  std::vector<CubeMove> moves = word_moves(*word, *group);
  auto end = read_facelets(facelets_of(to_sticker_perm(reading->state) * moves_perm(moves)));
  if (!end || !end->valid || !end->state.is_solved()) {
    return make_error("internal: the solution does not solve the cube", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  Output out;
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

}  // namespace

void register_cube(Registry& r) {
  r.add_family("cube", "Rubik's cube: facelets, cubies, solvability, group order");

  r.add({"cube",
         "check",
         "Is this 54-sticker facelet string (URFDLB order) a solvable cube? Names every "
         "failing condition",
         {positional("facelets", ParamType::String, "Facelet string, e.g. UUUUUUUUURRR...BBB")},
         check_command});

  r.add({"cube",
         "apply",
         "Apply a move sequence (Singmaster, M E S, x y z, wide)",
         {positional("moves", ParamType::String, "Moves as one quoted string, e.g. \"R U R' U'\""),
          option("start", ParamType::String, "Start facelet string (default: solved)")},
         apply_command});

  r.add({"cube",
         "order",
         "Order of the cube group (Schreier-Sims on GAP's 48 stickers)",
         {},
         [](const Request&, Session& s) -> Result<Output> {
           s.note("Schreier-Sims on the 6 face turns (48 points)...");
           auto group = cube_group();
           if (!group) return group.error();
           Output out;
           out.json = {{"order", group->order().get_str()}, {"degree", 48}, {"generators", 6}};
           out.text = "order of the cube group: " + group->order().get_str() + "\n";
           return out;
         }});

  r.add({"cube",
         "solve",
         "Solve a cube via the group core's word problem (correct but NOT short)",
         {positional("facelets", ParamType::String, "Facelet string (URFDLB order)")},
         solve_command});

  r.add({"cube",
         "random",
         "A uniformly random cube position",
         {option("seed", ParamType::Unsigned, "Random seed", 1)},
         [](const Request& q, Session&) -> Result<Output> {
           const std::uint64_t seed = q.unsigned_integer("seed");
           Rng rng(seed);
           CubieState c = random_state(rng);
           Output out;
           out.json = {{"facelets", to_facelets(c)}, {"cubies", state_json(c)}, {"seed", seed}};
           out.text = to_facelets(c) + "\n" + c.describe() + "\n";
           return out;
         }});

  r.add_demo("cube", demo_cube);
}

}  // namespace permuzzle::api
