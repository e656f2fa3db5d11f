// `permuzzle bench ...`: instance runners that measure and check (targets live here, not in
// timed unit tests). Each puzzle registers its own benchmark subcommands.
#include "cli.hpp"

namespace permuzzle::cli {

void add_bench_command(CLI::App& bench_family, Context& ctx) {
  auto* bench = &bench_family;
  add_bench_groups(*bench, ctx);
  add_bench_sliding(*bench, ctx);
  add_bench_puzzles(*bench, ctx);
}

}  // namespace permuzzle::cli
