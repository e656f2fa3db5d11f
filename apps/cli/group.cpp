// `permuzzle group ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_group_command(CLI::App&, Context&) {}
std::string demo_groups() {
  return {};
}

}  // namespace permuzzle::cli
