// Google Benchmark cases for the pattern-database solver: Korf's 100 15-puzzle instances, one
// instance per iteration (iterations = instances, so the mean is the per-instance mean), and the
// cost of one bound evaluation. Tables come from $PERMUZZLE_TABLES or ~/.cache/permuzzle (built
// there on first use, as `permuzzle bench korf100` does).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>

#include "bench_counters.hpp"
#include "permuzzle/puzzles/sliding/instances.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"

namespace {

using permuzzle::sliding::PdbOptions;
using permuzzle::sliding::PdbSolver;
using permuzzle::sliding::Position;

std::string tables_dir() {
  if (const char* d = std::getenv("PERMUZZLE_TABLES"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/permuzzle";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/permuzzle";
  return ".permuzzle-tables";
}

const std::vector<Position>& korf100() {
  static const std::vector<Position> all = [] {
    std::vector<Position> out;
    std::ifstream in(std::string(PERMUZZLE_DATA_DIR) + "/korf100.txt");
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = permuzzle::sliding::parse_benchmark_instances(text.str(), {4, 4}, "korf100.txt");
    if (parsed)
      for (auto& inst : *parsed) out.push_back(inst.start);
    return out;
  }();
  return all;
}

const PdbSolver* solver(const std::string& partition) {
  static std::map<std::string, std::unique_ptr<PdbSolver>> cache;
  static permuzzle::TableStore store(tables_dir());
  auto& slot = cache[partition];
  if (!slot) {
    PdbOptions o;
    o.tables = &store;
    o.partition = partition;
    o.search_threads =
        1;  // per-instance cost on one core (the CLI bench shows the parallel figures)
    auto s = PdbSolver::create({4, 4}, o);
    if (!s) return nullptr;
    slot = std::make_unique<PdbSolver>(std::move(*s));
  }
  return slot.get();
}

Position blank_first() {
  Position g(16);
  std::iota(g.begin(), g.end(), 0);
  return g;
}

void solve_korf(benchmark::State& state, const std::string& partition) {
  const PdbSolver* s = solver(partition);
  if (!s || korf100().size() != 100) {
    state.SkipWithError("tables or data/korf100.txt unavailable");
    return;
  }
  const Position goal = blank_first();
  std::size_t i = 0;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    auto r = s->solve(korf100()[i++ % 100], goal);
    if (!r) {
      state.SkipWithError("solve failed");
      return;
    }
    nodes += r->nodes;
  }
  permuzzle::bench::set_node_counters(state, nodes);
}

void BM_Korf100_78(benchmark::State& state) {
  solve_korf(state, "7-8");
}
void BM_Korf100_663(benchmark::State& state) {
  solve_korf(state, "6-6-3");
}
void BM_Korf100_555_first10(benchmark::State& state) {
  solve_korf(state, "5-5-5");
}

void BM_PdbBound_78(benchmark::State& state) {
  const PdbSolver* s = solver("7-8");
  if (!s) {
    state.SkipWithError("tables unavailable");
    return;
  }
  const Position goal = blank_first();
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(s->bound(korf100()[i++ % 100], goal));
}

BENCHMARK(BM_Korf100_78)->Iterations(100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Korf100_663)->Iterations(100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Korf100_555_first10)->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PdbBound_78)->Unit(benchmark::kMicrosecond);

}  // namespace
