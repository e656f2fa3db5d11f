// Sliding puzzles: model, bounds, IDA*, bidirectional search and whole-graph analysis, checked
// against published facts and against an independent breadth-first search written here.
#include <gtest/gtest.h>

#include <filesystem>

#include <algorithm>
#include <map>
#include <numeric>
#include <queue>
#include <unordered_map>

#include "permuzzle/core/ranking.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/sliding/bfs.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/bounds.hpp"
#include "permuzzle/puzzles/sliding/solver.hpp"
#include "permuzzle/puzzles/sliding/symmetry_classes.hpp"

namespace permuzzle::sliding {
namespace sliding_core_test {

const char* SPEC_EXAMPLE = "11 2 12 1 / 6 7 3 8 / 9 5 0 4 / 14 10 13 15";

// Independent reference: plain BFS over positions stored as strings in a hash map.
std::unordered_map<std::string, int> reference_distances(BoardSize size, const Position& goal) {
  std::unordered_map<std::string, int> dist;
  std::queue<std::string> q;
  std::string g(goal.begin(), goal.end());
  dist[g] = 0;
  q.push(g);
  while (!q.empty()) {
    std::string s = q.front();
    q.pop();
    int b = static_cast<int>(s.find('\0'));
    int r = b / size.cols, c = b % size.cols;
    int d = dist[s];
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int k = 0; k < 4; ++k) {
      int nr = r + dr[k], nc = c + dc[k];
      if (nr < 0 || nr >= size.rows || nc < 0 || nc >= size.cols) continue;
      std::string t = s;
      std::swap(t[b], t[nr * size.cols + nc]);
      if (dist.emplace(t, d + 1).second) q.push(t);
    }
  }
  return dist;
}

Position from_key(const std::string& s) {
  return Position(s.begin(), s.end());
}

TEST(SlidingBoard, ParsesFlatGridAndBlankConventions) {
  BoardSize inferred;
  auto p = parse_position(SPEC_EXAMPLE, std::nullopt, &inferred);
  ASSERT_TRUE(p.ok()) << p.error().describe();
  EXPECT_EQ(inferred, (BoardSize{4, 4}));
  EXPECT_EQ((*p)[10], 0);
  auto q = parse_position("11 2 12 1\n6 7 3 8\n9 5 . 4\n14 10 13 15\n", std::nullopt);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(*p, *q);
  auto r = parse_position("1 2 3 4 5 6 7 8 9", BoardSize{3, 3});  // 9 = blank
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, standard_goal({3, 3}));
  auto thin = parse_position("1 2 3 4 5 / 6 7 0 8 9", std::nullopt, &inferred);
  ASSERT_TRUE(thin.ok());
  EXPECT_EQ(inferred, (BoardSize{2, 5}));
}

TEST(SlidingBoard, RejectsBadPositions) {
  EXPECT_FALSE(parse_position("1 2 3 4 5 6 7 8", BoardSize{3, 3}).ok());      // too few
  EXPECT_FALSE(parse_position("1 2 3 4 5 6 7 7 0", BoardSize{3, 3}).ok());    // duplicate
  EXPECT_FALSE(parse_position("1 2 3 4 5 6 7 12 0", BoardSize{3, 3}).ok());   // range
  EXPECT_FALSE(parse_position("1 2 3 / 4 5 / 6 7 8 0", std::nullopt).ok());   // ragged
  EXPECT_FALSE(parse_position("1 2 x 4 5 6 7 8 0", BoardSize{3, 3}).ok());    // junk
  EXPECT_FALSE(parse_position("1 2 3 4 5 6 7 8 0 9 10", std::nullopt).ok());  // not square
  EXPECT_FALSE(parse_board_size("1x4").ok());
  EXPECT_FALSE(parse_board_size("6x6").ok());
  EXPECT_TRUE(parse_board_size("2x8").ok());
  auto e = parse_position("1 2 3 4 5 6 7 7 0", BoardSize{3, 3});
  EXPECT_NE(e.error().message.find("appears twice"), std::string::npos);
}

