// The one main() of permuzzle_bench: every bench/*.cpp registers benchmarks with BENCHMARK().
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
