// `permuzzle binary ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_binary_command(CLI::App&, Context&) {}
std::string demo_binary() {
  return {};
}

}  // namespace permuzzle::cli
