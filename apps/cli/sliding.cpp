// `permuzzle sliding ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_sliding_command(CLI::App&, Context&) {}
std::string demo_sliding() {
  return {};
}

}  // namespace permuzzle::cli
