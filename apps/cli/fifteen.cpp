// `permuzzle fifteen ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_fifteen_command(CLI::App&, Context&) {}
std::string demo_fifteen() {
  return {};
}

}  // namespace permuzzle::cli
