// `permuzzle cube ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_cube_command(CLI::App&, Context&) {}
std::string demo_cube() {
  return {};
}

}  // namespace permuzzle::cli
