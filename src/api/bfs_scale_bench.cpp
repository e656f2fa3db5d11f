// `bench bfs-scale`: the distributed BFS (search/bfs_distributed.hpp) of one puzzle with 1, 2,
// 4, ... processes, on the processes of the job it runs in: `mpirun -np 4 permuzzle bench
// bfs-scale` measures P = 1, 2 and 4 (the first P processes of the job, the others wait), each
// with --threads threads. Without mpirun it measures the one process it has. Every P must give
// the published histogram (a failed check is an internal error, exit 1).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <sstream>

#include "common.hpp"
#include "def_common.hpp"
#include "permuzzle/core/cluster.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"

namespace permuzzle::api {

namespace {

struct ScaleCase {
  std::string name;
  std::string what;
  def::Definition definition;
  def::Metric metric = def::Metric::Htm;
  std::vector<std::uint64_t> histogram;  // published (empty: only the total is known)
  std::uint64_t positions = 0;
};

std::optional<ScaleCase> scale_case(const std::string& name) {
  if (name == "cube2") {
    return ScaleCase{"cube2",
                     "2x2x2, one corner fixed (3,674,160 positions; OEIS A079761)",
                     def::samples::cube2(true),
                     def::Metric::Htm,
                     {1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644},
                     3674160};
  }
  if (name == "loopover3x4") {
    // As `bench def`'s loopover3x4 case: every process count must give P = 1's histogram.
    return ScaleCase{"loopover3x4",
                     "3x4 Loopover (12! = 479,001,600 positions)",
                     def::samples::loopover(3, 4),
                     def::Metric::Qtm,
                     {},
                     479001600};
  }
  return std::nullopt;
}

Result<Output> bench_bfs_scale(const Request& q, Session& s) {
  // Step 1. The case and the process counts (1, 2, 4, ... up to the job's size, or --processes).
  const std::string name = q.string("case");
  std::optional<ScaleCase> chosen = scale_case(name);
  if (!chosen) {
    return make_error(
        fmt::format("--case: unknown case '{}' (expected cube2 or loopover3x4)", name));
  }
  Cluster* world = s.run.cluster();
  const int job = world ? world->size() : 1;
  std::vector<int> counts;
  {
    for (const std::string& word : split_list(q.string("processes"))) {
      int p = 0;
      if (std::from_chars(word.data(), word.data() + word.size(), p).ec != std::errc() || p < 1) {
        return make_error(fmt::format("--processes: '{}' is not a positive number", word));
      }
      if (p <= job) counts.push_back(p);
    }
  }
  if (counts.empty()) {
    return make_error(fmt::format(
        "--processes: none of them fits this job of {} process{} (run under mpirun -np P)", job,
        job == 1 ? "" : "es"));
  }
  const def::Definition* d = &chosen->definition;
  std::vector<std::uint64_t> expected = chosen->histogram;
  RunContext run = s.run;
  run.with_threads(static_cast<unsigned>(q.unsigned_integer("threads")));

  // Step 2. One BFS per process count, on the first P processes of the job.
  Output out;
  nlohmann::json results = nlohmann::json::array();
  std::string text =
      fmt::format("bench bfs-scale: {}, {} thread(s) per process\n", chosen->what, run.threads());
  text += "processes  seconds  positions/s/process  bytes sent/position  level seconds\n";
  for (int p : counts) {
    std::unique_ptr<Cluster> sub = world ? world->split(world->rank() < p) : nullptr;
    if (world && !sub) {
      world->barrier();  // waits for the P processes
      continue;
    }
    RunContext part = run;
    part.with_cluster(sub.get());
    def::DefBfsOptions o;
    o.metric = chosen->metric;
    o.bits = 2;
    o.antipodes = 0;
    o.memory_bytes = s.run.memory_budget();
    auto r = def::bfs(*d, o, part);
    if (world) world->barrier();
    if (!r) return r.error();
    if (r->stopped) return *r->stopped;
    if (expected.empty()) expected = r->histogram;
    if (r->histogram != expected || r->reached != chosen->positions || !r->complete) {
      return make_error(
          fmt::format("bench bfs-scale: check failed: the histogram of {} with {} "
                      "processes is not the published one (or the one of the first count)",
                      chosen->name, p),
          {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    const double positions = static_cast<double>(r->reached);
    const std::uint64_t bytes = r->distribution ? r->distribution->bytes_sent : 0;
    std::vector<double> levels =
        r->distribution ? r->distribution->level_seconds : std::vector<double>{};
    const double rate = positions / r->seconds / p;
    std::string level_text;
    for (double t : levels) level_text += fmt::format(" {:.2f}", t);
    text += fmt::format("{:9}  {:7.2f}  {:19.3e}  {:19.3f} {}\n", p, r->seconds, rate,
                        static_cast<double>(bytes) / positions, level_text);
    results.push_back({{"processes", p},
                       {"seconds", r->seconds},
                       {"positions", r->reached},
                       {"positions_per_second_per_process", rate},
                       {"bytes_sent", bytes},
                       {"bytes_sent_per_position", static_cast<double>(bytes) / positions},
                       {"level_seconds", levels},
                       {"table_bytes_per_process", r->table_bytes},
                       {"distributed", r->distribution.has_value()}});
  }
  if (!world) {
    text += "(one process: run under `mpirun -np 4` to measure 1, 2 and 4 processes)\n";
  }
  out.json = {{"case", chosen->name},
              {"threads_per_process", run.threads()},
              {"job_processes", job},
              {"results", results}};
  out.text = std::move(text);
  return out;
}

}  // namespace

void register_bfs_scale_bench(Registry& r) {
  Command bench{
      "bench",
      "bfs-scale",
      "Distributed whole-graph BFS with 1, 2, 4 processes of the mpirun job it runs in "
      "(docs/distributed.md): positions/s per process, bytes sent per position, level times",
      {with_choices(option("case", ParamType::String, "Puzzle: cube2 or loopover3x4", "cube2"),
                    {"cube2", "loopover3x4"}),
       option("processes", ParamType::String,
              "Comma-separated process counts (those above the job's size are skipped)", "1,2,4"),
       with_range(option("threads", ParamType::Unsigned, "Threads per process", 1), 1, 256)},
      bench_bfs_scale,
      true};
  bench.hard_example = {{"case", "loopover3x4"}};  // a BFS of 479,001,600 positions
  bench.invalid_examples = {{{"case", "nope"}}, {{"processes", "0"}}, {{"threads", 0}}};
  bench.distributed = true;
  r.add(std::move(bench));
}

}  // namespace permuzzle::api
