// Fast multi-stage Loopover solver: time per solve with the tables built once (the targets
// are measured by `permuzzle bench loopover-fast`, which also reports lengths).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/fast_solver.hpp"

namespace {

using namespace permuzzle::loopover;

void solve_random(benchmark::State& state, BoardSize size) {
  FastSolveOptions options;
  options.max_table_entries = 6'000'000;  // keeps the one-off build short
  static std::unique_ptr<FastSolver> solver;
  static BoardSize built{0, 0};
  if (!solver || !(built == size)) {
    auto created = FastSolver::create(size, options);
    solver = std::make_unique<FastSolver>(std::move(created.value()));
    built = size;
  }
  permuzzle::Rng rng(1);
  long long moves = 0, solves = 0;
  for (auto _ : state) {
    Position p(size.cells());
    for (int i = 0; i < size.cells(); ++i) p[i] = static_cast<std::uint8_t>(i + 1);
    rng.shuffle(p.begin(), p.end());
    if (size.rows % 2 == 1 && size.cols % 2 == 1) {
      int inv = 0;
      for (int i = 0; i < size.cells(); ++i)
        for (int j = i + 1; j < size.cells(); ++j) inv += p[i] > p[j];
      if (inv % 2) std::swap(p[0], p[1]);
    }
    auto res = solver->solve(p, options);
    if (!res) state.SkipWithError("solve failed");
    moves += res->length;
    ++solves;
  }
  state.counters["mean_length"] = static_cast<double>(moves) / std::max<long long>(solves, 1);
}

void BM_LoopoverFast4x4(benchmark::State& state) { solve_random(state, {4, 4}); }
void BM_LoopoverFast5x5(benchmark::State& state) { solve_random(state, {5, 5}); }
BENCHMARK(BM_LoopoverFast4x4)->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_LoopoverFast5x5)->Unit(benchmark::kMillisecond)->Iterations(20);

}  // namespace
