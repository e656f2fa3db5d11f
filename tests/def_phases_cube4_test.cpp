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

}  // namespace def_phases_cube4_test
}  // namespace permuzzle::def
