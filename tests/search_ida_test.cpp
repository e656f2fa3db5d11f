// The IDA* driver with a small 8-puzzle kernel (answers checked against the generic BFS and
// published distances), its limits and cancellation, and the Loopover solver ported onto it.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <stop_token>

#include "permuzzle/core/ranking.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"
#include "permuzzle/puzzles/sliding/bfs.hpp"
#include "permuzzle/search/bfs.hpp"
#include "permuzzle/search/ida.hpp"

namespace permuzzle::search {
namespace search_ida_test {

using Board = std::array<std::uint8_t, 9>;  // tile per cell, 0 = blank; goal 1..8 then blank

int manhattan(const Board& b) {
  int h = 0;
  for (int cell = 0; cell < 9; ++cell) {
    if (b[cell] == 0) continue;
    const int home = b[cell] - 1;
    h += std::abs(cell / 3 - home / 3) + std::abs(cell % 3 - home % 3);
  }
  return h;
}

// Moves are the cells the blank moves to.
class EightKernel {
 public:
  using Move = int;
  bool corrupt = false;  // report a wrong solution (to test the replay check)

  int start(const Board& root) {
    board_ = root;
    blank_ = 0;
    while (board_[blank_] != 0) ++blank_;
    return manhattan(board_);
  }
  IdaIteration iterate(int bound, IdaControl& control) {
    control_ = &control;
    next_ = INT_MAX;
    const bool found = dfs(0, bound, manhattan(board_), -1);
    return {found, next_};
  }
  std::uint64_t nodes() const { return nodes_; }
  std::vector<Move> solution() const {
    std::vector<Move> moves(path_.begin(), path_.begin() + depth_);
    if (corrupt && !moves.empty()) moves.pop_back();
    return moves;
  }

 private:
  bool dfs(int g, int bound, int h, int previous) {
    if (g + h > bound) {
      next_ = std::min(next_, g + h);
      return false;
    }
    if (h == 0) {
      depth_ = g;
      return true;
    }
    if (!control_->keep_going(nodes_)) return false;
    const int r = blank_ / 3, c = blank_ % 3;
    const int targets[4] = {r > 0 ? blank_ - 3 : -1, r < 2 ? blank_ + 3 : -1,
                            c > 0 ? blank_ - 1 : -1, c < 2 ? blank_ + 1 : -1};
    for (int t : targets) {
      if (t < 0 || t == previous) continue;
      ++nodes_;
      const int from = blank_, tile = board_[t], home = tile - 1;
      const int dh = std::abs(from / 3 - home / 3) + std::abs(from % 3 - home % 3) -
                     std::abs(t / 3 - home / 3) - std::abs(t % 3 - home % 3);
      std::swap(board_[from], board_[t]);
      blank_ = t;
      path_[g] = t;
      const bool found = dfs(g + 1, bound, h + dh, from);
      std::swap(board_[from], board_[t]);
      blank_ = from;
      if (found) return true;
      if (control_->stopped()) return false;
    }
    return false;
  }

