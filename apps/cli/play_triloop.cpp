// `permuzzle triloop play`: interactive, so it stays in the CLI; the other triloop commands are
// registry commands (src/api/triloop.cpp).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <random>

#include "cli.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/triangular.hpp"

namespace permuzzle::cli {

// Named, not anonymous: the CLI's files are compiled as one unity file (CMakeLists.txt).
namespace triloop_play {

using loopover::TriBoard;
using loopover::TriPosition;

struct PlayArgs {
  int rows = 4;
  std::uint64_t seed = 1;
};

Result<CommandOutput> play(const Context& ctx, const PlayArgs& a) {
  if (ctx.json) {
    return make_error("play is interactive; --json is not supported (use apply, solve or random)");
  }
  auto board = TriBoard::create(a.rows);
  if (!board) return board.error();
  Rng rng(a.seed);
  TriPosition p = board->random_position(rng);
  std::cout << fmt::format(
                   "Triangular Loopover, {} rows. Moves: D1, -L2, R3 ... (several per line "
                   "allowed); q quits.\n",
                   board->rows())
            << board->render(p);
  std::string line;
  long count = 0;
  while (std::cout << "> " << std::flush, std::getline(std::cin, line)) {
    auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    if (line == "q" || line == "quit") break;
    auto moves = board->parse_moves(line);
    if (!moves) {
      std::cout << "error: " << moves.error().describe() << "\n";
      continue;
    }
    p = board->apply(p, *moves);
    count += static_cast<long>(moves->size());
    std::cout << board->render(p) << fmt::format("moves: {}\n", count);
    if (p == board->solved()) {
      std::cout << fmt::format("solved in {} moves\n", count);
      break;
    }
  }
  CommandOutput out;
  out.already_printed = true;
  return out;
}

}  // namespace triloop_play

void add_triloop_play(CLI::App& app, Context& ctx) {
  using namespace triloop_play;
  auto a = std::make_shared<PlayArgs>();
  auto* sub =
      app.get_subcommand("triloop")->add_subcommand("play", "Play a random position interactively");
  sub->add_option("--rows", a->rows, "Number of rows (2..8)")
      ->check(CLI::Range(2, 8))
      ->capture_default_str();
  sub->add_option("--seed", a->seed, "Random seed")
      ->check(CLI::NonNegativeNumber)  // "-1" is an error, not 2^64-1
      ->capture_default_str();
  set_action(ctx, sub, [a, &ctx]() { return play(ctx, *a); });
}

}  // namespace permuzzle::cli
