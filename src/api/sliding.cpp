// `sliding ...`: sliding puzzles (8-puzzle, 15-puzzle, any r x c up to 25 cells). The interactive
// `sliding play` stays in the CLI (apps/cli/play_sliding.cpp); the benchmarks on Korf's instances
// are in sliding_bench.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <optional>

#include "common.hpp"
#include "permuzzle/puzzles/sliding/bfs.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/bounds.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"
#include "permuzzle/puzzles/sliding/solver.hpp"
#include "sliding_common.hpp"

namespace permuzzle::api {

using namespace permuzzle::sliding;

namespace sliding_detail {

sliding::PdbOptions sliding_pdb_options(const Session& s, const std::string& partition,
                                        unsigned threads, BoardSize size) {
  PdbOptions po;
  po.tables = &s.tables;
  po.partition = partition;
  po.threads = static_cast<int>(threads);
  po.search_threads = static_cast<int>(threads);
  po.run = &s.run;
  // Before the first table is built (not loaded), say once what will be built, how big it is
  // and where it goes: the 7-8 tables take 1.7 GB of memory and about half a minute.
  auto announced = std::make_shared<std::atomic<bool>>(false);
  const RunContext run = s.run;
  const std::string dir = s.tables.dir();
  po.on_table_progress = [run, dir, size, partition, announced](const std::string& what,
                                                                double fraction) {
    const bool building = what.rfind("building", 0) == 0 || what.rfind("rebuilding", 0) == 0;
    if (building && !announced->exchange(true)) {
      std::string line;
      if (auto cost = pdb_table_cost(size, partition)) {
        line = fmt::format(
            "building the {} pattern tables for {} ({:.0f} MB of tables, about {:.1f} GB of "
            "memory while building; {})",
            cost->partition, to_string(size), cost->table_bytes / 1e6, cost->build_peak_bytes / 1e9,
            dir.empty() ? "in memory only, not saved (--tables none)" : "once, cached in " + dir);
      } else {
        line = "building pattern tables for " + to_string(size);
      }
      run.report({"", 0, 0, line});
    }
    if (fraction >= 1) {
      run.report({"", 0, 0, what});
    } else {
      run.report({"tables", static_cast<std::uint64_t>(100 * fraction), 100,
                  fmt::format("{} {:.0f}%", what, 100 * fraction)});
    }
  };
  return po;
}

Status check_pdb_memory(const Session& s, BoardSize size, const std::string& partition) {
  auto cost = pdb_table_cost(size, partition);
  if (!cost) return Ok{};  // the solver says what is wrong with the board or the partition
  return s.run.check_memory(
      cost->table_bytes, fmt::format("the {} {} pattern tables", to_string(size), cost->partition));
}

}  // namespace sliding_detail

namespace {

using namespace sliding_detail;

bool has_pdb(BoardSize size) {
  return !pdb_partitions(size).empty();
}

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : " ") + p;
  return s;
}

// A board, a goal and (optionally) a position, from the common parameters.
struct Setup {
  BoardSize size;
  Position goal;
  std::string goal_name;
  Position position;
  std::string position_text;
};

Result<Setup> setup(const Request& q, bool need_position) {
  Setup s;
  std::optional<BoardSize> size;
  if (q.has("size")) {
    auto sz = parse_board_size(q.string("size"));
    if (!sz) {
      Error e = sz.error();
      e.message = "--size: " + e.message;
      return e;
    }
    size = *sz;
  }
  // `apply` takes the position as one string, the other verbs as words joined by spaces.
  const bool one_string = q.has("position") && q.json().at("position").is_string();
  s.position_text = one_string ? q.string("position") : joined(q.strings("position"));
  if (need_position || !s.position_text.empty()) {
    if (s.position_text.empty()) return make_error("missing position: give the tiles row by row");
    BoardSize inferred;
    auto p = parse_position(s.position_text, size, &inferred);
    if (!p) return p.error();
    s.position = *p;
    size = inferred;
  }
  s.size = size.value_or(BoardSize{4, 4});
  const std::string goal = q.string("goal");
  auto g = parse_goal(goal, s.size);
  if (!g) return g.error();
  s.goal = *g;
  s.goal_name = goal.empty() ? "standard" : goal;
  return s;
}

nlohmann::json position_json(const Position& p) {
  nlohmann::json j = nlohmann::json::array();
  for (int v : p) j.push_back(v);
  return j;
}

