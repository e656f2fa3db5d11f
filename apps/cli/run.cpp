// The whole `permuzzle` command line as a function (run_cli): the program's main and the Python
// module's `permuzzle.main` (`python -m permuzzle`) both call it, so that they print the same.
#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"

namespace permuzzle::cli {

void set_action(Context& ctx, CLI::App* sub, Handler handler) {
  sub->callback([&ctx, handler = std::move(handler)] { ctx.action = handler; });
}

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

// The global options written before the command whose value is the next word.
bool global_option_takes_value(std::string_view word) {
  return word == "--tables" || word == "--time-limit" || word == "--memory";
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
      if (global_option_takes_value(word) && i + 1 < argc) ++i;
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

// The subcommand of that name, or null.
CLI::App* subcommand(CLI::App& app, const std::string& name) {
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == name) return sub;
  }
  return nullptr;
}

// Step 0 of parsing: list notation reaches every option verbatim. CLI11 (2.1) splits a value
// written "[a,b,c]" into the values a, b, c for every option that takes several values (it must
// allow extra arguments, and then it reads brackets as its own list syntax), so that
// `perm product '[2,3,1]' '(1,2)'` would see the permutations 2, 3 and 1. An argument ending in
// ']' gets a NUL byte appended before parsing (no command-line argument can contain one, so the
// marker never meets the user's own bytes), which stops the split, and every option removes the
// marker again (a transform runs on each value before it is stored).
constexpr char LIST_MARKER = '\0';

std::vector<std::string> marked_arguments(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i) {  // CLI11 takes the arguments in reverse order
    std::string arg = argv[i];
    if (!arg.empty() && arg.back() == ']') arg += LIST_MARKER;
    args.push_back(std::move(arg));
  }
  return args;
}

std::string unmarked(std::string text) {
  std::erase(text, LIST_MARKER);
  return text;
}

void unmark_every_option(CLI::App& app) {
  for (CLI::Option* opt : app.get_options([](const CLI::Option*) { return true; })) {
    opt->transform([](std::string value) { return unmarked(std::move(value)); });
  }
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    unmark_every_option(*sub);
  }
}

// --memory MB: a positive whole number whose byte count fits in 64 bits (a larger one would
// wrap to a small budget; 0 would mean "no budget").
CLI::Validator memory_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        constexpr std::uint64_t MAX_MB = std::numeric_limits<std::uint64_t>::max() >> 20;
        std::uint64_t mb = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), mb);
        if (ec == std::errc() && end == text.data() + text.size() && mb > 0 && mb <= MAX_MB) {
          return "";
        }
        return "'" + text +
               "' is not a memory budget: expected a positive whole number of MB (at most " +
               std::to_string(MAX_MB) + ")";
      },
      "MB");
}

void print_error(const std::string& message) {
  std::cerr << "permuzzle: error: " << terminal_text(message) << "\n";
}