TEST(SlidingBoard, MovesByTileAndDirectionAgree) {
  BoardSize s{3, 3};
  Position a = standard_goal(s), b = standard_goal(s);
  auto m1 = apply_moves(s, a, "U L D R");
  ASSERT_TRUE(m1.ok()) << m1.error().describe();
  auto m2 = apply_moves(s, b, format_tiles(m1->tiles));
  ASSERT_TRUE(m2.ok());
  EXPECT_EQ(a, b);
  EXPECT_EQ(m1->directions, m2->directions);
  EXPECT_EQ(m1->tiles, (std::vector<int>{6, 5, 8, 6}));
  Position c = standard_goal(s);
  EXPECT_FALSE(apply_moves(s, c, "D").ok());  // blank in the corner cannot go down
  EXPECT_FALSE(apply_moves(s, c, "1").ok());  // tile 1 is not next to the blank
}

TEST(SlidingBounds, SpecExample) {
  auto p = parse_position(SPEC_EXAMPLE, BoardSize{4, 4});
  ASSERT_TRUE(p.ok());
  BoundReport b = compute_bounds({4, 4}, *p, standard_goal({4, 4}));
  EXPECT_EQ(b.manhattan, 22);
  EXPECT_EQ(b.linear_conflict_bound(), 28);
  EXPECT_LE(b.best(), 46);
}

TEST(SlidingSolver, SpecExampleOptimalIs46) {
  auto p = parse_position(SPEC_EXAMPLE, BoardSize{4, 4});
  ASSERT_TRUE(p.ok());
  auto r = solve({4, 4}, *p, standard_goal({4, 4}));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->moves.size(), 46u);
}

TEST(SlidingBounds, LineConflictIsTilesToRemoveTimesTwo) {
  int k1[] = {2, 1, 0};  // fully reversed row of three: keep one, remove two
  EXPECT_EQ(line_conflict(k1, 3), 4);
  int k2[] = {1, 2, 3, 0};  // one tile out of order
  EXPECT_EQ(line_conflict(k2, 4), 2);
  int k3[] = {0, 1, 2};
  EXPECT_EQ(line_conflict(k3, 3), 0);
}

// Parity rule against reachability, every bound against the true distance, for all positions
// of 3x3 (both goals) and 2x4.
void check_whole_board(BoardSize size, const Position& goal) {
  auto dist = reference_distances(size, goal);
  Position p = goal;
  std::sort(p.begin(), p.end());
  std::uint64_t reachable = 0;
  do {
    std::string key(p.begin(), p.end());
    auto it = dist.find(key);
    bool reach = it != dist.end();
    reachable += reach;
    ASSERT_EQ(solvability(size, p, goal).solvable, reach) << format_flat(p);
    if (!reach) continue;
    BoundReport b = compute_bounds(size, p, goal);
    ASSERT_LE(b.best(), it->second) << format_flat(p);
    ASSERT_LE(b.last_move_bound(), it->second) << format_flat(p);
    ASSERT_LE(b.linear_conflict_bound(), it->second) << format_flat(p);
  } while (std::next_permutation(p.begin(), p.end()));
  std::uint64_t total = 1;
  for (int i = 2; i <= size.cells(); ++i) total *= i;
  EXPECT_EQ(2 * reachable, total);
}

TEST(SlidingBounds, AdmissibleAndParityOnAll3x3Standard) {
  check_whole_board({3, 3}, standard_goal({3, 3}));
}
TEST(SlidingBounds, AdmissibleAndParityOnAll3x3BlankFirst) {
  check_whole_board({3, 3}, blank_first_goal({3, 3}));
}
TEST(SlidingBounds, AdmissibleAndParityOnAll2x4) {
  check_whole_board({2, 4}, standard_goal({2, 4}));
  check_whole_board({4, 2}, blank_first_goal({4, 2}));
}

TEST(SlidingBounds, AdmissibleAndParityOnAll2x5) {
  check_whole_board({2, 5}, standard_goal({2, 5}));
}

// IDA* (each heuristic) and bidirectional search against BFS distances on random positions.
void check_solver(BoardSize size, const Position& goal, int count, std::uint64_t seed) {
  auto dist = reference_distances(size, goal);
  SplitMixRng rng(seed);
  for (int i = 0; i < count; ++i) {
    Position p = random_position(size, goal, rng);
    int expected = dist.at(std::string(p.begin(), p.end()));
    for (int variant = 0; variant < 4; ++variant) {
      SolveOptions o;
      o.heuristic = variant == 0 ? Heuristic::Manhattan : Heuristic::LinearConflict;
      o.last_move = variant != 1;
      o.bidirectional = variant == 3;
      o.perimeter_states = 2000;  // small perimeter: the meet is in the middle of the path
      auto r = solve(size, p, goal, o);
      ASSERT_TRUE(r.ok()) << r.error().describe();
      ASSERT_EQ(static_cast<int>(r->moves.size()), expected)
          << format_flat(p) << " variant " << variant;
      ASSERT_TRUE(r->optimal);
      ASSERT_EQ(r->tiles.size(), r->moves.size());
      Position q = p;
      ASSERT_TRUE(replay(size, q, r->moves).ok());
      ASSERT_EQ(q, goal);
      if (variant == 3) ASSERT_GT(r->nodes_backward, 0u);
    }
  }
}

