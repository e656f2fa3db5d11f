// The optimal solver's pruning-table machinery without the 2.3 GiB table: the corner-combination
// tables against the cubie model, and the generic row builder with a trivial extra coordinate
// against the phase-1 table (built by the independent nibble BFS and checked against Kociemba's
// published distribution in cube_two_phase_test.cpp), entry by entry.
#include <gtest/gtest.h>

#include <set>

#include "../src/puzzles/cube/coordinates.hpp"
#include "../src/puzzles/cube/optimal_table.hpp"
#include "../src/puzzles/cube/solver_tables.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

namespace permuzzle::cube {
namespace {

using namespace detail;

const SolverTables& tables() {
  static TableStore store(std::string(PERMUZZLE_TEST_TABLES_DIR));
  static std::shared_ptr<const SolverTables> t = *solver_tables(store, RunContext{});
  return *t;
}

TEST(CubeOptimalTable, CornerCombinationTablesAgreeWithCubies) {
  const CoordTables& t = *tables().coords;
  Rng rng(11);
  std::set<int> seen;
  for (int i = 0; i < 300; ++i) {
    const KCube x = from_cubie(random_state(rng));
    seen.insert(x.ccomb());
    for (int m = 0; m < N_MOVES; ++m) {
      EXPECT_EQ((x * t.basics.moves[m]).ccomb(), t.ccomb_move[x.ccomb() * N_MOVES + m]);
    }
    for (int s = 0; s < N_SYM_D4H; ++s) {
      EXPECT_EQ(t.basics.conj(x, s).ccomb(), t.ccomb_conj[x.ccomb() * N_SYM_D4H + s]);
    }
  }
  EXPECT_EQ(KCube{}.ccomb(), 0);
  EXPECT_GT(seen.size(), 60u);  // of 70
  for (int v : seen) EXPECT_LT(v, N_CCOMB);
}

// The row builder with the trivial extra coordinate is the phase-1 table mod 3.
TEST(CubeOptimalTable, TrivialExtraCoordinateGivesThePhaseOneTable) {
  const SolverTables& st = tables();
  const CoordTables& t = *st.coords;
  const std::array<std::uint8_t, N_MOVES> zero_move{};
  const std::array<std::uint8_t, N_SYM_D4H> zero_conj{};
  const ExtraCoord trivial{1, zero_move.data(), zero_conj.data()};
  Mod3Table m3;
  std::vector<std::uint64_t> per_depth;
  ASSERT_TRUE(build_mod3_table(t, trivial, 2, m3, {}, {}, &per_depth));
  std::vector<std::uint64_t> expected(13, 0);
  std::uint64_t mismatches = 0;
  for (std::uint32_t c = 0; c < N_FLIPSLICE_CLASS; ++c) {
    for (int tw = 0; tw < N_TWIST; ++tw) {
      const int d = st.phase1->get(std::uint64_t(c) * N_TWIST + tw);
      ++expected[d];
      mismatches += m3.get(c, tw) != d % 3;
    }
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(per_depth, expected);
  // Descending the mod-3 table gives the exact distances.
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    const KCube x = from_cubie(random_state(rng));
    EXPECT_EQ(mod3_exact_distance(t, trivial, m3, x.twist(), x.flip(), x.slice(), 0),
              phase1_distance(t, *st.phase1, x.twist(), x.flip(), x.slice()));
  }
}

}  // namespace
}  // namespace permuzzle::cube
