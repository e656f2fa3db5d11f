// `bench cube`: seeded random cubes solved by the two-phase or the optimal solver, every solution
// replayed. A failed check (a solution not verified, over --max-length, an optimal length above
// God's number 20) is an Internal error (exit 1); times are reported, not judged (wall clock on a
// shared machine).
#include <algorithm>
#include <ctime>
#include <map>
#include <optional>

#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::cube;

// The first cubes listed one by one (the output stays bounded).
constexpr std::uint64_t MAX_LISTED = 1000;
// The H48 tables' scramble check: scrambles of these lengths, so many of each (issue 34: "solves
// of scrambles of known optimal length (3..14 moves) with every table size").
constexpr int SCRAMBLE_MIN_MOVES = 3, SCRAMBLE_MAX_MOVES = 14, SCRAMBLES_PER_LENGTH = 2;

std::string table_name(const OptimalOptions& oo, int h48_k, int order) {
  return oo.h48     ? h48_table_name(h48_k)
         : oo.table ? optimal_table_name(order)
                    : std::string("the phase-1 table alone");
}

// One series of the seeded random cubes, each solved by `solve` and replayed.
struct Series {
  std::uint64_t done = 0;  // cubes solved (fewer than count when the run is stopped)
  std::map<int, std::uint64_t> histogram;
  std::vector<int> lengths;  // per cube (the first MAX_LISTED)
  double total_seconds = 0, max_seconds = 0, total_cpu = 0;
  std::uint64_t total_length = 0, total_nodes = 0, max_nodes = 0;
  int longest = 0;
  bool all_verified = true;
  std::string failure;                             // the first failed check
  std::optional<Error> error;                      // a solver's error (not a stop)
  nlohmann::json cubes = nlohmann::json::array();  // per cube (optimal solves)
  std::string cubes_text;
};

template <class Solve>
Series solve_series(const Request& q, Session& s, Solve solve) {
  const std::uint64_t count = q.unsigned_integer("count");
  const bool optimal = q.flag("optimal");
  const int ceiling = q.has("max-length") ? static_cast<int>(q.unsigned_integer("max-length")) : 20;
  Series out;
  Rng rng(q.unsigned_integer("seed"));
  for (std::uint64_t i = 0; i < count; ++i) {
    const CubieState state = random_state(rng);
    Stopwatch clock;
    const std::clock_t cpu0 = std::clock();
    Result<CubeSolution> sol = solve(state);
    const double seconds = clock.seconds();
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    out.total_cpu += cpu;
    if (!sol && s.run.should_stop()) break;  // the cubes so far are the answer
    if (!sol) {
      out.error = sol.error();
      return out;
    }
    ++out.done;
    // The solver replayed it; replay once more here so the bench's claim rests on its own check.
    const bool verified = sol->verified && replay_solves(state, sol->moves);
    out.all_verified = out.all_verified && verified;
    if (!verified && out.failure.empty()) out.failure = fmt::format("cube {} not verified", i);
    if (!optimal && sol->length > ceiling && out.failure.empty()) {
      out.failure = fmt::format("cube {}: {} moves, over the most of {}", i, sol->length, ceiling);
    }
    if (optimal && sol->length > 20 && out.failure.empty()) {
      out.failure = fmt::format("cube {}: optimal length {} above God's number 20", i, sol->length);
    }
    if (optimal && i < MAX_LISTED) {
      out.lengths.push_back(sol->length);
      out.cubes.push_back({{"length", sol->length},
                           {"nodes", sol->nodes},
                           {"seconds", seconds},
                           {"cpu_seconds", cpu},
                           {"verified", verified}});
      out.cubes_text += fmt::format("  cube {}: {} moves, {} nodes, {:.3f} s, CPU {:.3f} s\n", i,
                                    sol->length, sol->nodes, seconds, cpu);
    }
    ++out.histogram[sol->length];
    out.total_length += static_cast<std::uint64_t>(sol->length);
    out.longest = std::max(out.longest, sol->length);
    out.total_seconds += seconds;
    out.max_seconds = std::max(out.max_seconds, seconds);
    out.total_nodes += sol->nodes;
    out.max_nodes = std::max(out.max_nodes, sol->nodes);
    s.run.report({"bench cube", i + 1, count,
                  fmt::format("{} of {} cubes, mean length {:.2f}", i + 1, count,
                              double(out.total_length) / double(i + 1))});
  }
  return out;
}

