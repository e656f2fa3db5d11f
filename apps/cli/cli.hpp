// Shared plumbing of the `permuzzle` command-line front end.
//
// Every engine command comes from the API registry (registry_commands.cpp builds the CLI11
// subcommands); only interactive play, demo and the command list are CLI-only. A subcommand
// does not compute while CLI11 parses: its callback stores a Handler in the
// Context, and run_cli runs that handler after parsing succeeded. A handler returns the full
// output (text and JSON) or an Error, so a failing command prints nothing on stdout; run_cli maps
// errors to exit codes and prints exactly one JSON object when --json is given.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/cluster.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/table_store.hpp"

// CLI11 is header-only and every file that includes it compiles its static objects and virtual
// functions again (about 4 s of CPU each at -O3): only the files that build subcommands include
// <CLI/CLI.hpp>; this header names the class alone.
namespace CLI {
class App;
}  // namespace CLI

namespace permuzzle::cli {

struct CommandOutput {
  std::string text;                                // printed without --json
  nlohmann::json json = nlohmann::json::object();  // printed with --json
  bool already_printed = false;                    // interactive commands (play) print as they go
  // The command stopped early (time limit, cancellation): the output above is what it knew;
  // run_cli prints it, then the error, and exits with the error's code.
  std::optional<Error> stopped;
};

using Handler = std::function<Result<CommandOutput>()>;

struct Context {
  bool json = false;            // --json: one JSON object on stdout
  bool quiet = false;           // --quiet: no progress lines on stderr
  std::string tables;           // --tables DIR|none ("" = the default directory)
  double time_limit = 0;        // --time-limit SECONDS (0 = none: run_cli refuses a given 0)
  std::uint64_t memory_mb = 0;  // --memory MB (0 = default_memory_budget())
  Handler action;               // set by the parsed subcommand's callback
  const api::Registry* registry = nullptr;
  TableStore* store = nullptr;  // the process's table store (set before the action runs)
  Cluster* cluster = nullptr;   // the MPI job this process is one of (mpirun), or none
  // A session for one registry call: the store, progress on stderr, the data directory.
  api::Session session() const;
};

// The directory of the data files (Korf's instances, definition and phase files in puzzles/):
// $PERMUZZLE_DATA, else share/permuzzle next to an installed program (<prefix>/bin/permuzzle,
// <prefix>/share/permuzzle), else the source tree's data/ (api::default_data_dir()).
std::string data_dir();

// Makes `sub` store `handler` as the action to run after parsing.
void set_action(Context& ctx, CLI::App* sub, Handler handler);  // run.cpp

// Progress line on stderr (suppressed by --quiet). On a terminal a `transient` line overwrites
// itself with '\r'; on anything else (a log, a pipe) lines are plain, without '\r' or ANSI codes,
// and transient ones are printed at most once a second.
void progress(const Context& ctx, const std::string& line, bool transient = false);
void end_progress(const Context& ctx);  // finishes a transient line

// `text` made safe for a terminal: control characters other than '\n' and '\t' (ESC, CR, BEL,
// DEL, the C1 controls U+0080..U+009F) and bytes that are not UTF-8 are written as `\xNN`, so
// that bytes from the user's input (a file name, a bad move) cannot move the cursor, retitle the
// window or hide text. Every text line the CLI prints (output, errors, progress) goes through it.
std::string terminal_text(std::string_view text);

// Builds the subcommands of every registry command under `app` (one subcommand per family,
// one per verb), each storing an action that validates the arguments and calls the registry.
void add_registry_commands(CLI::App& app, Context& ctx);

// The CLI-only parts of registry families (interactive games need a terminal), added to the
// registry-made family subcommands.
void add_sliding_play(CLI::App& sliding, Context& ctx);  // play_sliding.cpp
void add_loopover_cli(CLI::App& app, Context& ctx);      // play_loopover.cpp (play, apply --moves)
void add_triloop_play(CLI::App& app, Context& ctx);      // play_triloop.cpp
void add_hanoi_play(CLI::App& hanoi, Context& ctx);      // play_hanoi.cpp
void add_demo_command(CLI::App& app, Context& ctx);      // demo.cpp
void add_commands_command(CLI::App& app, Context& ctx);  // demo.cpp: the registry's list
void add_manual_command(CLI::App& app, Context& ctx);    // manual.cpp: man page, bash completion
void add_serve_command(CLI::App& app, Context& ctx);     // serve.cpp: the web app
// serve from the Python module (which has no web server): one clear error (demo.cpp).
void add_serve_refusal(CLI::App& app, Context& ctx);
// serve's line in --help (the Python module, which refuses serve, lists it alike).
inline constexpr char SERVE_HELP[] =
    "The web app and the HTTP API over every command (GET / in a browser)";

// `permuzzle bench startup` (bench_startup.cpp): the program's own start-up, measured by running
// it; only the program has it (the Python module's command line is another executable).
void add_startup_bench(CLI::App& bench, Context& ctx);

// `serve` as --help lists it, in the program that has no server (main.cpp starts permuzzle-full
// for it before parsing, so its action only explains).
void add_serve_placeholder(CLI::App& app, Context& ctx);  // run.cpp

// Adds the subcommands that only one front end has (the program: serve).
using AddCommands = std::function<void(CLI::App& app, Context& ctx)>;

// The first word of a command line that is neither a global option nor the value of one: the
// family, or `serve`, `demo`, `commands` ("" when there is none, as for `permuzzle --help`).
std::string command_word(int argc, char** argv);

// True when this process was started by mpirun (or another MPI launcher: Open MPI sets
// OMPI_COMM_WORLD_SIZE).
bool launched_by_mpi();

// The whole command line (run.cpp): parses argv (argv[0] is the program's name), runs the
// command, prints its output on stdout and its errors on stderr, and returns the exit code
// (0 success, 1 I/O or internal failure, 2 bad input, 3 over a limit). Never throws.
// Under mpirun the program passes its cluster (mpi_cluster.hpp): every process runs the command
// with it (a distributed BFS shares the work), and only process 0 prints its output and progress.
int run_cli(int argc, char** argv, const AddCommands& add_front_end_commands,
            Cluster* cluster = nullptr);

}  // namespace permuzzle::cli
