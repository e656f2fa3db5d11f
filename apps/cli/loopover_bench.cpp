#include "cli.hpp"

namespace permuzzle::cli {

void add_bench_loopover(CLI::App&, Context&) {}

}  // namespace permuzzle::cli
