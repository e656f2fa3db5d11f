// `bench def`: the speed targets of issue 11 for the generic engine, on definitions built in
// code (samples:: in builder.hpp), with a fixed seed and a deterministic signature (FNV-1a of
// every histogram and solution length). A failed check is an internal error (exit 1).
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_cache.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/solver.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::def;

struct Signature {
  std::string bytes;
  void add(std::uint64_t v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  std::string hex() const {
    return fmt::format("{:016x}",
                       fnv1a64(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  }
};

std::uint64_t total(const std::vector<std::uint64_t>& h) {
  std::uint64_t t = 0;
  for (auto c : h) t += c;
  return t;
}

Result<Output> bench_def(const Request& q, Session& s) {
  const std::vector<std::string> cases = split_list(q.string("cases"));
  const std::uint64_t seed = q.unsigned_integer("seed");
  const RunContext run = with_threads(q, s);
  Signature sig;
  Output out;
  nlohmann::json results = nlohmann::json::array();
  std::string text;
  auto bfs_case = [&](const std::string& name, const Definition& d, Metric metric, unsigned threads,
                      double target, const std::vector<std::uint64_t>& expected,
                      std::uint64_t expected_total) -> Status {
    DefBfsOptions o;
    o.metric = metric;
    o.antipodes = 0;  // 2 bits per position
    RunContext r = run;
    if (threads > 0) r.with_threads(threads);
    auto res = def::bfs(d, o, r);
    if (!res) return res.error();
    if (res->stopped) return *res->stopped;
    if (!expected.empty() && res->histogram != expected)
      return check_failed(name + " histogram", "bench def");
    if (total(res->histogram) != expected_total || !res->complete) {
      return check_failed(name + " positions", "bench def");
    }
    for (auto c : res->histogram) sig.add(c);
    text += fmt::format(
        "{:<14} BFS {} positions, God's number {}: {:.2f} s on {} thread(s) "
        "(target {:.1f} s){}; {}\n",
        name, with_commas(expected_total), res->max_distance, res->seconds, r.threads(), target,
        res->seconds <= target ? "" : "  ** over target **",
        res->symmetries > 1 ? fmt::format("{} classes under {} symmetries",
                                          with_commas(res->classes), res->symmetries)
                            : "every position (" + res->symmetry_note + ")");
    results.push_back({{"case", name},
                       {"seconds", res->seconds},
                       {"target", target},
                       {"threads", r.threads()},
                       {"method", res->method},
                       {"symmetries", res->symmetries},
                       {"classes", res->classes},
                       {"histogram", res->histogram}});
    return Ok{};
  };
  auto solve_case = [&](const std::string& name, const Definition& d, std::uint64_t memory,
                        double target, const std::vector<State>& starts) -> Status {
    DefSolveOptions o;
    o.memory_bytes = memory;
    o.metric = Metric::Htm;
    Stopwatch build;
    auto solver = DefSolver::create(d, o, s.tables, run);
    if (!solver) return solver.error();
    const double build_seconds = build.seconds();
    double sum = 0, worst = 0;
    std::vector<int> lengths;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      Stopwatch clock;
      DefSolveReport report;
      auto r = (*solver)->solve(starts[i], run, &report);
      if (!r) return r.error();
      if (report.stopped) return run.stop_error();
      const double t = clock.seconds();
      sum += t;
      worst = std::max(worst, t);
      lengths.push_back(r->front().length);
      sig.add(static_cast<std::uint64_t>(r->front().length));
      s.run.report(Progress{
          "bench def " + name, i + 1, starts.size(),
          fmt::format("{}/{}: {} moves, {:.3f} s", i + 1, starts.size(), r->front().length, t)});
    }
    const double mean = sum / static_cast<double>(starts.size());
    std::uint64_t table_entries = 0;
    for (const auto& t : (*solver)->tables()) table_entries += t.entries;
    text += fmt::format(
        "{:<14} solve {} positions: mean {:.3f} s, max {:.3f} s (target {:.2f} s){}; tables "
        "{:.0f} MB, {:.1f} s to build or load\n",
        name, starts.size(), mean, worst, target, mean <= target ? "" : "  ** over target **",
        static_cast<double>(table_entries) / 2 / (1 << 20), build_seconds);
    results.push_back({{"case", name},
                       {"mean_seconds", mean},
                       {"max_seconds", worst},
                       {"target", target},
                       {"lengths", lengths},
                       {"table_build_seconds", build_seconds}});
    return Ok{};
  };
  const std::uint64_t count = q.unsigned_integer("count");
  for (const std::string& c : cases) {
    Status st = Ok{};
    if (c == "cube2-fixed") {
      st = bfs_case(c, samples::cube2(true), Metric::Htm, 1, 0.2,
                    {1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644},
                    3674160);
    } else if (c == "cube2") {
      st = bfs_case(c, samples::cube2(false), Metric::Htm, 1, 2.6, {}, 88179840);
    } else if (c == "loopover3x4") {
      st = bfs_case(c, samples::loopover(3, 4), Metric::Qtm, 0, 53.0, {}, 479001600);
    } else if (c == "loopover4x4") {
      const Definition d = samples::loopover(4, 4);
      Rng rng(seed);
      std::vector<State> starts;
      for (std::uint64_t i = 0; i < count; ++i) {
        State st0 = full_solved(d);
        rng.shuffle(st0.sets[0].perm.begin(), st0.sets[0].perm.end());
        starts.push_back(st0);
      }
      st = solve_case(c, d, std::uint64_t{2} << 30, 0.1, starts);
    } else if (c == "cube3") {
      const Definition d = samples::cube3();
      Rng rng(seed);
      std::vector<State> starts;
      for (std::uint64_t i = 0; i < count; ++i) {
        std::vector<std::size_t> moves;
        while (moves.size() < 14) {
          const std::size_t m = rng.below(d.moves.size());
          if (!moves.empty() && d.moves[m].base == d.moves[moves.back()].base) continue;
          moves.push_back(m);
        }
        starts.push_back(replay(d, full_solved(d), moves));
      }
      st = solve_case(c, d, std::uint64_t{4} << 30, 10.0, starts);
    } else {
      return make_error("bench def: unknown case '" + c +
                        "' (cube2-fixed, cube2, loopover3x4, loopover4x4, cube3)");
    }
    if (!st) return st.error();
  }
  text += "signature " + sig.hex() + "\n";
  out.text = std::move(text);
  out.json = {{"results", results}, {"signature", sig.hex()}, {"seed", seed}};
  return out;
}

}  // namespace

void register_def_cold_bench(Registry& r);  // def_cold_bench.cpp

void register_def_bench(Registry& r) {
  Command bench{
      "bench",
      "def",
      "Generic engine on definitions: BFS of 2x2x2 (fixed corner, six faces), 3x4 Loopover; "
      "optimal 4x4 Loopover and 3x3x3 (14 moves) solves",
      {option("cases", ParamType::String,
              "Comma-separated cases: cube2-fixed, cube2, loopover3x4, loopover4x4, cube3",
              "cube2-fixed,cube2,loopover3x4,loopover4x4,cube3"),
       option("seed", ParamType::Unsigned, "Random seed", 1),
       with_range(option("count", ParamType::Unsigned, "Positions per solve case", 10), 1, 100000),
       with_range(option("threads", ParamType::Unsigned, "Threads (default: every one)"), 1, 256)},
      bench_def,
      true};
  bench.hard_example = {{"cases", "loopover3x4"}};  // a BFS of 479,001,600 positions
  bench.invalid_examples = {{{"cases", "nope"}}, {{"count", 0}}};
  r.add(std::move(bench));
  register_def_cold_bench(r);
}

}  // namespace permuzzle::api
