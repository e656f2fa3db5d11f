// Board symmetries: the spec's generators, and conjugate positions have equal distances.
#include <gtest/gtest.h>

#include <random>

#include "permuzzle/loopover/bfs.hpp"
#include "permuzzle/loopover/optimal_solver.hpp"
#include "permuzzle/loopover/symmetry.hpp"

namespace permuzzle::loopover {
namespace {

TEST(LoopoverSymmetry, GeneratorsMatchGroupsMd) {
  BoardSize size{4, 4};
  auto gens = symmetry_generators(size);
  ASSERT_EQ(gens.size(), 5u);
  auto perm = [](const char* text) { return Perm::parse(text)->extended(16); };
  EXPECT_EQ(gens[0].cells, perm("(1,2,3,4)(5,6,7,8)(9,10,11,12)(13,14,15,16)"));
  EXPECT_EQ(gens[1].cells, perm("(1,5,9,13)(2,6,10,14)(3,7,11,15)(4,8,12,16)"));
  EXPECT_EQ(gens[2].cells, perm("(1,4)(2,3)(5,8)(6,7)(9,12)(10,11)(13,16)(14,15)"));
  EXPECT_EQ(gens[3].cells, perm("(1,13)(2,14)(3,15)(4,16)(5,9)(6,10)(7,11)(8,12)"));
  EXPECT_EQ(gens[4].cells, perm("(1,4,16,13)(2,8,15,9)(3,12,14,5)(6,7,11,10)"));
  EXPECT_EQ(symmetry_group(size).size(), 128u);
  EXPECT_EQ(symmetry_group(BoardSize{3, 4}).size(), 48u);
}

TEST(LoopoverSymmetry, ConjugatesHaveEqualBfsDistance) {
  for (Metric metric : {Metric::Stm, Metric::Mtm}) {
    BoardSize size{2, 4};
    BfsOptions o;
    o.metric = metric;
    auto table = DistanceTable::build(size, o);
    ASSERT_TRUE(table.ok());
    auto group = symmetry_group(size);
    std::mt19937_64 rng(11);
    for (int i = 0; i < 200; ++i) {
      Position p = random_position(size, rng);
      const int d = table->distance(p);
      for (const Perm& sigma : group) {
        EXPECT_EQ(table->distance(conjugate_position(size, p, sigma)), d);
      }
    }
  }
}

TEST(LoopoverSymmetry, ConjugatesGetOptimalSolutionsOfEqualLength) {
  BoardSize size{3, 4};
  auto solver = OptimalSolver::create(size, Metric::Stm);
  ASSERT_TRUE(solver.ok());
  auto group = symmetry_group(size);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 3; ++i) {
    Position p = random_position(size, rng);
    auto base = solver->solve(p);
    ASSERT_TRUE(base.ok());
    for (std::size_t k = 0; k < group.size(); k += 7) {
      Position q = conjugate_position(size, p, group[k]);
      auto sol = solver->solve(q);
      ASSERT_TRUE(sol.ok());
      EXPECT_EQ(sol->length, base->length);
      // The image of p's solution under sigma solves the conjugate.
      Position replay = q;
      apply_moves(size, replay, conjugate_moves(size, base->moves, group[k]));
      EXPECT_TRUE(is_goal(replay));
    }
  }
}

TEST(LoopoverSymmetry, SeedsBoundIsAdmissibleOn2x4) {
  for (Metric metric : {Metric::Stm, Metric::Mtm}) {
    BoardSize size{2, 4};
    BfsOptions o;
    o.metric = metric;
    auto table = DistanceTable::build(size, o);
    ASSERT_TRUE(table.ok());
    std::uint8_t tiles[8];
    for (std::uint32_t r = 0; r < factorial(8); ++r) {
      unrank_position(r, 8, tiles);
      Position p(tiles, tiles + 8);
      ASSERT_LE(seeds_bound(size, p, metric).total, table->entry(r));
    }
  }
}

}  // namespace
}  // namespace permuzzle::loopover

#include "permuzzle/loopover/group_facts.hpp"

namespace permuzzle::loopover {
namespace {

// Spec section 4: S_rc unless both sides are odd (A_rc, every move even).
TEST(LoopoverGroup, GroupFactsFromTheGroupCore) {
  auto f33 = group_facts(BoardSize{3, 3});
  ASSERT_TRUE(f33.ok());
  EXPECT_EQ(f33->group, "A9");
  EXPECT_EQ(f33->order.get_str(), "181440");
  EXPECT_TRUE(f33->all_moves_even);
  EXPECT_FALSE(f33->contains_transposition_1_2);
  auto f44 = group_facts(BoardSize{4, 4});
  ASSERT_TRUE(f44.ok());
  EXPECT_EQ(f44->group, "S16");
  EXPECT_EQ(f44->order.get_str(), "20922789888000");
  EXPECT_TRUE(f44->all_moves_odd);
  EXPECT_TRUE(f44->spec_word_swaps_1_2);
  auto f35 = group_facts(BoardSize{3, 5});
  ASSERT_TRUE(f35.ok());
  EXPECT_EQ(f35->group, "A15");
  auto f34 = group_facts(BoardSize{3, 4});
  ASSERT_TRUE(f34.ok());
  EXPECT_EQ(f34->group, "S12");
  EXPECT_FALSE(f34->all_moves_odd);
  EXPECT_FALSE(f34->all_moves_even);
  EXPECT_TRUE(f34->spec_word_swaps_1_2);
  // 4x3: c odd, so the spec's word does not swap cells 1 and 2, but the group is S12 and the
  // transposed word does.
  auto f43 = group_facts(BoardSize{4, 3});
  ASSERT_TRUE(f43.ok());
  EXPECT_EQ(f43->group, "S12");
  EXPECT_FALSE(f43->spec_word_swaps_1_2);
  EXPECT_TRUE(f43->contains_transposition_1_2);
  EXPECT_FALSE(f43->transposition_word.empty());
  auto f23 = group_facts(BoardSize{2, 3});
  ASSERT_TRUE(f23.ok());
  EXPECT_EQ(f23->group, "S6");
}

}  // namespace
}  // namespace permuzzle::loopover