  Board board_{};
  int blank_ = 0;
  std::array<int, 64> path_{};
  int depth_ = 0;
  int next_ = INT_MAX;
  std::uint64_t nodes_ = 0;
  IdaControl* control_ = nullptr;
};

bool replay(const Board& root, const std::vector<int>& moves) {
  Board b = root;
  int blank = 0;
  while (b[blank] != 0) ++blank;
  for (int t : moves) {
    const int dr = std::abs(t / 3 - blank / 3), dc = std::abs(t % 3 - blank % 3);
    if (t < 0 || t >= 9 || dr + dc != 1) return false;
    std::swap(b[blank], b[t]);
    blank = t;
  }
  return b == Board{1, 2, 3, 4, 5, 6, 7, 8, 0};
}

// The same puzzle for the generic BFS (ranks: permuzzle::rank_permutation).
struct EightExpander {
  template <class Visit>
  void for_each_neighbour(std::uint64_t rank, Visit&& visit) {
    Board p{};
    permuzzle::unrank_permutation(rank, 9, p.data());
    int blank = 0;
    while (p[blank] != 0) ++blank;
    for (int t :
         {blank - 3, blank + 3, blank % 3 > 0 ? blank - 1 : -1, blank % 3 < 2 ? blank + 1 : -1}) {
      if (t < 0 || t >= 9) continue;
      std::swap(p[blank], p[t]);
      const std::uint64_t q = permuzzle::rank_permutation(p.data(), 9);
      std::swap(p[blank], p[t]);
      if (visit(q)) return;
    }
  }
};

// A published 31-move position (one of the two 8-puzzle antipodes) and a few others, solved at
// the distance the generic BFS finds for them.
TEST(IdaStar, EightPuzzleLengthsMatchBfs) {
  const std::vector<Board> boards = {{8, 6, 7, 2, 5, 4, 3, 0, 1},
                                     {1, 2, 3, 4, 5, 6, 7, 8, 0},
                                     {1, 2, 3, 4, 5, 6, 0, 7, 8},
                                     {4, 1, 3, 7, 2, 6, 0, 5, 8},
                                     {8, 1, 3, 4, 0, 2, 7, 6, 5}};
  BfsOptions bo;
  bo.undirected = true;
  for (const Board& b : boards) bo.watch.push_back(permuzzle::rank_permutation(b.data(), 9));
  const Board goal{1, 2, 3, 4, 5, 6, 7, 8, 0};
  const std::array<std::uint64_t, 1> starts{permuzzle::rank_permutation(goal.data(), 9)};
  auto distances = bfs(
      362880, starts, [] { return EightExpander{}; }, RunContext(), bo);
  ASSERT_TRUE(distances.ok());
  EXPECT_EQ(distances->watch_distances[0], 31);
  for (std::size_t i = 0; i < boards.size(); ++i) {
    EightKernel kernel;
    std::vector<std::string> messages;
    RunContext run;
    run.with_progress([&](const Progress& p) {
      EXPECT_EQ(p.phase, "ida*");
      messages.push_back(p.message);
    });
    IdaOptions options;
    options.bound_step = 2;  // every move flips the blank's colour
    auto result = ida_star(kernel, boards[i], run, options, replay);
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(static_cast<int>(result->moves.size()), distances->watch_distances[i]);
    EXPECT_EQ(result->final_bound, distances->watch_distances[i]);
    EXPECT_EQ(result->iterations, static_cast<int>(messages.size()));
    EXPECT_EQ(messages.front(), "bound " + std::to_string(result->initial_bound));
  }
}

TEST(IdaStar, LimitsAndCancellation) {
  const Board far{8, 6, 7, 2, 5, 4, 3, 0, 1};
  {
    EightKernel kernel;
    IdaOptions options;
    options.node_limit = 1000;
    auto r = ida_star(kernel, far, RunContext(), options, replay);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
    // The limit is checked as a node is entered; siblings cut by the bound still count.
    EXPECT_GE(kernel.nodes(), 1000u);
    EXPECT_LT(kernel.nodes(), 1004u);
  }
  {
    EightKernel kernel;
    auto r = ida_star(kernel, far, RunContext().with_node_limit(500), {}, replay);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
    EXPECT_GE(kernel.nodes(), 500u);
    EXPECT_LT(kernel.nodes(), 504u);
  }
  {
    // Stopped from the progress sink at the third iteration: the driver notices within
    // check_interval nodes.
    std::stop_source source;
    int iterations = 0;
    RunContext run;
    run.with_stop_token(source.get_token()).with_progress([&](const Progress&) {
      if (++iterations == 3) source.request_stop();
    });
    EightKernel kernel;
    IdaOptions options;
    options.check_interval = 100;
    auto r = ida_star(kernel, far, run, options, replay);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
    EXPECT_EQ(iterations, 3);
  }
  {
    EightKernel kernel;
    IdaOptions options;
    options.max_bound = 25;
    auto r = ida_star(kernel, far, RunContext(), options, replay);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
  }
  {
    EightKernel kernel;
    kernel.corrupt = true;
    auto r = ida_star(kernel, Board{1, 2, 3, 4, 5, 6, 0, 7, 8}, RunContext(), {}, replay);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::Internal);
  }
}

// The Loopover optimal solver runs on the driver: the run context's stop token, node limit and
// progress sink reach it, and the old options still work.
TEST(IdaStar, LoopoverSolverUnderRunContext) {
  auto solver = loopover::OptimalSolver::create(loopover::BoardSize{3, 3}, loopover::Metric::Stm);
  ASSERT_TRUE(solver.ok());
  const loopover::Position start = {9, 8, 7, 6, 5, 4, 3, 2, 1};
  auto plain = solver->solve(start);
  ASSERT_TRUE(plain.ok());
  std::vector<std::string> messages;
  RunContext run;
  run.with_progress([&](const Progress& p) { messages.push_back(p.message); });
  auto reported = solver->solve(start, {}, run);
  ASSERT_TRUE(reported.ok());
  EXPECT_EQ(reported->moves, plain->moves);
  EXPECT_EQ(reported->nodes, plain->nodes);
  EXPECT_EQ(messages.front(), "bound " + std::to_string(plain->initial_bound));
  ASSERT_GT(plain->nodes, 10u);
  auto limited = solver->solve(start, {}, RunContext().with_node_limit(10));
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.error().kind, ErrorKind::LimitExceeded);
  loopover::OptimalSolveOptions old;
  old.max_nodes = 10;
  auto limited_old = solver->solve(start, old);
  ASSERT_FALSE(limited_old.ok());
  EXPECT_EQ(limited_old.error().message, limited.error().message);
  std::stop_source source;
  source.request_stop();
  auto cancelled = solver->solve(start, {}, RunContext().with_stop_token(source.get_token()));
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error().kind, ErrorKind::Cancelled);
}

}  // namespace search_ida_test
}  // namespace permuzzle::search
