// `permuzzle sliding play`: the interactive game (needs a terminal, so it stays in the CLI; every
// other sliding verb is a registry command in src/api/sliding.cpp).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <random>

#include "cli.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"

namespace permuzzle::cli {

// Named, not anonymous: the CLI's files are compiled as one unity file (CMakeLists.txt).
namespace sliding_play {

using namespace permuzzle::sliding;

struct PlayArgs {
  std::string size;  // "" = from the position, else 3x3
  std::string goal = "standard";
  std::vector<std::string> position;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

Result<CommandOutput> run_play(const Context& ctx, const PlayArgs& a) {
  if (ctx.json) {
    return make_error("play is interactive; --json is not supported (use apply, solve or random)");
  }
  // Step 1. Board, goal and start (a random one unless given).
  std::optional<BoardSize> size;
  if (!a.size.empty()) {
    auto sz = parse_board_size(a.size);
    if (!sz) {
      Error e = sz.error();
      e.message = "--size: " + e.message;
      return e;
    }
    size = *sz;
  }
  std::string text;
  for (const auto& p : a.position) text += (text.empty() ? "" : " ") + p;
  Position p;
  if (!text.empty()) {
    BoardSize inferred;
    auto parsed = parse_position(text, size, &inferred);
    if (!parsed) return parsed.error();
    p = *parsed;
    size = inferred;
  }
  const BoardSize board = size.value_or(BoardSize{3, 3});
  auto goal = parse_goal(a.goal, board);
  if (!goal) return goal.error();
  if (p.empty()) {
    SplitMixRng rng(a.seed_given ? a.seed : static_cast<std::uint64_t>(std::random_device{}()));
    do p = random_position(board, *goal, rng);
    while (p == *goal);
  } else if (Solvability sv = solvability(board, p, *goal); !sv.solvable) {
    return make_error("the position cannot reach the goal: " + sv.reason, text, Error::NO_POSITION,
                      ErrorKind::Unsolvable);
  }
  // Step 2. One line of moves at a time until solved, 'q' or the end of the input.
  std::cout << fmt::format(
                   "{} sliding puzzle. Type moves as tile numbers (e.g. 3 12) or blank "
                   "directions (U D L R); 'q' quits.\n{}",
                   to_string(board), format_board(board, p))
            << std::flush;
  int moves = 0;
  bool solved = p == *goal;
  std::string line;
  while (!solved) {
    std::cout << "> " << std::flush;
    if (!std::getline(std::cin, line)) {
      std::cout << "\n";
      break;
    }
    if (line == "q" || line == "quit" || line == "exit") break;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Position next = p;
    auto m = apply_moves(board, next, line);
    if (!m) {
      std::cout << "  " << m.error().describe() << "\n" << std::flush;
      continue;
    }
    p = next;
    moves += static_cast<int>(m->tiles.size());
    solved = p == *goal;
    std::cout << fmt::format("{}moves: {}\n", format_board(board, p), moves) << std::flush;
  }
  if (solved) std::cout << fmt::format("Solved in {} moves!\n", moves) << std::flush;
  CommandOutput out;
  out.already_printed = true;
  return out;
}

}  // namespace sliding_play

void add_sliding_play(CLI::App& sliding, Context& ctx) {
  using namespace sliding_play;
  auto a = std::make_shared<PlayArgs>();
  auto* play = sliding.add_subcommand("play", "Play in the terminal: one move per line");
  play->add_option("--size", a->size, "Board RxC (default: from the position, else 3x3)");
  play->add_option("--goal", a->goal,
                   "Goal: standard (blank last), blank-first (Korf: 0 1 2 ...) or an explicit "
                   "arrangement");
  play->add_option("position", a->position,
                   "Start position, row-major with 0 or '.' as the blank (default: random)");
  play->add_option("--seed", a->seed, "Seed of the random start (default: random)")
      ->each([a](const std::string&) { a->seed_given = true; });
  set_action(ctx, play, [a, &ctx] { return run_play(ctx, *a); });
}

}  // namespace permuzzle::cli
