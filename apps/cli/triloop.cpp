// `permuzzle triloop ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_triloop_command(CLI::App&, Context&) {}

}  // namespace permuzzle::cli
