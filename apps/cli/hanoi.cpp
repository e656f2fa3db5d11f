// `permuzzle hanoi ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_hanoi_command(CLI::App&, Context&) {}
std::string demo_hanoi() {
  return {};
}

}  // namespace permuzzle::cli
