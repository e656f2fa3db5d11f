#include "cli.hpp"

namespace permuzzle::cli {

void add_bench_sliding(CLI::App&, Context&) {}

}  // namespace permuzzle::cli
