// The two-phase solver's coordinates, symmetries and tables against published counts, and its
// solutions replayed on the sticker model. The phase-1 table (70 MB) is built once into the
// test-tables cache and loaded from it afterwards.
#include <gtest/gtest.h>

#include "../src/puzzles/cube/coordinates.hpp"
#include "../src/puzzles/cube/solver_tables.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

namespace permuzzle::cube {
namespace cube_two_phase_test {

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

// Burnside: the number of classes of a permutation coordinate under D4h is the mean number of
// permutations each symmetry fixes (a count independent of the class-building code).
std::size_t burnside_classes(int (KCube::*coord)() const, bool edges) {
  const CubeBasics& b = coords().basics;
  std::size_t fixed = 0;
  std::array<std::uint8_t, 8> p{0, 1, 2, 3, 4, 5, 6, 7};
  do {
    KCube x;
    if (edges) {
      std::copy(p.begin(), p.end(), x.ep.begin());
    } else {
      x.cp = p;
    }
    const int v = (x.*coord)();
    for (int s = 0; s < N_SYM_D4H; ++s) fixed += (b.conj(x, s).*coord)() == v;
  } while (std::next_permutation(p.begin(), p.end()));
  return fixed / N_SYM_D4H;
}

// Kociemba: 2768 classes of corner permutations under D4h.
TEST(CubeCoordinates, PermutationClassesMatchPublishedAndBurnsideCounts) {
  EXPECT_EQ(coords().cperm_rep.size(), 2768u);
  EXPECT_EQ(coords().cperm_rep.size(), burnside_classes(&KCube::cperm, false));
  EXPECT_EQ(coords().eperm_rep.size(), burnside_classes(&KCube::eperm, true));
}

// The phase-2 moves on classes (through representatives and symmetries) against the moves on
// cubes: along random walks in H, x's class << 4 | s must name x's class, and conj(x, s) must
// have the representative's permutation.
TEST(CubeCoordinates, PhaseTwoClassMovesFollowTheCube) {
  const CoordTables& t = coords();
  Rng rng(11);
  for (int walk = 0; walk < 200; ++walk) {
    KCube x;
    int c = 0, e = 0;
    for (int step = 0; step < 30; ++step) {
      const int j = static_cast<int>(rng.below(N_PHASE2_MOVES));
      x = x * t.basics.moves[PHASE2_MOVES[j]];
      c = class_after(t, t.cclass_move, c, j);
      e = class_after(t, t.eclass_move, e, j);
      ASSERT_EQ(c >> 4, t.cperm_class_sym[x.cperm()] >> 4);
      ASSERT_EQ(e >> 4, t.eperm_class_sym[x.eperm()] >> 4);
      ASSERT_EQ(t.basics.conj(x, c & 15).cperm(), t.cperm_rep[c >> 4]);
      ASSERT_EQ(t.basics.conj(x, e & 15).eperm(), t.eperm_rep[e >> 4]);
    }
  }
}

int corner_parity(const KCube& x) {
  int inversions = 0;
  for (int j = 0; j < 8; ++j) {
    for (int i = 0; i < j; ++i) inversions += x.cp[i] > x.cp[j];
  }
  return inversions & 1;
}

// The flip-slice classes followed through moves (the optimal search's forward axes) against the
// cube: along random walks of all 18 moves, the class must be the cube's, and conjugating the
// cube by the symmetry must give the representative's flip and slice.
TEST(CubeCoordinates, FlipSliceClassMovesFollowTheCube) {
  const CoordTables& t = coords();
  Rng rng(12);
  for (int walk = 0; walk < 200; ++walk) {
    KCube x;
    std::uint32_t c = t.fs_class_sym[0];
    for (int step = 0; step < 30; ++step) {
      const int m = static_cast<int>(rng.below(N_MOVES));
      x = x * t.basics.moves[m];
      c = fs_after(t, c, m);
      ASSERT_EQ(c >> 4, t.fs_class_sym[std::uint32_t(x.slice()) * N_FLIP + x.flip()] >> 4);
      const KCube y = t.basics.conj(x, static_cast<int>(c & 15));
      ASSERT_EQ(std::uint32_t(y.slice()) * N_FLIP + y.flip(), t.fs_rep[c >> 4]);
    }
  }
}

// Breadth-first distances inside H of a pair of raw coordinates, from raw move tables built
// here on cubes: the second method for the symmetry-reduced phase-2 tables.
std::vector<std::uint8_t> raw_distances(const std::vector<int>& a_move, int na,
                                        const std::vector<int>& b_move, int nb) {
  std::vector<std::uint8_t> dist(static_cast<std::size_t>(na) * nb, 0xFF);
  std::vector<std::uint32_t> frontier{0};
  dist[0] = 0;
  for (int d = 0; !frontier.empty(); ++d) {
    std::vector<std::uint32_t> next;
    for (std::uint32_t v : frontier) {
      for (int j = 0; j < N_PHASE2_MOVES; ++j) {
        const std::uint32_t w =
            a_move[(v / nb) * N_PHASE2_MOVES + j] * nb + b_move[(v % nb) * N_PHASE2_MOVES + j];
        if (dist[w] == 0xFF) dist[w] = static_cast<std::uint8_t>(d + 1), next.push_back(w);
      }
    }
    frontier = std::move(next);
  }
  return dist;
}

// Phase-2 tables: every projection's exact distance inside H, read through the classes, equals
// the breadth-first distance of the raw coordinates, for every raw pair. The diameter of H in
// its own moves is 18 (Kociemba), so no entry exceeds it.
TEST(CubeCoordinates, PhaseTwoTablesEqualRawDistances) {
  const CoordTables& t = coords();
  const CubeBasics& b = t.basics;
  std::vector<int> cmove(N_PERM8 * N_PHASE2_MOVES), emove(cmove.size());
  std::vector<int> smove(N_SPERM * N_PHASE2_MOVES), ccmove(N_CCOMBP * N_PHASE2_MOVES);
  std::vector<int> ccombp(N_PERM8);
  std::array<std::uint8_t, 8> p{0, 1, 2, 3, 4, 5, 6, 7};
  for (int k = 0; k < N_PERM8; ++k, std::next_permutation(p.begin(), p.end())) {
    KCube x;
    x.cp = p;
    std::copy(p.begin(), p.end(), x.ep.begin());
    ASSERT_EQ(x.cperm(), k);
    ccombp[k] = x.ccomb() * 2 + corner_parity(x);
    for (int j = 0; j < N_PHASE2_MOVES; ++j) {
      const KCube y = x * b.moves[PHASE2_MOVES[j]];
      cmove[k * N_PHASE2_MOVES + j] = y.cperm();
      emove[k * N_PHASE2_MOVES + j] = y.eperm();
      ccmove[ccombp[k] * N_PHASE2_MOVES + j] = y.ccomb() * 2 + corner_parity(y);
    }
  }
  std::array<std::uint8_t, 4> q{8, 9, 10, 11};
  for (int k = 0; k < N_SPERM; ++k, std::next_permutation(q.begin(), q.end())) {
    KCube x;
    std::copy(q.begin(), q.end(), x.ep.begin() + 8);
    for (int j = 0; j < N_PHASE2_MOVES; ++j) {
      smove[k * N_PHASE2_MOVES + j] = (x * b.moves[PHASE2_MOVES[j]]).sperm();
    }
  }
  const auto cs = raw_distances(cmove, N_PERM8, smove, N_SPERM);
  const auto es = raw_distances(emove, N_PERM8, smove, N_SPERM);
  const auto ec = raw_distances(emove, N_PERM8, ccmove, N_CCOMBP);
  int deepest = 0;
  for (int k = 0; k < N_PERM8; ++k) {
    const int c = t.cperm_class_sym[k], e = t.eperm_class_sym[k];
    for (int v = 0; v < N_SPERM; ++v) {
      const int dc = t.prune_cclass_sperm[(c >> 4) * N_SPERM + t.sperm_conj[v * 16 + (c & 15)]];
      const int de = t.prune_eclass_sperm[(e >> 4) * N_SPERM + t.sperm_conj[v * 16 + (e & 15)]];
      ASSERT_EQ(dc, cs[k * N_SPERM + v]) << k << " " << v;
      ASSERT_EQ(de, es[k * N_SPERM + v]) << k << " " << v;
      deepest = std::max({deepest, dc, de});
    }
    for (int v = 0; v < N_CCOMBP; ++v) {
      const int d = t.prune_eclass_ccombp[(e >> 4) * N_CCOMBP + t.ccombp_conj[v * 16 + (e & 15)]];
      ASSERT_EQ(d, ec[k * N_CCOMBP + v]) << k << " " << v;
      deepest = std::max(deepest, d);
    }
  }
  EXPECT_LE(deepest, 18);
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

}  // namespace cube_two_phase_test
}  // namespace permuzzle::cube