nlohmann::json directions_json(const std::vector<Direction>& moves) {
  nlohmann::json j = nlohmann::json::array();
  for (Direction d : moves) j.push_back(std::string(1, direction_letter(d)));
  return j;
}

// Threads for table building and pattern-database search: --threads, else the run context's
// (every hardware thread unless the front end says otherwise).
unsigned threads_of(const Request& q, const Session& s) {
  return q.has("threads") ? static_cast<unsigned>(q.unsigned_integer("threads")) : s.run.threads();
}

// The heuristic "auto" stands for: pattern databases where they exist (4x4, 5x5) unless the
// search is bidirectional, linear conflict otherwise.
Result<std::string> choose_heuristic(const std::string& asked, BoardSize size, bool bidirectional) {
  std::string heuristic = asked;
  if (heuristic == "auto" || heuristic == "best") {
    heuristic = has_pdb(size) && !bidirectional ? "pdb" : "linear-conflict";
  }
  if (heuristic == "pdb" && !has_pdb(size)) {
    return make_error(
        "--heuristic pdb: pattern databases exist for 4x4 and 5x5 only; use "
        "linear-conflict or manhattan",
        asked);
  }
  if (heuristic == "pdb" && bidirectional) {
    return make_error("--bidirectional runs with linear-conflict or manhattan, not pdb", asked);
  }
  return heuristic;
}

Result<Output> run_solve(const Request& q, Session& session) {
  auto s = setup(q, true);
  if (!s) return s.error();
  const bool bidirectional = q.flag("bidirectional");
  // Step 1. Which bound: pattern databases on 4x4 and 5x5 unless told otherwise.
  auto heuristic = choose_heuristic(q.string("heuristic"), s->size, bidirectional);
  if (!heuristic) return heuristic.error();
  // The largest bound the search has reported ("no solution shorter than N"), for a stopped
  // answer.
  std::atomic<int> proven{-1};
  std::atomic<std::uint64_t> searched{0};
  auto on_progress = [&session, &proven, &searched](const SearchProgress& p) {
    if (p.note.rfind("backward", 0) != 0) {
      if (p.bound > proven.load()) proven = p.bound;
      searched = p.nodes;
    }
    if (p.note.rfind("backward", 0) == 0) {
      session.note(
          fmt::format("{}  ({} nodes, {:.2f} s)", p.note, with_commas(p.nodes), p.seconds));
    } else {
      session.note(fmt::format("no solution shorter than {} moves  [{}]  ({} nodes, {:.2f} s)",
                               p.bound, p.note, with_commas(p.nodes), p.seconds));
    }
  };

  // Step 2. Search. The solver checks solvability (before any table is built) and replays its
  // solution from the start before returning it: neither is repeated here.
  Result<SolveResult> r = [&]() -> Result<SolveResult> {
    if (*heuristic == "pdb") {
      if (auto ok = check_pdb_memory(session, s->size, q.string("partition")); !ok) {
        return ok.error();
      }
      PdbOptions po =
          sliding_pdb_options(session, q.string("partition"), threads_of(q, session), s->size);
      po.on_progress = on_progress;
      return solve_with_pdb(s->size, s->position, s->goal, po);
    }
    SolveOptions o;
    o.heuristic = *heuristic == "manhattan" ? Heuristic::Manhattan : Heuristic::LinearConflict;
    o.last_move = !q.flag("no-last-move");
    o.bidirectional = bidirectional;
    o.perimeter_states = q.unsigned_integer("perimeter-states");
    o.max_nodes = q.unsigned_integer("max-nodes");
    o.on_progress = on_progress;
    o.run = &session.run;
    return solve(s->size, s->position, s->goal, o);
  }();
  if (!r && session.run.should_stop()) {
    // Stopped: no solution yet, the bound proven so far.
    Output out;
    out.json = {{"optimal", false},
                {"complete", false},
                {"lower_bound",
                 proven.load() < 0 ? nlohmann::json(nullptr) : nlohmann::json(proven.load())},
                {"nodes", searched.load()},
                {"heuristic", *heuristic},
                {"bidirectional", bidirectional},
                {"size", to_string(s->size)},
                {"start", position_json(s->position)},
                {"goal", position_json(s->goal)}};
    out.text = proven.load() < 0
                   ? std::string("stopped before the search began\n")
                   : fmt::format("stopped: no solution shorter than {} moves ({} nodes)\n",
                                 proven.load(), with_commas(searched.load()));
    // The solver's own reason when it has one (a table still being built in the background
    // says so, with its progress), else the run's.
    out.stopped =
        r.error().kind == ErrorKind::LimitExceeded || r.error().kind == ErrorKind::Cancelled
            ? r.error()
            : session.run.stop_error();
    return out;
  }
  if (!r) return r.error();
  BoundReport b = compute_bounds(s->size, s->position, s->goal);
  Output out;
  out.text = fmt::format("{} board, goal {}:\n{}", to_string(s->size), s->goal_name,
                         format_board(s->size, s->position));
  out.text += fmt::format("optimal solution: {} moves (linear-conflict bound of the start: {})\n",
                          r->moves.size(), b.best());
  out.text += fmt::format("  tiles:      {}\n  directions: {}\n", format_tiles(r->tiles),
                          format_directions(r->moves));
  out.text += fmt::format("nodes: {}", with_commas(r->nodes));
  if (bidirectional) {
    out.text += fmt::format(" (forward {}, backward {})", with_commas(r->nodes_forward),
                            with_commas(r->nodes_backward));
  }
  out.text += fmt::format(
      "   time: {:.3f} s\nmethod: {}\nverified: replayed from the start, "
      "reaches the goal\n",
      r->seconds, r->method);
  nlohmann::json tiles = nlohmann::json::array();
  for (int t : r->tiles) tiles.push_back(t);
  out.json = {{"length", r->moves.size()},
              {"moves", tiles},
              {"directions", directions_json(r->moves)},
              {"optimal", r->optimal},
              {"nodes", r->nodes},
              {"nodes_forward", r->nodes_forward},
              {"nodes_backward", r->nodes_backward},
              {"seconds", r->seconds},
              {"method", r->method},
              {"heuristic", r->heuristic},
              {"bidirectional", bidirectional},
              {"initial_bound_linear_conflict", b.best()},
              {"size", to_string(s->size)},
              {"start", position_json(s->position)},
              {"goal", position_json(s->goal)},
              // Every solver replays its solution from the start before returning it.
              {"verified", true}};
  return out;
}

