// The published whole-graph tables in data/tables/ (issue 33): the 3x5 Loopover tables computed by
// `loopover bfs` over symmetry classes. Checked here from outside that search: the positions add up
// to 15!/2, the first levels equal a plain breadth-first search over positions (a hash set of
// boards, no ranking, no symmetry), every antipode is a reachable board, every recorded proof
// (an optimal `loopover solve` of an antipode, IDA* with admissible bounds) replays from the
// antipode to the goal in exactly God's number of moves, and the proofs' classes (conjugates under
// the metric's symmetries, computed here) hold every antipode the BFS counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"

namespace permuzzle::loopover {
namespace loopover_tables_test {

nlohmann::json read_table(const std::string& name) {
  std::ifstream in(std::string(PERMUZZLE_DATA_DIR) + "/tables/" + name);
  EXPECT_TRUE(in.good()) << name;
  if (!in) return {};
  return nlohmann::json::parse(in);
}

// Positions per distance 0..depth from the goal by a plain BFS over boards.
std::vector<std::uint64_t> plain_bfs(BoardSize size, Metric metric, int depth) {
  const std::vector<Move> moves = metric_moves(size, metric);
  auto key = [](const Position& p) { return std::string(p.begin(), p.end()); };
  std::unordered_set<std::string> seen;
  std::vector<Position> frontier = {goal_position(size)};
  seen.insert(key(frontier[0]));
  std::vector<std::uint64_t> histogram = {1};
  for (int d = 1; d <= depth; ++d) {
    std::vector<Position> next;
    for (const Position& p : frontier) {
      for (const Move& m : moves) {
        Position q = p;
        apply_move(size, q, m);
        if (seen.insert(key(q)).second) next.push_back(q);
      }
    }
    histogram.push_back(next.size());
    frontier = std::move(next);
  }
  return histogram;
}

void check_table(const std::string& name, Metric metric, int plain_depth) {
  SCOPED_TRACE(name);
  const nlohmann::json t = read_table(name);
  ASSERT_TRUE(t.is_object());
  const BoardSize size{3, 5};
  EXPECT_EQ(t["size"], "3x5");
  // Step 1. The histogram: every one of the 15!/2 positions (both sides odd: even permutations
  // only) at one distance, none empty up to God's number, the antipodes the last level.
  const auto histogram = t["histogram"].get<std::vector<std::uint64_t>>();
  const std::uint64_t half_factorial_15 = 653'837'184'000ULL;
  EXPECT_EQ(std::accumulate(histogram.begin(), histogram.end(), std::uint64_t{0}),
            half_factorial_15);
  EXPECT_EQ(t["positions"].get<std::uint64_t>(), half_factorial_15);
  const int max_distance = t["max_distance"].get<int>();
  ASSERT_EQ(histogram.size(), static_cast<std::size_t>(max_distance) + 1);
  for (std::uint64_t count : histogram) EXPECT_GT(count, 0u);
  EXPECT_EQ(histogram.back(), t["antipodes_count"].get<std::uint64_t>());
  const auto classes = t["class_histogram"].get<std::vector<std::uint64_t>>();
  EXPECT_EQ(std::accumulate(classes.begin(), classes.end(), std::uint64_t{0}),
            t["classes"].get<std::uint64_t>());
  // Step 2. The first levels by a second, independent search.
  const std::vector<std::uint64_t> plain = plain_bfs(size, metric, plain_depth);
  EXPECT_EQ(plain,
            std::vector<std::uint64_t>(histogram.begin(), histogram.begin() + plain_depth + 1));
  // Step 3. The antipodes: as many as the file lists (all, up to 100), distinct reachable boards.
  const auto antipodes = t["antipodes"].get<std::vector<std::string>>();
  EXPECT_EQ(antipodes.size(), std::min<std::uint64_t>(100, histogram.back()));
  std::set<std::string> distinct;
  for (const std::string& text : antipodes) {
    auto p = parse_position(size, text);
    ASSERT_TRUE(p.ok()) << text;
    EXPECT_TRUE(is_solvable(size, *p)) << text;
    EXPECT_FALSE(is_goal(*p));
    distinct.insert(format_position(*p));
  }
  EXPECT_EQ(distinct.size(), antipodes.size());
  // Step 4. The proofs: an optimal solve of an antipode, replayed, is God's number long (the BFS
  // says no position is farther; the solver's admissible bound says this one is not nearer).
  // Step 5 counts what they prove: a proof stands for its class (its conjugates under the
  // metric's symmetries are as far), and the classes proven hold every antipode the BFS counted.
  ASSERT_FALSE(t["antipode_proofs"].empty());
  const std::vector<Perm> group = metric_symmetry_group(size, metric);
  std::set<Position> proven_classes;
  std::uint64_t proven = 0;
  for (const auto& proof : t["antipode_proofs"]) {
    const std::string text = proof["position"].get<std::string>();
    auto p = parse_position(size, text);
    ASSERT_TRUE(p.ok()) << text;
    EXPECT_TRUE(is_solvable(size, *p)) << text;
    std::set<Position> orbit;
    for (const Perm& sigma : group) orbit.insert(conjugate_position(size, *p, sigma));
    if (proven_classes.insert(*orbit.begin()).second) proven += orbit.size();
    std::string joined;
    for (const auto& m : proof["moves"]) joined += m.get<std::string>() + " ";
    auto moves = parse_moves(size, joined);
    ASSERT_TRUE(moves.ok()) << joined;
    Position q = *p;
    apply_moves(size, q, *moves);
    EXPECT_TRUE(is_goal(q)) << text << ": " << joined;
    EXPECT_EQ(sequence_length(size, *moves, metric), max_distance) << text;
    EXPECT_EQ(proof["length"].get<int>(), max_distance);
    EXPECT_TRUE(proof["optimal"].get<bool>());
  }
  EXPECT_EQ(proven_classes.size(), t["antipode_classes"].get<std::uint64_t>());
  EXPECT_EQ(proven, t["antipodes_count"].get<std::uint64_t>());
}

TEST(LoopoverTables, ThreeByFiveSingleTileMetric) {
  check_table("loopover-3x5-stm.json", Metric::Stm, 5);
}

TEST(LoopoverTables, ThreeByFiveMultiTileMetric) {
  check_table("loopover-3x5-mtm.json", Metric::Mtm, 4);
}

}  // namespace loopover_tables_test
}  // namespace permuzzle::loopover
