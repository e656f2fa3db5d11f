// The 5x5 Loopover solved from its definition file by a committed phase file
// (data/puzzles/loopover-5x5-small.phases, block building with tables built in about a second;
// docs/def-phases.md): answers replayed by
// the built-in Loopover model (a second implementation of the rules), phase sizes against the
// published counts, and the pieces the phase machinery leaves out or merges.
#include <gtest/gtest.h>

#include <fstream>
#include <numeric>
#include <sstream>

#include "cli_runner.hpp"
#include "def_test_data.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/phases.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

namespace permuzzle::def {
namespace def_phases_loopover_test {

using test_data::data_file;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Definition load(const std::string& name) {
  auto d = parse_definition(read_text(data_file(name)), name);
  EXPECT_TRUE(d) << (d ? "" : d.error().message);
  return *d;
}

std::vector<Phase> loopover_phases(const Definition& d) {
  auto specs = parse_phase_file(d, read_text(data_file("loopover-5x5-small.phases")),
                                "loopover-5x5-small.phases");
  EXPECT_TRUE(specs) << (specs ? "" : specs.error().message);
  return phases_from_specs(d, *specs);
}

constexpr loopover::BoardSize FIVE{5, 5};

// A definition move of the export (rows A.. shift right, columns a.. shift down, power p of a
// 5-cycle) as a move of the built-in model.
loopover::Move builtin_move(const Definition& d, std::size_t m) {
  const std::string& base = d.base_moves[d.moves[m].base].name;
  loopover::Move mv;
  const bool row = base[0] >= 'A' && base[0] <= 'Z';
  mv.axis = row ? loopover::Axis::Row : loopover::Axis::Column;
  mv.index = static_cast<std::uint8_t>(row ? base[0] - 'A' : base[0] - 'a');
  const int p = d.moves[m].power;  // 1..4; 3 and 4 are 2 and 1 the other way
  mv.amount = static_cast<std::int8_t>(p <= 2 ? p : p - 5);
  return mv;
}

TEST(DefPhasesLoopover, FiveByFiveFileIsTheExport) {
  auto loop = test::run_cli("loopover export 5x5");
  EXPECT_EQ(loop.out, read_text(data_file("loopover-5x5.tws")));
}

TEST(DefPhasesLoopover, PhaseSizesAreTheBlockCounts) {
  const Definition d = load("loopover-5x5.tws");
  const std::vector<Phase> phases = loopover_phases(d);
  ASSERT_EQ(phases.size(), 5u);
  // Arrangements of the phase's new tiles over the cells its lines reach: 25*24*23*22,
  // 21*20*19*18*17, 16*15*14, 13*12*11*10, and the last 9 tiles under two 5-cycles sharing a
  // cell: the alternating group A9, 9!/2.
  const std::vector<std::string> expected{"303600", "2441880", "3360", "17160", "181440"};
  const auto sizes = phase_sizes(d, phases, RunContext{});
  ASSERT_EQ(sizes.size(), expected.size());
  for (std::size_t k = 0; k < sizes.size(); ++k) EXPECT_EQ(sizes[k].positions, expected[k]) << k;
  // The slots no phase move touches are left out of the phase's puzzle: the last phase keeps
  // row E and column e only (9 cells): its rank space is at most 9!, not 25!/16!.
  const Definition last = phase_definition(d, phases.back());
  ASSERT_EQ(last.sets.size(), 1u);
  EXPECT_EQ(last.sets[0].pieces, 9);
  EXPECT_GT(sizes.back().rank_space, 0u);
  EXPECT_LE(sizes.back().rank_space, 362880u);
}

TEST(DefPhasesLoopover, AutoFindsABlockChainWhoseSizesMultiplyToTheGroupOrder) {
  // No half turns (moves of order 5): auto builds blocks, each step proven by group facts.
  // Every phase is complete, so the phase sizes multiply to the number of positions: 25!/2
  // (A25) for the 5x5, 12! (S12) for the 3x4 (published counts).
  for (auto [rows, cols, expected] : {std::tuple{5, 5, std::string("7755605021665492992000000")},
                                      std::tuple{3, 4, std::string("479001600")}}) {
    auto text =
        test::run_cli("loopover export " + std::to_string(rows) + "x" + std::to_string(cols));
    auto d = parse_definition(text.out, "loopover");
    ASSERT_TRUE(d) << d.error().message;
    auto phases = auto_phases(*d, RunContext{});
    ASSERT_TRUE(phases) << phases.error().message;
    EXPECT_GE(phases->size(), 2u);
    EXPECT_EQ(phases->front().name.rfind("block: ", 0), 0u) << phases->front().name;
    mpz_class product = 1;
    for (const PhaseSize& z : phase_sizes(*d, *phases, RunContext{})) {
      ASSERT_FALSE(z.positions.empty()) << z.refused;
      EXPECT_LE(mpz_class(z.positions), BLOCK_CHAIN_POSITIONS) << z.name;
      product *= mpz_class(z.positions);
    }
    EXPECT_EQ(product, mpz_class(expected)) << rows << "x" << cols;
  }
}

TEST(DefPhasesLoopover, UntouchedSlotNotAsThePatternWantsIsRefused) {
  const Definition d = load("loopover-5x5.tws");
  const std::vector<Phase> phases = loopover_phases(d);
  // Phase 2 never moves the 2x2 block: with tile 3 (one of phase 2's tiles) shifted into
  // cell 1 by A2', phase 2 cannot bring it home.
  auto a = d.find_move("A2'");
  ASSERT_TRUE(a);
  const State moved = apply_moves(d, std::vector<std::size_t>{*a});
  auto p = project_state(d, phases[1], moved);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().kind, ErrorKind::Unsolvable);
  EXPECT_TRUE(project_state(d, phases[1], d.solved));
}

TEST(DefPhasesLoopover, RandomPositionsSolvedByBlocksAndReplayedByTheBuiltInModel) {
  const Definition d = load("loopover-5x5.tws");
  const std::vector<Phase> phases = loopover_phases(d);
  PhaseOptions o;
  o.metric = Metric::Qtm;  // single-tile moves (STM)
  o.beam_width = 4;
  o.branch = 4;
  o.slack = 1;
  o.inverse = true;
  TableStore store;
  auto solver = PhasedSolver::create(d, phases, o, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  Rng rng(24);
  int total = 0;
  const int count = 5;
  for (int i = 0; i < count; ++i) {
    // A random solvable board from the built-in model, as a state of the file (tile t in a
    // cell is piece t - 1 there).
    const loopover::Position board = loopover::random_position(FIVE, rng);
    State start = d.solved;
    for (std::size_t c = 0; c < board.size(); ++c)
      start.sets[0].perm[c] = static_cast<std::uint8_t>(board[c] - 1);
    auto r = (*solver)->solve(start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    // Replayed by the built-in model: the board is solved, and the length is its STM count.
    loopover::MoveSequence seq;
    for (std::size_t m : r->move_indices) seq.push_back(builtin_move(d, m));
    loopover::Position replayed = board;
    loopover::apply_moves(FIVE, replayed, seq);
    EXPECT_TRUE(loopover::is_goal(replayed));
    EXPECT_EQ(r->length, loopover::sequence_length(FIVE, seq, loopover::Metric::Stm));
    // Phase by phase (each phase's own moves, before merging): the block of each phase is
    // home after it, and a phase only turns the lines its file allows.
    ASSERT_EQ(r->phases.size(), 5u);
    const std::vector<std::vector<int>> blocks{
        {1, 2, 6, 7}, {3, 8, 11, 12, 13}, {4, 9, 14}, {16, 17, 18, 19}, {}};
    const std::vector<std::string> lines{"ABCDEabcde", "CDEcde", "DEde", "DEe", "Ee"};
    // A solution found for the inverse board is the inverse of its phases' moves: the phases
    // then start from the inverse board (tile t in cell c <-> tile c + 1 in cell t - 1).
    loopover::Position at = board;
    if (r->inverse) {
      for (std::size_t c = 0; c < board.size(); ++c)
        at[static_cast<std::size_t>(board[c] - 1)] = static_cast<int>(c) + 1;
    }
    std::vector<int> home;
    int phase_sum = 0;
    for (std::size_t k = 0; k < r->phases.size(); ++k) {
      for (const std::string& name : r->phases[k].moves) {
        EXPECT_NE(lines[k].find(name[0]), std::string::npos) << name << " in phase " << k + 1;
        auto m = d.find_move(name);
        ASSERT_TRUE(m);
        loopover::apply_move(FIVE, at, builtin_move(d, *m));
      }
      home.insert(home.end(), blocks[k].begin(), blocks[k].end());
      for (int t : home) EXPECT_EQ(at[static_cast<std::size_t>(t - 1)], t) << "phase " << k + 1;
      phase_sum += r->phases[k].length;
    }
    EXPECT_TRUE(loopover::is_goal(at));
    EXPECT_LE(r->length, phase_sum);  // merging across phases never adds moves
    total += r->length;
    RecordProperty("length_" + std::to_string(i), r->length);
  }
  RecordProperty("mean_length_stm", std::to_string(static_cast<double>(total) / count));
}

TEST(DefPhasesLoopover, CliBeamOptionsAnswerAndReplay) {
  const std::string file = data_file("loopover-5x5.tws");
  const std::string scramble = "A b2 C' d E2 a B' c2 D e' A2 b C d2' E a' B2 c D' e2";
  auto solve = test::run_cli("--json --quiet --tables none def solve " + file + " --moves \"" +
                             scramble + "\" --phases " + data_file("loopover-5x5-small.phases") +
                             " --metric qtm --beam 4 --branch 4 --slack 1 --inverse");
  ASSERT_EQ(solve.exit_code, 0) << solve.err;
  const auto s = solve.json()["solutions"][0];
  EXPECT_TRUE(s["verified"].get<bool>());
  EXPECT_TRUE(s["inverse"].is_boolean());
  ASSERT_EQ(s["phases"].size(), 5u);
  std::string seq;
  for (const auto& m : s["moves"]) seq += " " + m.get<std::string>();
  // Replayed outside the solver: `def apply` of scramble + solution is solved.
  auto check =
      test::run_cli("--json --quiet def apply " + file + " --moves \"" + scramble + seq + "\"");
  ASSERT_EQ(check.exit_code, 0) << check.err;
  EXPECT_TRUE(check.json()["solved"].get<bool>());
  // The beam's options without --phases are one clear error.
  auto bad = test::run_cli("--quiet def solve " + file + " --moves A --beam 4");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--phases"), std::string::npos) << bad.err;
}

TEST(DefPhasesLoopover, InversePositionIsReachedByTheInverseSequence) {
  // On the 3x3x3 (orientations tracked): the inverse sequence of random moves reaches the
  // inverse of the position the moves reach, and a position composed with its inverse is solved.
  const Definition d = load("3x3x3.tws");
  ASSERT_TRUE(positions_are_elements(d));
  Rng rng(5);
  for (int i = 0; i < 20; ++i) {
    std::vector<std::size_t> seq;
    for (int j = 0; j < 25; ++j) seq.push_back(rng.below(d.moves.size()));
    auto undo = inverse_sequence(d, seq);
    ASSERT_TRUE(undo);
    const State position = apply_moves(d, seq);
    EXPECT_EQ(apply_moves(d, *undo), inverse_position(d, position));
    EXPECT_EQ(apply_moves(d, inverse_position(d, position), seq), d.solved);
  }
  // The 4x4x4's identical centres have no inverse.
  EXPECT_FALSE(positions_are_elements(load("4x4x4-fixed-corner.tws")));
}

TEST(DefPhasesLoopover, MergeMovesAddsPowersOverCommutingMoves) {
  const Definition d = load("3x3x3.tws");
  std::vector<char> commuting(d.base_moves.size() * d.base_moves.size(), 0);
  for (std::size_t a = 0; a < d.base_moves.size(); ++a) {
    for (std::size_t b = 0; b < d.base_moves.size(); ++b) {
      const State s = apply_moves(d, std::vector<std::size_t>{});
      const State ab = apply(d, apply(d, s, d.base_moves[a].effect), d.base_moves[b].effect);
      const State ba = apply(d, apply(d, s, d.base_moves[b].effect), d.base_moves[a].effect);
      commuting[a * d.base_moves.size() + b] = ab == ba;
    }
  }
  auto seq = [&](const std::string& text) {
    std::vector<std::size_t> out;
    std::istringstream in(text);
    std::string name;
    while (in >> name) out.push_back(*d.find_move(name));
    return out;
  };
  auto names = [&](const std::vector<std::size_t>& moves) {
    std::string out;
    for (std::size_t m : moves) out += (out.empty() ? "" : " ") + d.moves[m].name;
    return out;
  };
  EXPECT_EQ(names(merge_moves(d, commuting, seq("R R"))), "R2");
  EXPECT_EQ(names(merge_moves(d, commuting, seq("R R'"))), "");
  EXPECT_EQ(names(merge_moves(d, commuting, seq("U D U'"))), "D");  // U and D commute
  EXPECT_EQ(names(merge_moves(d, commuting, seq("U R U'"))), "U R U'");
  EXPECT_EQ(names(merge_moves(d, commuting, seq("F U D2 U' F'"))), "F D2 F'");
  EXPECT_EQ(names(merge_moves(d, commuting, seq("F U D2 D2 U' F'"))), "");
  // The merged sequence makes the same position.
  const auto long_seq = seq("R U R' U' D2 D L L2 B F' F U2 U2");
  EXPECT_EQ(apply_moves(d, merge_moves(d, commuting, long_seq)), apply_moves(d, long_seq));
}

}  // namespace def_phases_loopover_test
}  // namespace permuzzle::def