Result<Output> run_check(const Request& q, Session&) {
  auto s = setup(q, true);
  if (!s) return s.error();
  Solvability v = solvability(s->size, s->position, s->goal);
  Output out;
  out.text = fmt::format("{}{}: {}\n", format_board(s->size, s->position),
                         v.solvable ? "solvable" : "NOT solvable", v.reason);
  out.json = {{"solvable", v.solvable},
              {"inversions", v.inversions},
              {"goal_inversions", v.goal_inversions},
              {"blank_row", v.blank_row + 1},
              {"goal_blank_row", v.goal_blank_row + 1},
              {"even_columns", v.even_columns},
              {"parity", v.parity},
              {"goal_parity", v.goal_parity},
              {"reason", v.reason},
              {"size", to_string(s->size)}};
  return out;
}

Result<Output> run_bound(const Request& q, Session& session) {
  auto s = setup(q, true);
  if (!s) return s.error();
  // One solvability check: pdb_bound's (before any table is built), else this one.
  const bool use_pdb = has_pdb(s->size) && !q.flag("no-pdb");
  if (!use_pdb) {
    if (auto ok = check_solvable(s->size, s->position, s->goal); !ok) return ok.error();
  }
  BoundReport b = compute_bounds(s->size, s->position, s->goal);
  std::string per_tile;
  for (int t = 1; t < s->size.cells(); ++t) {
    if (b.manhattan_per_tile[t]) per_tile += fmt::format(" {}:{}", t, b.manhattan_per_tile[t]);
  }
  auto lines = [](const std::vector<int>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i]) out += fmt::format(" {}:+{}", i + 1, v[i]);
    }
    return out.empty() ? std::string(" none") : out;
  };
  Output out;
  out.text = format_board(s->size, s->position);
  out.text +=
      fmt::format("manhattan:        {:>3}   per tile (tile:moves){}\n", b.manhattan, per_tile);
  out.text += fmt::format("linear conflict:  {:>3}   = manhattan {} + rows{} + columns{}\n",
                          b.linear_conflict_bound(), b.manhattan, lines(b.row_conflicts),
                          lines(b.col_conflicts));
  out.text += fmt::format("last move:        {:>3}   = manhattan {} + {}\n", b.last_move_bound(),
                          b.manhattan, b.last_move);
  out.text += fmt::format("best (lc + lm):   {:>3}   = linear conflict {} + last move {}\n",
                          b.best(), b.linear_conflict_bound(), b.last_move_with_lc);
  nlohmann::json pdb_json = nullptr;
  if (use_pdb) {
    if (auto ok = check_pdb_memory(session, s->size, q.string("partition")); !ok) {
      return ok.error();
    }
    auto pb = pdb_bound(
        s->size, s->position, s->goal,
        sliding_pdb_options(session, q.string("partition"), session.run.threads(), s->size));
    if (!pb) return pb.error();
    std::string parts;
    for (std::size_t i = 0; i < pb->parts.size(); ++i) {
      parts += (i ? " + " : "") + std::to_string(pb->parts[i]);
    }
    out.text += fmt::format(
        "pattern database: {:>3}   = {} (additive {}, best of direct and "
        "reflected lookup)\n",
        pb->total, parts, pb->partition);
    pdb_json = {{"total", pb->total}, {"parts", pb->parts}, {"partition", pb->partition}};
  }
  out.json = {{"manhattan", b.manhattan},
              {"pdb", pdb_json},
              {"manhattan_per_tile", b.manhattan_per_tile},
              {"linear_conflict", b.linear_conflict_bound()},
              {"linear_conflict_extra", b.linear_conflict},
              {"row_conflicts", b.row_conflicts},
              {"column_conflicts", b.col_conflicts},
              {"last_move", b.last_move_bound()},
              {"last_move_extra", b.last_move},
              {"last_move_extra_with_linear_conflict", b.last_move_with_lc},
              {"best", b.best()},
              {"size", to_string(s->size)}};
  return out;
}

