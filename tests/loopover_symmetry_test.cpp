// Board symmetries: the spec's generators, and conjugate positions have equal distances.
#include <gtest/gtest.h>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"

namespace permuzzle::loopover {
namespace loopover_symmetry_test {

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
    Rng rng(11);
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
  Rng rng(5);
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

// Every term of the seeds' bound (distances, lifts, broken lines, parity) against exhaustive BFS
// distances on every reachable position of small boards, in both metrics. The lift and broken
// line terms must also actually raise the bound somewhere (else this would not test them).
TEST(LoopoverSymmetry, SeedsBoundIsAdmissibleOnSmallBoards) {
  for (Metric metric : {Metric::Stm, Metric::Mtm}) {
    for (BoardSize size :
         {BoardSize{2, 3}, BoardSize{3, 2}, BoardSize{2, 4}, BoardSize{4, 2}, BoardSize{3, 3}}) {
      SCOPED_TRACE(format_size(size) + (metric == Metric::Stm ? " stm" : " mtm"));
      BfsOptions o;
      o.metric = metric;
      auto table = DistanceTable::build(size, o);
      ASSERT_TRUE(table.ok());
      const int n = size.cells();
      std::uint8_t tiles[MAX_BFS_CELLS];
      std::uint64_t raised = 0, broken = 0, reached = 0;
      for (std::uint32_t r = 0; r < *factorial(n); ++r) {
        const int d = table->entry(r);
        if (d == 0xF) continue;
        ++reached;
        unrank_position(r, n, tiles);
        Position p(tiles, tiles + n);
        const SeedsBound b = seeds_bound(size, p, metric);
        ASSERT_LE(b.total, d) << format_position(p);
        raised += b.lift_moves > 0;
        broken += b.broken_rows + b.broken_columns > 0;
      }
      EXPECT_EQ(reached, table->stats().states);
      EXPECT_GT(raised, 0u);
      EXPECT_GT(broken, 0u);
    }
  }
}

// The parts on a hand-worked 3x3 position: rows A and B each hold their own pieces at three
// different column offsets (1 3 2: offsets 0, 2, 1), so two pieces of each must leave their row
// (4 lifts, 2 column-move touches each); row C is complete and in place, so the first column
// move breaks it (1 more lift): 10 touches / 3 per column move -> 4 column moves. Column
// distances 1+1+1+1 = 4 -> 2 row moves. No column holds only its own pieces.
TEST(LoopoverSymmetry, SeedsBoundPartsByHand) {
  const SeedsBound b = seeds_bound(BoardSize{3, 3}, {1, 3, 2, 5, 4, 6, 7, 8, 9}, Metric::Stm);
  EXPECT_EQ(b.horizontal_sum, 4);
  EXPECT_EQ(b.horizontal, 2);
  EXPECT_EQ(b.vertical_sum, 0);
  EXPECT_EQ(b.vertical, 0);
  EXPECT_EQ(b.row_lifts, 4);
  EXPECT_EQ(b.broken_rows, 1);
  EXPECT_EQ(b.column_lifts, 0);
  EXPECT_EQ(b.broken_columns, 0);
  EXPECT_EQ(b.lift_moves, 4);
  EXPECT_EQ(b.parity_fix, 0);
  EXPECT_EQ(b.total, 6);
  // Solved by row moves alone (a shifted row): nothing breaks, no lift.
  const SeedsBound shifted = seeds_bound(BoardSize{3, 3}, {3, 1, 2, 4, 5, 6, 7, 8, 9}, Metric::Stm);
  EXPECT_EQ(shifted.total, 1);
  EXPECT_EQ(shifted.lift_moves, 0);
  EXPECT_EQ(shifted.broken_rows + shifted.broken_columns, 0);
}

}  // namespace loopover_symmetry_test
}  // namespace permuzzle::loopover

#include "permuzzle/puzzles/loopover/group_facts.hpp"

namespace permuzzle::loopover {
namespace loopover_symmetry_test {

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

}  // namespace loopover_symmetry_test
}  // namespace permuzzle::loopover
