// Optimal solvers against independent facts: the 2x2x2 distance table against OEIS A079761, the
// 3x3x3 optimal solver against a breadth-first search from the solved cube (whose layer sizes
// are checked against the published counts 1, 18, 243, 3240, 43239, 574908).
#include <gtest/gtest.h>

#include <map>
#include <unordered_map>

#include "../src/puzzles/cube/coordinates.hpp"
#include "../src/puzzles/cube/solver_tables.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/cube2.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

namespace permuzzle::cube {
namespace cube_solvers_test {

using namespace detail;

TableStore& store() {
  static TableStore s(std::string(PERMUZZLE_TEST_TABLES_DIR));
  return s;
}

const SolverTables& tables() {
  static std::shared_ptr<const SolverTables> t = *solver_tables(store(), RunContext{});
  return *t;
}

// OEIS A079761: positions of the 2x2x2 at each distance (half-turn metric, one corner fixed).
TEST(Cube2, DistanceTableMatchesOeisA079761) {
  auto t = cube2::distance_table(store(), RunContext{});
  ASSERT_TRUE(t);
  const std::vector<std::uint64_t> a079761 = {1,     9,      54,     321,     1847,   9992,
                                              50136, 227536, 870072, 1887748, 623800, 2644};
  EXPECT_EQ((*t)->histogram, a079761);
}

std::string sticker_string_after(const std::string& moves) {
  return *cube2::apply_moves("UUUURRRRFFFFDDDDLLLLBBBB", *parse_moves(moves));
}

TEST(Cube2, SolvesScramblesOptimallyInAnyOrientation) {
  auto t = cube2::distance_table(store(), RunContext{});
  ASSERT_TRUE(t);
  // R U R' U' has no shorter equivalent; its length is 4.
  auto s = cube2::solve(**t, sticker_string_after("R U R' U'"));
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->verified);
  EXPECT_EQ(s->moves.size(), 4u);
  // The same scramble made with D and L turns (opposite faces move the cube the same way up to
  // a rotation): the DBL corner moves, and the reading must still find 4 moves.
  auto s2 = cube2::solve(**t, sticker_string_after("L' D' L D"));
  ASSERT_TRUE(s2);
  EXPECT_EQ(s2->moves.size(), 4u);
  // Colours that are not the face letters, and a whole cube rotation (x y as sticker moves).
  std::string f = sticker_string_after("F R2 U' B D2 L x y");
  for (char& c : f) c = "wrgyob"[std::string("URFDLB").find(c)];
  auto s3 = cube2::solve(**t, f);
  ASSERT_TRUE(s3) << s3.error().message;
  EXPECT_TRUE(s3->verified);
  EXPECT_LE(s3->moves.size(), 6u);
}

TEST(Cube2, TwistedCornerAndBadColoursAreRefusedWithReasons) {
  std::string f = "UUUURRRRFFFFDDDDLLLLBBBB";
  // Twist the URF corner in place: U4=3, R1=4, F2=9.
  std::swap(f[3], f[4]);
  std::swap(f[3], f[9]);
  auto r = cube2::read_facelets(f);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->valid);
  ASSERT_FALSE(r->problems.empty());
  EXPECT_NE(r->problems.front().find("twist"), std::string::npos) << r->problems.front();
  auto bad = cube2::read_facelets("UUUUURRRFFFFDDDDLLLLBBBB");
  ASSERT_TRUE(bad);
  EXPECT_FALSE(bad->valid);
  EXPECT_NE(bad->problems.front().find("colour count"), std::string::npos);
  EXPECT_FALSE(cube2::read_facelets("UUUU"));
}

// Breadth-first search over whole cubes from solved, to depth 5.
std::vector<std::vector<KCube>> bfs_layers(int depth) {
  const CubeBasics& b = tables().coords->basics;
  auto key = [](const KCube& c) {
    std::string k(reinterpret_cast<const char*>(&c), sizeof(KCube));
    return k;
  };
  std::unordered_map<std::string, int> seen;
  std::vector<std::vector<KCube>> layers{{KCube{}}};
  seen[key(KCube{})] = 0;
  for (int d = 1; d <= depth; ++d) {
    std::vector<KCube> next;
    for (const KCube& c : layers.back()) {
      for (int m = 0; m < N_MOVES; ++m) {
        KCube n = c * b.moves[m];
        if (seen.emplace(key(n), d).second) next.push_back(n);
      }
    }
    layers.push_back(std::move(next));
  }
  return layers;
}

TEST(CubeOptimal, LengthsEqualBreadthFirstDistancesToDepthFive) {
  const auto layers = bfs_layers(5);
  const std::vector<std::size_t> published = {1, 18, 243, 3240, 43239, 574908};
  for (int d = 0; d <= 5; ++d) EXPECT_EQ(layers[d].size(), published[d]) << d;
  Rng rng(5);
  for (int d = 0; d <= 5; ++d) {
    // Every position of depth <= 2, then a sample of 60 per depth.
    const std::size_t samples = d <= 2 ? layers[d].size() : 60;
    for (std::size_t i = 0; i < samples; ++i) {
      const KCube& c = d <= 2 ? layers[d][i] : layers[d][rng.below(layers[d].size())];
      auto s = solve_optimal(tables(), to_cubie(c), {}, RunContext{}.with_threads(1));
      ASSERT_TRUE(s);
      EXPECT_EQ(s->length, d);
      EXPECT_TRUE(s->optimal && s->verified);
    }
  }
}

TEST(CubeOptimal, SameAnswerAndNodesOnOneAndTwoThreads) {
  auto c = from_sticker_perm(moves_perm(*parse_moves("R U2 F' L D B2 R' F U'")));
  ASSERT_TRUE(c);
  auto one = solve_optimal(tables(), *c, {}, RunContext{}.with_threads(1));
  auto two = solve_optimal(tables(), *c, {}, RunContext{}.with_threads(2));
  ASSERT_TRUE(one && two);
  EXPECT_EQ(format_moves(one->moves), format_moves(two->moves));
  EXPECT_EQ(one->nodes, two->nodes);
  EXPECT_LE(one->length, 9);
}

TEST(CubeOptimal, QuarterTurnMetric) {
  auto c = from_sticker_perm(moves_perm(*parse_moves("R2 U")));
  ASSERT_TRUE(c);
  OptimalOptions o;
  o.metric = Metric::Qtm;
  auto s = solve_optimal(tables(), *c, o, RunContext{});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->length, 3);
}

// The superflip needs exactly 20 half turns (Reid 1995). Minutes of search: run by hand with
// --gtest_also_run_disabled_tests.
TEST(CubeOptimal, DISABLED_SuperflipIsTwentyMoves) {
  CubieState c;
  c.w.fill(1);
  auto s = solve_optimal(tables(), c, {}, RunContext{});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->length, 20);
}

}  // namespace cube_solvers_test
}  // namespace permuzzle::cube
