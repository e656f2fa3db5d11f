// `cube check|apply|order|solve|random`: the Rubik's cube group (spec section 6).
#include <cctype>
#include <chrono>
#include <map>
#include <optional>

#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/cube/cube2.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

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

Metric metric_param(const Request& q) {
  return q.has("metric") && q.string("metric") == "qtm" ? Metric::Qtm : Metric::Htm;
}

// The start of a solve: a facelet string, or the position a move sequence makes from solved.
// Unsolvable facelets get the reasons of `cube check`.
Result<CubieState> solve_input(const Request& q) {
  const bool has_facelets = q.has("facelets") && !q.string("facelets").empty();
  if (has_facelets == q.has("moves")) {
    return make_error("give either a facelet string or --moves \"...\" (exactly one)");
  }
  if (q.has("moves")) {
    auto moves = parse_moves(q.string("moves"));
    if (!moves) return moves.error();
    auto state = from_sticker_perm(moves_perm(*moves));
    if (!state) {
      return make_error(
          "--moves: only sequences that keep the centres in place can be solved "
          "(this one moves them: slice moves and rotations turn the centres)",
          q.string("moves"));
    }
    return *state;
  }
  const std::string facelets = q.string("facelets");
  auto reading = read_facelets(facelets);
  if (!reading) return reading.error();
  if (!reading->valid) {
    std::string all;
    for (const auto& p : reading->problems) all += (all.empty() ? "" : "; ") + p;
    return make_error("not a cube: " + all, facelets, Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  auto theorem = check_theorem(reading->state);
  if (!theorem.solvable()) {
    std::string all;
    for (const auto& p : theorem.failures()) all += (all.empty() ? "" : "; ") + p;
    return make_error("unsolvable: " + all, facelets, Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  return reading->state;
}

nlohmann::json moves_json(const std::vector<CubeMove>& moves) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : moves) out.push_back(format_moves({m}));
  return out;
}

nlohmann::json tables_json(const SolverTablesInfo& info) {
  nlohmann::json reports = nlohmann::json::array();
  for (const auto& r : info.reports) reports.push_back(describe(r));
  return {{"seconds", info.seconds}, {"bytes", info.bytes}, {"reports", reports}};
}

Result<std::shared_ptr<const SolverTables>> obtain_tables(Session& s, SolverTablesInfo* info) {
  return solver_tables(s.tables, s.run, info);
}

// The default --max-length: God's number, 20 moves in the half-turn metric, 26 in quarter turns
// (the two-phase search reaches it in about a millisecond).
int default_max_length(Metric metric) {
  return metric == Metric::Qtm ? 26 : 20;
}

// The answer of `cube solve`: a solution (or, when stopped, the best one so far, possibly none).
Output solution_output(const CubeSolution& sol, Metric metric, const SolverTablesInfo& info,
                       bool stopped) {
  const bool has_moves = !stopped || sol.verified;
  Output out;
  out.json = {{"moves", moves_json(sol.moves)},
              {"length", has_moves ? nlohmann::json(sol.length) : nlohmann::json(nullptr)},
              {"metric", metric == Metric::Qtm ? "qtm" : "htm"},
              {"optimal", sol.optimal && !stopped},
              {"verified", sol.verified},
              {"lower_bound", sol.lower_bound},
              {"nodes", sol.nodes},
              {"seconds", sol.seconds},
              {"method", sol.method},
              {"tables", tables_json(info)}};
  const char* metric_name = metric == Metric::Qtm ? "quarter turns" : "half-turn metric";
  if (stopped) {
    out.json["complete"] = false;
    out.text = has_moves ? fmt::format(
                               "{}\n{} moves ({}), replayed: solves the cube; stopped "
                               "before it was shown optimal (at least {} moves)\n",
                               sol.moves.empty() ? std::string("(already solved)")
                                                 : format_moves(sol.moves),
                               sol.length, metric_name, sol.lower_bound)
                         : fmt::format(
                               "stopped before a solution was found (at least {} moves, "
                               "{} nodes searched)\n",
                               sol.lower_bound, sol.nodes);
    return out;
  }
  out.text =
      fmt::format("{}\n{} moves ({}), {}, replayed: solves the cube\n",
                  sol.moves.empty() ? std::string("(already solved)") : format_moves(sol.moves),
                  sol.length, metric_name, sol.optimal ? "optimal" : "not proven optimal");
  return out;
}

Result<Output> solve_command(const Request& q, Session& s) {
  // Step 1. The position and the options.
  auto state = solve_input(q);
  if (!state) return state.error();
  const Metric metric = metric_param(q);
  const bool optimal = q.flag("optimal");
  const bool explicit_max = q.has("max-length");
  const int max_length = explicit_max ? static_cast<int>(q.unsigned_integer("max-length"))
                                      : default_max_length(metric);
  if (auto ok = check_cube_budget(q, optimal); !ok) return ok.error();
  if (q.has("threads")) s.run.with_threads(static_cast<unsigned>(q.unsigned_integer("threads")));
  // Step 2. The tables (the memory check first: --memory is the run's budget).
  if (auto ok = s.run.check_memory(solver_tables_bytes(), "the cube solver's tables"); !ok) {
    return ok.error();
  }
  SolverTablesInfo info;
  auto tables = obtain_tables(s, &info);
  if (!tables) return tables.error();
  // Step 3. Two-phase: the first solution within max-length, shorter ones within the budget.
  // With --optimal it runs first too, with max-length 20 (26 in QTM), no budget and at most
  // 50 ms (about a millisecond for most cubes; a few, like the superflip, take longer), so that
  // a run stopped by the time limit still answers a solution.
  TwoPhaseOptions o;
  o.metric = metric;
  o.max_length = optimal ? default_max_length(metric) : max_length;
  if (!optimal) o.budget = q.has("budget") ? q.number("budget") : explicit_max ? 0 : 0.01;
  RunContext two_phase_run = s.run;
  if (optimal) {
    constexpr auto QUICK = std::chrono::milliseconds(50);
    const auto deadline = s.run.deadline();
    if (!deadline || *deadline > RunContext::Clock::now() + QUICK) {
      two_phase_run.with_time_limit(QUICK);
    }
  }
  CubeSolution known;  // the best solution within max-length so far (none: no moves)
  Result<CubeSolution> sol = solve_two_phase(**tables, *state, o, two_phase_run, &known);
  if (!sol && optimal && !s.run.should_stop() && two_phase_run.should_stop()) {
    sol = known;  // out of its 50 ms: the optimal search goes on without (or with) it
    if (!known.verified)
      sol = make_error("no quick solution", {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  if (!sol && s.run.should_stop()) {
    Output out = solution_output(known, metric, info, true);
    out.stopped = s.run.stop_error();
    return out;
  }
  if (sol && !optimal) return solution_output(*sol, metric, info, false);
  // Past here: --optimal, or no two-phase solution within max-length (LimitExceeded: below the
  // lower bound, or none of the two-phase form), which IDA* settles.
  if (!sol && sol.error().kind != ErrorKind::LimitExceeded) return sol.error();
  if (sol && sol->length <= max_length) known = *sol;
  // Step 4. IDA*: --optimal, or a --max-length that the two-phase search cannot reach (IDA*
  // finds the shortest solution or proves there is none within max-length).
  OptimalOptions oo;
  oo.metric = metric;
  oo.max_length = max_length;
  if (optimal) {
    if (auto ok = attach_optimal_table(q, s, **tables, info, oo); !ok) return ok.error();
  }
  CubeSolution bound;
  sol = solve_optimal(**tables, *state, oo, s.run, &bound);
  if (sol) return solution_output(*sol, metric, info, false);
  if (!s.run.should_stop()) return sol.error();
  // Stopped: the two-phase solution (if any), with the bound IDA* proved.
  known.lower_bound = std::max(known.lower_bound, bound.lower_bound);
  known.nodes += bound.nodes;
  known.seconds += bound.seconds;
  known.method = bound.method;
  Output out = solution_output(known, metric, info, true);
  out.stopped = s.run.stop_error();
  return out;
}

// The net as an SVG: U above F, then L F R B in a row, D below F; stickers coloured by the
// face their colour belongs to (the centres say which).
std::string net_svg(const std::string& facelets) {
  static constexpr const char* FILL[6] = {"#ffffff", "#d0021b", "#2ea043",
                                          "#ffd500", "#ff8c00", "#1f5fd6"};
  static constexpr int ORIGIN[6][2] = {{3, 0}, {6, 3}, {3, 3}, {3, 6}, {0, 3}, {9, 3}};
  constexpr int CELL = 30;
  std::map<char, int> face_of;
  for (int f = 0; f < 6; ++f) face_of.emplace(facelets[f * 9 + 4], f);
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} "
      "{}\">\n",
      12 * CELL + 2, 9 * CELL + 2, 12 * CELL + 2, 9 * CELL + 2);
  for (int f = 0; f < 6; ++f) {
    for (int i = 0; i < 9; ++i) {
      const int x = (ORIGIN[f][0] + i % 3) * CELL + 1, y = (ORIGIN[f][1] + i / 3) * CELL + 1;
      const char c = facelets[f * 9 + i];
      const auto it = face_of.find(c);
      svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#000\" "
          "stroke-width=\"2\"><title>{}{}: {}</title></rect>\n",
          x, y, CELL, CELL, it == face_of.end() ? "#888888" : FILL[it->second], FACE_NAMES[f],
          i + 1, c);
    }
  }
  return svg + "</svg>\n";
}

std::string net_text(const std::string& f) {
  auto row = [&](int face, int r) { return f.substr(face * 9 + r * 3, 3); };
  std::string out;
  for (int r = 0; r < 3; ++r) out += "    " + row(0, r) + "\n";
  for (int r = 0; r < 3; ++r) {
    out += row(4, r) + " " + row(2, r) + " " + row(1, r) + " " + row(5, r) + "\n";
  }
  for (int r = 0; r < 3; ++r) out += "    " + row(3, r) + "\n";
  return out;
}

Result<Output> show_command(const Request& q, Session&) {
  std::string facelets;
  if (q.has("moves")) {
    auto moves = parse_moves(q.string("moves"));
    if (!moves) return moves.error();
    facelets = facelets_of(moves_perm(*moves));
  } else if (q.has("facelets")) {
    auto reading = read_facelets(q.string("facelets"));
    if (!reading) return reading.error();
    for (char ch : q.string("facelets")) {
      if (!std::isspace(static_cast<unsigned char>(ch))) facelets += ch;
    }
  } else {
    facelets = solved_facelets();
  }
  Output out;
  out.json = {{"facelets", facelets}};
  out.text = net_text(facelets);
  if (q.has("svg")) out.artifacts.push_back({"svg", net_svg(facelets), "cube net (SVG)"});
  return out;
}

Result<Output> scramble_command(const Request& q, Session& s) {
  const std::uint64_t seed = q.unsigned_integer("seed");
  Rng rng(seed);
  const CubieState state = random_state(rng);
  auto tables = obtain_tables(s, nullptr);
  if (!tables) return tables.error();
  // A sequence producing the state: the inverse of a solution of the state.
  TwoPhaseOptions o;
  o.max_length = 21;
  auto sol = solve_two_phase(**tables, state, o, s.run);
  if (!sol) return sol.error();
  std::vector<CubeMove> scramble(sol->moves.rbegin(), sol->moves.rend());
  for (auto& m : scramble) m.turns = 4 - m.turns;
  if (!(*from_sticker_perm(moves_perm(scramble)) == state)) {
    return make_error("internal: the scramble does not produce the state", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  Output out;
  out.json = {{"facelets", to_facelets(state)},
              {"moves", moves_json(scramble)},
              {"scramble", format_moves(scramble)},
              {"length", scramble.size()},
              {"seed", seed},
              {"verified", true}};
  out.text = format_moves(scramble) + "\n" + to_facelets(state) + "\n";
  return out;
}

Result<Output> cube2_solve_command(const Request& q, Session& s) {
  const std::string facelets = q.string("facelets");
  auto reading = cube2::read_facelets(facelets);
  if (!reading) return reading.error();
  if (!reading->valid) {
    std::string all;
    for (const auto& p : reading->problems) all += (all.empty() ? "" : "; ") + p;
    return make_error("unsolvable: " + all, facelets, Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  TableReport report;
  auto table = cube2::distance_table(s.tables, s.run, &report);
  if (!table) return table.error();
  auto sol = cube2::solve(**table, facelets);
  if (!sol) return sol.error();
  Output out;
  out.json = {{"moves", moves_json(sol->moves)},
              {"length", sol->moves.size()},
              {"optimal", true},
              {"verified", sol->verified},
              {"metric", "htm"}};
  out.text =
      fmt::format("{}\n{} moves (half-turn metric), optimal, replayed: solves the cube\n",
                  sol->moves.empty() ? std::string("(already solved)") : format_moves(sol->moves),
                  sol->moves.size());
  return out;
}

// The superflip as 20 face turns: an optimal solve of it runs for hours with the phase-1 table.
constexpr const char* SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

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

Status check_cube_budget(const Request& q, bool optimal) {
  if (!q.has("budget")) return Ok{};
  if (optimal) {
    return make_error(
        "--budget is the two-phase solver's time to look for shorter solutions: --optimal "
        "answers the shortest (bound it with the global --time-limit)");
  }
  return check_time_limit(q.number("budget"), "--budget");
}

namespace {
// One optimal table of `bytes` into the options: checked against the budget beside the other
// tables first, then obtained (built once, or loaded), its time, size and report into `info`.
template <class Obtain, class Keep>
Status attach_table(Session& s, SolverTablesInfo& info, std::uint64_t bytes,
                    const std::string& name, Obtain obtain, Keep keep) {
  Stopwatch clock;
  TableReport report;
  if (auto ok =
          s.run.check_memory(info.bytes + bytes, "the optimal solver's tables with the " + name);
      !ok) {
    return ok.error();
  }
  auto table = obtain(report);
  if (!table) return table.error();
  info.seconds += clock.seconds();
  info.bytes += bytes;
  info.reports.push_back(report);
  keep(*table);
  return Ok{};
}
// The big table of slice order `order` into the options.
Status attach_big_table(Session& s, const SolverTables& tables, SolverTablesInfo& info,
                        OptimalOptions& options, int order) {
  return attach_table(
      s, info, optimal_table_bytes(order), optimal_table_name(order),
      [&](TableReport& report) { return optimal_table(s.tables, tables, s.run, &report, order); },
      [&](std::shared_ptr<const OptimalTable> t) { options.table = std::move(t); });
}
}  // namespace

Status attach_optimal_table(const Request& q, Session& s, const SolverTables& tables,
                            SolverTablesInfo& info, OptimalOptions& options) {
  const std::uint64_t budget = s.run.memory_budget();
  const std::uint64_t room = budget > info.bytes ? budget - info.bytes : 0;
  if (q.flag("h48")) {
    // `bench cube --h48`: the H48 tables whatever their speed, h7 or with --memory the largest
    // that fits (below h7, refused with its size).
    int k = q.has("memory") ? h48_table_k_for(room) : H48_TABLE_K;
    if (k == 0) k = H48_TABLE_KS.front();
    return attach_table(
        s, info, h48_tables_bytes(k), h48_table_name(k),
        [&](TableReport& report) { return h48_tables(s.tables, tables, s.run, &report, k); },
        [&](std::shared_ptr<const H48Tables> t) { options.h48 = std::move(t); });
  }
  if (!q.has("memory") || q.unsigned_integer("memory") < OPTIMAL_TABLE_MIN_MEMORY_MB) return Ok{};
  // The largest big table that fits the budget beside the other tables (the budget is --memory
  // within the front end's). Not an H48 table, though faster on random cubes: their values stop
  // at 12, so at 19-20 moves the search's top levels go unpruned (the superflip did not finish
  // in 15 minutes with h9; docs/cube.md).
  return attach_big_table(s, tables, info, options, std::max(1, optimal_table_order_for(room)));
}

Status attach_todays_table(Session& s, const SolverTables& tables, SolverTablesInfo& info,
                           OptimalOptions& options) {
  return attach_big_table(s, tables, info, options, 1);
}

std::optional<Result<Word>> cube_group_word(const PermGroup& g, const Perm& x, Session& s) {
  // Step 1. Recognise the cube group: generators on GAP's 48 stickers, each a face turn, every
  // face present as a quarter turn (six face quarter turns generate the whole cube group).
  if (g.degree() > 48 || x.largest_moved_point() > 48) return std::nullopt;
  std::array<int, 6> generator{-1, -1, -1, -1, -1, -1}, power{};
  for (std::size_t i = 0; i < g.generators().size(); ++i) {
    const Perm p = from_gap(g.generators()[i].extended(48));
    bool matched = false;
    for (int f = 0; f < 6 && !matched; ++f) {
      const Perm q = move_perm(std::string(1, FACE_NAMES[f]));
      for (int j = 1; j <= 3 && !matched; ++j) {
        if (p == q.pow(j)) {
          matched = true;
          if (j != 2 && generator[f] < 0) generator[f] = static_cast<int>(i), power[f] = j;
        }
      }
    }
    if (!matched) return std::nullopt;
  }
  for (int f = 0; f < 6; ++f) {
    if (generator[f] < 0) return std::nullopt;
  }
  auto state = from_sticker_perm(from_gap(x.extended(48)));
  if (!state) return std::nullopt;  // not a cube position: the group core says why
  // Step 2. Solve (quarter-turn metric: a letter is a quarter turn), then invert: x = S^-1.
  auto tables = solver_tables(s.tables, s.run);
  if (!tables) return Result<Word>(tables.error());
  TwoPhaseOptions o;
  o.metric = Metric::Qtm;
  auto sol = solve_two_phase(**tables, *state, o, s.run);
  if (!sol) return Result<Word>(sol.error());
  Word word;
  for (auto it = sol->moves.rbegin(); it != sol->moves.rend(); ++it) {
    const int f = static_cast<int>(std::string_view(FACE_NAMES).find(it->name[0]));
    const int k = 4 - it->turns;  // the inverse turn
    const auto gen = static_cast<std::size_t>(generator[f]);
    if (k == 2) {
      word.push_back({gen, 1});
      word.push_back({gen, 1});
    } else {
      word.push_back({gen, (k == power[f]) ? 1 : -1});
    }
  }
  if (!(g.evaluate(word) == x)) {
    return Result<Word>(make_error("internal: the cube solver's word does not multiply back", {},
                                   Error::NO_POSITION, ErrorKind::Internal));
  }
  return Result<Word>(std::move(word));
}

namespace {

// The moves of `cube apply` and `cube2 apply` (an option; formerly positional).
Param apply_moves_param() {
  return formerly_positional(required(
      option("moves", ParamType::String, "Moves as one quoted string, e.g. \"R U R' U'\"")));
}

}  // namespace

void register_cube(Registry& r) {
  r.add_family("cube", "Rubik's cube: facelets, cubies, solvability, group order");

  r.add(
      cheap({"cube",
             "check",
             "Is this 54-sticker facelet string (URFDLB order) a solvable cube? Names every "
             "failing condition",
             {positional("facelets", ParamType::String, "Facelet string, e.g. UUUUUUUUURRR...BBB")},
             check_command},
            {{{"facelets", "UUU"}}, {{"facelets", 7}}}));

  r.add(cheap({"cube",
               "apply",
               "Apply a move sequence (Singmaster, M E S, x y z, wide)",
               {apply_moves_param(),
                option("start", ParamType::String, "Start facelet string (default: solved)")},
               apply_command},
              {{{"moves", "R Q"}}, {{"moves", "R"}, {"start", "UUU"}}}));

  r.add(
      cheap({"cube",
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
             }},
            {{{"generators", 6}}}));

  Command solve{
      "cube",
      "solve",
      "Solve a cube: two-phase (Kociemba) in milliseconds, or --optimal (IDA*); replayed",
      {positional("facelets", ParamType::String, "Facelet string (URFDLB order)", false),
       option("moves", ParamType::String, "Solve the position these moves make from solved"),
       flag("optimal", "Prove optimality (IDA*; seconds to minutes for a random cube)"),
       with_range(option("max-length", ParamType::Unsigned,
                         "At most N moves (default 20, God's number; 26 with --metric qtm): the "
                         "first such solution, or with --optimal the shortest; IDA* proves when "
                         "there is none"),
                  0, 40),
       option("budget", ParamType::Number,
              "Seconds to look for shorter solutions once one within --max-length is found "
              "(default 0.01 without --max-length, 0 with it; the global --time-limit stops "
              "everything)"),
       with_choices(option("metric", ParamType::String, "Length metric: htm or qtm", "htm"),
                    {"htm", "qtm"}),
       option("memory", ParamType::Unsigned,
              "With --optimal: most MB of tables to use (at least 85; from 2600 the largest big "
              "table that fits: 2.3 GiB, built once in about 5 minutes, makes random cubes take "
              "seconds, not minutes; 4.6, 6.9 and 13.8 GiB ones prune more)"),
       option("threads", ParamType::Unsigned,
              "With --optimal: threads (default: every hardware thread; same answer)")},
      solve_command};
  solve.long_running = true;
  r.add(expensive(std::move(solve), {{"moves", SUPERFLIP}, {"optimal", true}},
                  {{{"facelets", "UUU"}},
                   {{"moves", "R U"}, {"budget", 0}},
                   {{"moves", "R U"}, {"budget", -1}},
                   {{"moves", "R U"}, {"optimal", true}, {"budget", 1}},
                   {{"moves", "R U"}, {"max-length", 41}}}));

  r.add(
      cheap({"cube",
             "show",
             "The cube's net as text, and as an SVG picture with --svg",
             {positional("facelets", ParamType::String, "Facelet string (default: solved)", false),
              option("moves", ParamType::String, "Show the position these moves make from solved"),
              option("svg", ParamType::OutputPath, "Write the net as an SVG picture")},
             show_command},
            {{{"moves", "R Q"}}, {{"facelets", "UUU"}}}));

  // Expensive for its first use (the 70 MB phase-1 table is built, about 11 s; the conformance
  // suite's table store starts cold, so that is the hard example); milliseconds afterwards.
  r.add(
      expensive({"cube",
                 "scramble",
                 "A uniformly random position and a move sequence that makes it (the inverse of a "
                 "two-phase solution, at most 21 moves)",
                 {option("seed", ParamType::Unsigned, "Random seed", 1)},
                 scramble_command},
                nlohmann::json::object(), {{{"seed", -1}}}));

  r.add_family("cube2", "2x2x2 cube: optimal solutions from a full distance table");
  // The distance table (3,674,160 positions) is built on first use in 0.1 s: bounded small work.
  r.add(cheap({"cube2",
               "solve",
               "Optimal solution of a 2x2x2 (24 stickers, URFDLB order, 4 a face; any orientation)",
               {positional("facelets", ParamType::String, "24-sticker facelet string")},
               cube2_solve_command},
              {{{"facelets", "UUU"}}}));
  r.add(cheap({"cube2",
               "apply",
               "Apply moves to a 2x2x2 (default start: solved, UUUURRRRFFFFDDDDLLLLBBBB)",
               {apply_moves_param(),
                option("start", ParamType::String, "Start facelet string (24 stickers)")},
               [](const Request& q, Session&) -> Result<Output> {
                 auto moves = parse_moves(q.string("moves"));
                 if (!moves) return moves.error();
                 const std::string start =
                     q.has("start") ? q.string("start") : std::string("UUUURRRRFFFFDDDDLLLLBBBB");
                 auto f = cube2::apply_moves(start, *moves);
                 if (!f) return f.error();
                 Output out;
                 out.json = {{"facelets", *f}, {"moves", format_moves(*moves)}};
                 out.text = *f + "\n";
                 return out;
               }},
              {{{"moves", "R Q"}}, {{"moves", "R"}, {"start", "UUU"}}}));

  r.add(
      cheap({"cube",
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
             }},
            {{{"seed", -1}}, {{"seed", "x"}}}));

  r.add_demo("cube", demo_cube);
}

}  // namespace permuzzle::api