Result<Output> run_apply(const Request& q, Session&) {
  auto s = setup(q, true);
  if (!s) return s.error();
  Position p = s->position;
  auto m = apply_moves(s->size, p, q.string("moves"));
  if (!m) return m.error();
  bool solved = p == s->goal;
  Output out;
  out.text = fmt::format("{}after {} moves (tiles: {}; directions: {}){}\n",
                         format_board(s->size, p), m->tiles.size(), format_tiles(m->tiles),
                         format_directions(m->directions), solved ? " — solved" : "");
  out.json = {{"position", position_json(p)},
              {"moves", m->tiles},
              {"directions", directions_json(m->directions)},
              {"count", m->tiles.size()},
              {"solved", solved},
              {"size", to_string(s->size)}};
  return out;
}

Result<Output> run_random(const Request& q, Session&) {
  auto s = setup(q, false);
  if (!s) return s.error();
  const std::uint64_t count = q.unsigned_integer("count");
  const std::uint64_t seed = q.unsigned_integer("seed");
  SplitMixRng rng(seed);
  Output out;
  nlohmann::json list = nlohmann::json::array();
  for (std::uint64_t i = 0; i < count; ++i) {
    Position p = random_position(s->size, s->goal, rng);
    out.text += (count == 1 ? format_board(s->size, p) : "") + format_grid_line(s->size, p) + "\n";
    list.push_back(position_json(p));
  }
  out.json = {{"size", to_string(s->size)}, {"seed", seed}, {"positions", list}};
  if (count == 1) out.json["position"] = list[0];
  return out;
}

