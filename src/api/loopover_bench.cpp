// `bench loopover`: optimal solving of seeded random positions (the target, 4x4 STM mean <= 20
// ms with the tables loaded, is measured here). `bench loopover-fast`: the fast multi-stage
// solver on seeded random positions. Every solver verifies its solution by replay before
// returning it; a failed check is an internal error (exit 1), not a line in the report.
// `bench loopover-bfs`: the whole-graph BFS over symmetry classes and over every position, timed,
// their answers compared (a difference is exit 1).
#include <algorithm>
#include <ctime>
#include <optional>
#include <random>

#include "loopover_common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/fast_solver.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"

namespace permuzzle::api {

using namespace permuzzle::loopover;

namespace {

Result<Output> bench_loopover(const Request& q, Session& s) {
  // Step 1: the board, the solver and (for --cross-check) the reference solver.
  auto size = parse_size(q.string("size"));
  if (!size) return size.error();
  const std::string metric_text = q.string("metric");
  const Metric metric = metric_text == "mtm" ? Metric::Mtm : Metric::Stm;
  const std::string pattern = q.string("pattern");
  const std::uint64_t count = q.unsigned_integer("count");
  const std::uint64_t seed = q.unsigned_integer("seed");
  const int probes = static_cast<int>(q.unsigned_integer("probes"));
  const std::uint64_t cross_check = q.unsigned_integer("cross-check");
  s.note("loading or building the tables ...");
  auto solver = make_loopover_solver(s, *size, metric, pattern);
  if (!solver) return solver.error();
  // An independent check of optimality: the walking-distance-only solver (no pattern).
  std::optional<OptimalSolver> reference;
  if (cross_check > 0) {
    auto r = OptimalSolver::create(*size, metric, &s.tables);
    if (!r) return r.error();
    reference = std::move(*r);
  }
  // Step 2: solve the positions (the solver replays each solution before returning it).
  std::uint64_t cross_checked = 0, cross_mismatches = 0;
  Rng rng(seed);
  double total_seconds = 0, max_seconds = 0;
  std::uint64_t total_length = 0, total_nodes = 0;
  std::vector<std::uint64_t> lengths;
  OptimalSolveOptions o;
  o.metric = metric;
  o.max_pattern_probes = probes;
  // The caller's stop token and limits, without a progress line per IDA* iteration (the bench
  // reports one line per position).
  RunContext run = s.run;
  run.with_progress({});
  for (std::uint64_t i = 0; i < count; ++i) {
    Position p = random_position(*size, rng);
    auto r = solver->solve(p, o, run);
    if (!r) return r.error();
    total_seconds += r->seconds;
    max_seconds = std::max(max_seconds, r->seconds);
    total_length += static_cast<std::uint64_t>(r->length);
    total_nodes += r->nodes;
    if (lengths.size() <= static_cast<std::size_t>(r->length)) lengths.resize(r->length + 1);
    ++lengths[r->length];
    if (reference && i < cross_check) {
      auto ref = reference->solve(p, o, run);
      if (!ref) return ref.error();
      ++cross_checked;
      if (ref->length != r->length) ++cross_mismatches;
    }
    s.run.report(
        Progress{"bench loopover", i + 1, count,
                 fmt::format("{}/{}: {} moves, {:.3f} s", i + 1, count, r->length, r->seconds)});
  }
  if (cross_mismatches > 0) {
    return make_error(fmt::format("cross-check failed: on {} of {} positions the walking-distance "
                                  "solver found another length (internal error)",
                                  cross_mismatches, cross_checked),
                      {}, Error::NO_POSITION, ErrorKind::Internal);
  }
  // Step 3: the report.
  const double n = static_cast<double>(count);
  const int used_probes = probes > 0 ? std::min(probes, solver->probes()) : solver->probes();
  Output out;
  out.text = fmt::format(
      "bench loopover {} {}: {} positions (seed {})\n  mean {:.4f} s, max {:.3f} s, mean length "
      "{:.3f}, mean nodes {:.0f}\n  tables {:.2f} s (not in the mean){}; all verified: {}\n",
      format_size(*size), metric_text, count, seed, total_seconds / n, max_seconds,
      static_cast<double>(total_length) / n, static_cast<double>(total_nodes) / n,
      solver->build_seconds(),
      solver->pattern_db()
          ? fmt::format(", pattern database {:.1f} MB {} in {:.2f} s, {} probes per node",
                        static_cast<double>(solver->pattern_db()->bytes()) / 1e6,
                        solver->pattern_db()->loaded_from_cache() ? "loaded" : "built",
                        solver->pattern_db()->seconds(), used_probes)
          : std::string(),
      "yes");
  if (cross_checked > 0) {
    out.text += fmt::format(
        "  cross-checked {} positions against the walking-distance-only "
        "solver: same lengths\n",
        cross_checked);
  }
  nlohmann::json hist = nlohmann::json::array();
  for (auto v : lengths) hist.push_back(v);
  out.json = {{"mean_seconds", total_seconds / n},
              {"max_seconds", max_seconds},
              {"mean_length", static_cast<double>(total_length) / n},
              {"mean_nodes", static_cast<double>(total_nodes) / n},
              {"length_histogram", hist},
              {"all_verified", true},
              {"count", count},
              {"seed", seed},
              {"size", format_size(*size)},
              {"metric", metric_text},
              {"tables_seconds", solver->build_seconds()},
              {"pattern", pattern},
              {"pattern_bytes", solver->pattern_db() ? solver->pattern_db()->bytes() : 0},
              {"probes", used_probes},
              {"optimal", true},
              {"cross_checked", cross_checked}};
  return out;
}

Result<Output> bench_loopover_bfs(const Request& q, Session& s) {
  auto size = parse_size(q.string("size"));
  if (!size) return size.error();
  const std::string metric_text = q.string("metric");
  BfsOptions o;
  o.metric = metric_text == "mtm" ? Metric::Mtm : Metric::Stm;
  o.run = &s.run;
  o.threads = static_cast<int>(q.has("threads") ? q.unsigned_integer("threads") : s.run.threads());
  // Wall and process CPU time of one search (std::clock: the CPU of every thread).
  struct Timed {
    BfsStats stats;
    double wall = 0, cpu = 0;
  };
  auto timed = [&](SymmetryMode mode) -> Result<Timed> {
    o.symmetry = mode;
    const std::clock_t c0 = std::clock();
    Stopwatch clock;
    auto r = analyse(*size, o);
    if (!r) return r.error();
    return Timed{std::move(*r), clock.seconds(),
                 static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC};
  };
  auto classes = timed(SymmetryMode::Auto);
  if (!classes) return classes.error();
  auto positions = timed(SymmetryMode::None);
  if (!positions) return positions.error();
  const BfsStats& a = classes->stats;
  const BfsStats& b = positions->stats;
  if (a.histogram != b.histogram || a.states != b.states || a.antipodes != b.antipodes) {
    return make_error(fmt::format("loopover bfs {} ({}): the search over {} symmetry classes and "
                                  "the search over every position disagree",
                                  format_size(*size), metric_text, a.symmetries),
                      {}, Error::NO_POSITION, ErrorKind::Internal);
  }
  Output out;
  out.json = {{"size", format_size(*size)},
              {"metric", metric_text},
              {"states", a.states},
              {"histogram", a.histogram},
              {"symmetries", a.symmetries},
              {"classes", a.classes},
              {"same_answers", true},
              {"classes_wall_seconds", classes->wall},
              {"classes_cpu_seconds", classes->cpu},
              {"classes_table_bytes", a.table_bytes},
              {"positions_wall_seconds", positions->wall},
              {"positions_cpu_seconds", positions->cpu},
              {"positions_table_bytes", b.table_bytes}};
  out.text = fmt::format(
      "Loopover {} ({}): {} positions, same histogram and antipodes both ways\n"
      "  over {} classes ({} symmetries): {:.2f} s wall, {:.2f} s CPU, table {} bytes\n"
      "  over every position:            {:.2f} s wall, {:.2f} s CPU, table {} bytes\n",
      format_size(*size), metric_text, a.states, a.classes, a.symmetries, classes->wall,
      classes->cpu, a.table_bytes, positions->wall, positions->cpu, b.table_bytes);
  return out;
}

Result<Output> bench_loopover_fast(const Request& q, Session& s) {
  // Step 1: the board and the solver's stage tables.
  auto size = parse_size(q.string("size"));
  if (!size) return size.error();
  const std::string metric_text = q.string("metric");
  const std::uint64_t count = q.unsigned_integer("count");
  const std::uint64_t seed = q.unsigned_integer("seed");
  FastSolveOptions options;
  options.metric = metric_text == "mtm" ? Metric::Mtm : Metric::Stm;
  options.seed = seed;
  options.beam_width = static_cast<int>(q.unsigned_integer("beam"));
  options.branch = static_cast<int>(q.unsigned_integer("branch"));
  options.slack = static_cast<int>(q.unsigned_integer("slack"));
  options.examine = static_cast<int>(q.unsigned_integer("examine"));
  options.max_table_entries = q.unsigned_integer("table-limit");
  options.tables = &s.tables;
  options.run = &s.run;
  s.note(fmt::format("building stage tables for {}x{} ...", size->rows, size->cols));
  auto solver = FastSolver::create(*size, options);
  if (!solver) return solver.error();
  s.note(fmt::format("plan {}, tables built or loaded in {:.2f} s", solver->plan(),
                     solver->build_seconds()));
  for (const auto& st : solver->stages()) {
    s.note(
        fmt::format("  stage {} -> {}: {} pieces on {} free cells, {} lines, {} "
                    "entries, max {}, mean {:.2f}",
                    st.from, st.to, st.pieces, st.free_cells, st.lines, st.entries, st.max_distance,
                    st.mean_distance));
  }
  // Step 2: solve seeded random positions (the solver replays each solution before returning).
  Rng rng(seed);
  const int n = size->cells();
  double total_seconds = 0, max_seconds = 0;
  long long total_length = 0;
  int max_length = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (s.run.should_stop()) return s.run.stop_error();
    Position p(n);
    for (int t = 0; t < n; ++t) p[t] = static_cast<std::uint8_t>(t + 1);
    rng.shuffle(p.begin(), p.end());
    if (size->rows % 2 == 1 && size->cols % 2 == 1) {
      int inversions = 0;
      for (int x = 0; x < n; ++x)
        for (int y = x + 1; y < n; ++y) inversions += p[x] > p[y];
      if (inversions % 2) std::swap(p[0], p[1]);  // keep it uniform over the solvable half
    }
    auto res = solver->solve(p, options);
    if (!res) return res.error();
    total_seconds += res->seconds;
    max_seconds = std::max(max_seconds, res->seconds);
    total_length += res->length;
    max_length = std::max(max_length, res->length);
    s.run.report(Progress{
        "bench loopover-fast", i + 1, count,
        fmt::format("{}/{}: {} moves, {:.4f} s", i + 1, count, res->length, res->seconds)});
  }
  // Step 3: the report.
  const double mean_seconds = total_seconds / static_cast<double>(count);
  const double mean_length = static_cast<double>(total_length) / static_cast<double>(count);
  Output out;
  out.text = fmt::format(
      "loopover-fast {}x{} {}: {} positions (seed {}), plan {}\n"
      "mean length {:.2f} (max {}), mean time {:.4f} s (max {:.4f} s), tables {:.2f} s, "
      "all verified: yes\n",
      size->rows, size->cols, metric_text, count, seed, solver->plan(), mean_length, max_length,
      mean_seconds, max_seconds, solver->build_seconds());
  out.json = {{"size", q.string("size")},
              {"metric", metric_text},
              {"count", count},
              {"seed", seed},
              {"plan", solver->plan()},
              {"mean_seconds", mean_seconds},
              {"max_seconds", max_seconds},
              {"mean_length", mean_length},
              {"max_length", max_length},
              {"beam", options.beam_width},
              {"branch", options.branch},
              {"slack", options.slack},
              {"examine", options.examine},
              {"table_seconds", solver->build_seconds()},
              {"all_verified", true}};
  return out;
}

Param count_option(std::uint64_t fallback, std::uint64_t max) {
  return with_range(option("count", ParamType::Unsigned, "Positions", fallback), 1, max);
}

}  // namespace