TEST(SlidingSolver, MatchesBfsOnRandom3x3) {
  check_solver({3, 3}, standard_goal({3, 3}), 300, 1);
}
TEST(SlidingSolver, MatchesBfsOnRandom3x3BlankFirst) {
  check_solver({3, 3}, blank_first_goal({3, 3}), 100, 2);
}
TEST(SlidingSolver, MatchesBfsOnRandom2x4And3x2) {
  check_solver({2, 4}, standard_goal({2, 4}), 300, 3);
  check_solver({3, 2}, standard_goal({3, 2}), 100, 4);
}

TEST(SlidingSolver, ExplicitGoalAndAntipode) {
  BoardSize s{3, 3};
  // One of the two 31-move antipodes of the standard 3x3 goal.
  auto p = parse_position("8 6 7 / 2 5 4 / 3 0 1", s);
  ASSERT_TRUE(p.ok());
  auto r = solve(s, *p, standard_goal(s));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->moves.size(), 31u);
  SolveOptions o;
  o.bidirectional = true;
  auto rb = solve(s, *p, standard_goal(s), o);
  ASSERT_TRUE(rb.ok());
  EXPECT_EQ(rb->moves.size(), 31u);
  EXPECT_GT(rb->nodes_backward, 0u);
}

TEST(SlidingSolver, FifteenPuzzleShortInstances) {
  BoardSize s{4, 4};
  // Solve a 4x4 position scrambled by a known path: the optimum is at most the path length,
  // and bidirectional agrees with plain IDA*.
  Position p = standard_goal(s);
  ASSERT_TRUE(apply_moves(s, p, "U U L D L U R R D L L U R D D R U L L D R R").ok());
  auto a = solve(s, p, standard_goal(s));
  ASSERT_TRUE(a.ok());
  EXPECT_LE(a->moves.size(), 22u);
  SolveOptions o;
  o.bidirectional = true;
  auto b = solve(s, p, standard_goal(s), o);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->moves.size(), b->moves.size());
  SolveOptions m;
  m.heuristic = Heuristic::Manhattan;
  m.last_move = false;
  auto c = solve(s, p, standard_goal(s), m);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(a->moves.size(), c->moves.size());
  EXPECT_GE(c->nodes, a->nodes);  // the stronger bound never expands more
}

// Independent reference for one pair: breadth-first search from `start` until `goal` appears.
int reference_distance(BoardSize size, const Position& start, const Position& goal) {
  std::unordered_map<std::string, int> dist;
  std::queue<std::string> q;
  const std::string target(goal.begin(), goal.end());
  dist[std::string(start.begin(), start.end())] = 0;
  q.push(std::string(start.begin(), start.end()));
  while (!q.empty()) {
    std::string s = q.front();
    q.pop();
    const int d = dist[s];
    if (s == target) return d;
    const int b = static_cast<int>(s.find('\0'));
    const int r = b / size.cols, c = b % size.cols;
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int k = 0; k < 4; ++k) {
      const int nr = r + dr[k], nc = c + dc[k];
      if (nr < 0 || nr >= size.rows || nc < 0 || nc >= size.cols) continue;
      std::string t = s;
      std::swap(t[b], t[nr * size.cols + nc]);
      if (dist.emplace(t, d + 1).second) q.push(t);
    }
  }
  return -1;
}

