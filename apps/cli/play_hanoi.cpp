// `permuzzle hanoi play`: the interactive game (needs a terminal, so it stays in the CLI).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "cli.hpp"
#include "permuzzle/puzzles/hanoi/position.hpp"
#include "permuzzle/puzzles/hanoi/solver.hpp"

namespace permuzzle::cli {

// Named, not anonymous: the CLI's files are compiled as one unity file (CMakeLists.txt).
namespace hanoi_play {

using namespace permuzzle::hanoi;

constexpr int PLAY_MAX_DISKS = 20;

struct PlayArgs {
  int disks = 3;
  int pegs = 3;
};

// Reads moves (AB, ...) from stdin and prints the position after each.
Result<CommandOutput> play(const Context& ctx, const PlayArgs& a) {
  if (ctx.json) {
    return make_error("play is interactive; --json is not supported (use apply, solve or random)");
  }
  if (a.disks < 1 || a.disks > PLAY_MAX_DISKS) {
    return make_error(fmt::format("play supports 1..{} disks, got {}", PLAY_MAX_DISKS, a.disks));
  }
  if (a.pegs < 3 || a.pegs > MAX_PEGS) {
    return make_error(fmt::format("number of pegs must be 3..{}, got {}", MAX_PEGS, a.pegs));
  }
  Position p = tower(a.disks, a.pegs, 0), goal = tower(a.disks, a.pegs, a.pegs - 1);
  std::cout << fmt::format("Tower of Hanoi, {} disks, {} pegs. Move e.g. AB; q quits.\n", a.disks,
                           a.pegs)
            << format_position(p) << "\n";
  std::string line;
  long moves = 0;
  const Count best = a.pegs == 3 ? optimal_distance3(p, goal) : frame_stewart(a.disks, a.pegs);
  while (std::cout << "> " << std::flush, std::getline(std::cin, line)) {
    auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    if (line == "q" || line == "quit") break;
    auto m = parse_move(line, a.pegs);
    if (!m) {
      std::cout << "error: " << m.error().message << "\n";
      continue;
    }
    if (auto s = apply_move(p, *m); !s) {
      std::cout << "error: " << s.error().message << "\n";
      continue;
    }
    ++moves;
    std::cout << format_position(p) << "\n";
    if (p == goal) {
      std::cout << fmt::format("solved in {} moves (minimum {})\n", moves, to_string(best));
      break;
    }
  }
  CommandOutput out;
  out.already_printed = true;
  return out;
}

}  // namespace hanoi_play

void add_hanoi_play(CLI::App& hanoi, Context& ctx) {
  using namespace hanoi_play;
  auto a = std::make_shared<PlayArgs>();
  auto* play_cmd = hanoi.add_subcommand("play", "Play interactively (moves on stdin)");
  play_cmd->add_option("--disks,disks", a->disks, "Number of disks (1..20)")->required();
  play_cmd->add_option("--pegs", a->pegs, "Number of pegs (default 3)");
  set_action(ctx, play_cmd, [&ctx, a]() { return play(ctx, *a); });
}

}  // namespace permuzzle::cli