void register_loopover_bench(Registry& r) {
  r.add(expensive(
      {"bench",
       "loopover",
       "Optimal Loopover on seeded random positions",
       {option("size", ParamType::String, "Board ROWSxCOLS", "4x4"),
        with_choices(option("metric", ParamType::String, "Metric", "stm"), {"stm", "mtm"}),
        count_option(100, 1'000'000), option("seed", ParamType::Unsigned, "Seed", 1),
        with_choices(option("pattern", ParamType::String, "Piece pattern database", "auto"),
                     {"auto", "none"}),
        with_range(option("probes", ParamType::Unsigned,
                          "Pattern lookups per node at most (0 = all; for measuring)", 0),
                   0, 64),
        with_range(option("cross-check", ParamType::Unsigned,
                          "Also solve the first N positions with the walking-distance-only "
                          "solver and compare lengths (not timed)",
                          0),
                   0, 1'000'000)},
       bench_loopover,
       true},
      {{"pattern", "none"}, {"count", 1000000}},
      {{{"count", 0}}, {{"metric", "htm"}}, {{"size", "4x"}}}));

  r.add(expensive(
      {"bench",
       "loopover-bfs",
       "Whole-graph Loopover BFS over symmetry classes and over every position: "
       "times, and the answers compared",
       {option("size", ParamType::String, "Board ROWSxCOLS", "3x4"),
        with_choices(option("metric", ParamType::String, "Metric", "stm"), {"stm", "mtm"}),
        with_range(option("threads", ParamType::Unsigned,
                          "Worker threads (default: every hardware thread)"),
                   1, 64)},
       bench_loopover_bfs,
       true},
      // 479,001,600 positions: a second over classes, half a minute over positions.
      {{"size", "3x4"}}, {{{"size", "4x"}}, {{"metric", "htm"}}}));

  const FastSolveOptions defaults;
  r.add(expensive(
      {"bench",
       "loopover-fast",
       "Fast near-optimal Loopover solver on seeded random positions (verified)",
       {option("size", ParamType::String, "Board size RxC (2..9 each)", "5x5"),
        count_option(100, 100000), option("seed", ParamType::Unsigned, "Random seed", 1),
        with_choices(option("metric", ParamType::String, "Metric", "stm"), {"stm", "mtm"}),
        with_range(option("beam", ParamType::Unsigned,
                          "Beam width (partial solutions kept per stage)", defaults.beam_width),
                   1, 100000),
        with_range(option("branch", ParamType::Unsigned,
                          "Stage solutions expanded per partial solution", defaults.branch),
                   1, 100000),
        with_range(
            option("slack", ParamType::Unsigned,
                   "Extra moves a stage solution may take beyond its optimum", defaults.slack),
            0, 8),
        with_range(option("examine", ParamType::Unsigned,
                          "Stage solutions examined per partial solution (the best --branch "
                          "are kept)",
                          defaults.examine),
                   1, 100000),
        // 5x5: one stage 3x3 -> 4x4 (57.7M entries).
        option("table-limit", ParamType::Unsigned, "Largest stage table (entries)", 60'000'000)},
       bench_loopover_fast,
       true},
      {{"count", 100000}}, {{{"count", 0}}, {{"beam", 0}}, {{"size", "1x"}}}));
}

}  // namespace permuzzle::api