// Thin boards up to 16 cells in a row (2x16 = 32 and 3x16 = 48 cells): positions a random walk
// away from the goal, every solver variant against breadth-first search.
TEST(SlidingSolver, ThinBoardsUpTo16InARowMatchBfs) {
  for (BoardSize size :
       {BoardSize{2, 16}, BoardSize{3, 16}, BoardSize{16, 2}, BoardSize{2, 13}, BoardSize{3, 11}}) {
    ASSERT_TRUE(check_board_size(size).ok()) << to_string(size);
    const Position goal = standard_goal(size);
    SplitMixRng rng(size.cells());
    for (int i = 0; i < 3; ++i) {
      Position p = goal;
      for (int step = 0; step < 14; ++step) {
        apply_direction(size, p, static_cast<Direction>(rng.below(4)));
      }
      const int expected = reference_distance(size, p, goal);
      for (int variant = 0; variant < 3; ++variant) {
        SolveOptions o;
        o.heuristic = variant == 0 ? Heuristic::Manhattan : Heuristic::LinearConflict;
        o.bidirectional = variant == 2;
        o.perimeter_states = 5000;
        auto r = solve(size, p, goal, o);
        ASSERT_TRUE(r.ok()) << r.error().describe();
        EXPECT_EQ(static_cast<int>(r->moves.size()), expected)
            << to_string(size) << " " << format_flat(p) << " variant " << variant;
      }
    }
    // Random positions: solvable ones pass the parity rule, one swap of two tiles breaks it.
    Position p = random_position(size, goal, rng);
    EXPECT_TRUE(solvability(size, p, goal).solvable);
    auto one = std::find(p.begin(), p.end(), 1), two = std::find(p.begin(), p.end(), 2);
    std::iter_swap(one, two);
    EXPECT_FALSE(solvability(size, p, goal).solvable);
  }
  EXPECT_FALSE(check_board_size({4, 7}).ok());   // 28 cells, no side of 3 or less
  EXPECT_FALSE(check_board_size({2, 17}).ok());  // longer than 16
  EXPECT_FALSE(check_board_size({3, 17}).ok());
}

TEST(SlidingSolver, UnsolvableIsAnError) {
  BoardSize s{3, 3};
  Position p = standard_goal(s);
  std::swap(p[0], p[1]);
  auto r = solve(s, p, standard_goal(s));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Unsolvable);
  EXPECT_NE(r.error().message.find("inversions"), std::string::npos);
}

TEST(SlidingSolver, NodeLimit) {
  auto p = parse_position(SPEC_EXAMPLE, BoardSize{4, 4});
  SolveOptions o;
  o.max_nodes = 1000;
  auto r = solve({4, 4}, *p, standard_goal({4, 4}), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
}

TEST(SlidingRandom, UniformOverSolvable2x2AndSeeded) {
  BoardSize s{2, 2};
  Position goal = standard_goal(s);
  SplitMixRng rng(7);
  std::map<std::string, int> counts;
  const int n = 24000;
  for (int i = 0; i < n; ++i) {
    Position p = random_position(s, goal, rng);
    ASSERT_TRUE(solvability(s, p, goal).solvable);
    ++counts[format_flat(p)];
  }
  ASSERT_EQ(counts.size(), 12u);  // 4!/2 solvable positions
  for (auto& [p, c] : counts) {
    EXPECT_NEAR(c, n / 12, 200) << p;  // ~6 sigma
  }
  SplitMixRng a(42), b(42);
  EXPECT_EQ(random_position({4, 4}, standard_goal({4, 4}), a),
            random_position({4, 4}, standard_goal({4, 4}), b));
}

TEST(SlidingBfs, RankRoundTrip) {
  std::uint8_t p[8], q[8];
  for (std::uint64_t r = 0; r < 40320; r += 37) {
    unrank_permutation(r, 8, p);
    EXPECT_EQ(rank_permutation(p, 8), r);
  }
  std::iota(q, q + 8, 0);
  EXPECT_EQ(rank_permutation(q, 8), 0u);
  std::reverse(q, q + 8);
  EXPECT_EQ(rank_permutation(q, 8), 40319u);
}

TEST(SlidingBfs, EightPuzzleFacts) {
  BoardSize s{3, 3};
  auto r = bfs(s, standard_goal(s));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->states, 181440u);
  EXPECT_EQ(r->max_distance, 31);
  EXPECT_EQ(r->antipodes_count, 2u);
  EXPECT_EQ(r->components, 2);
  EXPECT_EQ(r->component_sizes, (std::vector<std::uint64_t>{181440, 181440}));
  // Cross-check the histogram with the independent reference BFS.
  auto dist = reference_distances(s, standard_goal(s));
  std::vector<std::uint64_t> hist(32, 0);
  for (auto& [k, d] : dist) ++hist[d];
  EXPECT_EQ(r->histogram, hist);
  // Antipodes are at distance 31 by the reference BFS, and solving one takes 31 moves.
  ASSERT_EQ(r->antipodes.size(), 2u);
  for (const auto& a : r->antipodes) {
    EXPECT_EQ(dist.at(std::string(a.begin(), a.end())), 31);
  }
}

