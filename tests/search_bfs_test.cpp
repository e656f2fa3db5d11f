// The generic ranked BFS driver against the specialised sliding and Loopover BFS and published
// counts.
#include <gtest/gtest.h>

#include <array>
#include <stop_token>

#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/sliding/bfs.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/search/bfs.hpp"

namespace permuzzle::search {
namespace search_bfs_test {

// The 3x3 sliding puzzle: rank = lexicographic rank of the tile-per-cell arrangement.
struct EightPuzzleExpander {
  template <class Visit>
  void for_each_neighbour(std::uint64_t rank, Visit&& visit) {
    std::array<std::uint8_t, 9> p{};
    permuzzle::unrank_permutation(rank, 9, p.data());
    int blank = 0;
    while (p[blank] != 0) ++blank;
    const int r = blank / 3, c = blank % 3;
    const int targets[4] = {r > 0 ? blank - 3 : -1, r < 2 ? blank + 3 : -1, c > 0 ? blank - 1 : -1,
                            c < 2 ? blank + 1 : -1};
    for (int t : targets) {
      if (t < 0) continue;
      std::swap(p[blank], p[t]);
      const std::uint64_t q = permuzzle::rank_permutation(p.data(), 9);
      std::swap(p[blank], p[t]);
      if (visit(q)) return;
    }
  }
};

// Loopover on a small board: rank = Lehmer rank of the tiles; moves from metric_moves.
struct LoopoverExpander {
  loopover::BoardSize size;
  const std::vector<loopover::Move>* moves;
  loopover::Position position;
  template <class Visit>
  void for_each_neighbour(std::uint64_t rank, Visit&& visit) {
    const int n = size.cells();
    position.resize(static_cast<std::size_t>(n));
    for (const loopover::Move& m : *moves) {
      loopover::unrank_position(static_cast<std::uint32_t>(rank), n, position.data());
      loopover::apply_move(size, position, m);
      if (visit(loopover::rank_position(position.data(), n))) return;
    }
  }
};

std::uint64_t eight_goal_rank() {
  const sliding::Position goal = sliding::standard_goal(sliding::BoardSize{3, 3});
  return permuzzle::rank_permutation(goal.data(), 9);
}

Result<BfsResult> eight_puzzle(const RunContext& run, BfsOptions options) {
  const std::array<std::uint64_t, 1> starts{eight_goal_rank()};
  return bfs(
      362880, starts, [] { return EightPuzzleExpander{}; }, run, options);
}

// The 8-puzzle from the standard goal: 9!/2 positions, at most 31 moves, 2 antipodes (Reinefeld
// 1993); the histogram equals the specialised sliding BFS's.
TEST(SearchBfs, EightPuzzleMatchesSlidingBfs) {
  sliding::BfsOptions so;
  so.count_all_components = false;
  so.antipodes_limit = 10;
  auto reference =
      sliding::bfs(sliding::BoardSize{3, 3}, sliding::standard_goal(sliding::BoardSize{3, 3}), so);
  ASSERT_TRUE(reference.ok());
  for (BfsBits bits : {BfsBits::Two, BfsBits::Four}) {
    for (bool undirected : {false, true}) {
      BfsOptions options;
      options.bits = bits;
      options.undirected = undirected;
      auto result = eight_puzzle(RunContext().with_threads(1), options);
      ASSERT_TRUE(result.ok()) << result.error().message;
      EXPECT_EQ(result->reached, 181440u);
      EXPECT_TRUE(result->complete);
      EXPECT_EQ(result->max_distance, 31);
      EXPECT_EQ(result->last_level, 2u);
      EXPECT_EQ(result->histogram, reference->histogram);
      if (bits == BfsBits::Two) {
        ASSERT_EQ(result->antipodes.size(), 2u);
        for (std::size_t i = 0; i < 2; ++i) {
          std::array<std::uint8_t, 9> p{};
          permuzzle::unrank_permutation(result->antipodes[i], 9, p.data());
          EXPECT_EQ(sliding::Position(p.begin(), p.end()), reference->antipodes[i]);
        }
      } else {
        EXPECT_TRUE(result->antipodes.empty());  // depth 31 shares its value with 16 and 1
      }
    }
  }
}

TEST(SearchBfs, OneAndTwoThreadsAgree) {
  BfsOptions options;
  options.undirected = true;
  options.chunk = 1000;  // many ranges, partial words at their ends
  const sliding::Position far = {8, 6, 7, 2, 5, 4, 3, 0, 1};  // a published 31-move position
  options.watch = {eight_goal_rank(), permuzzle::rank_permutation(far.data(), 9), 1};
  auto one = eight_puzzle(RunContext().with_threads(1), options);
  auto two = eight_puzzle(RunContext().with_threads(2), options);
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_EQ(one->histogram, two->histogram);
  EXPECT_EQ(one->antipodes, two->antipodes);
  EXPECT_EQ(one->watch_distances, two->watch_distances);
  ASSERT_EQ(one->watch_distances.size(), 3u);
  EXPECT_EQ(one->watch_distances[0], 0);
  EXPECT_EQ(one->watch_distances[1], 31);
}

TEST(SearchBfs, MaxDepthStopsEarly) {
  BfsOptions options;
  options.max_depth = 5;
  auto result = eight_puzzle(RunContext().with_threads(2), options);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->complete);
  // Reinefeld's table: 1, 2, 4, 8, 16, 20 positions at distances 0..5 (blank in a corner).
  EXPECT_EQ(result->histogram, (std::vector<std::uint64_t>{1, 2, 4, 8, 16, 20}));
  EXPECT_EQ(result->antipodes.size(), 10u);
}

TEST(SearchBfs, StopTokenCancels) {
  std::stop_source source;
  int levels = 0;
  RunContext run;
  run.with_threads(2).with_stop_token(source.get_token()).with_progress([&](const Progress& p) {
    EXPECT_EQ(p.phase, "bfs");
    if (++levels == 3) source.request_stop();
  });
  auto result = eight_puzzle(run, {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::Cancelled);
  EXPECT_EQ(levels, 3);
}

TEST(SearchBfs, NodeLimit) {
  auto result = eight_puzzle(RunContext().with_threads(1).with_node_limit(1000), {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::LimitExceeded);
}

TEST(SearchBfs, BadArguments) {
  const std::array<std::uint64_t, 1> outside{362880};
  auto r = bfs(362880, outside, [] { return EightPuzzleExpander{}; }, RunContext(), {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::InvalidInput);
  EXPECT_FALSE(BfsTable::create(0, BfsBits::Two).ok());
}

// Loopover 3x3 (STM): 9!/2 positions, God's number 8 with 2,475 antipodes (published; see
// tests/loopover_bfs_test.cpp), histogram equal to the specialised Loopover BFS's; with 4 bits
// every rank's distance agrees with the specialised table.
TEST(SearchBfs, Loopover3x3MatchesSpecialisedBfs) {
  const loopover::BoardSize size{3, 3};
  auto reference = loopover::DistanceTable::build(size);
  ASSERT_TRUE(reference.ok());
  const std::vector<loopover::Move> moves = loopover::metric_moves(size, loopover::Metric::Stm);
  const loopover::Position goal = loopover::goal_position(size);
  const std::array<std::uint64_t, 1> starts{loopover::rank_position(goal.data(), 9)};
  auto table = BfsTable::create(362880, BfsBits::Four);
  ASSERT_TRUE(table.ok());
  BfsOptions options;
  options.bits = BfsBits::Four;
  options.undirected = true;
  options.antipodes_limit = 5;
  auto result = bfs(
      *table, starts,
      [&] {
        return LoopoverExpander{size, &moves, {}};
      },
      RunContext().with_threads(2), options);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->reached, 181440u);
  EXPECT_EQ(result->max_distance, 8);
  EXPECT_EQ(result->last_level, 2475u);
  EXPECT_EQ(result->histogram, reference->stats().histogram);
  ASSERT_EQ(result->antipodes.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    std::uint8_t tiles[9];
    loopover::unrank_position(static_cast<std::uint32_t>(result->antipodes[i]), 9, tiles);
    EXPECT_EQ(loopover::Position(tiles, tiles + 9), reference->stats().sample_antipodes[i]);
  }
  for (std::uint32_t r = 0; r < 362880; r += 7) {
    auto d = table->distance(r, *result);
    ASSERT_TRUE(d.ok());
    const int e = reference->entry(r);
    ASSERT_EQ(*d, e == 15 ? -1 : e) << r;
  }
}

}  // namespace search_bfs_test
}  // namespace permuzzle::search
