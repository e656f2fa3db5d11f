// permuzzle: permutation puzzles and permutation groups from the command line.
#include <cstdio>
#include <iostream>
#include <new>

#include "cli.hpp"

namespace permuzzle::cli {
namespace {

// Exit codes: 0 success, 1 I/O or internal failure, 2 bad input (including usage errors),
// 3 request over a limit (e.g. a group too large to list).
int exit_code(const Error& error) {
  switch (error.kind) {
    case ErrorKind::InvalidInput:
    case ErrorKind::Unsolvable:
      return 2;
    case ErrorKind::LimitExceeded:
      return 3;
    case ErrorKind::Io:
    case ErrorKind::Internal:
    case ErrorKind::Cancelled:
      return 1;
  }
  return 1;
}

int run(int argc, char** argv) {
  CLI::App app{"permuzzle: permutation puzzles and permutation groups, solved exactly.",
               "permuzzle"};
  app.require_subcommand(1);
  app.fallthrough();  // lets --json and --quiet follow the subcommand's own arguments
  app.set_version_flag("--version", "permuzzle " PERMUZZLE_VERSION);
  Context ctx;
  app.add_flag("--json", ctx.json, "Print exactly one JSON object on stdout");
  app.add_flag("-q,--quiet", ctx.quiet, "No progress messages on stderr");

  add_demo_command(app, ctx);
  add_perm_command(app, ctx);
  add_group_command(app, ctx);
  add_sliding_command(app, ctx);
  add_loopover_command(app, ctx);
  add_triloop_command(app, ctx);
  add_hanoi_command(app, ctx);
  add_binary_command(app, ctx);
  add_fifteen_command(app, ctx);
  add_cube_command(app, ctx);
  add_bench_command(app, ctx);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "permuzzle: error: " << e.what() << "\n"
              << "Run with --help for usage.\n";
    return 2;
  }
  if (!ctx.action) {
    std::cerr << "permuzzle: error: the command needs a subcommand; run with --help for usage\n";
    return 2;
  }
  Result<CommandOutput> result = ctx.action();
  if (!result) {
    end_progress(ctx);
    std::cerr << "permuzzle: error: " << result.error().describe() << "\n";
    return exit_code(result.error());
  }
  end_progress(ctx);
  if (result->already_printed) return 0;
  if (ctx.json) {
    std::cout << result->json.dump() << "\n";
  } else {
    std::cout << result->text;
    if (!result->text.empty() && result->text.back() != '\n') std::cout << "\n";
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace
}  // namespace permuzzle::cli

int main(int argc, char** argv) {
  try {
    return permuzzle::cli::run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "permuzzle: error: out of memory (the request needs more memory than this "
                 "machine has)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "permuzzle: internal error: " << e.what() << "\n";
    return 1;
  }
}
