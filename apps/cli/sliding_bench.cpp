// `permuzzle bench korf100` and `permuzzle bench korf24`: Korf's 15-puzzle instances (1985) and
// Korf & Felner's 24-puzzle instances (2002) solved optimally with additive pattern databases,
// every length checked against the published optimum.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <fstream>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <sstream>
#include <thread>

#include "cli.hpp"
#include "permuzzle/core/table_cache.hpp"
#include "permuzzle/puzzles/sliding/instances.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"

namespace permuzzle::cli {

namespace {

// The whole instance file, or an I/O error naming it.
Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return make_error("cannot read the instance file " + path, path, Error::NO_POSITION,
                      ErrorKind::Io);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct BenchArgs {
  int first = 0;
  int shortest = 0;
  std::string partition;
  std::string tables;
  std::string file;
  int threads = 0;  // search threads per instance (0 = default)
  int jobs = 0;     // instances solved at once (0 = default)
};

// Instances solved at once by default on 4x4: every core, at most 2 (this machine's size).
int hardware_threads() {
  return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 2u));
}

Result<CommandOutput> run_bench(const Context& ctx, const BenchArgs& a, int width,
                                const std::string& file_name) {
  const int cells = width * width;
  const std::string path = a.file.empty() ? data_dir() + "/" + file_name : a.file;
  auto text_of_file = read_file(path);
  if (!text_of_file) return text_of_file.error();
  auto loaded = sliding::parse_benchmark_instances(*text_of_file, {width, width}, path);
  if (!loaded) return loaded.error();
  std::vector<sliding::BenchmarkInstance> instances = std::move(*loaded);
  const int total = static_cast<int>(instances.size());
  if (a.first < 0 || a.first > total) {
    return make_error(fmt::format("--first must be between 1 and {}", total),
                      std::to_string(a.first));
  }
  if (a.shortest < 0 || a.shortest > total) {
    return make_error(fmt::format("--shortest must be between 1 and {}", total),
                      std::to_string(a.shortest));
  }
  if (a.first && a.shortest) return make_error("give either --first or --shortest, not both");
  if (a.first) instances.resize(a.first);
  if (a.shortest) {
    std::stable_sort(instances.begin(), instances.end(),
                     [](const sliding::BenchmarkInstance& x, const sliding::BenchmarkInstance& y) {
                       return x.published < y.published;
                     });
    instances.resize(a.shortest);
  }

  // Step 1. Tables (loaded or built once).
  sliding::PdbOptions options;
  options.tables = &table_store(a.tables);
  options.partition = a.partition;
  // Default: on 4x4 many short solves run side by side, one thread each; on 5x5 one long solve
  // at a time uses every thread (search_threads 0 = the solver's default).
  options.search_threads = a.threads > 0 ? a.threads : (width == 4 ? 1 : 0);
  options.on_table_progress = [&ctx](const std::string& what, double fraction) {
    bool transient = what.rfind("building", 0) == 0;
    progress(ctx, transient ? fmt::format("{} ({:.0f}%)", what, 100 * fraction) : what, transient);
  };
  const auto t0 = std::chrono::steady_clock::now();
  sliding::BoardSize size{width, width};
  auto solver = sliding::PdbSolver::create(size, options);
  if (!solver) return solver.error();
  const double table_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  end_progress(ctx);

  // Step 2. Korf's goal has the blank first.
  sliding::Position goal(cells);
  std::iota(goal.begin(), goal.end(), 0);
  std::string text = fmt::format("{} with pattern databases {} (tables ready in {:.2f} s)\n",
                                 file_name, solver->partition(), table_seconds);
  text += fmt::format("{:>4} {:>6} {:>9} {:>6} {:>14} {:>11}\n", "#", "length", "published",
                      "bound", "nodes", "seconds");
  // Step 3. Solve: `jobs` workers take the instances in order (each solve may itself use
  // several threads); results are kept per instance and reported in order.
  auto process_cpu = [] {  // all threads
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  };
  const int count = static_cast<int>(instances.size());
  std::vector<std::optional<Result<sliding::SolveResult>>> solved(count);
  std::atomic<int> next{0};
  std::mutex progress_mutex;
  auto work = [&] {
    for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      const sliding::BenchmarkInstance& inst = instances[i];
      solved[i] = solver->solve(inst.start, goal, [&](const sliding::SearchProgress& p) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        progress(ctx,
                 fmt::format("instance {}: no solution shorter than {}, {} nodes, {:.1f} s",
                             inst.line, p.bound, p.nodes, p.seconds),
                 true);
      });
      if (width == 5 && *solved[i]) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        end_progress(ctx);
        progress(ctx, fmt::format("instance {}: {} moves (published {}), {} nodes, {:.1f} s",
                                  inst.line, (*solved[i])->moves.size(), inst.published,
                                  (*solved[i])->nodes, (*solved[i])->seconds));
      }
    }
  };
  const int jobs = std::clamp(a.jobs > 0 ? a.jobs : (width == 4 ? hardware_threads() : 1), 1,
                              std::max(1, count));
  const double cpu0 = process_cpu();
  const auto wall0 = std::chrono::steady_clock::now();
  {
    std::vector<std::thread> pool;
    for (int j = 1; j < jobs; ++j) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
  }
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const double cpu_seconds = process_cpu() - cpu0;

  // Step 4. Check and report.
  double bound_sum = 0, seconds = 0;
  bool all_match = true;
  std::uint64_t nodes = 0;
  std::string node_list;
  for (int i = 0; i < count; ++i) {
    const sliding::BenchmarkInstance& inst = instances[i];
    if (!*solved[i]) return solved[i]->error();
    const sliding::SolveResult& r = **solved[i];
    auto bound = solver->bound(inst.start, goal);
    if (!bound) return bound.error();
    bound_sum += bound->total;
    int length = static_cast<int>(r.moves.size());
    bool match = length == inst.published && r.optimal;
    all_match = all_match && match;
    nodes += r.nodes;
    seconds += r.seconds;
    node_list += std::to_string(r.nodes) + ",";
    text +=
        fmt::format("{:>4} {:>6} {:>9} {:>6} {:>14} {:>11.4f}{}\n", inst.line, length,
                    inst.published, bound->total, r.nodes, r.seconds, match ? "" : "  MISMATCH");
  }
  end_progress(ctx);
  const std::string signature = fmt::format(
      "{:016x}",
      fnv1a64(reinterpret_cast<const std::uint8_t*>(node_list.data()), node_list.size()));
  text += fmt::format(
      "{} instances, lengths {}, total {:.3f} s wall ({:.3f} ms per instance; {} at once, {} "
      "search threads each; solve times add up to {:.3f} s, CPU {:.3f} s), {} nodes, node "
      "signature {}, mean initial bound {:.3f}\n",
      count, all_match ? "all match the published optima" : "DO NOT all match", wall_seconds,
      1000 * wall_seconds / std::max(1, count), jobs, solver->search_threads(), seconds,
      cpu_seconds, nodes, signature, bound_sum / std::max(1, count));
  CommandOutput out;
  out.text = text;
  out.json = {{"instances", count},
              {"lengths_match", all_match},
              {"total_seconds", wall_seconds},
              {"sum_instance_seconds", seconds},
              {"cpu_seconds", cpu_seconds},
              {"nodes", nodes},
              {"signature", signature},
              {"jobs", jobs},
              {"threads", solver->search_threads()},
              {"table_seconds", table_seconds}};
  return out;
}

}  // namespace

