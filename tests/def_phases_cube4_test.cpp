// The 4x4x4 solved by phases from its definition file (data/puzzles/4x4x4-fixed-corner.tws and
// 4x4x4-fixed-corner.phases, written by data/puzzles/4x4x4-phases.py): centres, corners, then
// wings with `Sequence` lines (pure wing 3-cycles). Facts from outside the code under test:
// each phase's size is the number of arrangements of its pattern that the earlier phases can
// leave (binomials and factorials), so every phase can always be finished; every solution is
// replayed, and the pieces each phase places are checked against the Solved pattern.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "def_test_data.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/phases.hpp"
#include "permuzzle/puzzles/def/reader.hpp"

namespace permuzzle::def {
namespace def_phases_cube4_test {

using test_data::data_text;

mpz_class falling(unsigned n, unsigned k) {  // n! / (n - k)!
  mpz_class out = 1;
  for (unsigned i = 0; i < k; ++i) out *= n - i;
  return out;
}

mpz_class binomial(unsigned n, unsigned k) {
  mpz_class out;
  mpz_bin_uiui(out.get_mpz_t(), n, k);
  return out;
}

struct Cube4 {
  Definition d;
  std::vector<Phase> phases;
};

Cube4 load_cube4() {
  auto d = parse_definition(data_text("4x4x4-fixed-corner.tws"), "4x4x4-fixed-corner.tws");
  EXPECT_TRUE(d) << (d ? "" : d.error().message);
  auto specs =
      parse_phase_file(*d, data_text("4x4x4-fixed-corner.phases"), "4x4x4-fixed-corner.phases");
  EXPECT_TRUE(specs) << (specs ? "" : specs.error().message);
  return {*d, phases_from_specs(*d, *specs)};
}

TEST(DefPhasesCube4, EachPhaseReachesEveryArrangementTheEarlierPhasesLeave) {
  const Cube4 c = load_cube4();
  // The last wing phase is the Solved pattern: no phase is added.
  ASSERT_EQ(c.phases.size(), 9u);
  const std::vector<mpz_class> expected = {
      binomial(24, 8),                       // R/L centres onto the R/L faces
      binomial(8, 4) * binomial(16, 8),      // R apart from L, U/D onto U/D
      binomial(8, 4) * binomial(8, 4) * 70,  // every centre (each axis: 4 of 8)
      mpz_class(5040) * 729,                 // 7! x 3^6 corners (the 2x2x2's count)
      falling(24, 4) * 4,                    // 4 wings of 24, times U's 4 corner positions
      falling(20, 4) * 4,                    // 4 of the 20 left
      falling(16, 4) * 4,                    // 4 of 16
      falling(12, 4) * 4,                    // 4 of 12
      falling(8, 8) * 4,                     // the U layer's 8 (odd ones too: the parity)
  };
  const auto sizes = phase_sizes(c.d, c.phases, RunContext{});
  ASSERT_EQ(sizes.size(), expected.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    ASSERT_FALSE(sizes[i].positions.empty()) << sizes[i].name << ": " << sizes[i].refused;
    EXPECT_EQ(mpz_class(sizes[i].positions), expected[i]) << sizes[i].name;
  }
}

TEST(DefPhasesCube4, RandomPositionsSolvedReplayedAndPlacedPhaseByPhase) {
  const Cube4 c = load_cube4();
  TableStore store;
  auto solver = PhasedSolver::create(c.d, c.phases, {}, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto g = build_group(c.d);
  ASSERT_TRUE(g) << g.error().message;
  const std::size_t corners = 0, centres = 2;  // set order in the file
  const SetState& solved_centres = c.d.solved.sets[centres];
  Rng rng(24);
  for (int i = 0; i < 2; ++i) {
    const State start = random_position(c.d, *g, rng);
    auto r = (*solver)->solve(start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(apply_moves(c.d, start, r->move_indices), c.d.solved);
    ASSERT_EQ(r->phases.size(), 9u);
    // Each phase's own moves, from the start: after the third every centre is on its face
    // (centres are identical in fours: compare the Solved labels of the pieces), after the
    // fourth the corners are solved too, and the wing phases keep both.
    State s = start;
    for (std::size_t p = 0; p < r->phases.size(); ++p) {
      std::vector<std::size_t> moves;
      for (const std::string& name : r->phases[p].moves) moves.push_back(*c.d.find_move(name));
      s = apply_moves(c.d, s, moves);
      if (p >= 2) {
        for (std::size_t k = 0; k < solved_centres.perm.size(); ++k) {
          // A position carries the Solved pattern's piece numbers: a centre's is its face.
          EXPECT_EQ(int{s.sets[centres].perm[k]}, int{solved_centres.perm[k]})
              << "phase " << p + 1 << ", centre slot " << k + 1;
        }
      }
      if (p >= 3) EXPECT_EQ(s.sets[corners], c.d.solved.sets[corners]) << "phase " << p + 1;
    }
    EXPECT_EQ(s, c.d.solved);
    EXPECT_EQ(r->length, static_cast<int>(r->move_indices.size()));  // half-turn metric
  }
}

// The 4x4x4 by reduction (data/puzzles/4x4x4-reduction.phases): centres, the three edges at
// the fixed corner placed home (U, R and F never move them), the other nine edges' wings
// paired with `Together` (anywhere), then the reduced cube as a 3x3x3 with U, R and F and the
// two parity algorithms. Facts from outside the code under test: the wing pairs below (the
// file's geometry: data/puzzles/geometry.py), the 3x3x3 stage's sizes (2^9 flips of nine
// edges; 3^6 corner twists x C(9,3) places of the three middle-layer edges; twice the order of
// <U, R2, F2>, found here on 3x3x3.tws, another file), every solution replayed.
TEST(DefPhasesCube4, ReductionPairsTheWingsThenSolvesAThreeByThree) {
  auto d = parse_definition(data_text("4x4x4-fixed-corner.tws"), "4x4x4-fixed-corner.tws");
  ASSERT_TRUE(d) << d.error().message;
  auto specs = parse_phase_file(*d, data_text("4x4x4-reduction.phases"), "4x4x4-reduction.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  const std::vector<Phase> phases = phases_from_specs(*d, *specs);
  ASSERT_EQ(phases.size(), 12u);  // the last is the Solved pattern: none added
  // The second (every centre from R and L on their faces): the R/L centres apart, C(8,4), and
  // the other four faces' sixteen centres, 16! / 4!^4.
  const auto all_centres = phase_sizes(*d, {phases[1]}, RunContext{});
  mpz_class arrangements;
  mpz_fac_ui(arrangements.get_mpz_t(), 16);
  EXPECT_EQ(mpz_class(all_centres[0].positions),
            binomial(8, 4) * arrangements / (24 * 24 * 24 * 24));
  const auto cube3 = parse_definition(data_text("3x3x3.tws"), "3x3x3.tws");
  ASSERT_TRUE(cube3);
  auto h_spec = parse_phase_file(*cube3, "Phase h\nMoves U U2 U' R2 F2\nEnd\n", "h.phases");
  ASSERT_TRUE(h_spec);
  const auto h = phase_sizes(*cube3, phases_from_specs(*cube3, *h_spec), RunContext{});
  ASSERT_FALSE(h[0].positions.empty()) << h[0].refused;
  std::vector<Phase> stage(phases.end() - 3, phases.end());
  const auto sizes = phase_sizes(*d, stage, RunContext{});
  ASSERT_EQ(sizes.size(), 3u);
  // oll-parity: the wings' parity alone; eo-co-slice: a 3x3x3's edge flips (their sum even: 2^8
  // for the nine edges that move), corner twists and middle-layer edges.
  EXPECT_EQ(sizes[0].positions, "2");
  EXPECT_EQ(mpz_class(sizes[1].positions), 256 * 729 * binomial(9, 3));
  EXPECT_EQ(mpz_class(sizes[2].positions), 2 * mpz_class(h[0].positions));  // finish
  ASSERT_EQ(phases[phases.size() - 3].parity.size(), 1u);
  // The wing pairs (slots, 1-based) and the first pairing phase's index.
  const std::vector<std::pair<int, int>> pairs = {{1, 2},   {9, 13},  {3, 5},   {4, 6},
                                                  {7, 8},   {10, 14}, {11, 15}, {12, 16},
                                                  {17, 18}, {19, 21}, {20, 22}, {23, 24}};
  std::size_t last_pairing = 0;
  for (std::size_t p = 0; p < phases.size(); ++p) {
    if (!phases[p].together.empty()) last_pairing = p;
  }
  ASSERT_EQ(phases[last_pairing].together.size(), 9u);
  TableStore store;
  PhaseOptions options;
  options.branch = 1;
  auto solver = PhasedSolver::create(*d, phases, options, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto g = build_group(*d);
  ASSERT_TRUE(g) << g.error().message;
  const std::size_t edges = 1, centres = 2;
  Rng rng(35);
  for (int i = 0; i < 2; ++i) {
    const State start = random_position(*d, *g, rng);
    auto r = (*solver)->solve(start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(apply_moves(*d, start, r->move_indices), d->solved);
    ASSERT_EQ(r->phases.size(), phases.size());
    // After the pairing phases: centres on their faces, and each pair's two wings in the two
    // slots of one pair (either way round).
    State s = start;
    for (std::size_t p = 0; p <= last_pairing; ++p) {
      std::vector<std::size_t> moves;
      for (const std::string& name : r->phases[p].moves) moves.push_back(*d->find_move(name));
      s = apply_moves(*d, s, moves);
    }
    EXPECT_EQ(s.sets[centres].perm, d->solved.sets[centres].perm);
    const auto& wings = s.sets[edges].perm;
    for (const auto& [a, b] : pairs) {
      const auto at_a = std::find(wings.begin(), wings.end(), a - 1) - wings.begin() + 1;
      const auto at_b = std::find(wings.begin(), wings.end(), b - 1) - wings.begin() + 1;
      const bool paired = std::any_of(pairs.begin(), pairs.end(), [&](const auto& q) {
        return (at_a == q.first && at_b == q.second) || (at_a == q.second && at_b == q.first);
      });
      EXPECT_TRUE(paired) << "wings " << a << " and " << b << " at slots " << at_a << ", " << at_b;
    }
    // After the OLL-parity phase the wings' permutation is even (counted here by its cycles;
    // the Solved pattern holds wing w at slot w).
    for (std::size_t p = last_pairing + 1; p < phases.size() - 2; ++p) {
      std::vector<std::size_t> moves;
      for (const std::string& name : r->phases[p].moves) moves.push_back(*d->find_move(name));
      s = apply_moves(*d, s, moves);
    }
    int parity = 0;
    std::vector<char> seen(24, 0);
    for (std::size_t j = 0; j < 24; ++j) {
      for (std::size_t k = j; !seen[k]; k = s.sets[edges].perm[k]) {
        seen[k] = 1;
        if (k != j) parity ^= 1;
      }
    }
    EXPECT_EQ(parity, 0) << "position " << i;
  }
}

}  // namespace def_phases_cube4_test
}  // namespace permuzzle::def
