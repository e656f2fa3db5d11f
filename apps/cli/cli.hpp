// Shared plumbing of the `permuzzle` command-line front end.
//
// Each subcommand lives in its own file and registers itself with an add_*_command function.
// A subcommand does not compute while CLI11 parses: its callback stores a Handler in the
// Context, and main runs that handler after parsing succeeded. A handler returns the full
// output (text and JSON) or an Error, so a failing command prints nothing on stdout; main maps
// errors to exit codes and prints exactly one JSON object when --json is given.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/result.hpp"

namespace permuzzle::cli {

struct CommandOutput {
  std::string text;                                // printed without --json
  nlohmann::json json = nlohmann::json::object();  // printed with --json
  bool already_printed = false;                    // interactive commands (play) print as they go
};

using Handler = std::function<Result<CommandOutput>()>;

struct Context {
  bool json = false;   // --json: one JSON object on stdout
  bool quiet = false;  // --quiet: no progress lines on stderr
  std::string tables;  // --tables DIR|none ("" = the default directory)
  Handler action;      // set by the parsed subcommand's callback
  const api::Registry* registry = nullptr;
  TableStore* store = nullptr;  // the process's table store (set before the action runs)
  // A session for one registry call: the store, progress on stderr, the data directory.
  api::Session session() const;
};

// Makes `sub` store `handler` as the action to run after parsing.
inline void set_action(Context& ctx, CLI::App* sub, Handler handler) {
  sub->callback([&ctx, handler = std::move(handler)] { ctx.action = handler; });
}

// Progress line on stderr (suppressed by --quiet). On a terminal a `transient` line overwrites
// itself with '\r'; on anything else (a log, a pipe) lines are plain, without '\r' or ANSI codes,
// and transient ones are printed at most once a second.
void progress(const Context& ctx, const std::string& line, bool transient = false);
void end_progress(const Context& ctx);  // finishes a transient line

// Builds the subcommands of every registry command under `app` (one subcommand per family,
// one per verb), each storing an action that validates the arguments and calls the registry.
void add_registry_commands(CLI::App& app, Context& ctx);

// One subcommand (or group of subcommands) per file.
void add_sliding_command(CLI::App& app, Context& ctx);  // sliding.cpp
// The CLI-only parts of registry families (interactive play), added to the family's subcommand.
void add_loopover_cli(CLI::App& app, Context& ctx);     // play_loopover.cpp (play, apply --moves)
void add_triloop_play(CLI::App& app, Context& ctx);     // play_triloop.cpp
void add_hanoi_command(CLI::App& app, Context& ctx);    // hanoi.cpp
void add_binary_command(CLI::App& app, Context& ctx);   // binary.cpp
void add_fifteen_command(CLI::App& app, Context& ctx);  // fifteen.cpp
void add_cube_command(CLI::App& app, Context& ctx);     // cube.cpp
void add_bench_command(CLI::App& bench, Context& ctx);  // bench.cpp: legacy benches
void add_demo_command(CLI::App& app, Context& ctx);     // demo.cpp

// `permuzzle bench` has one subcommand per benchmark, registered by the puzzle's file.
void add_bench_sliding(CLI::App& bench, Context& ctx);  // sliding_bench.cpp
void add_bench_groups(CLI::App& bench, Context& ctx);   // group_bench.cpp
void add_bench_puzzles(CLI::App& bench, Context& ctx);  // puzzles_bench.cpp (binary, hanoi, ...)

// `permuzzle demo` prints these sections in order; each returns real computed results as
// text (a section that has nothing yet returns an empty string and is skipped).
std::string demo_sliding();  // sliding.cpp
std::string demo_hanoi();    // hanoi.cpp
std::string demo_binary();   // binary.cpp
std::string demo_fifteen();  // fifteen.cpp
std::string demo_cube();     // cube.cpp

// Default directory of the committed data files (Korf's instances).
std::string data_dir();
// Default directory for cached tables: $PERMUZZLE_TABLES, else $XDG_CACHE_HOME/permuzzle,
// else $HOME/.cache/permuzzle.
std::string default_tables_dir();

}  // namespace permuzzle::cli
