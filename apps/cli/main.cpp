// permuzzle: permutation puzzles and permutation groups from the command line.
//
// The program is two executables. This one is the command line without the web server and
// Open MPI, so that neither library (nor OpenSSL, which cpp-httplib loads) is loaded when a
// command starts: `permuzzle --version` answers in about a millisecond. `permuzzle serve` and
// runs under mpirun go on in permuzzle-full (main_full.cpp), installed beside it, which has both:
// the same arguments, by execv.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace {

// permuzzle-full in this program's own directory.
std::string full_program_path() {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "permuzzle-full";
  const std::string path(self, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/') + 1) + "permuzzle-full";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace permuzzle::cli;
  if (launched_by_mpi() || command_word(argc, argv) == "serve") {
    const std::string full = full_program_path();
    ::execv(full.c_str(), argv);
    std::fprintf(stderr,
                 "permuzzle: error: cannot start %s (%s): `permuzzle serve` and runs under "
                 "mpirun go on in it, beside permuzzle\n",
                 full.c_str(), std::strerror(errno));
    return 1;
  }
  return run_cli(argc, argv, [](CLI::App& app, Context& ctx) {
    add_serve_placeholder(app, ctx);
    for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->get_name() == "bench") add_startup_bench(*sub, ctx);
    }
  });
}