// A search cancelled after level 20 leaves the checkpoint of its last complete level; the
// resumed search finishes with the whole search's answer (the reference BFS's histogram).
TEST(SlidingBfs, StoppedSearchResumesFromItsCheckpoint) {
  BoardSize s{3, 3};
  const std::string dir = ::testing::TempDir() + "/sliding-bfs-checkpoint";
  std::filesystem::remove_all(dir);
  std::stop_source cancel;
  const RunContext cancellable = RunContext().with_threads(2).with_stop_token(cancel.get_token());
  BfsOptions o;
  o.checkpoint_dir = dir;
  o.count_all_components = false;
  o.run = &cancellable;
  o.on_layer = [&](int distance, std::uint64_t, std::uint64_t) {
    if (distance == 20) cancel.request_stop();
  };
  auto first = bfs(s, standard_goal(s), o);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_FALSE(first->complete);
  const int stopped_after = static_cast<int>(first->histogram.size()) - 1;
  EXPECT_EQ(stopped_after, 20);
  const RunContext unlimited = RunContext().with_threads(2);
  o.run = &unlimited;
  o.on_layer = nullptr;
  o.resume = true;
  auto rest = bfs(s, standard_goal(s), o);
  ASSERT_TRUE(rest.ok()) << rest.error().message;
  EXPECT_TRUE(rest->complete);
  EXPECT_EQ(rest->resumed_from, stopped_after);
  auto dist = reference_distances(s, standard_goal(s));
  std::vector<std::uint64_t> hist(32, 0);
  for (auto& [k, d] : dist) ++hist[d];
  EXPECT_EQ(rest->histogram, hist);
  EXPECT_EQ(rest->antipodes_count, 2u);
  // Without a checkpoint directory there is nothing to resume.
  o.checkpoint_dir.clear();
  EXPECT_FALSE(bfs(s, standard_goal(s), o).ok());
  std::filesystem::remove_all(dir);
}

TEST(SlidingBfs, ThinBoardsAgreeWithReference) {
  for (BoardSize s :
       {BoardSize{2, 2}, BoardSize{2, 3}, BoardSize{2, 4}, BoardSize{4, 2}, BoardSize{3, 2}}) {
    Position goal = blank_first_goal(s);
    auto r = bfs(s, goal);
    ASSERT_TRUE(r.ok());
    auto dist = reference_distances(s, goal);
    EXPECT_EQ(r->states, dist.size());
    int maxd = 0;
    for (auto& [k, d] : dist) maxd = std::max(maxd, d);
    EXPECT_EQ(r->max_distance, maxd);
    std::vector<std::uint64_t> hist(static_cast<std::size_t>(maxd) + 1, 0);
    for (auto& [k, d] : dist) ++hist[static_cast<std::size_t>(d)];
    EXPECT_EQ(r->histogram, hist) << to_string(s);
    EXPECT_EQ(r->components, 2);
    // The antipodes: the reference's positions at the maximum distance that come first in
    // lexicographic order.
    std::vector<std::string> far;
    for (auto& [k, d] : dist) {
      if (d == maxd) far.push_back(k);
    }
    std::sort(far.begin(), far.end());
    far.resize(std::min<std::size_t>(far.size(), 10));
    ASSERT_EQ(r->antipodes.size(), far.size());
    for (std::size_t i = 0; i < far.size(); ++i) {
      EXPECT_EQ(std::string(r->antipodes[i].begin(), r->antipodes[i].end()), far[i]);
    }
  }
}

// God's numbers of small boards (Karlemo and Oestergaard, "On sliding block puzzles", 2000):
// 2x3 21, 2x4 36, 3x3 31 (from the standard goal, blank last).
TEST(SlidingBfs, PublishedGodsNumbers) {
  const std::pair<BoardSize, int> boards[] = {{{2, 3}, 21}, {{2, 4}, 36}, {{3, 3}, 31}};
  for (const auto& [s, god] : boards) {
    BfsOptions o;
    o.count_all_components = false;
    auto r = bfs(s, standard_goal(s), o);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->max_distance, god) << to_string(s);
    EXPECT_EQ(2 * r->states, *factorial(s.cells())) << to_string(s);
  }
}

