// `bench def-cold`: issue 24's side-by-side cases on our side. Every solve case starts from an
// empty table store (no directory: nothing is loaded, every table is built), so its time is a
// first answer's, tables included; the BFS cases are whole-graph searches of definition files.
// Run twsearch on the same files and positions to compare (docs/def-search.md has the commands
// and the figures measured). A failed check is an internal error (exit 1).
#include <fmt/format.h>

#include <sys/resource.h>

#include "common.hpp"
#include "def_common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/planner.hpp"
#include "permuzzle/puzzles/def/reader.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::def;

constexpr const char* CASES =
    "loopover4x4-htm,loopover4x4-qtm,cube3-tperm,cube2-antipode,cube2-bfs,skewb-bfs,"
    "pyraminx-bfs";

Result<Definition> data_definition(const Session& s, const std::string& name) {
  auto text = read_data_puzzle_file(s, name, "bench def-cold");
  if (!text) return text.error();
  return parse_definition(*text, name);
}

// CPU seconds of this process so far, every thread, user and system: on a shared machine the
// wall clock of a case says more about the other processes than about the case.
double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::vector<std::size_t> move_indices(const Definition& d, const std::string& text) {
  std::vector<std::size_t> out;
  std::istringstream in(text);
  for (std::string name; in >> name;) {
    for (std::size_t m = 0; m < d.moves.size(); ++m) {
      if (d.moves[m].name == name) out.push_back(m);
    }
  }
  return out;
}

