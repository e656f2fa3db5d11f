// Whole-graph BFS against published counts, and the optimal solver against BFS distances.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <unordered_set>

#include "loopover_bfs_resume.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"

namespace permuzzle::loopover {
namespace loopover_bfs_test {

TEST(LoopoverBfs, RankingIsPerfect) {
  for (int n : {2, 5, 8}) {
    std::vector<char> hit(*factorial(n), 0);
    std::uint8_t tiles[MAX_BFS_CELLS];
    for (std::uint32_t r = 0; r < *factorial(n); ++r) {
      unrank_position(r, n, tiles);
      std::uint32_t back = rank_position(tiles, n);
      ASSERT_EQ(back, r);
      hit[r] = 1;
    }
  }
  std::uint8_t id[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  EXPECT_EQ(rank_position(id, 12), 0u);
  std::uint8_t rev[12] = {12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_EQ(rank_position(rev, 12), *factorial(12) - 1);
}

// Published facts (issue 4): 2x2 has 24 positions and God's number 4; 2x3 has 720 and 7;
// 3x3 has 181,440 (A9) and God's number 8 with 2,475 antipodes.
TEST(LoopoverBfs, PublishedCounts) {
  auto t22 = DistanceTable::build(BoardSize{2, 2});
  ASSERT_TRUE(t22.ok());
  EXPECT_EQ(t22->stats().states, 24u);
  EXPECT_EQ(t22->stats().max_distance, 4);
  auto t23 = DistanceTable::build(BoardSize{2, 3});
  ASSERT_TRUE(t23.ok());
  EXPECT_EQ(t23->stats().states, 720u);
  EXPECT_EQ(t23->stats().max_distance, 7);
  auto t33 = DistanceTable::build(BoardSize{3, 3});
  ASSERT_TRUE(t33.ok());
  EXPECT_EQ(t33->stats().states, 181440u);
  EXPECT_EQ(t33->stats().max_distance, 8);
  EXPECT_EQ(t33->stats().antipodes, 2475u);
  std::uint64_t sum = 0;
  for (auto c : t33->stats().histogram) sum += c;
  EXPECT_EQ(sum, 181440u);
}

// The engine's histogram and antipodes against an independent BFS over whole positions in a
// hash map (no ranking, no bit table), in both metrics.
TEST(LoopoverBfs, MatchesAPlainBfsOverPositions) {
  for (BoardSize size : {BoardSize{2, 3}, BoardSize{2, 4}}) {
    for (Metric metric : {Metric::Stm, Metric::Mtm}) {
      std::map<Position, int> dist{{goal_position(size), 0}};
      std::vector<Position> frontier{goal_position(size)};
      std::vector<std::uint64_t> histogram{1};
      const auto moves = metric_moves(size, metric);
      while (!frontier.empty()) {
        std::vector<Position> next;
        for (const Position& p : frontier) {
          for (const Move& m : moves) {
            Position q = p;
            apply_move(size, q, m);
            if (dist.emplace(q, static_cast<int>(histogram.size())).second) next.push_back(q);
          }
        }
        if (!next.empty()) histogram.push_back(next.size());
        frontier.swap(next);
      }
      BfsOptions o;
      o.metric = metric;
      auto t = DistanceTable::build(size, o);
      ASSERT_TRUE(t.ok());
      EXPECT_EQ(t->stats().histogram, histogram);
      EXPECT_EQ(t->stats().states, dist.size());
      // Antipodes: the first five at the last distance, in rank (lexicographic) order.
      std::vector<Position> far;
      for (const auto& [p, d] : dist) {
        if (d + 1 == static_cast<int>(histogram.size()) && far.size() < 5) far.push_back(p);
      }
      EXPECT_EQ(t->stats().sample_antipodes, far);
    }
  }
}

TEST(LoopoverBfs, ThreadCountDoesNotChangeTheAnswer) {
  BfsOptions one;
  one.threads = 1;
  BfsOptions two;
  two.threads = 2;
  for (Metric m : {Metric::Stm, Metric::Mtm}) {
    one.metric = two.metric = m;
    auto a = DistanceTable::build(BoardSize{2, 4}, one);
    auto b = DistanceTable::build(BoardSize{2, 4}, two);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->stats().histogram, b->stats().histogram);
    EXPECT_EQ(a->stats().states, 40320u);
  }
}

// A search cancelled after level 5 leaves the checkpoint of its last complete level; the resumed
// search finishes with the published 3x3 facts (181,440 positions, God's number 8, 2,475
// antipodes) and the first antipodes of the whole search.
TEST(LoopoverBfs, StoppedSearchResumesFromItsCheckpoint) {
  const BoardSize size{3, 3};
  const std::string dir = ::testing::TempDir() + "/loopover-bfs-checkpoint";
  const test::StoppedAndResumed run = test::stop_and_resume(size, BfsOptions(), dir, 5);
  EXPECT_FALSE(run.stopped_ok);
  EXPECT_EQ(run.partial.histogram.size(), 6u);
  const auto& rest = run.resumed;
  ASSERT_TRUE(rest.ok()) << rest.error().message;
  EXPECT_EQ(rest->resumed_from, 5);
  EXPECT_EQ(rest->states, 181440u);
  EXPECT_EQ(rest->max_distance, 8);
  EXPECT_EQ(rest->antipodes, 2475u);
  EXPECT_EQ(std::vector<std::uint64_t>(rest->histogram.begin(), rest->histogram.begin() + 6),
            run.partial.histogram);
  auto whole = DistanceTable::build(size);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(rest->histogram, whole->stats().histogram);
  EXPECT_EQ(rest->sample_antipodes, whole->stats().sample_antipodes);
  // Without a checkpoint directory there is nothing to resume.
  const RunContext unlimited = RunContext().with_threads(2);
  BfsOptions o;
  o.run = &unlimited;
  o.resume = true;
  EXPECT_FALSE(analyse(size, o).ok());
  std::filesystem::remove_all(dir);
}

// Every bound is admissible on every 3x3 position, in both metrics, and IDA* finds exactly the
// BFS distance on random 3x3, 2x4 and 2x5 positions.
class LoopoverOptimalVsBfs : public ::testing::TestWithParam<Metric> {};

TEST_P(LoopoverOptimalVsBfs, BoundsAdmissibleOnAll3x3) {
  const Metric metric = GetParam();
  BoardSize size{3, 3};
  BfsOptions bo;
  bo.metric = metric;
  auto table = DistanceTable::build(size, bo);
  ASSERT_TRUE(table.ok());
  auto solver = OptimalSolver::create(size, metric);
  ASSERT_TRUE(solver.ok());
  std::uint8_t tiles[9];
  std::uint64_t checked = 0;
  for (std::uint32_t r = 0; r < *factorial(9); ++r) {
    if (table->entry(r) == 0xF) continue;
    unrank_position(r, 9, tiles);
    Position p(tiles, tiles + 9);
    const int d = table->entry(r);
    ASSERT_LE(solver->bound(p), d) << format_position(p);
    ASSERT_LE(seeds_bound(size, p, metric).total, d) << format_position(p);
    ++checked;
  }
  EXPECT_EQ(checked, 181440u);
}

TEST_P(LoopoverOptimalVsBfs, IdaStarMatchesBfs) {
  const Metric metric = GetParam();
  Rng rng(2024);
  std::vector<BoardSize> sizes{BoardSize{3, 3}, BoardSize{2, 4}, BoardSize{4, 2}};
  if (metric == Metric::Stm) sizes.push_back(BoardSize{2, 5});
  for (BoardSize size : sizes) {
    BfsOptions bo;
    bo.metric = metric;
    auto table = DistanceTable::build(size, bo);
    ASSERT_TRUE(table.ok());
    auto solver = OptimalSolver::create(size, metric);
    ASSERT_TRUE(solver.ok());
    OptimalSolveOptions so;
    so.metric = metric;
    const int count = size.cells() >= 10 ? 4 : 15;  // 2x5 has the longest searches
    for (int i = 0; i < count; ++i) {
      Position p = random_position(size, rng);
      auto sol = solver->solve(p, so);
      ASSERT_TRUE(sol.ok()) << sol.error().describe();
      EXPECT_EQ(sol->length, table->distance(p)) << format_size(size) << " " << format_position(p);
      EXPECT_EQ(sequence_length(size, sol->moves, metric), sol->length);
      Position q = p;
      apply_moves(size, q, sol->moves);
      EXPECT_TRUE(is_goal(q));
    }
    // The antipodes too (the hardest positions).
    for (const Position& p : table->stats().sample_antipodes) {
      auto sol = solver->solve(p, so);
      ASSERT_TRUE(sol.ok());
      EXPECT_EQ(sol->length, table->stats().max_distance);
    }
  }
}

// Exact distance by a bidirectional breadth-first search between `start` and the goal: an
// independent method for boards whose whole-graph BFS is too slow for a unit test (3x4: 12!
// positions). Moves come from the rules model (apply_move on the goal gives each move's cell
// map); positions are packed 4 bits per cell. Each round expands the whole next level of the
// smaller side; the first level that meets the other side's visited set fixes the distance:
// before that round no position was within a of the start and b of the goal, so the distance
// is > a + b, and a meeting position at depth a + 1 gives a path of length a + 1 + b.
int meet_in_the_middle_distance(BoardSize size, const Position& start, Metric metric) {
  const int n = size.cells();
  std::vector<std::vector<int>> dst;  // dst[m][cell]: where move m carries the cell's piece
  for (Axis axis : {Axis::Row, Axis::Column}) {
    const int lines = axis == Axis::Row ? size.rows : size.cols;
    const int len = line_length(size, axis);
    for (int line = 0; line < lines; ++line) {
      std::vector<int> amounts;
      if (metric == Metric::Stm) {
        amounts = len == 2 ? std::vector<int>{1} : std::vector<int>{1, -1};
      } else {
        for (int k = 1; k < len; ++k) amounts.push_back(k);
      }
      for (int k : amounts) {
        Position p = goal_position(size);
        apply_move(size, p,
                   Move{axis, static_cast<std::uint8_t>(line), static_cast<std::int8_t>(k)});
        std::vector<int> d(static_cast<std::size_t>(n));
        for (int cell = 0; cell < n; ++cell) d[p[cell] - 1u] = cell;
        dst.push_back(std::move(d));
      }
    }
  }
  auto pack = [&](const Position& p) {
    std::uint64_t key = 0;
    for (int c = 0; c < n; ++c) key |= static_cast<std::uint64_t>(p[c] - 1u) << (4 * c);
    return key;
  };
  struct Side {
    std::unordered_set<std::uint64_t> seen;
    std::vector<std::uint64_t> frontier;
    int depth = 0;
  };
  Side a, b;
  a.frontier = {pack(start)};
  b.frontier = {pack(goal_position(size))};
  a.seen.insert(a.frontier[0]);
  b.seen.insert(b.frontier[0]);
  if (a.frontier[0] == b.frontier[0]) return 0;
  while (!a.frontier.empty() && !b.frontier.empty()) {
    Side& grow = a.frontier.size() <= b.frontier.size() ? a : b;
    const Side& other = &grow == &a ? b : a;
    std::vector<std::uint64_t> next;
    bool met = false;
    for (std::uint64_t key : grow.frontier) {
      for (const auto& d : dst) {
        std::uint64_t moved = 0;
        for (int c = 0; c < n; ++c) moved |= ((key >> (4 * c)) & 0xF) << (4 * d[c]);
        if (!grow.seen.insert(moved).second) continue;
        met = met || other.seen.count(moved) > 0;
        next.push_back(moved);
      }
    }
    ++grow.depth;
    if (met) return a.depth + b.depth;
    grow.frontier = std::move(next);
  }
  return -1;
}

// The meet-in-the-middle search itself against the whole-graph BFS (2x4, every metric).
TEST(LoopoverMeetInTheMiddle, MatchesWholeGraphBfsOn2x4) {
  for (Metric metric : {Metric::Stm, Metric::Mtm}) {
    BfsOptions bo;
    bo.metric = metric;
    auto table = DistanceTable::build(BoardSize{2, 4}, bo);
    ASSERT_TRUE(table.ok());
    Rng rng(99);
    for (int i = 0; i < 30; ++i) {
      Position p = random_position(BoardSize{2, 4}, rng);
      EXPECT_EQ(meet_in_the_middle_distance(BoardSize{2, 4}, p, metric), table->distance(p));
    }
    for (const Position& p : table->stats().sample_antipodes)
      EXPECT_EQ(meet_in_the_middle_distance(BoardSize{2, 4}, p, metric),
                table->stats().max_distance);
  }
}

// IDA* finds exactly the meet-in-the-middle distance on random 3x4 positions (its whole-graph
// BFS takes minutes), in both metrics.
TEST_P(LoopoverOptimalVsBfs, IdaStarMatchesMeetInTheMiddleOn3x4) {
  const Metric metric = GetParam();
  const BoardSize size{3, 4};
  auto solver = OptimalSolver::create(size, metric);
  ASSERT_TRUE(solver.ok());
  OptimalSolveOptions so;
  so.metric = metric;
  Rng rng(metric == Metric::Stm ? 34 : 43);
  for (int i = 0; i < 20; ++i) {
    Position p = random_position(size, rng);
    const int d = meet_in_the_middle_distance(size, p, metric);
    auto sol = solver->solve(p, so);
    ASSERT_TRUE(sol.ok()) << sol.error().describe();
    EXPECT_EQ(sol->length, d) << format_position(p);
    Position q = p;
    apply_moves(size, q, sol->moves);
    EXPECT_TRUE(is_goal(q));
  }
}

INSTANTIATE_TEST_SUITE_P(Metrics, LoopoverOptimalVsBfs, ::testing::Values(Metric::Stm, Metric::Mtm),
                         [](const auto& info) {
                           return info.param == Metric::Stm ? std::string("Stm")
                                                            : std::string("Mtm");
                         });

}  // namespace loopover_bfs_test
}  // namespace permuzzle::loopover