// The parity-class ranking is a bijection of each class onto 0..n!/2-1, and a move keeps the
// class: checked on every arrangement of 2x3, 3x2 and 2x4 (4 columns: the blank's row counts).
TEST(SlidingBfs, ParityClassRankingIsABijection) {
  for (BoardSize s : {BoardSize{2, 3}, BoardSize{3, 2}, BoardSize{2, 4}}) {
    const SlidingRanking ranking(s);
    const std::uint64_t half = *factorial(s.cells()) / 2;
    ASSERT_EQ(ranking.states(), half);
    std::vector<std::uint8_t> seen[2] = {std::vector<std::uint8_t>(half, 0),
                                         std::vector<std::uint8_t>(half, 0)};
    Position p(static_cast<std::size_t>(s.cells()));
    std::iota(p.begin(), p.end(), 0);
    do {
      const int k = ranking.parity_class(p);
      const std::uint64_t r = ranking.rank(p);
      ASSERT_LT(r, half);
      EXPECT_EQ(seen[k][r]++, 0) << format_flat(p);
      EXPECT_EQ(ranking.position(r, k), p) << format_flat(p);
      for (Direction d : {Direction::Up, Direction::Down, Direction::Left, Direction::Right}) {
        Position q = p;
        if (apply_direction(s, q, d)) EXPECT_EQ(ranking.parity_class(q), k) << format_flat(q);
      }
    } while (std::next_permutation(p.begin(), p.end()));
  }
}

// 64-bit ranks on the boards past 12 cells: random positions of both classes round-trip, stay
// below n!/2 and keep their class under every move.
TEST(SlidingBfs, ParityClassRanksOfSixteenCellBoards) {
  SplitMixRng rng(5);
  for (BoardSize s : {BoardSize{2, 7}, BoardSize{3, 5}, BoardSize{4, 4}, BoardSize{2, 8}}) {
    const SlidingRanking ranking(s);
    EXPECT_EQ(ranking.states(), *factorial(s.cells()) / 2);
    Position odd_goal = standard_goal(s);
    std::swap(odd_goal[0], odd_goal[1]);  // the other class
    for (const Position& goal : {standard_goal(s), odd_goal}) {
      for (int i = 0; i < 200; ++i) {
        const Position p = random_position(s, goal, rng);
        const int k = ranking.parity_class(p);
        EXPECT_EQ(k, ranking.parity_class(goal));
        const std::uint64_t r = ranking.rank(p);
        ASSERT_LT(r, ranking.states());
        EXPECT_EQ(ranking.position(r, k), p) << format_flat(p);
      }
    }
  }
}

// Boards up to 16 cells are searched when the memory allows; the budget refuses them before
// anything is allocated, and larger boards are refused outright.
TEST(SlidingBfs, BigBoardsAreRefusedByTheMemoryBudget) {
  RunContext small = RunContext().with_memory_budget(std::uint64_t{1} << 30);
  BfsOptions o;
  o.run = &small;
  auto r = bfs({4, 4}, standard_goal({4, 4}), o);  // 16!/2 positions: 2.6 TB at 2 bits
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(r.error().message.find("memory budget"), std::string::npos) << r.error().message;
  EXPECT_FALSE(bfs({4, 4}, standard_goal({4, 4})).ok());  // the machine's default budget
  auto big = bfs({3, 6}, standard_goal({3, 6}));
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("16 cells"), std::string::npos) << big.error().message;
}

// A goal with the blank at cell `blank` and the tiles 1..n-1 in order around it.
Position goal_with_blank_at(BoardSize s, int blank) {
  Position goal(static_cast<std::size_t>(s.cells()));
  for (int c = 0, t = 1; c < s.cells(); ++c)
    goal[static_cast<std::size_t>(c)] = c == blank ? 0 : t++;
  return goal;
}

