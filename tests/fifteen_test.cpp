// 15-puzzle as permutations: the spec's groupoid example, codes both ways, illegal paths, the
// toroidal model's move compatibility, bijection and group order (16!/2).
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/fifteen/groupoid.hpp"
#include "permuzzle/puzzles/fifteen/toroidal.hpp"

namespace fifteen_test {

using namespace permuzzle;
using namespace permuzzle::fifteen;

TEST(Fifteen, GroupoidSpecExample) {
  auto r = apply_blank_path(goal_board(), {12, 11, 7, 6, 2});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->code.to_cycle_string(), "(2,16,12,11,7,6)");
  EXPECT_EQ(r->transpositions.size(), 5u);
  EXPECT_EQ(r->transpositions[0].to_cycle_string(), "(12,16)");
  EXPECT_EQ(format_position(r->end), "1 0 3 4 5 2 6 8 9 10 7 11 13 14 15 12");
  auto back = position_of(r->code);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, r->end);
  auto bad = apply_blank_path(goal_board(), {12, 11, 6});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("step 3"), std::string::npos);
  EXPECT_FALSE(apply_blank_path(goal_board(), {11}).ok());  // diagonal from 16
}

TEST(Fifteen, CodesRoundTripAndSolvability) {
  permuzzle::Rng rng(4);
  for (int i = 0; i < 1000; ++i) {
    Board16 b = random_solvable(rng);
    EXPECT_TRUE(is_solvable(b));
    EXPECT_EQ(*position_of(code_of(b)), b);
    EXPECT_EQ(*parse_position(format_position(b)), b);
  }
  // The classic Sam Loyd position (14 and 15 exchanged) is not solvable.
  EXPECT_FALSE(is_solvable(*parse_position("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0")));
  EXPECT_FALSE(parse_position("1 2 3").ok());
  EXPECT_FALSE(parse_position("1 1 3 4 5 6 7 8 9 10 11 12 13 15 14 0").ok());
}

// Applying a legal move equals multiplying the element by the generator (GAP order).
TEST(Fifteen, ToroidalMovesAreRightMultiplication) {
  const auto& gens = toroidal_generators();
  EXPECT_TRUE(to_toroidal(goal_board()).is_identity());
  permuzzle::Rng rng(8);
  for (int i = 0; i < 2000; ++i) {
    Board16 b = random_solvable(rng);
    for (int m = 0; m < 4; ++m) {
      auto move = static_cast<TileMove>(m);
      if (!is_legal(b, move)) continue;
      EXPECT_EQ(to_toroidal(apply_move(b, move)), to_toroidal(b) * gens[m]);
    }
  }
}

TEST(Fifteen, ToroidalGroupOrderAndBijection) {
  const auto& g = toroidal_generators();
  auto group = PermGroup::from_generators({g[0], g[1], g[2], g[3]});
  ASSERT_TRUE(group.ok());
  mpz_class half = 1;
  for (int i = 2; i <= 16; ++i) half *= i;
  EXPECT_EQ(group->order(), half / 2);  // 10461394944000 solvable positions
  permuzzle::Rng rng(12);
  for (int i = 0; i < 300; ++i) {
    Board16 b = random_solvable(rng);
    Perm e = to_toroidal(b);
    EXPECT_TRUE(group->contains(e));
    EXPECT_EQ(*from_toroidal(e), b);
    Perm x = group->random_element(rng);
    auto pos = from_toroidal(x);
    ASSERT_TRUE(pos.ok());
    EXPECT_TRUE(is_solvable(*pos));
    EXPECT_EQ(to_toroidal(*pos), x);
  }
  // Unsolvable positions map outside the group.
  Board16 loyd = *parse_position("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0");
  EXPECT_FALSE(group->contains(to_toroidal(loyd)));
}

TEST(FifteenCli, Json) {
  auto r = permuzzle::test::run_cli("fifteen code --path 12,11,7,6,2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["code"], "(2,16,12,11,7,6)");
  r = permuzzle::test::run_cli("fifteen code --path 12,11,6 --json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("step 3"), std::string::npos);
  r = permuzzle::test::run_cli("fifteen toroidal --order --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["order"], "10461394944000");
  r = permuzzle::test::run_cli("fifteen code --code '(2,16,12,11,7,6)' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["position"], "1 0 3 4 5 2 6 8 9 10 7 11 13 14 15 12");
}

}  // namespace fifteen_test
