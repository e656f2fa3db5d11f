// `binary solve|random|bfs`: the binary tile (swap) puzzle (spec section 7).
//
// Output and memory stay bounded however large the board: the solver builds the swap sequence
// one swap at a time, counts it and replays it on the fly, and keeps the list only when it is to
// be printed; a list whose text would exceed MAX_PRINT_BYTES is refused (LimitExceeded) before
// it is built.
#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/binary/board.hpp"
#include "permuzzle/puzzles/binary/graph.hpp"
#include "permuzzle/puzzles/binary/solver.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::binary;

// Largest printed move list: 64 MB of text (a few million swaps).
constexpr std::uint64_t MAX_PRINT_BYTES = std::uint64_t(64) << 20;
// Boards up to this many cells (a flow on 2^26 cells needs a few GB).
constexpr std::uint64_t MAX_CELLS = std::uint64_t(1) << 26;
// `random` prints the boards only up to this many cells.
constexpr std::size_t ECHO_CELLS = 10000;

Result<Board> board_param(const Request& q, const std::string& name) {
  auto b = parse_board(q.string(name));
  if (!b) {
    Error e = b.error();
    e.message = "--" + name + ": " + e.message;
    return e;
  }
  return b;
}

nlohmann::json move_json(SwapCode s, int cols) {
  std::uint32_t a = swap_first(s), b = swap_second(s, cols);
  return nlohmann::json::array({a / cols, a % cols, b / cols, b % cols});
}

int decimal_digits(std::uint64_t x) {
  int d = 1;
  while (x >= 10) x /= 10, ++d;
  return d;
}

// Upper bound of one printed move, "(r,c)-(r,c) " (the JSON form [r,c,r,c], is shorter).
std::uint64_t move_text_bound(const Board& b) {
  int digits = decimal_digits(static_cast<std::uint64_t>(b.rows - 1)) +
               decimal_digits(static_cast<std::uint64_t>(b.cols - 1));
  return 2 * static_cast<std::uint64_t>(digits) + 8;
}

