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

// Names the first unknown command word with a suggestion ("unknown command 'produc'; did you
// mean 'product'?"), before CLI11 reports it in its own words. Returns "" when all is known.
std::string unknown_command(int argc, char** argv, const CLI::App& app) {
  const CLI::App* current = &app;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word == "--") return "";
    if (!word.empty() && word[0] == '-') {
      // Options of the top level that take a value: skip the value too.
      if ((word == "--tables" || word == "--time-limit" || word == "--memory") && i + 1 < argc) ++i;
      continue;
    }
    auto subs = current->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) return "";  // past the verb: positional arguments
    std::vector<std::string> names;
    for (const CLI::App* sub : subs) {
      if (sub->get_name() == word) {
        current = sub;
        names.clear();
        break;
      }
      names.push_back(sub->get_name());
    }
    if (names.empty()) continue;
    std::string hint = api::closest_name(word, names);
    return "unknown command '" + word + "'" +
           (hint.empty() ? "; run with --help for the list" : "; did you mean '" + hint + "'?");
  }
  return "";
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
  app.add_option("--tables", ctx.tables,
                 "Directory of cached tables, or 'none' for no cache at all (default: "
                 "$PERMUZZLE_TABLES, else $XDG_CACHE_HOME/permuzzle, else ~/.cache/permuzzle)");

  CLI::Option* time_limit = app.add_option(
      "--time-limit", ctx.time_limit,
      "Stop any command after this many seconds (exit 3, with what it knows by then: the best "
      "solution so far, a proven lower bound, a partial BFS histogram)");
  app.add_option("--memory", ctx.memory_mb,
                 "Memory budget in MB for tables, frontiers and lists: a command that would need "
                 "more is refused before it starts (default: 3/4 of physical memory)")
      ->check(CLI::PositiveNumber);
  const api::Registry registry = api::make_registry();
  ctx.registry = &registry;
  add_demo_command(app, ctx);
  add_commands_command(app, ctx);
  add_registry_commands(app, ctx);
  add_serve_command(app, ctx);
  add_sliding_play(*app.get_subcommand("sliding"), ctx);
  add_loopover_cli(app, ctx);
  add_triloop_play(app, ctx);
  add_hanoi_play(*app.get_subcommand("hanoi"), ctx);

  if (argc == 1) {
    std::cout << app.help();
    return 0;
  }
  if (std::string unknown = unknown_command(argc, argv, app); !unknown.empty()) {
    std::cerr << "permuzzle: error: " << unknown << "\n";
    return 2;
  }
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
  if (time_limit->count() > 0) {
    if (auto ok = check_time_limit(ctx.time_limit, "--time-limit"); !ok) {
      std::cerr << "permuzzle: error: " << ok.error().describe() << "\n";
      return 2;
    }
  }
  if (!ctx.action) {
    std::cerr << "permuzzle: error: the command needs a subcommand; run with --help for usage\n";
    return 2;
  }
  TableStore store(ctx.tables == "none" ? std::string()
                   : ctx.tables.empty() ? api::default_tables_dir()
                                        : ctx.tables);
  ctx.store = &store;
  Result<CommandOutput> result = ctx.action();
  if (!result) {
    end_progress(ctx);
    std::cerr << "permuzzle: error: " << result.error().describe() << "\n";
    return exit_code(result.error());
  }
  end_progress(ctx);
  if (result->already_printed) return 0;
  if (ctx.json) {
    // Invalid UTF-8 from the user's input is replaced, never an exception.
    std::cout << result->json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    std::cout << result->text;
    if (!result->text.empty() && result->text.back() != '\n') std::cout << "\n";
  }
  std::cout.flush();
  if (!std::cout) return 1;
  if (result->stopped) {
    std::cerr << "permuzzle: stopped: " << result->stopped->describe() << "\n";
    return exit_code(*result->stopped);
  }
  return 0;
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
