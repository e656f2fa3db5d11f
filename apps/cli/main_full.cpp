// permuzzle-full: the command line with the web server (`serve`) and Open MPI (runs under
// mpirun). `permuzzle` (main.cpp) starts it for those; every other command runs there alone.
#include "cli.hpp"
#include "mpi_cluster.hpp"

int main(int argc, char** argv) {
  // The program has the web server; the Python module's command line (run.cpp) has not.
  if (!permuzzle::cli::launched_by_mpi()) {
    return permuzzle::cli::run_cli(argc, argv, permuzzle::cli::add_serve_command);
  }
  // Under mpirun: MPI lives exactly as long as the command. A process that failed ends the whole
  // job (the others may be waiting for it in a collective), with its exit code.
  permuzzle::cli::MpiCluster cluster(&argc, &argv);
  const int code = permuzzle::cli::run_cli(argc, argv, permuzzle::cli::add_serve_command, &cluster);
  if (code != 0) cluster.abort(code);
  return code;
}