Result<Output> run_bfs(const Request& q, Session& session) {
  auto sz = parse_board_size(q.string("size"));
  if (!sz) return sz.error();
  const std::string goal = q.string("goal");
  auto g = parse_goal(goal, *sz);
  if (!g) return g.error();
  BfsOptions o;
  o.antipodes_limit = static_cast<int>(q.unsigned_integer("antipodes"));
  o.count_all_components = !q.flag("reachable-only");
  o.on_layer = [&session](int d, std::uint64_t layer, std::uint64_t total) {
    session.run.report({"bfs", static_cast<std::uint64_t>(d), 0,
                        fmt::format("distance {}: {} positions ({} so far)", d, with_commas(layer),
                                    with_commas(total))});
  };
  const RunContext run = with_threads(q, session);
  o.run = &run;
  if (q.has("checkpoint")) o.checkpoint_dir = q.string("checkpoint");
  o.resume = q.flag("resume");
  const std::string symmetry = q.string("symmetry");
  o.symmetry = symmetry == "none"   ? SymmetryMode::None
               : symmetry == "auto" ? SymmetryMode::Auto
                                    : SymmetryMode::On;
  auto r = bfs(*sz, *g, o);
  if (!r) return r.error();
  Output out;
  if (!r->complete) {
    // Stopped: the layers finished so far.
    out.json = {{"size", to_string(*sz)},          {"complete", false},
                {"histogram", r->histogram},       {"states", r->states},
                {"symmetries", r->symmetries},     {"classes", r->classes},
                {"arrangements", r->arrangements}, {"seconds", r->seconds}};
    add_distribution_json(out.json, r->distribution);
    if (r->resumed_from >= 0) out.json["resumed_from"] = r->resumed_from;
    out.text = fmt::format(
        "{} sliding puzzle, goal {}: stopped after {} complete layers ({} positions within "
        "distance {})\n",
        to_string(*sz), goal, r->histogram.size(), with_commas(r->states), r->histogram.size() - 1);
    for (std::size_t d = 0; d < r->histogram.size(); ++d) {
      out.text += fmt::format("{:>8}  {:>13}\n", d, with_commas(r->histogram[d]));
    }
    out.stopped = session.run.stop_error();
    return out;
  }
  std::uint64_t peak = 1;
  for (auto c : r->histogram) peak = std::max(peak, c);
  out.text = fmt::format(
      "{} sliding puzzle, goal {}: breadth-first search of all {} "
      "arrangements\n\ndistance  positions\n",
      to_string(*sz), goal, with_commas(r->arrangements));
  for (std::size_t d = 0; d < r->histogram.size(); ++d) {
    int bar = static_cast<int>(
        40.0 * static_cast<double>(r->histogram[d]) / static_cast<double>(peak) + 0.5);
    out.text += fmt::format("{:>8}  {:>13}  {}\n", d, with_commas(r->histogram[d]),
                            std::string(static_cast<std::size_t>(bar), '#'));
  }
  out.text += fmt::format(
      "\nreachable positions: {}\nGod's number:        {}\nmean distance:       "
      "{:.4f}\nantipodes:           {}\n",
      with_commas(r->states), r->max_distance, r->mean_distance, with_commas(r->antipodes_count));
  for (const auto& p : r->antipodes) out.text += "  " + format_grid_line(*sz, p) + "\n";
  if (r->antipodes_count > r->antipodes.size()) {
    out.text += fmt::format("  ... ({} listed, --antipodes N for more)\n", r->antipodes.size());
  }
  if (r->symmetries > 1) {
    out.text +=
        fmt::format("searched {} classes under {} symmetries (board maps keeping the goal)\n",
                    with_commas(r->classes), r->symmetries);
  }
  std::string sizes;
  for (auto c : r->component_sizes) sizes += (sizes.empty() ? "" : " + ") + with_commas(c);
  out.text += fmt::format(
      "components:          {} ({}; {})\ntime: {:.2f} s, memory {} bytes (2 bits per {} of a "
      "parity class)\n",
      r->components, sizes, r->components_method, r->seconds, with_commas(r->memory_bytes),
      r->symmetries > 1 ? "class index" : "position");
  nlohmann::json antipodes = nlohmann::json::array();
  for (const auto& p : r->antipodes) antipodes.push_back(position_json(p));
  out.json = {{"size", to_string(*sz)},
              {"states", r->states},
              {"arrangements", r->arrangements},
              {"max_distance", r->max_distance},
              {"antipodes_count", r->antipodes_count},
              {"antipodes", antipodes},
              {"histogram", r->histogram},
              {"mean_distance", r->mean_distance},
              {"components", r->components},
              {"component_sizes", r->component_sizes},
              {"components_method", r->components_method},
              {"symmetries", r->symmetries},
              {"classes", r->classes},
              {"seconds", r->seconds}};
  if (r->symmetries > 1) out.json["class_histogram"] = r->class_histogram;
  add_distribution_json(out.json, r->distribution);
  if (r->resumed_from >= 0) out.json["resumed_from"] = r->resumed_from;
  if (q.has("svg"))
    out.artifacts.push_back(
        {"svg",
         distance_chart_svg(fmt::format("{} sliding puzzle: {} positions by distance from the goal "
                                        "(God's number {})",
                                        to_string(*sz), with_commas(r->states), r->max_distance),
                            r->histogram),
         "histogram chart"});
  return out;
}