Result<Output> solve_board(const Request& q, Session& s, const Board& start, const Board& goal) {
  SolveOptions options;
  const std::string method = q.string("method");
  if (method == "flow") options.method = Method::NetworkSimplex;
  if (method == "separable") options.method = Method::Separable;
  options.on_progress = [&s](const std::string& line) { s.note(line); };
  options.run = &s.run;
  // Step 1. The list is kept only when it is printed, and printed only when it fits (in the
  // text limit, and with its JSON form, about 112 bytes a swap, in the memory budget).
  const std::uint64_t max_print = q.unsigned_integer("max-print");
  const std::uint64_t per_move = move_text_bound(start);
  options.keep_moves = max_print;
  options.check_length = [&](std::uint64_t swaps) -> Status {
    if (swaps <= max_print && swaps > MAX_PRINT_BYTES / per_move) {
      return make_error(
          fmt::format("printing the {} swaps would take up to {} MB of text, over the limit of "
                      "{} MB; give --max-print below {} to get the count and the replayed check "
                      "without the list",
                      swaps, (swaps * per_move + (1 << 20) - 1) >> 20, MAX_PRINT_BYTES >> 20,
                      swaps),
          {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    if (swaps <= max_print) {
      return s.run.check_memory(swaps * (per_move + 112),
                                fmt::format("printing the {} swaps (a --max-print below {} gives "
                                            "the count and the replayed check without the list)",
                                            swaps, swaps));
    }
    return Ok{};
  };
  // Step 2. Solve: minimal count, sequence built and replayed once by the solver.
  auto sol = binary::solve(start, goal, options);
  if (!sol) return sol.error();
  Output out;
  out.json = {
      {"rows", start.rows},
      {"cols", start.cols},
      {"ones", start.ones()},
      {"start", format_board(start)},
      {"goal", format_board(goal)},
      {"swaps", sol->swaps},
      {"verified", sol->verified},
      {"method", sol->method},
      {"seconds", {{"flow", sol->stats.flow_seconds}, {"sequence", sol->stats.sequence_seconds}}}};
  std::string text = fmt::format("minimal swaps: {} ({}x{} board; {})\n", sol->swaps, start.rows,
                                 start.cols, sol->method);
  if (q.flag("compare")) {
    auto assignment = min_swaps_assignment(start, goal);
    if (!assignment) return assignment.error();
    out.json["assignment_swaps"] = *assignment;
    text += fmt::format("assignment formulation: {} ({})\n", *assignment,
                        *assignment == sol->swaps ? "agrees" : "DISAGREES");
  }
  // Step 3. The list, when kept.
  if (sol->moves_kept) {
    nlohmann::json moves = nlohmann::json::array();
    std::string move_text;
    move_text.reserve(sol->moves.size() * per_move);
    for (SwapCode m : sol->moves) {
      moves.push_back(move_json(m, start.cols));
      std::uint32_t x = swap_first(m), y = swap_second(m, start.cols);
      move_text += fmt::format("{}({},{})-({},{})", move_text.empty() ? "" : " ", x / start.cols,
                               x % start.cols, y / start.cols, y % start.cols);
    }
    out.json["moves"] = std::move(moves);
    text += "moves (row,col 0-based): " + move_text + "\n";
  } else {
    out.json["moves_printed"] = false;
    text += fmt::format("({} moves not printed; raise --max-print)\n", sol->swaps);
  }
  text += fmt::format("replayed from the start: {}\n",
                      sol->verified ? "reaches the goal" : "not checked");
  text += fmt::format("time: flow {:.3f} s, sequence built and replayed {:.3f} s\n",
                      sol->stats.flow_seconds, sol->stats.sequence_seconds);
  out.text = std::move(text);
  return out;
}

// Rows and columns of a generated board, and its number of 1s (default: half the cells).
struct Shape {
  int rows = 0, cols = 0;
  std::size_t ones = 0;
};

Result<Shape> shape_params(const Request& q) {
  const std::uint64_t rows = q.unsigned_integer("rows"), cols = q.unsigned_integer("cols");
  if (rows > MAX_CELLS / cols) {
    return make_error(
        fmt::format("board size {}x{}: at most 2^26 = {} cells", rows, cols, MAX_CELLS), {},
        Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  const std::uint64_t cells = rows * cols;
  if (q.has("ones") && q.unsigned_integer("ones") > cells) {
    return make_error(fmt::format("--ones {} exceeds the number of cells ({})",
                                  q.unsigned_integer("ones"), cells));
  }
  return Shape{static_cast<int>(rows), static_cast<int>(cols),
               static_cast<std::size_t>(q.has("ones") ? q.unsigned_integer("ones") : cells / 2)};
}

Result<Output> bfs_command(const Request& q, Session& s) {
  Board goal;
  if (q.has("goal")) {
    auto g = board_param(q, "goal");
    if (!g) return g.error();
    goal = *g;
  } else {
    auto shape = shape_params(q);
    if (!shape) return shape.error();
    goal.rows = shape->rows;
    goal.cols = shape->cols;
    goal.cells.assign(static_cast<std::size_t>(shape->rows) * shape->cols, 0);
    std::fill(goal.cells.begin(), goal.cells.begin() + static_cast<std::ptrdiff_t>(shape->ones), 1);
  }
  BinaryGraphOptions options;
  options.cross_check_flow = !q.flag("no-check");
  options.on_progress = [&s](const std::string& line) { s.note(line); };
  options.run = &s.run;
  auto g = summarize_graph(goal, options);
  if (!g) return g.error();
  Output out;
  std::string text =
      fmt::format("{}x{} board, {} ones, goal {}: {} positions\ndistance  positions\n", g->rows,
                  g->cols, g->ones, format_board(goal), g->positions);
  for (std::size_t d = 0; d < g->per_distance.size(); ++d) {
    text += fmt::format("{:>8}  {}\n", d, g->per_distance[d]);
  }
  text += fmt::format("largest distance from the goal (God's number): {} ({} antipodes)\n",
                      g->eccentricity, g->antipode_count);
  nlohmann::json antipodes = nlohmann::json::array();
  for (std::size_t i = 0; i < g->antipodes.size(); ++i) {
    antipodes.push_back(format_board(g->antipodes[i]));
    if (i < 4) text += "  antipode: " + format_board(g->antipodes[i]) + "\n";
  }
  if (options.cross_check_flow) {
    text += fmt::format("min-cost flow agrees with BFS on {} of {} positions\n",
                        g->flow_checked - g->flow_mismatches, g->flow_checked);
  }
  if (g->diameter >= 0)
    text += fmt::format("diameter (BFS from every position): {}\n", g->diameter);
  if (g->flow_mismatches != 0) {
    return make_error(fmt::format("internal: min-cost flow disagrees with BFS on {} positions",
                                  g->flow_mismatches),
                      {}, Error::NO_POSITION, ErrorKind::Internal);
  }
  out.json = {{"rows", g->rows},
              {"cols", g->cols},
              {"ones", g->ones},
              {"goal", format_board(goal)},
              {"positions", g->positions},
              {"per_distance", g->per_distance},
              {"eccentricity", g->eccentricity},
              {"antipode_count", g->antipode_count},
              {"antipodes", antipodes},
              {"flow_checked", g->flow_checked},
              {"flow_mismatches", g->flow_mismatches},
              {"diameter", g->diameter >= 0 ? nlohmann::json(g->diameter) : nlohmann::json()}};
  out.text = std::move(text);
  return out;
}

std::string demo_binary() {
  std::string out = "Binary swap puzzle\n";
  auto start = parse_board("1101 0110 0100 1010");
  if (!start) return {};
  Board goal = default_goal(*start);
  auto sol = binary::solve(*start, goal);
  if (sol) {
    out +=
        fmt::format("  {} -> {}: {} swaps (minimal), sequence replayed: {}\n", format_board(*start),
                    format_board(goal), sol->swaps, sol->verified ? "ok" : "no");
  }
  Rng rng(2026);
  Board big = random_board(200, 200, 20000, rng);
  SolveOptions options;
  options.keep_moves = 0;  // counted and replayed, not kept
  auto bs = binary::solve(big, default_goal(big), options);
  if (bs) {
    out += fmt::format("  random 200x200 half-filled: {} swaps, built and replayed in {:.2f} s\n",
                       bs->swaps, bs->stats.flow_seconds + bs->stats.sequence_seconds);
  }
  return out;
}

// The conformance suite's hard example of `binary solve`: the 1s fill the bottom half of a
// side x side board, so that every 1 moves up side/2 rows (side^3/4 swaps, built and replayed).
std::string bottom_half_board(int side) {
  std::string zeros(static_cast<std::size_t>(side), '0'), ones(static_cast<std::size_t>(side), '1');
  std::string text;
  for (int r = 0; r < side; ++r) text += (r ? " " : "") + (r < side / 2 ? zeros : ones);
  return text;
}

Param max_print_param() {
  return option("max-print", ParamType::Unsigned,
                "Print the moves only up to this many (at most 64 MB of text)", 10000);
}
Param method_param() {
  return with_choices(option("method", ParamType::String,
                             "auto: separable shortcut when it applies; flow: LEMON network "
                             "simplex on the grid graph; separable",
                             "auto"),
                      {"auto", "flow", "separable"});
}
Param compare_param() {
  return flag("compare", "Also solve the assignment formulation and compare");
}
Param rows_param() {
  return with_range(option("rows", ParamType::Unsigned, "Rows", 4), 1, MAX_CELLS);
}
Param cols_param() {
  return with_range(option("cols", ParamType::Unsigned, "Columns", 4), 1, MAX_CELLS);
}
Param ones_param() {
  return option("ones", ParamType::Unsigned, "Number of 1s (default: half the cells)");
}

}  // namespace

void register_binary(Registry& r) {
  r.add_family("binary", "Binary tile (swap) puzzle: minimal swap sequences");

  r.add({"binary",
         "solve",
         "Minimal swaps (min-cost flow) and a replayed sequence",
         {required(option("start", ParamType::String,
                          "Start board, rows separated by spaces: \"1101 0110 0100 1010\"")),
          option("goal", ParamType::String,
                 "Goal board (default: the 1s fill the rows from the top)"),
          max_print_param(), compare_param(), method_param()},
         [](const Request& q, Session& s) -> Result<Output> {
           auto start = board_param(q, "start");
           if (!start) return start.error();
           Board goal = default_goal(*start);
           if (q.has("goal")) {
             auto g = board_param(q, "goal");
             if (!g) return g.error();
             goal = *g;
           }
           return solve_board(q, s, *start, goal);
         },
         false,
         Cost::Expensive,
         // 400 x 400, 1s in the bottom half, through LEMON's network simplex: about 15 s for the
         // flow, then 1.6e7 swaps to build and replay.
         {{"start", bottom_half_board(400)}, {"method", "flow"}},
         {{{"start", "12"}},
          {{"start", "10 01"}, {"goal", "11 00 00"}},
          {{"start", "10 01"}, {"method", "fast"}}}});

  r.add({"binary",
         "random",
         "Solve a uniformly random board",
         {rows_param(), cols_param(), ones_param(),
          option("seed", ParamType::Unsigned, "Random seed", 1), max_print_param(), compare_param(),
          method_param()},
         [](const Request& q, Session& s) -> Result<Output> {
           auto shape = shape_params(q);
           if (!shape) return shape.error();
           Rng rng(q.unsigned_integer("seed"));
           Board start = random_board(shape->rows, shape->cols, shape->ones, rng);
           auto out = solve_board(q, s, start, default_goal(start));
           if (!out) return out;
           if (start.size() > ECHO_CELLS) {
             out->json.erase("start");
             out->json.erase("goal");
           } else {
             out->text = "start: " + format_board(start) + "\n" + out->text;
           }
           return out;
         },
         false,
         Cost::Expensive,
         // 2000 x 2000 random: about 10^9 swaps to build and replay.
         {{"rows", 2000}, {"cols", 2000}},
         {{{"rows", 0}}, {{"rows", 4}, {"cols", 4}, {"ones", 17}}, {{"method", "fast"}}}});

  r.add({"binary",
         "bfs",
         "Whole position graph (boards up to 24 cells): distances from the goal, God's number, "
         "antipodes, every position checked against min-cost flow",
         {rows_param(), cols_param(), ones_param(),
          option("goal", ParamType::String,
                 "Goal board (default: the 1s fill the rows from the top)"),
          flag("no-check", "Skip the per-position min-cost flow cross-check")},
         bfs_command,
         /*long_running=*/true,
         Cost::Expensive,
         // 4 x 6, 12 ones: 2.7 million positions, each checked by a min-cost flow.
         {{"rows", 4}, {"cols", 6}},
         {{{"rows", 0}}, {{"goal", "12 01"}}, {{"rows", 2}, {"cols", 2}, {"ones", 5}}}});

  r.add_demo("binary", demo_binary);
}

}  // namespace permuzzle::api
