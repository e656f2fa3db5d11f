// Google Benchmark: binary swap puzzle solve (flow + sequence + replay) and Hanoi BFS.
#include <benchmark/benchmark.h>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/binary/board.hpp"
#include "permuzzle/puzzles/binary/solver.hpp"
#include "permuzzle/puzzles/hanoi/graph.hpp"
#include "permuzzle/puzzles/hanoi/solver.hpp"

using namespace permuzzle;

static void BM_BinarySolve(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Rng rng(1);
  binary::Board start = binary::random_board(n, n, static_cast<std::size_t>(n) * n / 2, rng);
  binary::Board goal = binary::default_goal(start);
  for (auto _ : state) {
    auto sol = binary::solve(start, goal);
    if (!sol || !sol->verified) state.SkipWithError("not verified");
    benchmark::DoNotOptimize(sol);
  }
}
BENCHMARK(BM_BinarySolve)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

static void BM_BinaryNetworkSimplex(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Rng rng(2);
  binary::Board start = binary::random_board(n, n, static_cast<std::size_t>(n) * n / 2, rng);
  binary::Board goal = binary::random_board(n, n, static_cast<std::size_t>(n) * n / 2, rng);
  for (auto _ : state) benchmark::DoNotOptimize(binary::min_swaps_flow(start, goal));
}
BENCHMARK(BM_BinaryNetworkSimplex)->Arg(30)->Arg(60)->Unit(benchmark::kMillisecond);

static void BM_HanoiBfs(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hanoi::bfs_distances(hanoi::tower(d, 3, 0)));
}
BENCHMARK(BM_HanoiBfs)->Arg(10)->Arg(12)->Unit(benchmark::kMillisecond);

