// Fast multi-stage Loopover solver: every solution is replayed here by an independent
// implementation of the rules, on every board size from 2x2 to 9x9, in both metrics.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <queue>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/fast_solver.hpp"

namespace permuzzle::loopover {
namespace loopover_fast_test {

// Plays moves by the spec's rules: rows shift RIGHT for amount > 0, columns DOWN.
Position play(BoardSize size, Position p, const std::vector<Move>& moves) {
  const int r = size.rows, c = size.cols;
  for (const Move& m : moves) {
    Position q = p;
    if (m.axis == Axis::Row) {
      for (int j = 0; j < c; ++j)
        q[m.index * c + ((j + m.amount) % c + c) % c] = p[m.index * c + j];
    } else {
      for (int i = 0; i < r; ++i)
        q[((i + m.amount) % r + r) % r * c + m.index] = p[i * c + m.index];
    }
    p = std::move(q);
  }
  return p;
}

Position goal(BoardSize size) {
  Position p(size.cells());
  for (int i = 0; i < size.cells(); ++i) p[i] = static_cast<std::uint8_t>(i + 1);
  return p;
}

// Replays solutions of `trials` random positions and checks the reported length.
void check_size(BoardSize size, Metric metric, std::uint64_t table_limit, int trials, Rng& rng) {
  FastSolveOptions options;
  options.metric = metric;
  options.beam_width = 8;
  options.branch = 4;   // low effort keeps the test fast; slack stays on (default 2) so the
  options.examine = 4;  // longer-than-optimal stage solutions are replayed too
  options.max_table_entries = table_limit;  // small tables keep the test fast
  auto solver = FastSolver::create(size, options);
  ASSERT_TRUE(solver.ok()) << size.rows << "x" << size.cols;
  for (int trial = 0; trial < trials; ++trial) {
    Position start = random_position(size, rng);
    auto res = solver->solve(start, options);
    ASSERT_TRUE(res.ok()) << size.rows << "x" << size.cols << ": " << res.error().message;
    EXPECT_EQ(play(size, start, res->moves), goal(size)) << size.rows << "x" << size.cols;
    EXPECT_EQ(res->length, move_count(size, res->moves, metric));
    EXPECT_NE(res->method.find("not proven optimal"), std::string::npos);
    for (const Move& m : res->moves) {
      if (metric == Metric::Stm) EXPECT_EQ(std::abs(m.amount), 1);
    }
  }
}

TEST(LoopoverFast, SolvesSquareBoards2To9) {
  Rng rng(20261122);
  for (int n = 2; n <= 9; ++n) check_size({n, n}, Metric::Stm, 300'000, 2, rng);
}

TEST(LoopoverFast, SolvesRectangularBoardsAndMtm) {
  Rng rng(7);
  for (auto [r, c] : {std::pair{2, 9}, {9, 2}, {3, 7}, {4, 6}, {2, 3}, {8, 5}})
    check_size({r, c}, Metric::Stm, 300'000, 2, rng);
  for (auto [r, c] : {std::pair{3, 3}, {4, 5}, {6, 6}})
    check_size({r, c}, Metric::Mtm, 300'000, 2, rng);
}

TEST(LoopoverFast, TwoStageMethodOn4x4IsTheSpecsSubgroupChain) {
  // With room for a 6-piece table the planner picks the spec's method: stage 1 solves tiles
  // 1,2,3,5,6,7 with all moves, stage 2 finishes inside <C, D, 4> (10 pieces, 3 lines).
  FastSolveOptions options;
  options.max_table_entries = 6'000'000;
  EXPECT_EQ(FastSolver::plan_for({4, 4}, options), "0x0>2x3>4x4");
  // With smaller tables the chain takes more, smaller steps, ending in the last row + column.
  options.max_table_entries = 100'000;
  EXPECT_EQ(FastSolver::plan_for({4, 4}, options), "0x0>2x2>3x3>4x4");
  // 4x4 stage 2 inside <C, D, 4>: 10 pieces, 3 lines; <C,D,4> contains odd 4-cycles, so it
  // reaches all 10! arrangements (checked on the smaller analogue 3x4 > lock 2x2: 8 cells).
  options.max_table_entries = 50'000;
  auto solver = FastSolver::create({3, 4}, options);
  ASSERT_TRUE(solver.ok());
  auto stages = solver->stages();
  ASSERT_FALSE(stages.empty());
  EXPECT_EQ(stages.back().pieces, stages.back().free_cells);
  std::uint64_t fact = 1;
  for (int i = 2; i <= stages.back().free_cells; ++i) fact *= i;
  EXPECT_EQ(stages.back().entries, fact);
}

TEST(LoopoverFast, CrossStageMatchesIndependentBfs) {
  // The last stage on 3x3 (lock 2x2, lines C and 3) acts on 5 cells; an independent BFS
  // over those 5 cells with two 3-cycles gives the group A5 (60 elements), max distance 6.
  FastSolveOptions options;
  options.max_table_entries = 1000;
  auto solver = FastSolver::create({3, 3}, options);
  ASSERT_TRUE(solver.ok());
  auto stages = solver->stages();
  ASSERT_FALSE(stages.empty());
  const auto& last = stages.back();
  EXPECT_EQ(last.from, "2x2");
  EXPECT_EQ(last.free_cells, 5);
  // Independent BFS on the cross: row C = cells (6,7,8), column 3 = cells (2,5,8).
  std::map<std::vector<int>, int> dist;
  std::queue<std::vector<int>> q;
  std::vector<int> start = {2, 5, 6, 7, 8};
  dist[start] = 0;
  q.push(start);
  auto shift = [](std::vector<int> s, std::vector<int> line, int dir) {
    for (int& x : s) {
      auto it = std::find(line.begin(), line.end(), x);
      if (it == line.end()) continue;
      int i = static_cast<int>(it - line.begin());
      x = line[(i + dir + 3) % 3];
    }
    return s;
  };
  while (!q.empty()) {
    auto s = q.front();
    q.pop();
    for (auto line : {std::vector<int>{6, 7, 8}, std::vector<int>{2, 5, 8}}) {
      for (int dir : {1, -1}) {
        auto t = shift(s, line, dir);
        if (!dist.count(t)) dist[t] = dist[s] + 1, q.push(t);
      }
    }
  }
  int max_d = 0;
  for (auto& [k, v] : dist) max_d = std::max(max_d, v);
  EXPECT_EQ(dist.size(), 60u);
  EXPECT_EQ(last.max_distance, max_d);
}

TEST(LoopoverFast, RejectsBadInput) {
  FastSolveOptions options;
  auto bad_size = FastSolver::create({1, 4}, options);
  EXPECT_FALSE(bad_size.ok());
  auto solver = FastSolver::create({3, 3}, options);
  ASSERT_TRUE(solver.ok());
  EXPECT_FALSE(solver->solve({1, 2, 3}, options).ok());                     // wrong length
  EXPECT_FALSE(solver->solve({1, 1, 3, 4, 5, 6, 7, 8, 9}, options).ok());   // repeated tile
  EXPECT_FALSE(solver->solve({1, 2, 3, 4, 5, 6, 7, 8, 10}, options).ok());  // out of range
  auto odd = solver->solve({2, 1, 3, 4, 5, 6, 7, 8, 9}, options);           // odd on 3x3
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.error().kind, ErrorKind::Unsolvable);
  // Solved position: nothing to do.
  auto none = solver->solve({1, 2, 3, 4, 5, 6, 7, 8, 9}, options);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->length, 0);
}

// The stage tables' breadth-first search splits each level between the run's threads: the
// tables (their sizes, worst and mean distances) and so the solutions are the same on one
// thread and on two. 5x5 with tables up to 3M entries: levels of several hundred thousand
// arrangements, enough for two threads to share.
TEST(LoopoverFast, StageTablesAreTheSameOnOneThreadAndOnTwo) {
  std::vector<FastSolver> solvers;
  std::vector<RunContext> runs(2);
  for (unsigned threads : {1u, 2u}) {
    runs[threads - 1].with_threads(threads);
    FastSolveOptions options;
    options.max_table_entries = 3'000'000;
    options.run = &runs[threads - 1];
    auto solver = FastSolver::create({5, 5}, options);
    ASSERT_TRUE(solver.ok()) << solver.error().describe();
    solvers.push_back(std::move(*solver));
  }
  const auto one = solvers[0].stages(), two = solvers[1].stages();
  ASSERT_EQ(one.size(), two.size());
  bool shared = false;
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].entries, two[i].entries);
    EXPECT_EQ(one[i].max_distance, two[i].max_distance);
    EXPECT_DOUBLE_EQ(one[i].mean_distance, two[i].mean_distance);
    shared = shared || one[i].entries >= 1'000'000;
  }
  EXPECT_TRUE(shared) << solvers[0].plan();  // a stage large enough to be split
  Rng rng(3);
  for (int i = 0; i < 5; ++i) {
    const Position p = random_position({5, 5}, rng);
    auto a = solvers[0].solve(p, {});
    auto b = solvers[1].solve(p, {});
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->moves, b->moves);
  }
}

}  // namespace loopover_fast_test
}  // namespace permuzzle::loopover