Result<Output> bench_cube(const Request& q, Session& s) {
  const std::uint64_t count = q.unsigned_integer("count");
  const std::uint64_t seed = q.unsigned_integer("seed");
  const bool optimal = q.flag("optimal");
  // The two-phase solver's ceiling: --max-length, else God's number (as `cube solve`).
  const int max_length =
      q.has("max-length") ? static_cast<int>(q.unsigned_integer("max-length")) : -1;
  const int ceiling = max_length >= 0 ? max_length : 20;
  if (auto ok = check_cube_budget(q, optimal); !ok) return ok.error();
  if (q.flag("h48") && !optimal) {
    return make_error("--h48 is a table of the optimal solver: give it with --optimal");
  }
  if (q.flag("beside") && !optimal) {
    return make_error("--beside compares tables of the optimal solver: give it with --optimal");
  }
  if (q.has("threads")) s.run.with_threads(static_cast<unsigned>(q.unsigned_integer("threads")));
  if (auto ok = s.run.check_memory(solver_tables_bytes(), "the cube solver's tables"); !ok) {
    return ok.error();
  }
  SolverTablesInfo info;
  auto tables = solver_tables(s.tables, s.run, &info);
  if (!tables) return tables.error();
  // The big table with --optimal --memory >= 2600 MB: its distance counts and a sample check.
  OptimalOptions oo;
  nlohmann::json table_json = nullptr;
  std::string table_text;
  Stopwatch table_clock;
  if (optimal) {
    if (auto ok = attach_optimal_table(q, s, **tables, info, oo); !ok) return ok.error();
  }
  const double table_seconds = table_clock.seconds();
  if (q.flag("beside") && oo.table && optimal_table_order(*oo.table) == 1) {
    return make_error(
        "--beside compares with today's table (the " + optimal_table_name(1) +
        "), and this run uses it already: give --h48, or --memory for a larger table");
  }
  const int order = oo.table ? optimal_table_order(*oo.table) : 0;
  int h48_k = 0;
  if (oo.h48) {
    // The H48 table: its values' counts and H48_SAMPLES entries of each value checked against
    // a search (IDA* with h0; milliseconds each).
    constexpr std::uint64_t H48_SAMPLES = 50;
    const TableReport& report = info.reports.back();
    const H48TableInfo h = h48_table_info(*oo.h48);
    h48_k = h.k;
    auto check = check_h48_table(**tables, *oo.h48, H48_SAMPLES, seed, s.run);
    if (!check) return check.error();
    // Scrambles of 3 to 14 moves solved with the table and with the phase-1 table alone (a second
    // method): the same optimal lengths (seconds, most of them the phase-1 search's at 14 moves).
    auto scrambles = check_scramble_lengths(**tables, oo, SCRAMBLE_MIN_MOVES, SCRAMBLE_MAX_MOVES,
                                            SCRAMBLES_PER_LENGTH, seed, s.run);
    if (!scrambles) return scrambles.error();
    nlohmann::json scrambles_json = nlohmann::json::array();
    std::map<int, std::string> optimal_by_moves;
    for (const ScrambleCheck& c : *scrambles) {
      scrambles_json.push_back({{"scramble", c.scramble},
                                {"moves", c.moves},
                                {"optimal", c.optimal},
                                {"nodes", c.nodes},
                                {"reference_nodes", c.reference_nodes}});
      std::string& lengths = optimal_by_moves[c.moves];
      lengths += fmt::format("{}{}", lengths.empty() ? "" : ",", c.optimal);
    }
    std::string scrambles_text;
    for (const auto& [moves, lengths] : optimal_by_moves) {
      scrambles_text += fmt::format(" {}:{}", moves, lengths);
    }
    nlohmann::json per_value = nlohmann::json::array(), sampled = nlohmann::json::array();
    for (auto v : h.per_value) per_value.push_back(v);
    for (auto v : check->per_value) sampled.push_back(v);
    table_json = {{"name", h48_table_name(h.k)},
                  {"h48", true},
                  {"k", h.k},
                  {"base", h.base},
                  {"bytes", h48_tables_bytes(h.k)},
                  {"per_value", per_value},
                  {"sampled_per_value", sampled},
                  {"scrambles", scrambles_json},
                  {"seconds", table_seconds},
                  {"report", describe(report)}};
    table_text = fmt::format(
        "  optimal table: the {} ({}); entries at most {}: {}, {}: {}, {}: {}, {} or more: {}; "
        "{} sampled entries agree with a search of their coordinates; {} scrambles of {} to {} "
        "moves have the phase-1 search's optimal lengths (scramble:optimal{})\n",
        h48_table_name(h.k), describe(report), h.base, h.per_value[0], h.base + 1, h.per_value[1],
        h.base + 2, h.per_value[2], h.base + 3, h.per_value[3],
        check->per_value[0] + check->per_value[1] + check->per_value[2] + check->per_value[3],
        scrambles->size(), SCRAMBLE_MIN_MOVES, SCRAMBLE_MAX_MOVES, scrambles_text);
  }
  if (oo.table) {
    const TableReport& report = info.reports.back();
    auto check = check_optimal_table(**tables, *oo.table, 1000, seed);
    if (!check) return check.error();
    nlohmann::json per_depth = nlohmann::json::array(), sampled = nlohmann::json::array();
    std::string counts;
    for (std::size_t d = 0; d < check->per_depth.size(); ++d) {
      per_depth.push_back(check->per_depth[d]);
      counts += fmt::format(" {}:{}", d, check->per_depth[d]);
    }
    for (auto v : check->sample_depths) sampled.push_back(v);
    table_json = {{"name", optimal_table_name(order)},
                  {"order", order},
                  {"bytes", optimal_table_bytes(order)},
                  {"entries", check->entries},
                  {"per_distance", per_depth},
                  {"sampled_entries", check->samples},
                  {"sampled_per_distance", sampled},
                  {"bfs_depth", check->bfs_depth},
                  {"bfs_coordinates", check->bfs_coordinates},
                  {"seconds", table_seconds},
                  {"report", describe(report)}};
    table_text = fmt::format(
        "  optimal table: the {}: {} entries ({}), per distance{}; {} sampled entries "
        "consistent; the {} coordinates within {} moves of the goal (breadth-first) agree\n",
        optimal_table_name(order), check->entries, describe(report), counts, check->samples,
        check->bfs_coordinates, check->bfs_depth);
  }
  auto solve_optimal_with = [&](const OptimalOptions& with) {
    return [&](const CubieState& state) { return solve_optimal(**tables, state, with, s.run); };
  };
  auto solve_two_phase_capped = [&](const CubieState& state) {
    TwoPhaseOptions o;
    o.max_length = ceiling;
    o.budget = q.has("budget") ? q.number("budget") : max_length >= 0 ? 0 : 0.01;
    return solve_two_phase(**tables, state, o, s.run);
  };
  Series series = optimal ? solve_series(q, s, solve_optimal_with(oo))
                          : solve_series(q, s, solve_two_phase_capped);
  if (series.error) return *series.error;
  // With --beside: the same cubes with today's table (the 2.3 GiB big table), once all are solved.
  nlohmann::json beside_json = nullptr;
  std::string beside_text;
  bool beside_stopped = false;
  if (optimal && q.flag("beside") && series.done == count) {
    OptimalOptions today;
    if (auto ok = attach_todays_table(s, **tables, info, today); !ok) return ok.error();
    Series other = solve_series(q, s, solve_optimal_with(today));
    if (other.error) return *other.error;
    // The same cubes: their optimal lengths must agree (two searches on different tables).
    for (std::size_t i = 0; i < std::min(other.lengths.size(), series.lengths.size()); ++i) {
      if (other.lengths[i] != series.lengths[i] && series.failure.empty()) {
        series.failure =
            fmt::format("cube {}: {} moves with the {}, {} with the {}", i, series.lengths[i],
                        table_name(oo, h48_k, order), other.lengths[i], optimal_table_name(1));
      }
    }
    if (!other.failure.empty() && series.failure.empty()) series.failure = other.failure;
    series.all_verified = series.all_verified && other.all_verified;
    const double m = other.done == 0 ? 1.0 : double(other.done);
    beside_json = {{"table", optimal_table_name(1)},
                   {"solved", other.done},
                   {"mean_seconds", other.total_seconds / m},
                   {"max_seconds", other.max_seconds},
                   {"mean_cpu_seconds", other.total_cpu / m},
                   {"mean_nodes", double(other.total_nodes) / m},
                   {"max_nodes", other.max_nodes},
                   {"all_verified", other.all_verified},
                   {"report", describe(info.reports.back())},
                   {"cubes", other.cubes}};
    beside_text = fmt::format(
        "  beside it, the same cubes with the {}: mean {:.3f} ms, max {:.3f} ms (wall clock); "
        "mean CPU {:.3f} ms; nodes mean {:.0f}, max {}\n{}",
        optimal_table_name(1), 1000 * other.total_seconds / m, 1000 * other.max_seconds,
        1000 * other.total_cpu / m, double(other.total_nodes) / m, other.max_nodes,
        other.cubes_text);
    beside_stopped = other.done < count;
  }
  const std::uint64_t done = series.done;
  const bool stopped = done < count || beside_stopped;
  const double n = done == 0 ? 1.0 : double(done);
  nlohmann::json hist = nlohmann::json::object();
  std::string hist_text;
  for (auto [len, k] : series.histogram) {
    hist[std::to_string(len)] = k;
    hist_text += fmt::format(" {}:{}", len, k);
  }
  Output out;
  out.json = {
      {"count", count},
      {"seed", seed},
      {"solver", optimal ? "optimal" : "two-phase"},
      {"max_length_option", max_length < 0 ? nlohmann::json(nullptr) : nlohmann::json(max_length)},
      {"threads", optimal ? s.run.threads() : 1u},
      {"mean_length", double(series.total_length) / n},
      {"max_length", series.longest},
      {"histogram", hist},
      {"mean_seconds", series.total_seconds / n},
      {"max_seconds", series.max_seconds},
      {"total_seconds", series.total_seconds},
      {"mean_cpu_seconds", series.total_cpu / n},
      {"mean_nodes", double(series.total_nodes) / n},
      {"max_nodes", series.max_nodes},
      {"total_nodes", series.total_nodes},
      {"all_verified", series.all_verified},
      {"tables_seconds", info.seconds},
      {"table_bytes", info.bytes},
      {"optimal_table", table_json}};
  out.text = fmt::format(
      "{} random cubes (seed {}), {} solver{}{}\n"
      "  length: mean {:.3f}, max {}; histogram{}\n"
      "  time:   mean {:.3f} ms, max {:.3f} ms (wall clock); mean CPU {:.3f} ms\n"
      "  nodes:  mean {:.0f}, max {}\n"
      "  tables: {:.2f} s, {} bytes\n"
      "  every solution replayed on the sticker model: {}\n",
      done, seed, optimal ? "optimal" : "two-phase",
      max_length >= 0 ? fmt::format(", --max-length {}", max_length) : std::string(),
      done < count     ? fmt::format(" (stopped: {} of {} cubes)", done, count)
      : beside_stopped ? std::string(" (stopped in the cubes beside)")
                       : std::string(),
      double(series.total_length) / n, series.longest, hist_text, 1000 * series.total_seconds / n,
      1000 * series.max_seconds, 1000 * series.total_cpu / n, double(series.total_nodes) / n,
      series.max_nodes, info.seconds, info.bytes, series.all_verified ? "yes" : "NO");
  out.text += table_text;
  if (optimal) {
    out.json["cubes"] = std::move(series.cubes);
    out.json["table"] = table_name(oo, h48_k, order);
    out.text += fmt::format("  table: {}\n", table_name(oo, h48_k, order));
    out.text += series.cubes_text;
    if (count > MAX_LISTED) out.text += fmt::format("  (the first {} cubes listed)\n", MAX_LISTED);
    if (q.flag("beside")) {
      out.json["beside"] = std::move(beside_json);
      out.text += beside_text;
    }
  }
  if (stopped) {
    out.json["complete"] = false;
    out.json["solved"] = done;
    out.stopped = s.run.stop_error();
  }
  if (!series.failure.empty()) {
    return make_error("check failed: " + series.failure, {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  return out;
}

}  // namespace

void register_cube_bench(Registry& r) {
  Command cube{
      "bench",
      "cube",
      "Seeded random cubes: two-phase (or --optimal) solutions, lengths, times, nodes, "
      "all replayed",
      {option("count", ParamType::Unsigned, "Number of random cubes", 100),
       option("seed", ParamType::Unsigned, "Random seed", 1),
       flag("optimal", "Optimal solutions (IDA*; threads from --threads)"),
       with_range(option("max-length", ParamType::Unsigned,
                         "Two-phase: at most N moves (default 20): the first such solution"),
                  0, 40),
       option("budget", ParamType::Number,
              "Two-phase: seconds per cube to look for shorter solutions once one within "
              "--max-length is found (default 0.01 without --max-length, 0 with it)"),
       option("threads", ParamType::Unsigned, "Optimal: threads (default: every hardware thread)"),
       option("memory", ParamType::Unsigned,
              "Optimal: most MB of tables; from 2600 the largest big table that fits (2.3, 4.6, "
              "6.9 or 13.8 GiB; built once: minutes)"),
       flag("h48",
            "Optimal: an H48 table (Tronto's kind) instead of the big tables: h7 (3.6 GiB with "
            "h0), or with --memory the largest that fits (h8 7.1 GiB, h9 14.1 GiB); each built "
            "once: about 25 minutes on 2 threads, checkpointed"),
       flag("beside",
            "Optimal: the same cubes again with today's table (the 2.3 GiB big table; built "
            "once: minutes) beside the one this run uses, both reported; their lengths must "
            "agree")},
      bench_cube};
  cube.long_running = true;
  cube.cost = Cost::Expensive;
  cube.hard_example = {{"count", 1000000}};  // about a millisecond a cube: minutes
  cube.invalid_examples = {{{"count", -1}},
                           {{"budget", 0}},
                           {{"optimal", true}, {"budget", 1}},
                           {{"h48", true}},      // H48 without --optimal
                           {{"beside", true}}};  // a second table without --optimal
  r.add(std::move(cube));
}

}  // namespace permuzzle::api
