// Google Benchmark cases for the sliding-puzzle solver without pattern databases (IDA* with
// Manhattan / linear conflict / last move, and the bidirectional variant): seeded random 3x3
// positions, one per iteration, and the spec's 46-move 15-puzzle example.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_counters.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/solver.hpp"

namespace {

using namespace permuzzle::sliding;

const std::vector<Position>& random_3x3() {
  static const std::vector<Position> all = [] {
    std::vector<Position> out;
    permuzzle::SplitMixRng rng(2026);
    for (int i = 0; i < 1000; ++i)
      out.push_back(random_position({3, 3}, standard_goal({3, 3}), rng));
    return out;
  }();
  return all;
}

void solve_3x3(benchmark::State& state, Heuristic heuristic, bool bidirectional) {
  SolveOptions o;
  o.heuristic = heuristic;
  o.bidirectional = bidirectional;
  o.perimeter_states = 20'000;
  const Position goal = standard_goal({3, 3});
  std::size_t i = 0;
  std::uint64_t nodes = 0, moves = 0;
  for (auto _ : state) {
    auto r = solve({3, 3}, random_3x3()[i++ % random_3x3().size()], goal, o);
    if (!r) {
      state.SkipWithError("solve failed");
      return;
    }
    nodes += r->nodes;
    moves += r->moves.size();
  }
  state.counters["nodes"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kAvgIterations);
  state.counters["length"] =
      benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kAvgIterations);
}

void BM_Sliding3x3_Manhattan(benchmark::State& state) {
  solve_3x3(state, Heuristic::Manhattan, false);
}
void BM_Sliding3x3_LinearConflict(benchmark::State& state) {
  solve_3x3(state, Heuristic::LinearConflict, false);
}
void BM_Sliding3x3_Bidirectional(benchmark::State& state) {
  solve_3x3(state, Heuristic::LinearConflict, true);
}

// The spec example (optimal length 46) with linear conflict + last move.
void BM_Sliding4x4_SpecExample_LinearConflict(benchmark::State& state) {
  auto start = parse_position("11 2 12 1 / 6 7 3 8 / 9 5 0 4 / 14 10 13 15", BoardSize{4, 4});
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    auto r = solve({4, 4}, *start, standard_goal({4, 4}));
    if (!r || r->moves.size() != 46) {
      state.SkipWithError("solve failed or not 46 moves");
      return;
    }
    nodes += r->nodes;
  }
  permuzzle::bench::set_node_counters(state, nodes);
}

BENCHMARK(BM_Sliding3x3_Manhattan)->Iterations(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sliding3x3_LinearConflict)->Iterations(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sliding3x3_Bidirectional)->Iterations(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sliding4x4_SpecExample_LinearConflict)->Iterations(5)->Unit(benchmark::kMillisecond);

}  // namespace
