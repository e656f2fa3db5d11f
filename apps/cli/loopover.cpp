// `permuzzle loopover ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_loopover_command(CLI::App&, Context&) {}
std::string demo_loopover() {
  return {};
}

}  // namespace permuzzle::cli
