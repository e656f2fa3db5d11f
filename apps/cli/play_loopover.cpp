// `permuzzle loopover play` (interactive: it needs a terminal, so it stays in the CLI) and the
// `--moves=...` spelling of `loopover apply`'s positional argument (for sequences starting with
// '-', which a shell user cannot pass as a positional). Everything else of the family is a
// registry command (src/api/loopover.cpp).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <random>

#include "cli.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

namespace permuzzle::cli {

// Named, not anonymous: the CLI's files are compiled as one unity file (CMakeLists.txt).
namespace loopover_play {

using namespace permuzzle::loopover;

struct PlayArgs {
  std::string size = "4x4";
  std::uint64_t seed = 1;
  std::string from;
};

Result<CommandOutput> play(const Context& ctx, const PlayArgs& a) {
  if (ctx.json) {
    return make_error("play is interactive; --json is not supported (use apply, solve or random)");
  }
  auto size = parse_size(a.size);
  if (!size) return size.error();
  Position p;
  if (!a.from.empty()) {
    auto from = parse_position(*size, a.from);
    if (!from) {
      Error e = from.error();
      e.message = "position: " + e.message;
      return e;
    }
    if (!is_solvable(*size, *from)) {
      return make_error(
          "this game cannot be won: on an odd x odd board only even "
          "permutations are reachable",
          a.from, Error::NO_POSITION, ErrorKind::Unsolvable);
    }
    p = *from;
  } else {
    Rng rng(a.seed);
    p = random_position(*size, rng);  // always solvable (odd x odd: even permutations)
  }
  std::cout << fmt::format(
      "Loopover {}. Moves: columns 1..{} shift down, rows A..{} shift right, `-` inverts, "
      "e.g. `3 -B`; q quits.\n",
      format_size(*size), size->cols, static_cast<char>('A' + size->rows - 1));
  int stm = 0, mtm = 0;
  std::string line;
  std::cout << format_grid(*size, p);
  while (!is_goal(p)) {
    std::cout << "move> " << std::flush;
    if (!std::getline(std::cin, line)) break;
    if (line == "q" || line == "quit") break;
    auto moves = parse_moves(*size, line);
    if (!moves) {
      std::cout << moves.error().describe() << "\n";
      continue;
    }
    apply_moves(*size, p, *moves);
    stm += sequence_length(*size, *moves, Metric::Stm);
    mtm += sequence_length(*size, *moves, Metric::Mtm);
    std::cout << format_grid(*size, p) << fmt::format("moves: {} stm, {} mtm\n", stm, mtm);
  }
  if (is_goal(p)) std::cout << fmt::format("Solved in {} moves (stm), {} (mtm).\n", stm, mtm);
  std::cout.flush();
  CommandOutput out;
  out.already_printed = true;
  return out;
}

}  // namespace loopover_play

void add_loopover_cli(CLI::App& app, Context& ctx) {
  using namespace loopover_play;
  CLI::App* family = app.get_subcommand("loopover");

  auto a = std::make_shared<PlayArgs>();
  auto* sub = family->add_subcommand("play", "Play interactively: type moves, `q` quits");
  sub->add_option("--size,size", a->size, "Board ROWSxCOLS (default 4x4)");
  sub->add_option("--seed", a->seed, "Seed of the random start (default 1)")
      ->check(CLI::NonNegativeNumber);  // "-1" is an error, not 2^64-1
  sub->add_option("--from", a->from, "Start position (default: random solvable)");
  set_action(ctx, sub, [a, &ctx]() { return play(ctx, *a); });
}

}  // namespace permuzzle::cli
