// `permuzzle triloop ...` (not yet implemented: registers nothing).
#include "cli.hpp"

namespace permuzzle::cli {

void add_triloop_command(CLI::App&, Context&) {}
std::string demo_triloop() {
  return {};
}

}  // namespace permuzzle::cli