Result<Output> bench_def_cold(const Request& q, Session& s) {
  const std::vector<std::string> cases = split_list(q.string("cases"));
  const std::uint64_t seed = q.unsigned_integer("seed");
  const RunContext run = with_threads(q, s);
  const std::uint64_t memory = std::min<std::uint64_t>(
      std::uint64_t{2} << 30, run.memory_budget() > 0 ? run.memory_budget() : ~0ULL);
  nlohmann::json results = nlohmann::json::array();
  std::string text;

  // A cold solve: a store of its own without a directory, the planner, every position replayed
  // by the solver; `max_length` checks the answers (0: none).
  auto solve_case = [&](const std::string& name, const Definition& d, Metric metric,
                        const std::vector<State>& starts, int max_length) -> Status {
    TableStore cold;
    Stopwatch clock;
    const double cpu_start = process_cpu_seconds();
    PlannedSolveOptions po;
    po.solve.metric = metric;
    po.solve.memory_bytes = memory;
    po.positions = starts.size();
    auto solver = PlannedSolver::create(d, po, cold, run);
    if (!solver) return solver.error();
    std::vector<int> lengths;
    std::vector<double> seconds;
    nlohmann::json states = nlohmann::json::array();
    for (const State& st : starts) {
      states.push_back(state_json(d, st));
      Stopwatch one;
      DefSolveReport report;
      auto r = (*solver)->solve(st, run, &report);
      if (!r) return r.error();
      if (report.stopped) return run.stop_error();
      if (!r->front().optimal)
        return check_failed(name + ": an answer not proven optimal", "bench def-cold");
      if (max_length > 0 && r->front().length > max_length) {
        return check_failed(
            fmt::format("{}: {} moves, more than {}", name, r->front().length, max_length),
            "bench def-cold");
      }
      lengths.push_back(r->front().length);
      seconds.push_back(one.seconds());
    }
    const double total = clock.seconds();
    const double cpu = process_cpu_seconds() - cpu_start;
    std::string tables;
    nlohmann::json used = nlohmann::json::array();
    for (const TableUse& t : (*solver)->tables()) {
      tables += fmt::format("\n    tier {}: {} ({} entries, {} {:.2f} s) - {}", t.tier, t.name,
                            with_commas(t.entries), t.source, t.seconds, t.why);
      used.push_back({{"name", t.name},
                      {"entries", t.entries},
                      {"seconds", t.seconds},
                      {"tier", t.tier},
                      {"why", t.why}});
    }
    std::string lens;
    for (int l : lengths) lens += (lens.empty() ? "" : " ") + std::to_string(l);
    text += fmt::format(
        "{:<16} cold solve of {} position(s), {} thread(s): {:.2f} s in all ({:.2f} s CPU), "
        "lengths {}{}\n",
        name, starts.size(), run.threads(), total, cpu, lens, tables);
    results.push_back({{"case", name},
                       {"seconds", total},
                       {"cpu_seconds", cpu},
                       {"threads", run.threads()},
                       {"lengths", lengths},
                       {"position_seconds", seconds},
                       {"positions", states},
                       {"tables", used}});
    return Ok{};
  };
  auto bfs_case = [&](const std::string& name, const Definition& d,
                      std::uint64_t expected) -> Status {
    DefBfsOptions o;
    o.antipodes = 1;
    o.memory_bytes = memory;
    auto r = def::bfs(d, o, run);
    if (!r) return r.error();
    if (r->stopped) return *r->stopped;
    std::uint64_t positions = 0;
    for (std::uint64_t c : r->histogram) positions += c;
    if (!r->complete || positions != expected) {
      return check_failed(fmt::format("{}: {} positions, expected {}", name, positions, expected),
                          "bench def-cold");
    }
    text += fmt::format(
        "{:<16} BFS {} positions, God's number {}: {:.2f} s on {} thread(s), rank space {}, "
        "{:.1f} MB of tables\n",
        name, with_commas(positions), r->max_distance, r->seconds, run.threads(),
        with_commas(r->rank_space), static_cast<double>(r->table_bytes) / (1 << 20));
    results.push_back({{"case", name},
                       {"seconds", r->seconds},
                       {"threads", run.threads()},
                       {"rank_space", r->rank_space},
                       {"table_bytes", r->table_bytes},
                       {"histogram", r->histogram}});
    return Ok{};
  };

  for (const std::string& c : cases) {
    Status st = Ok{};
    if (c == "loopover4x4-htm" || c == "loopover4x4-qtm") {
      // Three seeded random positions (every arrangement is reachable on 4x4).
      const Definition d = samples::loopover(4, 4);
      Rng rng(seed);
      std::vector<State> starts;
      for (int i = 0; i < 3; ++i) {
        State s0 = full_solved(d);
        rng.shuffle(s0.sets[0].perm.begin(), s0.sets[0].perm.end());
        starts.push_back(s0);
      }
      st = solve_case(c, d, c == "loopover4x4-htm" ? Metric::Htm : Metric::Qtm, starts, 0);
    } else if (c == "cube3-tperm") {
      const Definition d = samples::cube3();
      const auto moves = move_indices(d, "R U R' U' R' F R2 U' R' U' R U R' F'");
      if (moves.size() != 14) return check_failed("T-perm moves", "bench def-cold");
      st = solve_case(c, d, Metric::Htm, {replay(d, full_solved(d), moves)}, 14);
    } else if (c == "cube2-antipode") {
      // An antipode of the six-face 2x2x2 (11 moves, the God's number of the half-turn metric)
      // from the file's own BFS (not timed).
      auto d = data_definition(s, "2x2x2.tws");
      if (!d) return d.error();
      DefBfsOptions o;
      o.antipodes = 1;
      auto b = def::bfs(*d, o, run);
      if (!b) return b.error();
      if (b->antipodes.empty() || b->max_distance != 11)
        return check_failed("2x2x2 antipode", "bench def-cold");
      std::string seq;
      for (const auto& m : b->antipodes.front()) seq += m + " ";
      st = solve_case(c, *d, Metric::Htm, {replay(*d, full_solved(*d), move_indices(*d, seq))}, 11);
    } else if (c == "cube2-bfs") {
      auto d = data_definition(s, "2x2x2.tws");
      if (!d) return d.error();
      st = bfs_case(c, *d, 88179840);
    } else if (c == "skewb-bfs") {
      auto d = data_definition(s, "skewb.tws");
      if (!d) return d.error();
      st = bfs_case(c, *d, 3149280);
    } else if (c == "pyraminx-bfs") {
      auto d = data_definition(s, "pyraminx-tips.tws");
      if (!d) return d.error();
      st = bfs_case(c, *d, 75582720);
    } else {
      return make_error("bench def-cold: unknown case '" + c + "' (" + CASES + ")");
    }
    if (!st) return st.error();
  }
  Output out;
  out.text = std::move(text);
  out.json = {{"results", results}, {"seed", seed}};
  return out;
}

}  // namespace

void register_def_cold_bench(Registry& r) {
  Command bench{
      "bench",
      "def-cold",
      "Definition files from cold: first solves with tables built (4x4 Loopover, 3x3x3 T-perm, "
      "2x2x2 antipode) and whole-graph BFS (2x2x2, skewb, pyraminx), to set beside twsearch",
      {option("cases", ParamType::String, std::string("Comma-separated cases: ") + CASES, CASES),
       option("seed", ParamType::Unsigned, "Random seed of the Loopover positions", 1),
       with_range(option("threads", ParamType::Unsigned, "Threads (default: every one)"), 1, 256)},
      bench_def_cold,
      true};
  bench.hard_example = {{"cases", "loopover4x4-qtm"}};
  // def bfs over symmetry classes (its symmetry search, class tables and levels): the pyraminx
  // with tips, about 2.3 s on one thread; no command's own hard example takes that path (the
  // files that run longer fall back to ranks).
  bench.other_hard_examples = {{{"cases", "pyraminx-bfs"}}};
  bench.invalid_examples = {{{"cases", "nope"}}};
  r.add(std::move(bench));
}

}  // namespace permuzzle::api
