// Pattern-database construction checked against an independent brute force: a 0-1 breadth-first
// search over (pattern placement, exact blank cell) with a deque and a hash map, no regions,
// no ranking tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <numeric>

#include "../src/puzzles/sliding/pdb_internal.hpp"

namespace permuzzle::sliding::pdb_detail {
namespace sliding_pdb_table_test {

// Least number of pattern-tile moves, minimised over the blank cell, for every placement.
std::map<std::vector<int>, int> brute_force(int width, const std::vector<std::uint8_t>& cells) {
  const int n = width * width;
  const int k = static_cast<int>(cells.size());
  using State = std::pair<std::vector<int>, int>;  // tile cells, blank cell
  std::map<State, int> dist;
  std::deque<State> queue;
  std::vector<int> home(cells.begin(), cells.end());
  for (int blank = 0; blank < n; ++blank) {
    if (std::find(home.begin(), home.end(), blank) != home.end()) continue;
    dist[{home, blank}] = 0;
    queue.push_back({home, blank});
  }
  while (!queue.empty()) {
    State s = queue.front();
    queue.pop_front();
    int d = dist[s];
    int r = s.second / width, c = s.second % width;
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int dir = 0; dir < 4; ++dir) {
      int rr = r + dr[dir], cc = c + dc[dir];
      if (rr < 0 || rr >= width || cc < 0 || cc >= width) continue;
      int cell = rr * width + cc;
      State t = s;
      t.second = cell;
      int cost = 0;
      for (int i = 0; i < k; ++i) {
        if (t.first[i] == cell) {
          t.first[i] = s.second;
          cost = 1;
        }
      }
      auto it = dist.find(t);
      if (it != dist.end() && it->second <= d + cost) continue;
      dist[t] = d + cost;
      if (cost)
        queue.push_back(t);
      else
        queue.push_front(t);
    }
  }
  std::map<std::vector<int>, int> best;
  for (auto& [s, d] : dist) {
    auto it = best.find(s.first);
    if (it == best.end() || d < it->second) best[s.first] = d;
  }
  return best;
}

void check_table(int width, const std::vector<std::uint8_t>& cells) {
  Geometry geo(width);
  CombRanker ranker;
  PermTables perms(static_cast<int>(cells.size()));
  auto table = build_pattern_table(geo, ranker, perms, cells, 2, {});
  ASSERT_TRUE(table.ok()) << table.error().message;
  auto expected = brute_force(width, cells);
  const int k = static_cast<int>(cells.size());
  ASSERT_EQ(expected.size() / perms.count, binomial(width * width, k));
  // The documented layout, computed here from its definition: frame cells along the curve,
  // tiles numbered by their goals' frame order, index = perm_rank * stride + comb_rank.
  const auto& t = **table;
  const auto frame = table_frame(width);
  std::vector<std::uint8_t> goal_frames;
  for (auto c : cells) goal_frames.push_back(frame[c]);
  std::sort(goal_frames.begin(), goal_frames.end());
  ASSERT_EQ(t.frame_cells, goal_frames);
  const std::uint64_t stride = binomial(width * width, k) + (binomial(width * width, k) & 1);
  ASSERT_EQ(t.stride, stride);
  for (const auto& [placement, d] : expected) {
    std::uint32_t mask = 0;
    std::array<std::uint8_t, MAX_CELLS> index_at{};
    int md = 0;
    for (int i = 0; i < k; ++i) {
      const int f = frame[placement[i]];
      mask |= 1u << f;
      const auto tile =
          std::find(goal_frames.begin(), goal_frames.end(), frame[cells[i]]) - goal_frames.begin();
      index_at[f] = static_cast<std::uint8_t>(tile);
      md += geo.manhattan[placement[i]][cells[i]];
    }
    std::vector<std::uint8_t> seq;
    for (int c = 0; c < width * width; ++c)
      if (mask >> c & 1) seq.push_back(index_at[c]);
    std::uint64_t index = std::uint64_t{perm_rank(seq.data(), k)} * stride + ranker.rank(mask);
    int stored = (*table)->get(index);
    ASSERT_EQ(md + 2 * stored, std::min(d, md + 30)) << "placement of " << (*table)->name();
  }
}

TEST(SlidingPdbTable, ThreeTilesOn4x4MatchBruteForce) {
  check_table(4, {0, 1, 2});
}
TEST(SlidingPdbTable, FourScatteredTilesOn4x4MatchBruteForce) {
  check_table(4, {1, 6, 9, 15});
}
TEST(SlidingPdbTable, ThreeTilesOn5x5MatchBruteForce) {
  check_table(5, {0, 6, 12});
}

TEST(SlidingPdbTable, PermutationMovesMatchDirectRanking) {
  PermTables perms(5);
  std::vector<std::uint8_t> s = {3, 0, 4, 1, 2};
  std::uint32_t r = perm_rank(s.data(), 5);
  // Move element at position 1 to position 3: 3 4 1 0 2.
  std::vector<std::uint8_t> t = {3, 4, 1, 0, 2};
  EXPECT_EQ(perm_move_table(perms)[(1 * 5 + 3) * perms.count + r], perm_rank(t.data(), 5));
  EXPECT_EQ(perms.count, 120u);
}

TEST(SlidingPdbTable, PackedSequenceRankAndMoveMatchTheLehmerRankAndMoveTable) {
  for (int k : {2, 3, 4, 5, 7, 8}) {
    PermTables perms(k);
    const std::vector<std::uint16_t> moves = perm_move_table(perms);
    std::vector<std::uint8_t> seq(k);
    std::iota(seq.begin(), seq.end(), 0);
    std::uint32_t visited = 0;
    do {
      const std::uint32_t r = perm_rank(seq.data(), k);
      const std::uint32_t packed = pack_sequence(seq.data(), k);
      ASSERT_EQ(perms.packed_rank(packed), r) << "k " << k;
      // Moving elements: every (i, j) on a sample of ranks (all of them for k <= 5).
      if (k <= 5 || r % 97 == 0) {
        for (int i = 0; i < k; ++i) {
          for (int j = 0; j < k; ++j) {
            ASSERT_EQ(perms.packed_rank(move_packed(packed, i, j)),
                      moves[(static_cast<std::size_t>(i) * k + j) * perms.count + r]);
          }
        }
      }
      ++visited;
    } while (std::next_permutation(seq.begin(), seq.end()));
    EXPECT_EQ(visited, perms.count);
  }
}

TEST(SlidingPdbTable, TableFrameIsACurveThroughEveryCell) {
  for (int width : {2, 3, 4, 5}) {
    const auto frame = table_frame(width);
    std::vector<int> cell_at(width * width, -1);
    for (int c = 0; c < width * width; ++c) {
      ASSERT_LT(frame[c], width * width);
      ASSERT_EQ(cell_at[frame[c]], -1) << "frame is not a bijection";
      cell_at[frame[c]] = c;
    }
    // Consecutive frame cells are neighbours on the board.
    Geometry geo(width);
    for (int f = 0; f + 1 < width * width; ++f)
      EXPECT_EQ(geo.manhattan[cell_at[f]][cell_at[f + 1]], 1) << "width " << width << " at " << f;
  }
}

TEST(SlidingPdbTable, ColexRankIsDenseAndOrdered) {
  CombRanker ranker;
  // All 4-subsets of 25 cells in Gosper order have ranks 0, 1, 2, ...
  std::uint32_t m = 0b1111, expected = 0;
  while (m < (1u << 25)) {
    ASSERT_EQ(ranker.rank(m), expected++);
    std::uint32_t t = m | (m - 1);
    m = (t + 1) | (((~t & -~t) - 1) >> (std::countr_zero(m) + 1));
  }
  EXPECT_EQ(expected, binomial(25, 4));
}

}  // namespace sliding_pdb_table_test
}  // namespace permuzzle::sliding::pdb_detail
