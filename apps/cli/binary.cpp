// `permuzzle binary solve|random|bfs`: the binary tile (swap) puzzle (spec section 7).
#include <fmt/format.h>

#include <memory>

#include "cli.hpp"
#include "permuzzle/puzzles/binary/board.hpp"
#include "permuzzle/puzzles/binary/graph.hpp"
#include "permuzzle/puzzles/binary/solver.hpp"

namespace permuzzle::cli {

namespace {

using namespace permuzzle::binary;

struct BinaryArgs {
  std::string start, goal;
  int rows = 4, cols = 4;
  long long ones = -1;
  std::uint64_t seed = 1;
  std::size_t max_print = 10000;
  bool compare = false;
  bool no_check = false;
  std::string method = "auto";
};

Result<Board> board_arg(const std::string& text, const std::string& what) {
  auto b = parse_board(text);
  if (!b) {
    Error e = b.error();
    e.message = what + ": " + e.message;
    return e;
  }
  return b;
}

nlohmann::json move_json(SwapCode s, int cols) {
  std::uint32_t a = swap_first(s), b = swap_second(s, cols);
  return nlohmann::json::array({a / cols, a % cols, b / cols, b % cols});
}

Result<CommandOutput> solve_board(const Context& ctx, const Board& start, const Board& goal,
                                  const BinaryArgs& a) {
  SolveOptions options;
  if (a.method == "flow")
    options.method = Method::NetworkSimplex;
  else if (a.method == "separable")
    options.method = Method::Separable;
  else if (a.method != "auto")
    return make_error("--method must be auto, flow or separable", a.method);
  options.on_progress = [&ctx](const std::string& s) { progress(ctx, s); };
  auto sol = solve(start, goal, options);
  if (!sol) return sol.error();
  CommandOutput out;
  out.json = {{"rows", start.rows},
              {"cols", start.cols},
              {"ones", start.ones()},
              {"start", format_board(start)},
              {"goal", format_board(goal)},
              {"swaps", sol->swaps},
              {"verified", sol->verified},
              {"method", sol->method},
              {"seconds",
               {{"flow", sol->stats.flow_seconds},
                {"sequence", sol->stats.sequence_seconds},
                {"replay", sol->stats.replay_seconds}}}};
  std::string text = fmt::format("minimal swaps: {} ({}x{} board; {})\n", sol->swaps, start.rows,
                                 start.cols, sol->method);
  if (a.compare) {
    auto assignment = min_swaps_assignment(start, goal);
    if (!assignment) return assignment.error();
    out.json["assignment_swaps"] = *assignment;
    text += fmt::format("assignment formulation: {} ({})\n", *assignment,
                        *assignment == sol->swaps ? "agrees" : "DISAGREES");
  }
  if (sol->moves.size() <= a.max_print) {
    nlohmann::json moves = nlohmann::json::array();
    std::string move_text;
    for (SwapCode s : sol->moves) {
      moves.push_back(move_json(s, start.cols));
      std::uint32_t x = swap_first(s), y = swap_second(s, start.cols);
      move_text += fmt::format("{}({},{})-({},{})", move_text.empty() ? "" : " ", x / start.cols,
                               x % start.cols, y / start.cols, y % start.cols);
    }
    out.json["moves"] = moves;
    text += "moves (row,col 0-based): " + move_text + "\n";
  } else {
    out.json["moves_printed"] = false;
    text += fmt::format("({} moves not printed; raise --max-print)\n", sol->moves.size());
  }
  text += fmt::format("replayed from the start: {}\n",
                      sol->verified ? "reaches the goal" : "not checked");
  text +=
      fmt::format("time: flow {:.3f} s, sequence {:.3f} s, replay {:.3f} s\n",
                  sol->stats.flow_seconds, sol->stats.sequence_seconds, sol->stats.replay_seconds);
  out.text = text;
  return out;
}

Status check_dims(int rows, int cols) {
  if (rows < 1 || cols < 1 || static_cast<long long>(rows) * cols > (1ll << 26)) {
    return make_error(
        fmt::format("board size {}x{}: rows and cols must be >= 1 with at most 2^26 "
                    "cells",
                    rows, cols));
  }
  return Ok{};
}

}  // namespace

void add_binary_command(CLI::App& app, Context& ctx) {
  auto* binary = app.add_subcommand("binary", "Binary tile (swap) puzzle: minimal swap sequences");
  binary->require_subcommand(1);
  auto a = std::make_shared<BinaryArgs>();

  auto* solve_cmd =
      binary->add_subcommand("solve", "Minimal swaps (min-cost flow) and a replayed sequence");
  solve_cmd
      ->add_option("--start", a->start,
                   "Start board, rows separated by spaces: \"1101 0110 0100 1010\"")
      ->required();
  solve_cmd->add_option("--goal", a->goal,
                        "Goal board (default: the 1s fill the rows from the top)");
  solve_cmd->add_option("--max-print", a->max_print,
                        "Print the moves only up to this many (default 10000)");
  solve_cmd->add_flag("--compare", a->compare, "Also solve the assignment formulation and compare");
  solve_cmd->add_option("--method", a->method,
                        "auto (default: separable shortcut when it applies), flow (LEMON network "
                        "simplex on the grid graph), separable");
  set_action(ctx, solve_cmd, [&ctx, a]() -> Result<CommandOutput> {
    auto start = board_arg(a->start, "--start");
    if (!start) return start.error();
    Board goal = default_goal(*start);
    if (!a->goal.empty()) {
      auto g = board_arg(a->goal, "--goal");
      if (!g) return g.error();
      goal = *g;
    }
    return solve_board(ctx, *start, goal, *a);
  });

  auto* random_cmd = binary->add_subcommand("random", "Solve a uniformly random board");
  random_cmd->add_option("--rows", a->rows, "Rows (default 4)");
  random_cmd->add_option("--cols", a->cols, "Columns (default 4)");
  random_cmd->add_option("--ones", a->ones, "Number of 1s (default: half the cells)");
  random_cmd->add_option("--seed", a->seed, "Random seed (default 1)");
  random_cmd->add_option("--max-print", a->max_print, "Print the moves only up to this many");
  random_cmd->add_flag("--compare", a->compare,
                       "Also solve the assignment formulation and compare");
  random_cmd->add_option("--method", a->method, "auto, flow or separable (see solve)");
  set_action(ctx, random_cmd, [&ctx, a]() -> Result<CommandOutput> {
    if (auto s = check_dims(a->rows, a->cols); !s) return s.error();
    std::size_t cells = static_cast<std::size_t>(a->rows) * a->cols;
    if (a->ones > static_cast<long long>(cells))
      return make_error("--ones exceeds the number of cells");
    std::size_t ones = a->ones < 0 ? cells / 2 : static_cast<std::size_t>(a->ones);
    Rng rng(a->seed);
    Board start = random_board(a->rows, a->cols, ones, rng);
    auto out = solve_board(ctx, start, default_goal(start), *a);
    if (out && cells > 10000) {
      out->json.erase("start");
      out->json.erase("goal");
    } else if (out) {
      out->text = "start: " + format_board(start) + "\n" + out->text;
    }
    return out;
  });

  auto* bfs_cmd = binary->add_subcommand(
      "bfs",
      "Whole position graph (boards up to 24 cells): distances from the goal, God's number, "
      "antipodes, every position checked against min-cost flow");
  bfs_cmd->add_option("--rows", a->rows, "Rows (default 4)");
  bfs_cmd->add_option("--cols", a->cols, "Columns (default 4)");
  bfs_cmd->add_option("--ones", a->ones, "Number of 1s (default: half the cells)");
  bfs_cmd->add_option("--goal", a->goal, "Goal board (default: the 1s fill the rows from the top)");
  bfs_cmd->add_flag("--no-check", a->no_check, "Skip the per-position min-cost flow cross-check");
  set_action(ctx, bfs_cmd, [&ctx, a]() -> Result<CommandOutput> {
    Board goal;
    if (!a->goal.empty()) {
      auto g = board_arg(a->goal, "--goal");
      if (!g) return g.error();
      goal = *g;
    } else {
      if (auto s = check_dims(a->rows, a->cols); !s) return s.error();
      std::size_t cells = static_cast<std::size_t>(a->rows) * a->cols;
      if (a->ones > static_cast<long long>(cells))
        return make_error("--ones exceeds the number of cells");
      goal.rows = a->rows;
      goal.cols = a->cols;
      goal.cells.assign(cells, 0);
      std::size_t ones = a->ones < 0 ? cells / 2 : static_cast<std::size_t>(a->ones);
      std::fill(goal.cells.begin(), goal.cells.begin() + static_cast<std::ptrdiff_t>(ones), 1);
    }
    BinaryGraphOptions options;
    options.cross_check_flow = !a->no_check;
    options.on_progress = [&ctx](const std::string& s) { progress(ctx, s); };
    auto s = summarize_graph(goal, options);
    if (!s) return s.error();
    CommandOutput out;
    std::string text =
        fmt::format("{}x{} board, {} ones, goal {}: {} positions\ndistance  positions\n", s->rows,
                    s->cols, s->ones, format_board(goal), s->positions);
    for (std::size_t d = 0; d < s->per_distance.size(); ++d) {
      text += fmt::format("{:>8}  {}\n", d, s->per_distance[d]);
    }
    text += fmt::format("largest distance from the goal (God's number): {} ({} antipodes)\n",
                        s->eccentricity, s->antipode_count);
    nlohmann::json antipodes = nlohmann::json::array();
    for (std::size_t i = 0; i < s->antipodes.size(); ++i) {
      antipodes.push_back(format_board(s->antipodes[i]));
      if (i < 4) text += "  antipode: " + format_board(s->antipodes[i]) + "\n";
    }
    if (options.cross_check_flow) {
      text += fmt::format("min-cost flow agrees with BFS on {} of {} positions\n",
                          s->flow_checked - s->flow_mismatches, s->flow_checked);
    }
    if (s->diameter >= 0)
      text += fmt::format("diameter (BFS from every position): {}\n", s->diameter);
    out.json = {{"rows", s->rows},
                {"cols", s->cols},
                {"ones", s->ones},
                {"goal", format_board(goal)},
                {"positions", s->positions},
                {"per_distance", s->per_distance},
                {"eccentricity", s->eccentricity},
                {"antipode_count", s->antipode_count},
                {"antipodes", antipodes},
                {"flow_checked", s->flow_checked},
                {"flow_mismatches", s->flow_mismatches},
                {"diameter", s->diameter >= 0 ? nlohmann::json(s->diameter) : nlohmann::json()}};
    out.text = text;
    if (s->flow_mismatches != 0) {
      return make_error(fmt::format("internal: min-cost flow disagrees with BFS on {} positions",
                                    s->flow_mismatches),
                        {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    return out;
  });
}

std::string demo_binary() {
  std::string out = "Binary swap puzzle\n";
  auto start = parse_board("1101 0110 0100 1010");
  if (!start) return {};
  Board goal = default_goal(*start);
  auto sol = solve(*start, goal);
  if (sol) {
    out +=
        fmt::format("  {} -> {}: {} swaps (minimal), sequence replayed: {}\n", format_board(*start),
                    format_board(goal), sol->swaps, sol->verified ? "ok" : "no");
  }
  Rng rng(2026);
  Board big = random_board(200, 200, 20000, rng);
  auto bs = solve(big, default_goal(big));
  if (bs) {
    out += fmt::format(
        "  random 200x200 half-filled: {} swaps, built and replayed in {:.2f} s\n", bs->swaps,
        bs->stats.flow_seconds + bs->stats.sequence_seconds + bs->stats.replay_seconds);
  }
  return out;
}

}  // namespace permuzzle::cli