void add_bench_sliding(CLI::App& bench, Context& ctx) {
  auto a100 = std::make_shared<BenchArgs>();
  auto* korf100 = bench.add_subcommand(
      "korf100", "Korf's 100 random 15-puzzle instances, solved optimally with pattern databases");
  korf100->add_option("--first", a100->first, "Only the first K instances");
  korf100->add_option("--partition", a100->partition,
                      "Pattern databases: 7-8 (default), 6-6-3, 5-5-5");
  korf100->add_option("--tables", a100->tables, "Table cache directory (default: user cache)");
  korf100->add_option("--file", a100->file, "Instance file (default: data/korf100.txt)");
  korf100->add_option("--threads", a100->threads, "Search threads per instance (default 1)")
      ->check(CLI::Range(1, 64));
  korf100
      ->add_option("--jobs", a100->jobs, "Instances solved at once (default: all cores, at most 2)")
      ->check(CLI::Range(1, 64));
  set_action(ctx, korf100, [&ctx, a100]() { return run_bench(ctx, *a100, 4, "korf100.txt"); });

  auto a24 = std::make_shared<BenchArgs>();
  auto* korf24 = bench.add_subcommand(
      "korf24", "Korf & Felner's 50 24-puzzle instances, solved optimally with 6-6-6-6 databases");
  korf24->add_option("--first", a24->first, "Only the first K instances");
  korf24->add_option("--shortest", a24->shortest, "Only the K instances with the shortest optima");
  korf24->add_option("--tables", a24->tables, "Table cache directory (default: user cache)");
  korf24->add_option("--file", a24->file, "Instance file (default: data/korf24.txt)");
  korf24
      ->add_option("--threads", a24->threads,
                   "Search threads per instance (default: all cores, at most 2)")
      ->check(CLI::Range(1, 64));
  korf24->add_option("--jobs", a24->jobs, "Instances solved at once (default 1)")
      ->check(CLI::Range(1, 64));
  set_action(ctx, korf24, [&ctx, a24]() { return run_bench(ctx, *a24, 5, "korf24.txt"); });
}

}  // namespace permuzzle::cli
