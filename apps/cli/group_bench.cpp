#include "cli.hpp"

namespace permuzzle::cli {

void add_bench_groups(CLI::App&, Context&) {}

}  // namespace permuzzle::cli