int run(int argc, char** argv, const AddCommands& add_front_end_commands, Cluster* cluster) {
  // `permuzzle --version` answers before anything is built.
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::cout << "permuzzle " PERMUZZLE_VERSION "\n";
    return 0;
  }
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
  app.add_option(
         "--memory", ctx.memory_mb,
         "Memory budget in MB for tables, frontiers and lists: a command that would need "
         "more is refused before it starts (default: 3/4 of the memory the process can have: "
         "physical, its cgroup's limit or ulimit -v, whichever is least)")
      ->check(memory_validator());
  // Only the family the command line names is built (a command starts in a millisecond or
  // two, not after the whole registry and its parsers); without one (help, `commands`, `demo`,
  // `serve`, a mistyped family) every command is.
  const std::string family = command_word(argc, argv);
  const bool one_family = api::is_family(family);
  const api::Registry registry = one_family ? api::make_registry(family) : api::make_registry();
  ctx.registry = &registry;
  if (!one_family) {
    add_demo_command(app, ctx);
    add_commands_command(app, ctx);
    add_manual_command(app, ctx);
  }
  add_registry_commands(app, ctx);
  add_front_end_commands(app, ctx);
  if (CLI::App* sliding = subcommand(app, "sliding")) add_sliding_play(*sliding, ctx);
  if (subcommand(app, "loopover")) add_loopover_cli(app, ctx);
  if (subcommand(app, "triloop")) add_triloop_play(app, ctx);
  if (CLI::App* hanoi = subcommand(app, "hanoi")) add_hanoi_play(*hanoi, ctx);
  unmark_every_option(app);

  if (argc == 1) {
    std::cout << app.help();
    return 0;
  }
  if (std::string unknown = unknown_command(argc, argv, app); !unknown.empty()) {
    print_error(unknown);
    return 2;
  }
  try {
    app.parse(marked_arguments(argc, argv));
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_error(unmarked(e.what()));
    std::cerr << "Run with --help for usage.\n";
    return 2;
  }
  if (time_limit->count() > 0) {
    if (auto ok = check_time_limit(ctx.time_limit, "--time-limit"); !ok) {
      print_error(ok.error().describe());
      return 2;
    }
  }
  if (!ctx.action) {
    print_error("the command needs a subcommand; run with --help for usage");
    return 2;
  }
  // Under mpirun every process runs the command; process 0 speaks for them.
  ctx.cluster = cluster;
  const bool silent = cluster != nullptr && cluster->rank() != 0;
  if (silent) ctx.quiet = true;
  TableStore store(ctx.tables == "none" ? std::string()
                   : ctx.tables.empty() ? api::default_tables_dir()
                                        : ctx.tables);
  ctx.store = &store;
  Result<CommandOutput> result = ctx.action();
  if (!result) {
    end_progress(ctx);
    // Under mpirun every process that fails says so, naming itself (process 0 speaks plainly).
    print_error(silent ? "(process " + std::to_string(cluster->rank()) + " of " +
                             std::to_string(cluster->size()) + ") " + result.error().describe()
                       : result.error().describe());
    return exit_code(result.error());
  }
  end_progress(ctx);
  if (result->already_printed) return 0;
  if (silent) return result->stopped ? exit_code(*result->stopped) : 0;
  if (ctx.json) {
    // Invalid UTF-8 from the user's input is replaced, never an exception.
    std::cout << result->json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    // Text may carry bytes of the user's input (names, moves): never raw control characters.
    std::cout << terminal_text(result->text);
    if (!result->text.empty() && result->text.back() != '\n') std::cout << "\n";
  }
  std::cout.flush();
  if (!std::cout) return 1;
  if (result->stopped) {
    std::cerr << "permuzzle: stopped: " << terminal_text(result->stopped->describe()) << "\n";
    return exit_code(*result->stopped);
  }
  return 0;
}

}  // namespace

std::string command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") return "";
    if (!word.empty() && word[0] == '-') {
      if (global_option_takes_value(word) && i + 1 < argc) ++i;
      continue;
    }
    return std::string(word);
  }
  return "";
}

bool launched_by_mpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}

void add_serve_placeholder(CLI::App& app, Context& ctx) {
  auto* serve = app.add_subcommand("serve", SERVE_HELP);
  serve->allow_extras();
  set_action(ctx, serve, []() -> Result<CommandOutput> {
    return make_error("`serve` runs in permuzzle-full, which permuzzle starts for it", {},
                      Error::NO_POSITION, ErrorKind::Io);
  });
}

// What escapes the registry's own handling (CLI-only commands, the CLI's plumbing) is still an
// answer with the exit code of its kind, as Registry::call does for registry commands.
int run_cli(int argc, char** argv, const AddCommands& add_front_end_commands, Cluster* cluster) {
  int code = 1;
  try {
    code = run(argc, argv, add_front_end_commands, cluster);
  } catch (const std::bad_alloc&) {
    std::cerr << "permuzzle: error: out of memory (the request needs more memory than this "
                 "machine has; ask for less)\n";
    code = 3;
  } catch (const std::length_error&) {
    std::cerr << "permuzzle: error: the request asked for a list larger than memory can hold "
                 "(ask for less)\n";
    code = 3;
  } catch (const std::exception& e) {
    std::cerr << "permuzzle: internal error: " << terminal_text(e.what()) << "\n";
    code = 1;
  }
  // A caller that goes on running (Python) prints after this: what was written must be out.
  std::cout.flush();
  std::fflush(stdout);
  return code;
}

}  // namespace permuzzle::cli
