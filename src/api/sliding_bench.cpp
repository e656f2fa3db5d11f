// `bench korf100` and `bench korf24`: Korf's 15-puzzle instances (1985) and Korf & Felner's
// 24-puzzle instances (2002) solved optimally with additive pattern databases, every length
// checked against the published optimum (a mismatch fails the command).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <numeric>
#include <optional>
#include <sstream>
#include <thread>

#include "common.hpp"
#include "permuzzle/core/table_cache.hpp"
#include "permuzzle/puzzles/sliding/instances.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"
#include "sliding_common.hpp"

namespace permuzzle::api {

namespace {

using namespace sliding_detail;

// The full path of the file that is read (what the header names).
std::string full_path(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? path : p.string();
}

// The whole instance file. A file that cannot be read is bad input (exit 2): it is named by the
// caller (--file) or missing from the data directory.
Result<std::string> read_instances(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error("cannot read the instance file " + path + ": it is a directory", {},
                      Error::NO_POSITION, ErrorKind::InvalidInput);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error("cannot read the instance file " + path + ": " + std::strerror(errno), {},
                      Error::NO_POSITION, ErrorKind::InvalidInput);
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return make_error("cannot read the instance file " + path, {}, Error::NO_POSITION,
                      ErrorKind::InvalidInput);
  }
  return text.str();
}

double process_cpu_seconds() {  // all threads
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

Result<Output> run_bench(const Request& q, Session& session, int width,
                         const std::string& file_name) {
  const int cells = width * width;
  // Step 1. The instances, from the file really read (named in the header).
  const std::string path =
      full_path(q.has("file") ? q.string("file") : session.data_dir + "/" + file_name);
  auto text_of_file = read_instances(path);
  if (!text_of_file) return text_of_file.error();
  auto loaded = sliding::parse_benchmark_instances(*text_of_file, {width, width}, path);
  if (!loaded) return loaded.error();
  std::vector<sliding::BenchmarkInstance> instances = std::move(*loaded);
  const std::uint64_t total = instances.size();
  if (total == 0) {
    return make_error("the instance file " + path + " holds no instances", {}, Error::NO_POSITION,
                      ErrorKind::InvalidInput);
  }
  const std::uint64_t first = q.unsigned_integer("first");
  const std::uint64_t shortest = q.unsigned_integer("shortest");
  if (first > total) {
    return make_error(fmt::format("--first must be between 1 and {}", total),
                      std::to_string(first));
  }
  if (shortest > total) {
    return make_error(fmt::format("--shortest must be between 1 and {}", total),
                      std::to_string(shortest));
  }
  if (first && shortest) return make_error("give either --first or --shortest, not both");
  if (first) instances.resize(first);
  if (shortest) {
    std::stable_sort(instances.begin(), instances.end(),
                     [](const sliding::BenchmarkInstance& x, const sliding::BenchmarkInstance& y) {
                       return x.published < y.published;
                     });
    instances.resize(shortest);
  }

  // Step 2. Tables (loaded or built once). On 4x4 many short solves run side by side, one
  // thread each; on 5x5 one long solve at a time uses every thread.
  const sliding::BoardSize size{width, width};
  sliding::PdbOptions options =
      sliding_pdb_options(session, q.string("partition"), session.run.threads(), size);
  options.search_threads = q.has("threads")
                               ? static_cast<int>(q.unsigned_integer("threads"))
                               : (width == 4 ? 1 : static_cast<int>(session.run.threads()));
  if (auto ok = check_pdb_memory(session, size, q.string("partition")); !ok) return ok.error();
  Stopwatch table_clock;
  auto solver = sliding::PdbSolver::create(size, options);
  if (!solver) return solver.error();
  const double table_seconds = table_clock.seconds();

  // Step 3. Korf's goal has the blank first.
  sliding::Position goal(cells);
  std::iota(goal.begin(), goal.end(), 0);
  std::string text = fmt::format("{} with pattern databases {} (tables ready in {:.2f} s)\n", path,
                                 solver->partition(), table_seconds);
  text += fmt::format("{:>4} {:>6} {:>9} {:>6} {:>14} {:>11}\n", "#", "length", "published",
                      "bound", "nodes", "seconds");
  // Step 4. Solve: `jobs` workers take the instances in order (each solve may itself use
  // several threads); results are kept per instance and reported in order.
  const int count = static_cast<int>(instances.size());
  std::vector<std::optional<Result<sliding::SolveResult>>> solved(count);
  std::atomic<int> next{0};
  std::mutex progress_mutex;
  auto work = [&] {
    for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      if (session.run.should_stop()) return;  // the rest stay unsolved
      const sliding::BenchmarkInstance& inst = instances[i];
      solved[i] = solver->solve(inst.start, goal, [&](const sliding::SearchProgress& p) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        session.run.report({"instance " + std::to_string(inst.line), 0, 0,
                            fmt::format("no solution shorter than {}, {} nodes, {:.1f} s", p.bound,
                                        p.nodes, p.seconds)});
      });
      if (width == 5 && *solved[i]) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        session.note(fmt::format("instance {}: {} moves (published {}), {} nodes, {:.1f} s",
                                 inst.line, (*solved[i])->moves.size(), inst.published,
                                 (*solved[i])->nodes, (*solved[i])->seconds));
      }
    }
  };
  const unsigned default_jobs = width == 4 ? session.run.threads() : 1;
  const int jobs = static_cast<int>(std::clamp<std::uint64_t>(
      q.has("jobs") ? q.unsigned_integer("jobs") : default_jobs, 1, std::max(1, count)));
  const double cpu0 = process_cpu_seconds();
  Stopwatch wall;
  {
    std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
    for (int j = 1; j < jobs; ++j) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
  }
  const double wall_seconds = wall.seconds();
  const double cpu_seconds = process_cpu_seconds() - cpu0;

  // Step 5. Check and report: every length must equal the published optimum.
  double bound_sum = 0, seconds = 0;
  std::string mismatches;
  int mismatch_count = 0;
  std::uint64_t nodes = 0;
  std::string node_list;
  for (int i = 0; i < count; ++i) {
    const sliding::BenchmarkInstance& inst = instances[i];
    if (!solved[i]) return session.run.stop_error();
    if (!*solved[i]) return solved[i]->error();
    const sliding::SolveResult& r = **solved[i];
    auto bound = solver->bound(inst.start, goal);
    if (!bound) return bound.error();
    bound_sum += bound->total;
    int length = static_cast<int>(r.moves.size());
    bool match = length == inst.published && r.optimal;
    if (!match) {
      ++mismatch_count;
      mismatches +=
          fmt::format("\n  instance {} (line {}): {} moves{}, published {}", i + 1, inst.line,
                      length, r.optimal ? "" : " (not proven optimal)", inst.published);
    }
    nodes += r.nodes;
    seconds += r.seconds;
    node_list += std::to_string(r.nodes) + ",";
    text +=
        fmt::format("{:>4} {:>6} {:>9} {:>6} {:>14} {:>11.4f}{}\n", inst.line, length,
                    inst.published, bound->total, r.nodes, r.seconds, match ? "" : "  MISMATCH");
  }
  if (mismatch_count) {
    return make_error(fmt::format("{}: {} of {} solutions do not have the published optimal "
                                  "length (check failed):{}",
                                  path, mismatch_count, count, mismatches),
                      {}, Error::NO_POSITION, ErrorKind::Internal);
  }
  const std::string signature = fmt::format(
      "{:016x}",
      fnv1a64(reinterpret_cast<const std::uint8_t*>(node_list.data()), node_list.size()));
  text += fmt::format(
      "{} instances, lengths {}, total {:.3f} s wall ({:.3f} ms per instance; {} at once, {} "
      "search threads each; solve times add up to {:.3f} s, CPU {:.3f} s), {} nodes, node "
      "signature {}, mean initial bound {:.3f}\n",
      count, "all match the published optima", wall_seconds,
      1000 * wall_seconds / std::max(1, count), jobs, solver->search_threads(), seconds,
      cpu_seconds, nodes, signature, bound_sum / std::max(1, count));
  Output out;
  out.text = text;
  out.json = {{"instances", count},
              {"lengths_match", true},
              {"total_seconds", wall_seconds},
              {"sum_instance_seconds", seconds},
              {"cpu_seconds", cpu_seconds},
              {"nodes", nodes},
              {"signature", signature},
              {"jobs", jobs},
              {"threads", solver->search_threads()},
              {"table_seconds", table_seconds},
              {"file", path},
              {"partition", solver->partition()}};
  return out;
}