// The board maps that keep a goal: the stabiliser of its blank's cell in the rectangle's 4 (the
// square's 8) isometries, counted by hand.
TEST(SlidingSymmetry, GroupOrdersOfGoals) {
  EXPECT_EQ(goal_symmetries({3, 3}, standard_goal({3, 3})).size(), 2u);  // the transpose
  EXPECT_EQ(goal_symmetries({4, 4}, standard_goal({4, 4})).size(), 2u);
  EXPECT_EQ(goal_symmetries({3, 3}, goal_with_blank_at({3, 3}, 4)).size(), 8u);  // the centre
  EXPECT_EQ(goal_symmetries({3, 3}, goal_with_blank_at({3, 3}, 1)).size(), 2u);  // an edge
  EXPECT_EQ(goal_symmetries({3, 4}, standard_goal({3, 4})).size(), 1u);
  EXPECT_EQ(goal_symmetries({3, 4}, goal_with_blank_at({3, 4}, 4)).size(), 2u);  // middle row
  EXPECT_EQ(goal_symmetries({3, 5}, goal_with_blank_at({3, 5}, 7)).size(), 4u);  // the centre
  EXPECT_EQ(goal_symmetries({2, 3}, goal_with_blank_at({2, 3}, 1)).size(), 2u);
}

// The class index over every arrangement of 2x3 (blank mid-row) and 3x3 (blank in the centre,
// and the standard goal): conjugates share one canonical index below states(); a move keeps the
// parity class of the conjugates; the orbits are the conjugates, and their sizes add up to the
// parity class.
TEST(SlidingSymmetry, ClassIndexOfEveryArrangement) {
  const std::pair<BoardSize, Position> cases[] = {{{2, 3}, goal_with_blank_at({2, 3}, 1)},
                                                  {{3, 3}, goal_with_blank_at({3, 3}, 4)},
                                                  {{3, 3}, standard_goal({3, 3})}};
  for (const auto& [s, goal] : cases) {
    const SlidingRanking ranking(s);
    const auto maps = goal_symmetries(s, goal);
    const SlidingSymmetryClasses classes[2] = {SlidingSymmetryClasses(ranking, goal, 0),
                                               SlidingSymmetryClasses(ranking, goal, 1)};
    std::uint64_t weight[2] = {0, 0};
    std::vector<std::uint8_t> seen[2] = {std::vector<std::uint8_t>(classes[0].states(), 0),
                                         std::vector<std::uint8_t>(classes[1].states(), 0)};
    Position p(static_cast<std::size_t>(s.cells()));
    std::iota(p.begin(), p.end(), 0);
    do {
      const int k = ranking.parity_class(p);
      const std::uint64_t i = classes[k].index(p);
      ASSERT_LT(i, classes[k].states()) << format_flat(p);
      EXPECT_TRUE(classes[k].canonical(i)) << format_flat(p);
      for (const auto& map : maps) {
        const Position q = conjugate_position(p, map, goal);
        EXPECT_EQ(ranking.parity_class(q), k) << format_flat(q);
        EXPECT_EQ(classes[k].index(q), i) << format_flat(q);
      }
      if (seen[k][i]++ == 0) {
        const auto orbit = classes[k].orbit(i);
        EXPECT_EQ(classes[k].orbit_size(i), orbit.size());
        EXPECT_NE(std::find(orbit.begin(), orbit.end(), p), orbit.end()) << format_flat(p);
        weight[k] += orbit.size();
      }
    } while (std::next_permutation(p.begin(), p.end()));
    EXPECT_EQ(weight[0], ranking.states()) << to_string(s);
    EXPECT_EQ(weight[1], ranking.states()) << to_string(s);
  }
}

// The search over classes gives the positions' answer: the reference BFS's histogram, the same
// antipodes and components as the search of every position (the 8-puzzle from its standard
// goal: OEIS A089473 ends 221, 2; from the centre: God's number 30 with 148 antipodes).
TEST(SlidingSymmetry, ClassSearchGivesThePositionsAnswer) {
  const std::pair<BoardSize, Position> cases[] = {{{3, 3}, standard_goal({3, 3})},
                                                  {{3, 3}, goal_with_blank_at({3, 3}, 4)},
                                                  {{3, 3}, goal_with_blank_at({3, 3}, 1)},
                                                  {{2, 3}, goal_with_blank_at({2, 3}, 1)}};
  for (const auto& [s, goal] : cases) {
    BfsOptions o;
    o.antipodes_limit = 200;
    o.symmetry = SymmetryMode::On;
    auto on = bfs(s, goal, o);
    o.symmetry = SymmetryMode::None;
    auto none = bfs(s, goal, o);
    ASSERT_TRUE(on.ok() && none.ok());
    EXPECT_EQ(on->symmetries, goal_symmetries(s, goal).size());
    EXPECT_EQ(none->symmetries, 1u);
    EXPECT_LT(on->classes, none->classes);
    EXPECT_LT(on->memory_bytes, none->memory_bytes);
    auto dist = reference_distances(s, goal);
    std::vector<std::uint64_t> hist(static_cast<std::size_t>(none->max_distance) + 1, 0);
    for (auto& [k, d] : dist) ++hist[static_cast<std::size_t>(d)];
    EXPECT_EQ(on->histogram, hist) << format_flat(goal);
    EXPECT_EQ(none->histogram, hist) << format_flat(goal);
    std::uint64_t classes = 0;
    for (auto c : on->class_histogram) classes += c;
    EXPECT_EQ(classes, on->classes);
    EXPECT_EQ(on->antipodes_count, none->antipodes_count);
    EXPECT_EQ(on->antipodes, none->antipodes) << format_flat(goal);
    EXPECT_EQ(on->component_sizes, none->component_sizes);
    EXPECT_EQ(on->mean_distance, none->mean_distance);
  }
  BfsOptions o;
  o.symmetry = SymmetryMode::On;
  auto centre = bfs({3, 3}, goal_with_blank_at({3, 3}, 4), o);
  ASSERT_TRUE(centre.ok());
  EXPECT_EQ(centre->max_distance, 30);
  EXPECT_EQ(centre->antipodes_count, 148u);
}

