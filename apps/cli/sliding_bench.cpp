// `permuzzle bench korf100` and `permuzzle bench korf24`: Korf's 15-puzzle instances (1985) and
// Korf & Felner's 24-puzzle instances (2002) solved optimally with additive pattern databases,
// every length checked against the published optimum.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <memory>
#include <numeric>
#include <sstream>

#include "cli.hpp"
#include "permuzzle/sliding/pdb.hpp"
#include "permuzzle/table_cache.hpp"

namespace permuzzle::cli {

namespace {

struct Instance {
  int number = 0;  // 1-based line number
  sliding::Position start;
  int published = 0;
};

Result<std::vector<Instance>> read_instances(const std::string& path, int cells) {
  std::ifstream in(path);
  if (!in)
    return make_error("cannot read the instance file " + path, path, Error::NO_POSITION,
                      ErrorKind::Io);
  std::vector<Instance> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream ss(line);
    Instance inst;
    inst.number = number;
    int v;
    while (ss >> v) {
      if (static_cast<int>(inst.start.size()) < cells) {
        if (v < 0 || v >= cells)
          return make_error(fmt::format("{} line {}: tile {} out of range", path, number, v), line);
        inst.start.push_back(static_cast<std::uint8_t>(v));
      } else if (inst.published == 0) {
        inst.published = v;
      } else {
        return make_error(fmt::format("{} line {}: expected {} tiles and the optimal length", path,
                                      number, cells),
                          line);
      }
    }
    if (static_cast<int>(inst.start.size()) != cells || inst.published <= 0) {
      return make_error(
          fmt::format("{} line {}: expected {} tiles and the optimal length", path, number, cells),
          line);
    }
    out.push_back(std::move(inst));
  }
  return out;
}

struct BenchArgs {
  int first = 0;
  int shortest = 0;
  std::string partition;
  std::string tables;
  std::string file;
  int threads = 0;
};

Result<CommandOutput> run_bench(const Context& ctx, const BenchArgs& a, int width,
                                const std::string& file_name) {
  const int cells = width * width;
  const std::string path = a.file.empty() ? data_dir() + "/" + file_name : a.file;
  auto loaded = read_instances(path, cells);
  if (!loaded) return loaded.error();
  std::vector<Instance> instances = std::move(*loaded);
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
    std::stable_sort(instances.begin(), instances.end(), [](const Instance& x, const Instance& y) {
      return x.published < y.published;
    });
    instances.resize(a.shortest);
  }

  // Step 1. Tables (loaded or built once).
  sliding::PdbOptions options;
  options.tables_dir = a.tables.empty() ? default_tables_dir() : a.tables;
  options.partition = a.partition;
  options.threads = a.threads;
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

  // Step 2. Solve every instance; Korf's goal has the blank first.
  sliding::Position goal(cells);
  std::iota(goal.begin(), goal.end(), 0);
  std::string text = fmt::format("{} with pattern databases {} (tables ready in {:.2f} s)\n",
                                 file_name, solver->partition(), table_seconds);
  text += fmt::format("{:>4} {:>6} {:>9} {:>6} {:>14} {:>11}\n", "#", "length", "published",
                      "bound", "nodes", "seconds");
  double bound_sum = 0;
  bool all_match = true;
  std::uint64_t nodes = 0;
  double seconds = 0, cpu_seconds = 0;
  auto process_cpu = [] {  // all threads: large iterations run on several
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  };
  std::string node_list;
  for (const auto& inst : instances) {
    const double cpu0 = process_cpu();
    auto solved = solver->solve(inst.start, goal, [&](const sliding::SearchProgress& p) {
      progress(ctx,
               fmt::format("instance {}: no solution shorter than {}, {} nodes, {:.1f} s",
                           inst.number, p.bound, p.nodes, p.seconds),
               true);
    });
    if (!solved) return solved.error();
    cpu_seconds += process_cpu() - cpu0;
    auto bound = solver->bound(inst.start, goal);
    if (!bound) return bound.error();
    bound_sum += bound->total;
    int length = static_cast<int>(solved->moves.size());
    bool match = length == inst.published && solved->optimal;
    all_match = all_match && match;
    nodes += solved->nodes;
    seconds += solved->seconds;
    node_list += std::to_string(solved->nodes) + ",";
    text += fmt::format("{:>4} {:>6} {:>9} {:>6} {:>14} {:>11.4f}{}\n", inst.number, length,
                        inst.published, bound->total, solved->nodes, solved->seconds,
                        match ? "" : "  MISMATCH");
    if (width == 5) {
      end_progress(ctx);
      progress(ctx,
               fmt::format("instance {}: {} moves (published {}), {} nodes, {:.1f} s", inst.number,
                           length, inst.published, solved->nodes, solved->seconds));
    }
  }
  end_progress(ctx);
  const std::string signature = fmt::format(
      "{:016x}",
      fnv1a64(reinterpret_cast<const std::uint8_t*>(node_list.data()), node_list.size()));
  text += fmt::format(
      "{} instances, lengths {}, total {:.3f} s ({:.3f} ms per instance), {} nodes, "
      "node signature {}, mean initial bound {:.3f}, solver CPU time {:.3f} s ({} threads)\n",
      instances.size(), all_match ? "all match the published optima" : "DO NOT all match", seconds,
      1000 * seconds / std::max<std::size_t>(1, instances.size()), nodes, signature,
      bound_sum / std::max<std::size_t>(1, instances.size()), cpu_seconds, solver->threads());
  CommandOutput out;
  out.text = text;
  out.json = {{"instances", instances.size()}, {"lengths_match", all_match},
              {"total_seconds", seconds},      {"nodes", nodes},
              {"signature", signature},        {"cpu_seconds", cpu_seconds},
              {"threads", solver->threads()},  {"table_seconds", table_seconds}};
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
  korf100->add_option("--threads", a100->threads,
                      "Search threads per instance (default: all cores, at most 2)");
  set_action(ctx, korf100, [&ctx, a100]() { return run_bench(ctx, *a100, 4, "korf100.txt"); });

  auto a24 = std::make_shared<BenchArgs>();
  auto* korf24 = bench.add_subcommand(
      "korf24", "Korf & Felner's 50 24-puzzle instances, solved optimally with 6-6-6-6 databases");
  korf24->add_option("--first", a24->first, "Only the first K instances");
  korf24->add_option("--shortest", a24->shortest, "Only the K instances with the shortest optima");
  korf24->add_option("--tables", a24->tables, "Table cache directory (default: user cache)");
  korf24->add_option("--file", a24->file, "Instance file (default: data/korf24.txt)");
  korf24->add_option("--threads", a24->threads,
                     "Search threads per instance (default: all cores, at most 2)");
  set_action(ctx, korf24, [&ctx, a24]() { return run_bench(ctx, *a24, 5, "korf24.txt"); });
}

}  // namespace permuzzle::cli