// Korf & Felner's first 24-puzzle instance (optimal 95 moves): with the Manhattan bound alone
// the search runs for days.
constexpr const char* KORF24_FIRST =
    "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
// A 15-puzzle position (Korf's first instance, to the blank-first goal).
constexpr const char* KORF100_FIRST = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

std::string demo_sliding() {
  std::string out;
  BoardSize s33{3, 3};
  auto r = bfs(s33, standard_goal(s33));
  if (r) {
    out += fmt::format(
        "8-puzzle whole graph: {} reachable positions of {} arrangements, God's "
        "number {}, {} antipodes, {} components ({:.2f} s)\n",
        with_commas(r->states), with_commas(r->arrangements), r->max_distance, r->antipodes_count,
        r->components, r->seconds);
  }
  BoardSize s44{4, 4};
  auto p = parse_position("11 2 12 1 / 6 7 3 8 / 9 5 0 4 / 14 10 13 15", s44);
  if (p) {
    BoundReport b = compute_bounds(s44, *p, standard_goal(s44));
    out += fmt::format(
        "15-puzzle 11 2 12 1 / 6 7 3 8 / 9 5 . 4 / 14 10 13 15: Manhattan {}, "
        "linear conflict {}\n",
        b.manhattan, b.linear_conflict_bound());
  }
  SplitMixRng rng(2026);
  Position q = standard_goal(s44);
  // A 15-puzzle scrambled by 40 random moves (never undoing the previous one), solved optimally.
  int last = -1;
  for (int i = 0; i < 40;) {
    int d = static_cast<int>(rng.below(4));
    if ((d ^ 1) == last) continue;
    if (!apply_direction(s44, q, static_cast<Direction>(d))) continue;
    last = d;
    ++i;
  }
  auto sol = solve(s44, q, standard_goal(s44));
  if (sol) {
    out += fmt::format("15-puzzle {}: optimal {} moves ({}), {} nodes, {:.3f} s, {}\n",
                       format_grid_line(s44, q), sol->moves.size(), format_tiles(sol->tiles),
                       with_commas(sol->nodes), sol->seconds, sol->method);
  }
  return out;
}

}  // namespace