// Auto searches every position when its table fits the budget, the classes when only theirs
// does, and refuses when neither fits.
TEST(SlidingSymmetry, AutoTurnsToClassesOnlyForMemory) {
  const BoardSize s{3, 3};
  const Position goal = goal_with_blank_at(s, 4);  // 3 orbits of cells: a third of the table
  BfsOptions o;
  o.symmetry = SymmetryMode::Auto;
  auto roomy = bfs(s, goal, o);
  ASSERT_TRUE(roomy.ok());
  EXPECT_EQ(roomy->symmetries, 1u);
  const RunContext tight = RunContext().with_memory_budget(roomy->memory_bytes / 2);
  o.run = &tight;
  auto classes = bfs(s, goal, o);
  ASSERT_TRUE(classes.ok()) << classes.error().message;
  EXPECT_EQ(classes->symmetries, 8u);
  EXPECT_LE(classes->memory_bytes, roomy->memory_bytes / 2);
  EXPECT_EQ(classes->histogram, roomy->histogram);
  const RunContext tighter = RunContext().with_memory_budget(roomy->memory_bytes / 8);
  o.run = &tighter;
  auto refused = bfs(s, goal, o);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("symmetries"), std::string::npos)
      << refused.error().message;
}

// A search stopped after level 15 resumes from its own checkpoint to the whole answer, the
// other components counted afresh (over classes and over positions).
TEST(SlidingSymmetry, StoppedSearchResumesFromItsCheckpointAndCountsComponents) {
  const BoardSize s{3, 3};
  const Position goal = goal_with_blank_at(s, 4);
  BfsOptions whole_options;
  auto whole = bfs(s, goal, whole_options);
  ASSERT_TRUE(whole.ok());
  for (SymmetryMode mode : {SymmetryMode::On, SymmetryMode::None}) {
    const std::string dir = ::testing::TempDir() + "/sliding-bfs-class-checkpoint";
    std::filesystem::remove_all(dir);
    std::stop_source cancel;
    const RunContext cancellable = RunContext().with_threads(2).with_stop_token(cancel.get_token());
    BfsOptions o;
    o.symmetry = mode;
    o.checkpoint_dir = dir;
    o.run = &cancellable;
    o.on_layer = [&](int distance, std::uint64_t, std::uint64_t) {
      if (distance == 15) cancel.request_stop();
    };
    auto first = bfs(s, goal, o);
    ASSERT_TRUE(first.ok()) << first.error().message;
    ASSERT_FALSE(first->complete);
    EXPECT_EQ(first->histogram.size(), 16u);
    EXPECT_EQ(first->classes < first->states, mode == SymmetryMode::On);
    const RunContext unlimited = RunContext().with_threads(2);
    o.run = &unlimited;
    o.on_layer = nullptr;
    o.resume = true;
    auto rest = bfs(s, goal, o);
    ASSERT_TRUE(rest.ok()) << rest.error().message;
    EXPECT_EQ(rest->resumed_from, 15);
    EXPECT_EQ(rest->histogram, whole->histogram);
    EXPECT_EQ(rest->component_sizes, whole->component_sizes);
    std::filesystem::remove_all(dir);
  }
}

}  // namespace sliding_core_test
}  // namespace permuzzle::sliding
