// `loopover ...`: rectangular Loopover (rules and notation: spec section 4). `loopover play` is
// interactive and stays in the CLI (apps/cli/play_loopover.cpp).
#include <random>

#include "loopover_common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/fast_solver.hpp"
#include "permuzzle/puzzles/loopover/group_facts.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"

namespace permuzzle::api {

using namespace permuzzle::loopover;

Result<Metric> parse_loopover_metric(const std::string& text) {
  if (text == "stm" || text == "STM") return Metric::Stm;
  if (text == "mtm" || text == "MTM") return Metric::Mtm;
  return make_error(
      "bad metric: expected stm (each one-cell shift counts 1) or mtm (any shift "
      "of one line counts 1)",
      text, 0);
}

const char* loopover_metric_name(Metric m) {
  return m == Metric::Stm ? "stm" : "mtm";
}

Result<OptimalSolver> make_loopover_solver(Session& s, BoardSize size, Metric metric,
                                           const std::string& pattern) {
  OptimalSolverConfig config;
  config.tables = &s.tables;
  config.run = &s.run;
  if (pattern == "auto") {
    config.pattern = PatternChoice::Auto;
  } else if (pattern != "none") {
    return make_error("bad pattern: expected auto or none", pattern, 0);
  }
  auto solver = OptimalSolver::create(size, metric, config);
  if (solver && solver->pattern_db() && !solver->pattern_db()->loaded_from_cache()) {
    const PiecePdb& pdb = *solver->pattern_db();
    s.note(fmt::format("piece pattern database built: {} entries, {:.1f} MB, max {}, {:.1f} s ({})",
                       pdb.entries(), static_cast<double>(pdb.bytes()) / 1e6, pdb.max_distance(),
                       pdb.seconds(), pdb.cache_detail()));
  }
  return solver;
}

namespace {

const char* metric_name(Metric m) {
  return loopover_metric_name(m);
}

struct Common {
  BoardSize size;
  Metric metric = Metric::Stm;
};

// The board size and (when the command has one) the metric of a request.
Result<Common> common(const Request& q) {
  Common c;
  auto size = parse_size(q.string("size"));
  if (!size) return size.error();
  c.size = *size;
  if (q.has("metric")) {
    auto metric = parse_loopover_metric(q.string("metric"));
    if (!metric) return metric.error();
    c.metric = *metric;
  }
  return c;
}

Result<Position> position_arg(BoardSize size, const std::string& text) {
  auto p = parse_position(size, text);
  if (!p) {
    Error e = p.error();
    e.message = "position: " + e.message;
    return e;
  }
  return p;
}

nlohmann::json histogram_json(const std::vector<std::uint64_t>& h) {
  nlohmann::json out = nlohmann::json::array();
  for (auto v : h) out.push_back(v);
  return out;
}

// The fast multi-stage solver (not proven optimal). It checks solvability and verifies its
// solution by replay itself.
Result<Output> fast_solve(Session& s, BoardSize size, Metric metric, const Position& start,
                          bool automatic) {
  FastSolveOptions o;
  o.metric = metric;
  o.tables = &s.tables;
  o.run = &s.run;
  auto r = solve_fast(size, start, o);
  if (!r) return r.error();
  Output out;
  out.text =
      fmt::format("{}\n{} moves ({}), NOT proven optimal ({}{}, {:.3f} s)\n",
                  r->moves.empty() ? std::string("(already solved)") : format_moves(r->moves),
                  r->length, metric_name(metric), r->method,
                  automatic ? "; optimal solving of this size is out of reach" : "", r->seconds);
  out.json = {{"length", r->length},
              {"moves", format_move_list(r->moves)},
              {"optimal", false},
              {"seconds", r->seconds},
              {"metric", metric_name(metric)},
              {"size", format_size(size)},
              {"method", r->method},
              {"verified", true}};
  return out;
}

// An optimal solve (IDA*); the solver verifies its solution by replay before returning it.
Result<Output> optimal_solve(Session& s, BoardSize size, Metric metric, const Position& start,
                             std::uint64_t max_nodes, const std::string& pattern) {
  auto solver = make_loopover_solver(s, size, metric, pattern);
  if (!solver) return solver.error();
  OptimalSolveOptions o;
  o.metric = metric;
  o.max_nodes = max_nodes;
  auto r = solver->solve(start, o, s.run);
  if (!r) {
    Error e = r.error();
    if (!solver->pattern_note().empty())
      e.message += " (searched without the pattern database: " + solver->pattern_note() + ")";
    return e;
  }
  Output out;
  out.text =
      fmt::format("{}\n{} moves ({}), optimal: yes ({} nodes, {:.3f} s)\n",
                  r->moves.empty() ? std::string("(already solved)") : format_moves(r->moves),
                  r->length, metric_name(metric), r->nodes, r->seconds);
  out.json = {{"length", r->length},
              {"moves", format_move_list(r->moves)},
              {"optimal", true},
              {"seconds", r->seconds},
              {"metric", metric_name(metric)},
              {"size", format_size(size)},
              {"nodes", std::to_string(r->nodes)},
              {"initial_bound", r->initial_bound},
              {"tables_seconds", solver->build_seconds()},
              {"verified", true}};
  if (!solver->pattern_note().empty()) {
    out.text += "without the pattern database: " + solver->pattern_note() + "\n";
    out.json["pattern_note"] = solver->pattern_note();
  }
  return out;
}

Result<Output> solve_command(const Request& q, Session& s) {
  auto c = common(q);
  if (!c) return c.error();
  auto start = position_arg(c->size, q.string("position"));
  if (!start) return start.error();
  const bool automatic = prefers_fast_solver(c->size);
  if (q.flag("fast") || automatic) {
    return fast_solve(s, c->size, c->metric, *start, !q.flag("fast"));
  }
  return optimal_solve(s, c->size, c->metric, *start, q.unsigned_integer("max-nodes"),
                       q.string("pattern"));
}

Result<Output> random_command(const Request& q, Session&) {
  auto c = common(q);
  if (!c) return c.error();
  const std::uint64_t seed = q.unsigned_integer("seed");
  Rng rng(seed);
  Output out;
  nlohmann::json list = nlohmann::json::array();
  for (std::uint64_t i = 0; i < q.unsigned_integer("count"); ++i) {
    Position p = random_position(c->size, rng);
    out.text += format_position(p) + "\n";
    list.push_back(format_position(p));
  }
  out.json = {{"size", format_size(c->size)}, {"seed", seed}, {"positions", list}};
  return out;
}

Result<Output> check_command(const Request& q, Session&) {
  auto c = common(q);
  if (!c) return c.error();
  auto p = position_arg(c->size, q.string("position"));
  if (!p) return p.error();
  const bool solvable = is_solvable(c->size, *p);
  const int sign = position_sign(*p);
  Output out;
  out.text =
      format_grid(c->size, *p) +
      fmt::format("{} permutation; {}\n", sign > 0 ? "even" : "odd",
                  solvable ? "solvable" : "NOT solvable: on an odd x odd board every move is even");
  out.json = {{"valid", true},
              {"solvable", solvable},
              {"sign", sign},
              {"solved", is_goal(*p)},
              {"size", format_size(c->size)}};
  return out;
}

Result<Output> bound_command(const Request& q, Session& s) {
  // Step 1: the position, which must be solvable.
  auto c = common(q);
  if (!c) return c.error();
  const std::string position_text = q.string("position");
  auto p = position_arg(c->size, position_text);
  if (!p) return p.error();
  if (!is_solvable(c->size, *p)) {
    return make_error("this position cannot be solved (odd permutation on an odd x odd board)",
                      position_text, Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  // Step 2: the seeds' bound, with its parts.
  SeedsBound sb = seeds_bound(c->size, *p, c->metric);
  Output out;
  out.text = fmt::format(
      "seeds' bound ({}): {}\n  horizontal: column distances {} -> {} row moves\n  vertical:   "
      "row distances {} -> {} column moves\n  lifts:      {} pieces must leave their row, {} "
      "their column; complete rows broken {}, columns broken {} -> +{} moves\n  parity fix: "
      "{}\n",
      metric_name(c->metric), sb.total, sb.horizontal_sum, sb.horizontal, sb.vertical_sum,
      sb.vertical, sb.row_lifts, sb.column_lifts, sb.broken_rows, sb.broken_columns, sb.lift_moves,
      sb.parity_fix);
  out.json = {{"seeds",
               {{"total", sb.total},
                {"horizontal_sum", sb.horizontal_sum},
                {"horizontal", sb.horizontal},
                {"vertical_sum", sb.vertical_sum},
                {"vertical", sb.vertical},
                {"row_lifts", sb.row_lifts},
                {"column_lifts", sb.column_lifts},
                {"broken_rows", sb.broken_rows},
                {"broken_columns", sb.broken_columns},
                {"lift_moves", sb.lift_moves},
                {"parity_fix", sb.parity_fix}}}};
  int best = sb.total;
  // Step 3: the walking distance of the position and of its inverse.
  auto both = WalkingDistanceTable::build_pair(
      c->size, c->metric, WalkingDistanceTable::DEFAULT_MAX_STATES, &s.tables, &s.run);
  // Stopped (or still building in the background): say so, not "too large".
  if (!both && s.run.should_stop()) return both.error();
  if (both) {
    const WalkingDistanceTable* v = &both->vertical;
    const WalkingDistanceTable* h = &both->horizontal;
    Position inv = inverse_position(*p);
    int vp = v->distance(p->data()), hp = h->distance(p->data());
    int vq = v->distance(inv.data()), hq = h->distance(inv.data());
    int wd = std::max(vp + hp, vq + hq);
    best = std::max(best, wd);
    out.text += fmt::format(
        "walking distance: {}\n  position: vertical {} + horizontal {} = {}\n  inverse:  "
        "vertical {} + horizontal {} = {}\n",
        wd, vp, hp, vp + hp, vq, hq, vq + hq);
    out.json["walking_distance"] = {{"total", wd},
                                    {"vertical", vp},
                                    {"horizontal", hp},
                                    {"inverse_vertical", vq},
                                    {"inverse_horizontal", hq}};
  } else {
    out.text += "walking distance: not available on this board (tables too large)\n";
  }
  // Step 4: the piece pattern database, on request.
  const std::string pattern = q.string("pattern");
  if (pattern != "none") {
    auto solver = make_loopover_solver(s, c->size, c->metric, pattern);
    if (!solver) return solver.error();
    if (solver->pattern_db()) {
      const int pb = solver->pattern_bound(*p);
      best = std::max(best, pb);
      out.text += fmt::format("piece pattern database: {} (max over {} probes, {} pieces)\n", pb,
                              solver->probes(), solver->pattern_db()->pieces());
      out.json["pattern"] = {
          {"total", pb}, {"probes", solver->probes()}, {"pieces", solver->pattern_db()->pieces()}};
    } else {
      out.text += "piece pattern database: not available on this board\n";
    }
  }
  // Step 5: when every move is odd, a solution's length has the position's parity.
  if (c->metric == Metric::Stm && c->size.rows % 2 == 0 && c->size.cols % 2 == 0 &&
      best % 2 != (position_sign(*p) < 0 ? 1 : 0)) {
    ++best;
  }
  out.text += fmt::format("best: {}\n", best);
  out.json["best"] = best;
  out.json["metric"] = metric_name(c->metric);
  return out;
}

Result<Output> apply_command(const Request& q, Session&) {
  auto c = common(q);
  if (!c) return c.error();
  Position p = goal_position(c->size);
  if (!q.string("from").empty()) {
    auto from = position_arg(c->size, q.string("from"));
    if (!from) return from.error();
    p = *from;
  }
  auto moves = parse_moves(c->size, q.string("moves"));
  if (!moves) return moves.error();
  apply_moves(c->size, p, *moves);
  const Perm perm = position_to_perm(p);
  Output out;
  out.text = format_grid(c->size, p) +
             fmt::format("position: {}\ncycles:   {}\nmoves:    {} (stm {}, mtm {})\n",
                         format_position(p), perm.to_cycle_string(), moves->size(),
                         sequence_length(c->size, *moves, Metric::Stm),
                         sequence_length(c->size, *moves, Metric::Mtm));
  out.json = {{"position", format_position(p)},
              {"cycles", perm.to_cycle_string()},
              {"solved", is_goal(p)},
              {"stm", sequence_length(c->size, *moves, Metric::Stm)},
              {"mtm", sequence_length(c->size, *moves, Metric::Mtm)}};
  return out;
}

Result<Output> bfs_command(const Request& q, Session& s) {
  auto c = common(q);
  if (!c) return c.error();
  BfsOptions o;
  o.metric = c->metric;
  o.symmetry = q.string("symmetry") == "none" ? SymmetryMode::None : SymmetryMode::Auto;
  o.antipodes = static_cast<std::size_t>(q.unsigned_integer("antipodes"));
  o.run = &s.run;
  // An explicit --threads, else the caller's thread count (every hardware thread by default).
  const std::uint64_t threads = q.has("threads") ? q.unsigned_integer("threads") : s.run.threads();
  o.threads = static_cast<int>(threads);
  o.on_level = [&s](int depth, std::uint64_t count, double seconds) {
    s.note(fmt::format("depth {:2}: {:>12} positions ({:.1f} s)", depth, count, seconds));
  };
  BfsStats known;
  o.partial = &known;
  if (q.has("checkpoint")) o.checkpoint_dir = q.string("checkpoint");
  o.resume = q.flag("resume");
  auto t = analyse(c->size, o);
  if (!t && s.run.should_stop()) {
    // Stopped: the levels finished so far.
    Output out;
    out.json = {{"complete", false},
                {"states", known.states},
                {"symmetries", known.symmetries},
                {"classes", known.classes},
                {"histogram", histogram_json(known.histogram)},
                {"seconds", known.seconds},
                {"table_bytes", known.table_bytes},
                {"metric", metric_name(c->metric)},
                {"size", format_size(c->size)}};
    add_distribution_json(out.json, known.distribution);
    if (known.resumed_from >= 0) out.json["resumed_from"] = known.resumed_from;
    out.text = fmt::format("Loopover {} ({}): stopped after {} complete levels ({} positions)\n",
                           format_size(c->size), metric_name(c->metric), known.histogram.size(),
                           known.states);
    for (std::size_t d = 0; d < known.histogram.size(); ++d) {
      out.text += fmt::format("{:8}  {:>12}\n", d, known.histogram[d]);
    }
    out.stopped = s.run.stop_error();
    return out;
  }
  if (!t) return t.error();
  const BfsStats& st = *t;
  Output out;
  out.text =
      fmt::format("Loopover {} ({}): {} positions, {:.1f} s, table {} MB\n", format_size(c->size),
                  metric_name(c->metric), st.states, st.seconds, st.table_bytes / 1'000'000.0);
  if (st.symmetries > 1) {
    out.text += fmt::format("searched {} classes under {} symmetries\n", st.classes, st.symmetries);
  }
  out.text += "distance  positions\n";
  for (std::size_t d = 0; d < st.histogram.size(); ++d) {
    out.text += fmt::format("{:8}  {:>12}\n", d, st.histogram[d]);
  }
  out.text += fmt::format("God's number: {}\nantipodes:    {}\nmean:         {:.4f}\n",
                          st.max_distance, st.antipodes, st.mean_distance);
  nlohmann::json samples = nlohmann::json::array();
  for (const auto& p : st.sample_antipodes) {
    samples.push_back(format_position(p));
    out.text += "antipode:     " + format_position(p) + "\n";
  }
  out.json = {{"states", st.states},
              {"symmetries", st.symmetries},
              {"classes", st.classes},
              {"max_distance", st.max_distance},
              {"antipodes_count", st.antipodes},
              {"histogram", histogram_json(st.histogram)},
              {"mean_distance", st.mean_distance},
              {"seconds", st.seconds},
              {"table_bytes", st.table_bytes},
              {"metric", metric_name(c->metric)},
              {"size", format_size(c->size)},
              {"sample_antipodes", samples}};
  if (st.symmetries > 1) {
    out.json["class_histogram"] = histogram_json(st.class_histogram);
    out.json["antipode_classes"] = st.antipode_classes;
  }
  add_distribution_json(out.json, st.distribution);
  if (st.resumed_from >= 0) out.json["resumed_from"] = st.resumed_from;
  if (q.has("svg"))
    out.artifacts.push_back(
        {"svg",
         distance_chart_svg(fmt::format("Loopover {} ({}): {} positions by distance from solved "
                                        "(God's number {}, {} antipodes)",
                                        format_size(st.size), metric_name(st.metric),
                                        with_commas(st.states), st.max_distance, st.antipodes),
                            st.histogram),
         "histogram"});
  return out;
}

Result<Output> group_command(const Request& q, Session&) {
  auto c = common(q);
  if (!c) return c.error();
  auto f = group_facts(c->size);
  if (!f) return f.error();
  Output out;
  out.text = fmt::format(
      "Loopover {}: group {} of order {}\n  moves: {}\n  {} = {}{}\n  transposition: {}\n",
      format_size(c->size), f->group, f->order.get_str(),
      f->all_moves_odd ? "all odd" : (f->all_moves_even ? "all even" : "some odd, some even"),
      f->spec_word, f->spec_word_cycles,
      f->spec_word_swaps_1_2 ? " (swaps cells 1 and 2)" : " (does NOT swap cells 1 and 2)",
      f->transposition_word.empty() ? std::string("none (every move is even)")
                                    : f->transposition_word + " = " + f->transposition_cycles);
  out.json = {{"group", f->group},
              {"order", f->order.get_str()},
              {"all_moves_odd", f->all_moves_odd},
              {"all_moves_even", f->all_moves_even},
              {"contains_transposition_1_2", f->contains_transposition_1_2},
              {"spec_word", f->spec_word},
              {"spec_word_cycles", f->spec_word_cycles},
              {"spec_word_swaps_1_2", f->spec_word_swaps_1_2},
              {"transposition_word", f->transposition_word},
              {"transposition_cycles", f->transposition_cycles},
              {"size", format_size(c->size)}};
  return out;
}

Result<Output> symmetries_command(const Request& q, Session&) {
  auto c = common(q);
  if (!c) return c.error();
  auto gens = symmetry_generators(c->size);
  auto group = symmetry_group(c->size);
  Output out;
  out.text =
      fmt::format("Symmetries of the {} board: order {}\n", format_size(c->size), group.size());
  nlohmann::json g = nlohmann::json::array();
  for (const auto& sym : gens) {
    out.text += fmt::format("  {:18} {}\n", sym.name, sym.cells.to_cycle_string());
    g.push_back({{"name", sym.name}, {"perm", sym.cells.to_cycle_string()}});
  }
  out.json = {{"order", group.size()}, {"generators", g}, {"size", format_size(c->size)}};
  return out;
}

std::string demo_loopover() {
  std::string out = "Loopover\n";
  BoardSize s33{3, 3};
  auto t = DistanceTable::build(s33);
  if (t) {
    const auto& st = t->stats();
    out += fmt::format("  3x3 whole graph (STM): {} positions, God's number {}, {} antipodes\n",
                       st.states, st.max_distance, st.antipodes);
  }
  BoardSize s46{4, 6};
  auto three = parse_moves(s46, "3");
  auto minus_b = parse_moves(s46, "-B");
  out += fmt::format("  4x6: `3` = {}, `-B` = {}\n", move_perm(s46, (*three)[0]).to_cycle_string(),
                     move_perm(s46, (*minus_b)[0]).to_cycle_string());
  BoardSize s34{3, 4};
  auto solver = OptimalSolver::create(s34, Metric::Stm);
  if (solver) {
    Rng rng(4);
    Position p = random_position(s34, rng);
    auto r = solver->solve(p);
    if (r) {
      out += fmt::format("  3x4 optimal: {} -> {} ({} moves, {:.3f} s)\n", format_position(p),
                         format_moves(r->moves), r->length, r->seconds);
    }
  }
  return out;
}

// A random 3x5 position (loopover random 3x5 --seed 1): with the walking distance alone
// (--pattern none) its optimal solve runs for minutes, after the tables are built or loaded.
constexpr const char* HARD_3X5 = "1 6 13 4 8 11 15 2 14 10 5 7 12 3 9";

Param size_option() {
  return option("size", ParamType::String, "Board ROWSxCOLS", "4x4");
}
Param size_positional(std::string help = "Board ROWSxCOLS") {
  return formerly_positional(required(option("size", ParamType::String, std::move(help))));
}
Param metric_option() {
  return option("metric", ParamType::String, "stm or mtm", "stm");
}
Param position_positional() {
  return positional("position", ParamType::String, "Tiles row-major, e.g. \"2 1 3 4 ...\"");
}

}  // namespace

void register_loopover(Registry& r) {
  r.add_family("loopover", "Rectangular Loopover: solve, analyse, play");

  r.add(expensive(
      {"loopover",
       "solve",
       "Optimal solution (IDA*), verified by replay",
       {size_option(), metric_option(),
        option("max-nodes", ParamType::Unsigned, "Give up after this many nodes (0 = never)", 0),
        with_choices(option("pattern", ParamType::String,
                            "Piece pattern database: auto (4x4: rows A-B, ~260 MB, built once "
                            "and cached) or none (walking distance only)",
                            "auto"),
                     {"auto", "none"}),
        flag("fast", fmt::format("Fast multi-stage solver (near-optimal, not proven optimal); used "
                                 "automatically on boards with more than {} cells",
                                 AUTO_FAST_CELLS)),
        position_positional()},
       solve_command,
       true},
      {{"size", "3x5"}, {"pattern", "none"}, {"position", HARD_3X5}},
      {{{"size", "4x4"}, {"position", "A B C"}},
       {{"size", "0x4"}, {"position", "A"}},
       {{"size", "3x5"}, {"metric", "htm"}, {"position", HARD_3X5}}}));

  r.add(
      cheap({"loopover",
             "random",
             "Uniformly random solvable positions (seeded)",
             {size_positional(), option("seed", ParamType::Unsigned, "Random seed", 1),
              with_range(option("count", ParamType::Unsigned, "How many positions", 1), 1, 100000)},
             random_command},
            {{{"size", "4x4"}, {"count", 0}}, {{"size", "4"}}}));

  r.add(cheap({"loopover",
               "check",
               "Validate a position and tell whether it is solvable",
               {size_option(), position_positional()},
               check_command},
              {{{"size", "4x4"}, {"position", "A A"}}}));

  // Expensive for the tables it may build on first use (the 4x4 piece pattern database with
  // --pattern auto: 15 s, 260 MB; the walking-distance tables), all stoppable: the conformance
  // suite's cold table store makes that the hard example. Once cached: milliseconds.
  r.add(expensive(
      {"loopover",
       "bound",
       "Lower bounds on the solution length, with parts",
       {size_option(), metric_option(),
        with_choices(option("pattern", ParamType::String,
                            "Also the piece pattern database bound: auto, or none", "none"),
                     {"auto", "none"}),
        position_positional()},
       bound_command,
       true},
      {{"size", "4x4"},
       {"pattern", "auto"},
       {"position", "11 15 9 5 16 1 4 3 7 13 2 14 10 6 8 12"}},
      {{{"size", "4x4"}, {"position", "A B"}}}));

  r.add(cheap(
      {"loopover",
       "apply",
       "Apply a move sequence (to the goal or --from POS)",
       {size_option(), option("from", ParamType::String, "Start position (default: the goal)"),
        formerly_positional(option("moves", ParamType::String,
                                   "Moves, e.g. \"(2AA-2-A)^3\" (quote it; a sequence starting "
                                   "with '-' needs a leading blank \" -B A\" or --moves=-B)"))},
       apply_command},
      {{{"size", "4x4"}, {"moves", "Q7"}}}));

  r.add(distributed(expensive(
      {"loopover",
       "bfs",
       "Whole-graph BFS: positions per distance, God's number",
       {size_positional("Board ROWSxCOLS with at most 16 cells (memory permitting)"),
        metric_option(),
        with_choices(option("symmetry", ParamType::String,
                            "Search classes of positions under the board's symmetries (auto: "
                            "where supported, 2 bits a class), or every position (none)",
                            "auto"),
                     {"auto", "none"}),
        with_range(option("antipodes", ParamType::Unsigned,
                          "How many antipodes to list as positions (sample_antipodes)", 5),
                   0, 100000),
        with_range(option("threads", ParamType::Unsigned,
                          "Worker threads (default: every hardware thread)"),
                   1, 64),
        option("svg", ParamType::OutputPath, "Also write the histogram as an SVG bar chart"),
        option("checkpoint", ParamType::HostPath,
               "Directory for a checkpoint after every level (command line only)"),
        flag("resume", "Continue from the last checkpoint in --checkpoint DIR")},
       bfs_command,
       true},
      // 479,001,600 positions, 240 MB: about half a minute (over symmetry classes: a second)
      {{"size", "3x4"}, {"symmetry", "none"}},
      {{{"size", "4x4"}, {"threads", 0}},
       {{"size", "3x"}},
       {{"size", "2x3"}, {"resume", true}},
       {{"size", "2x3"}, {"symmetry", "all"}},
       {{"size", "2x3"}, {"antipodes", 100001}}})));

  r.add(cheap({"loopover",
               "group",
               "The group the moves generate (computed, not assumed)",
               {size_positional()},
               group_command},
              {{{"size", "1x"}}}));

  r.add(cheap({"loopover",
               "symmetries",
               "The board-symmetry group acting by conjugation",
               {size_positional()},
               symmetries_command},
              {{{"size", "x3"}}}));

  register_loopover_bench(r);
  r.add_demo("loopover", demo_loopover);
}

}  // namespace permuzzle::api
