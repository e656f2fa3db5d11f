// permuzzle: permutation puzzles and permutation groups from the command line.
#include "cli.hpp"

int main(int argc, char** argv) {
  // The program has the web server; the Python module's command line (run.cpp) has not.
  return permuzzle::cli::run_cli(argc, argv, permuzzle::cli::add_serve_command);
}