Param count_param(std::string name, std::string help) {
  return with_range(option(std::move(name), ParamType::Unsigned, std::move(help)), 1, std::nullopt);
}

}  // namespace

void register_sliding_bench(Registry& r) {
  const std::string file_help = "Instance file (default: korf100.txt in the data directory)";
  // Hard: the 5-5-5 tables are small (they fit any budget), and the 100 solves with them take
  // minutes.
  r.add(expensive(
      {"bench",
       "korf100",
       "Korf's 100 random 15-puzzle instances, solved optimally with pattern databases",
       {count_param("first", "Only the first K instances"),
        option("partition", ParamType::String, "Pattern databases: 7-8 (default), 6-6-3, 5-5-5"),
        option("file", ParamType::HostPath, file_help),
        with_range(option("threads", ParamType::Unsigned, "Search threads per instance", 1), 1, 64),
        with_range(option("jobs", ParamType::Unsigned,
                          "Instances solved at once (default: every hardware thread)"),
                   1, 64)},
       [](const Request& q, Session& s) { return run_bench(q, s, 4, "korf100.txt"); },
       true},
      {{"partition", "5-5-5"}}, {{{"first", 0}}, {{"first", 101}}, {{"partition", "9-6"}}}));

  r.add(expensive(
      {"bench",
       "korf24",
       "Korf & Felner's 50 24-puzzle instances, solved optimally with 6-6-6-6 databases",
       {count_param("first", "Only the first K instances"),
        count_param("shortest", "Only the K instances with the shortest optima"),
        option("file", ParamType::HostPath,
               "Instance file (default: korf24.txt in the data directory)"),
        with_range(option("threads", ParamType::Unsigned,
                          "Search threads per instance (default: every hardware thread)"),
                   1, 64),
        with_range(option("jobs", ParamType::Unsigned, "Instances solved at once", 1), 1, 64)},
       [](const Request& q, Session& s) { return run_bench(q, s, 5, "korf24.txt"); },
       true},
      {{"first", 1}}, {{{"shortest", 0}}, {{"first", 51}}, {{"first", 1}, {"shortest", 1}}}));
}

}  // namespace permuzzle::api
