// The two-phase solver's coordinates, symmetries and tables against published counts, and its
// solutions replayed on the sticker model. The phase-1 table (70 MB) is built once into the
// test-tables cache and loaded from it afterwards.
#include <gtest/gtest.h>

#include "../src/puzzles/cube/coordinates.hpp"
#include "../src/puzzles/cube/solver_tables.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

namespace permuzzle::cube {
namespace {

using namespace detail;

const CoordTables& coords() {
  static const CoordTables t = CoordTables::make();
  return t;
}

const SolverTables& tables() {
  static TableStore store(std::string(PERMUZZLE_TEST_TABLES_DIR));
  static std::shared_ptr<const SolverTables> t = *solver_tables(store, RunContext{});
  return *t;
}

TEST(CubeCoordinates, KociembaFormAgreesWithCubieForm) {
  Rng rng(7);
  for (int i = 0; i < 200; ++i) {
    CubieState a = random_state(rng), b = random_state(rng);
    EXPECT_EQ(to_cubie(from_cubie(a)), a);
    EXPECT_EQ(to_cubie(from_cubie(a) * from_cubie(b)), a * b);
    EXPECT_EQ(to_cubie(from_cubie(a).inverse()), a.inverse());
  }
}

TEST(CubeCoordinates, SymmetriesConjugateFaceTurnsToFaceTurns) {
  const CubeBasics& b = coords().basics;
  for (int s = 0; s < N_SYM; ++s) {
    EXPECT_EQ(b.syms[s] * b.syms[b.sym_inverse[s]], KCube{});
    for (int m = 0; m < N_MOVES; ++m) {
      EXPECT_EQ(b.conj(b.moves[m], s), b.moves[b.conj_move[m * N_SYM + s]]) << s << " " << m;
    }
  }
  // 48 distinct symmetries; the quarter turn of U conjugated by all of them hits all 12
  // quarter turns (the symmetry group acts transitively on faces and on both senses).
  std::set<int> images;
  for (int s = 0; s < N_SYM; ++s) images.insert(b.conj_move[0 * N_SYM + s]);
  EXPECT_EQ(images.size(), 12u);
}

// Kociemba: 64430 flip-slice classes under the 16 symmetries of D4h.
TEST(CubeCoordinates, FlipSliceClassesMatchPublishedCount) {
  EXPECT_EQ(coords().fs_rep.size(), 64430u);
}

// Phase-2 tables: the exact distances inside H. The diameter of H in its own moves is 18
// (Kociemba), so no entry of these projections exceeds it.
TEST(CubeCoordinates, PhaseTwoTablesAreComplete) {
  for (auto d : coords().prune_cperm_sperm) EXPECT_LE(d, 18);
  for (auto d : coords().prune_eperm_sperm) EXPECT_LE(d, 18);
}

// Kociemba's published phase-1 distance distribution over all 2,217,093,120 raw phase-1
// positions (2187 twists x 2048 flips x 495 slice positions); the maximum is 12.
TEST(CubeTwoPhase, PhaseOneTableMatchesPublishedDistribution) {
  const SolverTables& t = tables();
  const CoordTables& c = *t.coords;
  std::vector<std::uint64_t> raw(16, 0);
  for (std::uint32_t cls = 0; cls < N_FLIPSLICE_CLASS; ++cls) {
    const std::uint64_t size = 16 / __builtin_popcount(c.fs_stabilizer[cls]);
    for (int tw = 0; tw < N_TWIST; ++tw)
      raw[t.phase1->get(std::uint64_t(cls) * N_TWIST + tw)] += size;
  }
  const std::vector<std::uint64_t> published = {
      1,         4,         50,         592,      7156, 87236, 1043817, 12070278,
      124946368, 821605960, 1199128738, 58202444, 476,  0,     0,       0};
  EXPECT_EQ(raw, published);
}

TEST(CubeTwoPhase, RandomCubesGetShortVerifiedSolutions) {
  Rng rng(2024);
  for (int i = 0; i < 50; ++i) {
    CubieState c = random_state(rng);
    TwoPhaseOptions o;
    o.max_length = 21;
    auto s = solve_two_phase(tables(), c, o, RunContext{});
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_TRUE(s->verified);
    EXPECT_LE(s->length, 21);
    EXPECT_TRUE(replay_solves(c, s->moves));
  }
}

TEST(CubeTwoPhase, SolvedAndOneMoveCubes) {
  auto s = solve_two_phase(tables(), CubieState{}, {}, RunContext{});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->length, 0);
  EXPECT_TRUE(s->optimal);
  for (const char* m : {"U", "R2", "F'", "D", "L2", "B'"}) {
    auto st = from_sticker_perm(
        move_perm(m[0] == 'U' || m[1] == 0 ? std::string(1, m[0]) : std::string(1, m[0])));
    ASSERT_TRUE(st);
    CubieState c = to_cubie(from_cubie(*st));
    auto parsed = parse_moves(m);
    c = *from_sticker_perm(moves_perm(*parsed));
    auto sol = solve_two_phase(tables(), c, {}, RunContext{});
    ASSERT_TRUE(sol);
    EXPECT_EQ(sol->length, 1) << m;
    EXPECT_TRUE(sol->optimal) << m;
  }
}

TEST(CubeTwoPhase, QuarterTurnMetricCountsHalfTurnsTwice) {
  auto c = from_sticker_perm(moves_perm(*parse_moves("R2 U2 F2")));
  ASSERT_TRUE(c);
  TwoPhaseOptions o;
  o.metric = Metric::Qtm;
  auto s = solve_two_phase(tables(), *c, o, RunContext{});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->length, metric_length(s->moves, Metric::Qtm));
  EXPECT_EQ(s->length, 6);
}

TEST(CubeTwoPhase, UnsolvableStateIsRefused) {
  CubieState c;
  c.v[0] = 1;  // one twisted corner
  auto s = solve_two_phase(tables(), c, {}, RunContext{});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::Unsolvable);
}

}  // namespace
}  // namespace permuzzle::cube
