// The megaminx from its definition file (data/puzzles/megaminx.tws, written by geometry.py from
// the dodecahedron) and its phase file (data/puzzles/megaminx.phases, megaminx_phases.py):
// the published number of positions, move identities checked against twsearch's independent
// megaminx.tws (PuzzleGeometry's output), and random positions solved by phases and replayed.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "def_test_data.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/phases.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/solver.hpp"

namespace permuzzle::def {
namespace def_megaminx_test {

using test_data::data_text;

Definition megaminx() {
  auto d = parse_definition(data_text("megaminx.tws"), "megaminx.tws");
  EXPECT_TRUE(d) << (d ? "" : d.error().message);
  return *d;
}

// The order of the net effect of a move sequence: how often it is played before Solved again.
int order_of(const Definition& d, const std::string& word) {
  auto moves = parse_move_sequence(d, word);
  EXPECT_TRUE(moves) << word;
  const State once = apply_moves(d, *moves);
  State s = once;
  int k = 1;
  while (!(s == d.solved) && k < 100000) {
    s = apply_moves(d, s, *moves);
    ++k;
  }
  return k;
}

TEST(DefMegaminx, PublishedNumberOfPositions) {
  const Definition d = megaminx();
  auto facts = group_facts(d);
  ASSERT_TRUE(facts) << facts.error().message;
  // 30!/2 · 2^29 · 20!/2 · 3^19 (every even permutation of the 30 edges and of the 20 corners,
  // orientations with their sum rule), the count every megaminx reference gives.
  EXPECT_EQ(facts->positions.get_str(),
            "100669616553523347122516032313645505168688116411019768627200000000000");
}

TEST(DefMegaminx, MoveIdentitiesAgreeWithTwsearchsFile) {
  const Definition d = megaminx();
  // Every face turn has order 5; opposite faces commute, adjacent ones do not.
  for (const char* face : {"U", "F", "L", "BL", "BR", "R", "FL", "DL", "B", "DR", "FR", "D"})
    EXPECT_EQ(order_of(d, face), 5) << face;
  for (const char* pair :
       {"U D U' D'", "F B F' B'", "L DR L' DR'", "BL FR BL' FR'", "BR FL BR' FL'", "R DL R' DL'"})
    EXPECT_EQ(order_of(d, pair), 1) << pair;
  EXPECT_GT(order_of(d, "U F U' F'"), 1);
  // Orders of move sequences as twsearch's samples/main/megaminx.tws gives them (computed there,
  // its faces U F L BL BR R D named as ours, A I BF E C for our FL DL B DR FR): the same
  // puzzle, not one equal only in its group order.
  EXPECT_EQ(order_of(d, "R U"), 63);
  EXPECT_EQ(order_of(d, "R U'"), 36);
  EXPECT_EQ(order_of(d, "R U R' U'"), 6);
  EXPECT_EQ(order_of(d, "R U2"), 45);
  EXPECT_EQ(order_of(d, "R U2'"), 18);
  EXPECT_EQ(order_of(d, "U R F"), 420);
  EXPECT_EQ(order_of(d, "R U R' U R U2' R'"), 6);
  EXPECT_EQ(order_of(d, "U F R L"), 24);
  EXPECT_EQ(order_of(d, "R BR' FR"), 468);
}

TEST(DefMegaminx, PhaseFileSizesAreTheArrangementsOfTheirNewPieces) {
  const Definition d = megaminx();
  auto specs = parse_phase_file(d, data_text("megaminx.phases"), "megaminx.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  const auto phases = phases_from_specs(d, *specs);
  const auto sizes = phase_sizes(d, phases, RunContext{});
  // Each phase's puzzle has exactly as many positions as its new pieces have arrangements in
  // the slots its moves touch (counted from the faces' adjacency, megaminx_phases.py): its
  // moves reach every one, so the phase can always be finished whatever the phases before
  // left. E.g. phase 1 places 3 of the 30 edges and 1 of the 20 corners with every face; the
  // last layer is every position of U's 5 edges and 5 corners, 5!/2 · 2^4 · 5!/2 · 3^4.
  const std::vector<std::uint64_t> arrangements = {
      30ULL * 29 * 28 * 8 * 20 * 3,  // faces-1: 3 edges, 1 corner, every face
      27ULL * 26 * 4 * 19 * 3,       // faces-2: 2 edges, 1 corner
      25ULL * 24 * 4 * 18 * 3,       // faces-3
      23ULL * 22 * 4 * 17 * 3,       // faces-4
      21ULL * 20 * 19 * 8 * 16 * 3,  // faces-5: 3 edges, 1 corner
      15ULL * 3,  // faces-5-corner: 1 corner in the 14 slots of F FR L R U and its own
      18ULL * 17 * 16 * 8 * 14 * 13 * 9,  // faces-6
      15ULL * 14 * 13 * 8 * 12 * 11 * 9,  // faces-7: U, F, L, R
      12ULL * 11 * 10 * 8 * 10 * 9 * 9,   // faces-8: U, F, R
      9ULL * 8 * 7 * 6 * 16,              // R-edges: 4 of the 9 edges of U and R
      8ULL * 7 * 6 * 27,                  // R-corners: 3 of the 8 corners of U and R
      60ULL * 16 * 60 * 81};              // last-layer
  ASSERT_EQ(sizes.size(), arrangements.size());
  for (std::size_t i = 0; i < sizes.size(); ++i)
    EXPECT_EQ(sizes[i].positions, std::to_string(arrangements[i])) << sizes[i].name;
}

TEST(DefMegaminx, RandomPositionsSolvedByPhasesAndReplayed) {
  const Definition d = megaminx();
  auto specs = parse_phase_file(d, data_text("megaminx.phases"), "megaminx.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  TableStore store;  // in memory: the tables are built here (a few seconds)
  PhaseOptions o;
  o.memory_bytes = std::uint64_t{512} << 20;
  auto solver = PhasedSolver::create(d, phases_from_specs(d, *specs), o, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto g = build_group(d);
  ASSERT_TRUE(g);
  Rng rng(24);
  for (int i = 0; i < 2; ++i) {
    const State start = random_position(d, *g, rng);
    auto r = (*solver)->solve(start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    // Replayed by the reader's own move application, phase by phase and as a whole.
    EXPECT_EQ(apply_moves(d, start, r->move_indices), d.solved);
    State s = start;
    for (const auto& phase : r->phases) {
      std::vector<std::size_t> moves;
      for (const std::string& name : phase.moves) moves.push_back(*d.find_move(name));
      s = apply_moves(d, s, moves);
    }
    EXPECT_EQ(s, d.solved);
    EXPECT_EQ(r->phases.size(), 12u);
    EXPECT_GT(r->length, 0);
  }
}

}  // namespace def_megaminx_test
}  // namespace permuzzle::def