void register_sliding(Registry& r) {
  r.add_family("sliding",
               "Sliding puzzles (8-, 15-, 24-puzzle, any r x c): solve optimally, check, bound, "
               "play, whole-graph BFS");

  const std::string pos_help =
      "Position, row-major numbers with 0 (or r*c) or '.' as the blank; rows may be separated by "
      "'/' (quote it: \"11 2 12 1 / 6 7 3 8 / ...\")";
  auto size_param = [] {
    return option("size", ParamType::String, "Board RxC (default: from the position)");
  };
  auto goal_param = [] {
    return option("goal", ParamType::String,
                  "Goal: standard (blank last), blank-first (Korf: 0 1 2 ...) or an explicit "
                  "arrangement",
                  "standard");
  };
  auto position_param = [&] { return positional("position", ParamType::Strings, pos_help, false); };
  auto partition_param = [](const std::string& help) {
    return option("partition", ParamType::String, help);
  };

  r.add(expensive(
      {"sliding",
       "solve",
       "Optimal solution (IDA*, optionally bidirectional)",
       {size_param(), goal_param(), position_param(),
        with_choices(option("heuristic", ParamType::String,
                            "Lower bound: auto (pattern databases on 4x4 and 5x5, else linear "
                            "conflict), pdb, linear-conflict, manhattan",
                            "auto"),
                     {"auto", "best", "pdb", "linear-conflict", "manhattan"}),
        flag("no-last-move", "Do not add the last-move rule"),
        flag("bidirectional", "Backward breadth-first perimeter + forward IDA* (still optimal)"),
        option("perimeter-states", ParamType::Unsigned,
               "Bidirectional: positions stored around the goal", 1'000'000),
        option("max-nodes", ParamType::Unsigned, "Give up after this many nodes (0 = never)", 0),
        partition_param("Pattern database partition (e.g. 7-8)"),
        with_range(option("threads", ParamType::Unsigned,
                          "Threads for table building and pattern-database search (default: "
                          "every hardware thread; the solution and node count do not depend "
                          "on it)"),
                   1, 64)},
       run_solve,
       true},
      {{"position", {KORF24_FIRST}}, {"goal", "blank-first"}, {"heuristic", "manhattan"}},
      {{{"position", {"1 2 3"}}},
       {{"position", {"1 2 3 4 5 6 7 8 0"}}, {"heuristic", "pdb"}},
       {{"position", {"1 2 3 4 5 6 7 8 0"}}, {"heuristic", "fast"}}}));

  r.add(cheap({"sliding",
               "check",
               "Is the position solvable? (parity rule, with the reason)",
               {size_param(), goal_param(), position_param()},
               run_check},
              {{{"position", {"1 1 2 3"}}}, {{"position", {"1 2 3 0"}}, {"size", "3x3"}}}));

  // Expensive for the pattern tables it may build (4x4 7-8: about 1.7 GB while building).
  r.add(
      expensive({"sliding",
                 "bound",
                 "Lower bounds of a position, with their parts",
                 {size_param(), goal_param(), position_param(),
                  partition_param("Pattern database partition (e.g. 7-8, 5-5-5)"),
                  flag("no-pdb", "Skip the pattern-database bound")},
                 run_bound,
                 true},
                {{"position", {KORF100_FIRST}}, {"goal", "blank-first"}},
                {{{"position", {"x"}}},
                 {{"position", {KORF100_FIRST}}, {"goal", "blank-first"}, {"partition", "9-6"}}}));

  r.add(cheap(
      {"sliding",
       "apply",
       "Apply moves (tiles or U/D/L/R) to a position",
       {option("size", ParamType::String, "Board RxC (default: from the position)"),
        option("goal", ParamType::String, "Goal (to say whether the result is solved)", "standard"),
        positional("position", ParamType::String, pos_help),
        formerly_positional(required(
            option("moves", ParamType::String, "Moves, e.g. \"3 12 1 8\" or \"U L D R\"")))},
       run_apply},
      {{{"position", "1 2 3 4 5 6 7 8 0"}, {"moves", "Q"}},
       {{"position", "1 2"}, {"moves", "U"}}}));

  r.add(cheap(
      {"sliding",
       "random",
       "Uniformly random solvable positions (seeded)",
       {size_param(), goal_param(), option("seed", ParamType::Unsigned, "Random seed", 1),
        with_range(option("count", ParamType::Unsigned, "How many positions", 1), 1, 1'000'000)},
       run_random},
      {{{"count", 0}}, {{"size", "0x3"}}, {{"seed", -1}}}));

  Command bfs_command = distributed(expensive(
      {"sliding",
       "bfs",
       "Whole-graph breadth-first search from the goal (boards up to 16 cells)",
       {formerly_positional(
            required(option("size", ParamType::String, "Board RxC, e.g. 3x3, 2x6, 3x4"))),
        option("goal", ParamType::String, "Goal: standard, blank-first or an arrangement",
               "standard"),
        with_range(option("antipodes", ParamType::Unsigned, "How many antipodes to list", 10), 0,
                   std::numeric_limits<int>::max()),
        option("svg", ParamType::OutputPath, "Write the distance histogram as an SVG bar chart"),
        flag("reachable-only",
             "Search only the goal's component (the other half is its mirror image)"),
        with_choices(option("symmetry", ParamType::String,
                            "on: search classes of positions under the board maps that keep the "
                            "goal (the square's transpose for the standard goal; 2 bits a class "
                            "index, more time a position); none: every position; auto: the "
                            "classes only when the positions' table is over the memory budget",
                            "auto"),
                     {"auto", "on", "none"}),
        threads_option(),
        option("checkpoint", ParamType::HostPath,
               "Directory for a checkpoint after every level (command line only)"),
        flag("resume", "Continue from the last checkpoint in --checkpoint DIR")},
       run_bfs,
       true},
      {{"size", "3x4"}},  // 12!/2 positions per parity class, 60 MB
      {{{"size", "3x"}},
       {{"size", "3x3"}, {"goal", "1 2 3"}},
       {{"size", "2x3"}, {"resume", true}},
       {{"size", "3x3"}, {"symmetry", "all"}}}));
  // The search over classes: 119,752,704 class indices (40 MB), about a minute on two cores.
  bfs_command.other_hard_examples = {
      {{"size", "3x4"}, {"goal", "1 2 3 4 0 5 6 7 8 9 10 11"}, {"symmetry", "on"}}};
  r.add(std::move(bfs_command));

  r.add_demo("sliding", demo_sliding);
  register_sliding_bench(r);
}

}  // namespace permuzzle::api
