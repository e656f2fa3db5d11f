// Counters shared by the search benchmarks.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>

namespace permuzzle::bench {

// "nodes" per iteration and "nodes_per_s" over the timed loop, from the nodes of all iterations.
inline void set_node_counters(benchmark::State& state, std::uint64_t nodes) {
  state.counters["nodes"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kAvgIterations);
  state.counters["nodes_per_s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

}  // namespace permuzzle::bench
