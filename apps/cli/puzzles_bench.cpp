// `permuzzle bench binary|hanoi`: scale targets of issue 5, measured and checked.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <memory>

#include "cli.hpp"
#include "permuzzle/puzzles/binary/board.hpp"
#include "permuzzle/puzzles/binary/solver.hpp"
#include "permuzzle/puzzles/hanoi/graph.hpp"
#include "permuzzle/puzzles/hanoi/solver.hpp"

namespace permuzzle::cli {

void add_bench_puzzles(CLI::App& bench, Context& ctx) {
  struct Args {
    int size = 1000;
    std::uint64_t seed = 1;
    double target = 10.0;
    int disks = 12;
  };
  auto a = std::make_shared<Args>();
  auto* binary = bench.add_subcommand(
      "binary",
      "Random half-filled N x N swap puzzle: minimal swaps, sequence built and replayed "
      "(target: 1000 x 1000 in <= 10 s)");
  binary->add_option("--size", a->size, "Board side (default 1000)");
  binary->add_option("--seed", a->seed, "Random seed (default 1)");
  binary->add_option("--target", a->target, "Time target in seconds (default 10)");
  set_action(ctx, binary, [&ctx, a]() -> Result<CommandOutput> {
    if (a->size < 1 || a->size > 4096) return make_error("--size must be 1..4096");
    Rng rng(a->seed);
    binary::Board start = binary::random_board(
        a->size, a->size, static_cast<std::size_t>(a->size) * a->size / 2, rng);
    binary::Board goal = binary::default_goal(start);
    binary::SolveOptions options;
    options.on_progress = [&ctx](const std::string& s) { progress(ctx, s); };
    const auto wall0 = std::chrono::steady_clock::now();
    const std::clock_t cpu0 = std::clock();
    auto sol = binary::solve(start, goal, options);
    if (!sol) return sol.error();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    const bool met = wall <= a->target;
    CommandOutput out;
    out.text = fmt::format(
        "binary swap puzzle {}x{}, {} ones, seed {}\n"
        "  minimal swaps:   {} ({})\n"
        "  flow:            {:.3f} s\n  sequence built:  {:.3f} s ({} swaps)\n"
        "  replayed:        {:.3f} s ({})\n"
        "  total:           {:.3f} s wall, {:.3f} s CPU; target {} s: {}\n",
        a->size, a->size, start.ones(), a->seed, sol->swaps, sol->method, sol->stats.flow_seconds,
        sol->stats.sequence_seconds, sol->moves.size(), sol->stats.replay_seconds,
        sol->verified ? "reaches the goal" : "NOT verified", wall, cpu, a->target,
        met ? "met" : "missed (wall clock; see CPU time on a shared machine)");
    out.json = {{"size", a->size},
                {"seed", a->seed},
                {"swaps", sol->swaps},
                {"method", sol->method},
                {"verified", sol->verified},
                {"flow_seconds", sol->stats.flow_seconds},
                {"sequence_seconds", sol->stats.sequence_seconds},
                {"replay_seconds", sol->stats.replay_seconds},
                {"wall_seconds", wall},
                {"cpu_seconds", cpu},
                {"target_seconds", a->target},
                {"target_met", met}};
    return out;
  });

  auto* hanoi = bench.add_subcommand(
      "hanoi", "Tower of Hanoi state graph BFS (default 12 disks, 3^12 positions)");
  hanoi->add_option("--disks", a->disks, "Disks (default 12)");
  set_action(ctx, hanoi, [a]() -> Result<CommandOutput> {
    if (a->disks < 1 || a->disks > 15) return make_error("--disks must be 1..15");
    const auto t0 = std::chrono::steady_clock::now();
    auto g = hanoi::summarize_graph(hanoi::tower(a->disks, 3, 0), 0);
    if (!g) return g.error();
    const double bfs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto t1 = std::chrono::steady_clock::now();
    auto moves = hanoi::optimal_moves3(hanoi::tower(20, 3, 0), hanoi::tower(20, 3, 2));
    if (!moves) return moves.error();
    const double seq = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    CommandOutput out;
    out.text = fmt::format(
        "Hanoi BFS, {} disks: {} positions, eccentricity {} (2^d - 1 = {}), {:.3f} s\n"
        "Hanoi 20 disks optimal sequence: {} moves generated and checked in {:.3f} s\n",
        a->disks, g->positions, g->eccentricity, (1 << a->disks) - 1, bfs, moves->size(), seq);
    out.json = {{"disks", a->disks},
                {"positions", g->positions},
                {"eccentricity", g->eccentricity},
                {"bfs_seconds", bfs},
                {"sequence20_moves", moves->size()},
                {"sequence20_seconds", seq}};
    return out;
  });
}

}  // namespace permuzzle::cli
