#include "cli.hpp"

namespace permuzzle::cli {

void add_bench_puzzles(CLI::App&, Context&) {}

}  // namespace permuzzle::cli
