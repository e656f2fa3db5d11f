// `--phases auto`'s planned chain and the sequences it finds (issue 35): every sequence is
// replayed here with the reader's apply_moves, every solution is replayed from its position,
// and the phases' sizes are checked against the puzzle's group facts (a second count).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "def_test_data.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/phases.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/sequences.hpp"

namespace permuzzle::def {
namespace def_phases_auto_test {

using test_data::expect_solves_random_positions;

Definition load(const std::string& name) {
  return test_data::data_definition(name);
}

// Slots a state changes (moves or twists), over every set.
std::size_t changed_slots(const Definition& d, const State& s) {
  std::size_t n = 0;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    for (std::size_t j = 0; j < s.sets[k].perm.size(); ++j)
      n += (s.sets[k].perm[j] != j || s.sets[k].ori[j] % d.sets[k].orientations != 0) ? 1 : 0;
  }
  return n;
}

// `s` leaves every `fixed` slot as Solved has it.
void expect_keeps(const Definition& d, const State& s, const SlotMarks& fixed) {
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    for (std::size_t j = 0; j < fixed[k].size(); ++j) {
      if (!fixed[k][j]) continue;
      EXPECT_EQ(s.sets[k].perm[j], d.solved.sets[k].perm[j]);
      EXPECT_EQ(s.sets[k].ori[j], d.solved.sets[k].ori[j]);
    }
  }
}

// The phases' sizes multiply to the puzzle's positions.
void expect_sizes_multiply_to_positions(const Definition& d, const std::vector<Phase>& phases) {
  const auto sizes = phase_sizes(d, phases, RunContext{});
  mpz_class product = 1;
  for (const PhaseSize& z : sizes) {
    ASSERT_FALSE(z.positions.empty()) << z.refused;
    product *= mpz_class(z.positions);
  }
  auto facts = group_facts(d, RunContext{});
  ASSERT_TRUE(facts);
  EXPECT_EQ(product, facts->positions);
}

// The 3x3x3's last layer: sequences that keep the first two layers (every slot no U turn
// moves) change at most MAX_POWERED_SUPPORT slots (most at most MAX_SEQUENCE_SUPPORT), all
// U-layer ones; replayed; the shortest of 6 moves.
TEST(DefPhasesAuto, FoundSequencesKeepTheFixedSlotsAndMoveFewPieces) {
  const Definition d = load("3x3x3.tws");
  auto lib = SequenceLibrary::build(d, {}, RunContext{});
  ASSERT_TRUE(lib) << lib.error().message;
  EXPECT_GT(lib->size(), 0u);
  const std::size_t u = *d.find_move("U");
  SlotMarks fixed(d.sets.size()), target(d.sets.size());
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const SetState& e = d.moves[u].effect.sets[k];
    for (std::size_t j = 0; j < e.perm.size(); ++j) {
      const bool on_u = e.perm[j] != j || e.ori[j] != 0;
      fixed[k].push_back(on_u ? 0 : 1);
      target[k].push_back(on_u ? 1 : 0);
    }
  }
  auto seqs = lib->for_phase(fixed, target, {u}, 40, 2, RunContext{});
  ASSERT_TRUE(seqs) << seqs.error().message;
  ASSERT_FALSE(seqs->empty());
  std::size_t few = 0;
  for (const PhaseSequence& q : *seqs) {
    const State s = apply_moves(d, q.moves);
    EXPECT_EQ(s, q.effect);
    EXPECT_LE(changed_slots(d, s), MAX_POWERED_SUPPORT);
    few += changed_slots(d, s) <= MAX_SEQUENCE_SUPPORT ? 1 : 0;
    EXPECT_GT(changed_slots(d, s), 0u);
    expect_keeps(d, s, fixed);
    // Its inverse undoes it, and its order is that of its net effect.
    EXPECT_EQ(apply_moves(d, s, q.inverse), d.solved);
    State power = s;
    for (int k = 1; k < q.order; ++k) power = apply(d, power, s);
    EXPECT_EQ(power, d.solved);
  }
  EXPECT_GT(few * 2, seqs->size());
  // Words met in the middle give sequences shorter than any commutator [A, B] of a word and a
  // move (8 moves with a 3-move A): F R U R' U' F' (6 moves) keeps the first two layers.
  std::size_t shortest = SIZE_MAX;
  for (const PhaseSequence& q : *seqs) shortest = std::min(shortest, q.moves.size());
  EXPECT_LE(shortest, 6u);
  // With U and these, the whole last layer: 62,208 positions (the published count), so the
  // search found the twists, flips and cycles a last-layer method needs.
  Phase ll{"ll", d.solved, {u}, *seqs, false};
  for (std::size_t i = 0; i < ll.sequences.size(); ++i)
    ll.sequences[i].name = "s" + std::to_string(i) + "x";
  auto facts = group_facts(phase_definition(d, ll), RunContext{});
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->positions, 62208);
}

// The candidates the planned chain's group's test draws from, on the 3x3x3 with the first two
// layers fixed: each keeps those slots (replayed here), shortest first, one per net effect up
// to inversion; with U they generate the whole last layer, 62,208 positions (the published
// count; a second count of the sequences the kinds-based choice above finds).
TEST(DefPhasesAuto, CandidatesKeepTheFixedSlotsAndGenerateTheLastLayer) {
  const Definition d = load("3x3x3.tws");
  auto lib = SequenceLibrary::build(d, {}, RunContext{});
  ASSERT_TRUE(lib) << lib.error().message;
  const std::size_t u = *d.find_move("U");
  SlotMarks fixed(d.sets.size());
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const SetState& e = d.moves[u].effect.sets[k];
    for (std::size_t j = 0; j < e.perm.size(); ++j)
      fixed[k].push_back(e.perm[j] != j || e.ori[j] != 0 ? 0 : 1);
  }
  auto pool = lib->candidates(fixed, {u}, 2, 500, RunContext{});
  ASSERT_TRUE(pool) << pool.error().message;
  ASSERT_GT(pool->size(), 10u);
  EXPECT_LE(pool->size(), 500u);
  std::set<std::vector<std::uint8_t>> effects;
  auto key = [&](const State& s) {
    std::vector<std::uint8_t> k;
    for (const SetState& t : s.sets) {
      k.insert(k.end(), t.perm.begin(), t.perm.end());
      k.insert(k.end(), t.ori.begin(), t.ori.end());
    }
    return k;
  };
  std::size_t previous = 0;
  Phase ll{"ll", d.solved, {u}, {}, false};
  for (const PhaseSequence& q : *pool) {
    const State s = apply_moves(d, q.moves);
    ASSERT_EQ(s, q.effect);
    EXPECT_GE(q.order, 2);
    EXPECT_GE(q.moves.size(), previous);
    previous = q.moves.size();
    expect_keeps(d, s, fixed);
    EXPECT_EQ(apply_moves(d, s, q.inverse), d.solved);
    // Distinct up to inversion.
    EXPECT_TRUE(effects.insert(key(s)).second);
    EXPECT_EQ(effects.count(key(apply_moves(d, q.inverse))), q.order == 2 ? 1u : 0u);
    ll.sequences.push_back(q);
    ll.sequences.back().name = "s" + std::to_string(ll.sequences.size()) + "x";
  }
  auto facts = group_facts(phase_definition(d, ll), RunContext{});
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->positions, 62208);
}

// The 4x4x4 (fixed corner): auto's planned chain needs the group's test where the sequences
// chosen by kind leave a phase short (a corner twist); its phases are each proven complete and
// multiply to the puzzle's 7,401,196,841,564,901,869,874,093,974,498,574,336,000,000,000
// positions (the published count), and every sequence is replayed.
TEST(DefPhasesAuto, FourByFourPlannedChainIsProvenByTheGroupsTest) {
  const Definition d = load("4x4x4-fixed-corner.tws");
  auto phases = auto_phases(d, RunContext{});
  ASSERT_TRUE(phases) << phases.error().message;
  EXPECT_LE(phases->size(), 16u);  // the planned chain, not the piece chain
  std::size_t with_sequences = 0;
  for (const Phase& p : *phases) {
    with_sequences += p.sequences.empty() ? 0 : 1;
    for (const PhaseSequence& q : p.sequences)
      EXPECT_EQ(apply_moves(d, d.identity(), q.moves), q.effect);
  }
  EXPECT_GE(with_sequences, 2u);
  ASSERT_NO_FATAL_FAILURE(expect_sizes_multiply_to_positions(d, *phases));
  auto facts = group_facts(d, RunContext{});
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->positions, mpz_class("7401196841564901869874093974498574336000000000"));
}

// The pyraminx with tips. With the default budget auto places a centre and its tip, then the
// rest with the other faces' turns in one exact phase (9 x 8,398,080). With 32 MiB a phase
// holds at most 2,097,152 arrangements: the chain places more phases, the last needing
// sequences (the tips' own turns cannot place the last edges); its phases multiply to the
// puzzle's positions, it solves random positions (each replayed) and it reads back from the
// phase file it writes.
TEST(DefPhasesAuto, PlannedChainWithSequencesSolvesAndRoundTrips) {
  const Definition d = load("pyraminx-tips.tws");
  {
    auto whole = auto_phases(d, RunContext{});
    ASSERT_TRUE(whole) << whole.error().message;
    ASSERT_EQ(whole->size(), 2u);
    EXPECT_TRUE((*whole)[1].sequences.empty());
    ASSERT_NO_FATAL_FAILURE(expect_sizes_multiply_to_positions(d, *whole));
  }
  AutoPhaseOptions small;
  small.memory_bytes = std::uint64_t{32} << 20;
  auto phases = auto_phases(d, RunContext{}, small);
  ASSERT_TRUE(phases) << phases.error().message;
  bool with_sequences = false;
  for (const Phase& p : *phases) with_sequences = with_sequences || !p.sequences.empty();
  EXPECT_TRUE(with_sequences);
  ASSERT_NO_FATAL_FAILURE(expect_sizes_multiply_to_positions(d, *phases));  // 75,582,720
  // The phase file: read back, the same phases.
  const std::string text = format_phase_file(d, *phases, {"test"});
  auto specs = parse_phase_file(d, text, "auto.phases");
  ASSERT_TRUE(specs) << specs.error().message << "\n" << text;
  const auto back = phases_from_specs(d, *specs);
  ASSERT_EQ(back.size(), phases->size());
  for (std::size_t k = 0; k < back.size(); ++k) {
    EXPECT_EQ(back[k].pattern, (*phases)[k].pattern);
    EXPECT_EQ(back[k].moves, (*phases)[k].moves);
    EXPECT_EQ(back[k].only_sequences, (*phases)[k].only_sequences);
    ASSERT_EQ(back[k].sequences.size(), (*phases)[k].sequences.size());
    for (std::size_t q = 0; q < back[k].sequences.size(); ++q)
      EXPECT_EQ(back[k].sequences[q].moves, (*phases)[k].sequences[q].moves);
  }
  // Solved from random positions, each replayed here.
  expect_solves_random_positions(d, back, 7, 5);
}

// The megaminx (issue 35): auto plans a chain that keeps the free slots linked (no step leaves
// a face apart from the faces still in use), every phase proven complete with the sequences it
// found; the phases' sizes multiply to the puzzle's positions, and a random position is solved
// and replayed.
TEST(DefPhasesAuto, MegaminxPlannedChainIsProvenAndSolves) {
  const Definition d = load("megaminx.tws");
  auto phases = auto_phases(d, RunContext{});
  ASSERT_TRUE(phases) << phases.error().message;
  std::size_t with_sequences = 0;
  for (const Phase& p : *phases) with_sequences += p.sequences.empty() ? 0 : 1;
  EXPECT_GE(with_sequences, 2u);
  EXPECT_LE(phases->size(), 16u);  // not the 21-phase piece chain
  ASSERT_NO_FATAL_FAILURE(expect_sizes_multiply_to_positions(d, *phases));
  expect_solves_random_positions(d, *phases, 11, 1);
}

// TopSpin (n, 4) as a definition file: n discs on a loop, S shifts every disc one slot on, T
// reverses the discs in slots 1..4.
std::string topspin_text(int n) {
  std::string solved, shift, turn;
  for (int i = 1; i <= n; ++i) {
    solved += " " + std::to_string(i);
    shift += " " + std::to_string(i == 1 ? n : i - 1);
    turn += " " + std::to_string(i <= 4 ? 5 - i : i);
  }
  return "Name topspin-" + std::to_string(n) + "-4\nSet DISCS " + std::to_string(n) +
         " 1\nSolved\nDISCS\n" + solved + "\nEnd\nMove S\nDISCS\n" + shift +
         "\nEnd\nMove T\nDISCS\n" + turn + "\nEnd\n";
}

// The group's last resort (near-solved positions solved by the phases before). TopSpin (16, 4)
// is S16 (n and k even: every arrangement), but reversing four discs is an even permutation, and
// so is every commutator and every conjugate of one: once the shift is out of use, the turnstile
// and the sequences chosen by kind reach only the even half of the last discs' arrangements, and
// with 16 MiB the group's test finds no odd candidate among the short words either (without the
// last resort auto falls back to the piece chain). The plan completes the last phase (an odd
// sequence among its own), its phases multiply to 16!, and random positions are solved, each
// replayed here.
TEST(DefPhasesAuto, TopSpinsParityComesFromTheLastResort) {
  auto d = parse_definition(topspin_text(16), "topspin-16-4.tws");
  ASSERT_TRUE(d) << d.error().message;
  AutoPhaseOptions small;
  small.memory_bytes = std::uint64_t{16} << 20;
  auto planned = planned_chain(*d, small, RunContext{});
  ASSERT_TRUE(planned) << planned.error().message;
  ASSERT_TRUE(planned->has_value());
  const std::vector<Phase>& phases = **planned;
  ASSERT_GE(phases.size(), 2u);
  const Phase& last = phases.back();
  ASSERT_EQ(last.moves.size(), 1u);  // T alone: S would move the discs placed before
  EXPECT_EQ(d->moves[last.moves.front()].name, "T");
  bool odd = false;
  for (const PhaseSequence& q : last.sequences) {
    EXPECT_EQ(apply_moves(*d, d->identity(), q.moves), q.effect);
    odd = odd || arrangement_parity(q.effect.sets[0].perm) == 1;
  }
  EXPECT_TRUE(odd);
  auto facts = group_facts(*d, RunContext{});
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->positions, mpz_class("20922789888000"));  // 16!
  ASSERT_NO_FATAL_FAILURE(expect_sizes_multiply_to_positions(*d, phases));
  expect_solves_random_positions(*d, phases, 5, 5);
}

// A phase of sequences alone: `Moves` with no move, then `Sequence` lines; without them an
// error at its place.
TEST(DefPhasesAuto, PhaseOfSequencesAloneReadsAndIsChecked) {
  const Definition d = load("3x3x3.tws");
  auto ok = parse_phase_file(d,
                             "Phase ll\nMoves\nSequence sune R U R' U R U2 R'\n"
                             "Sequence flip F R U R' U' F'\nEnd\n",
                             "s.phases");
  ASSERT_TRUE(ok) << ok.error().message;
  const auto phases = phases_from_specs(d, *ok);
  EXPECT_TRUE(phases.front().only_sequences);
  // Its puzzle has the two sequences' powers as its only moves.
  const Definition pd = phase_definition(d, phases.front());
  EXPECT_EQ(pd.base_moves.size(), 2u);
  auto bad = parse_phase_file(d, "Phase ll\nMoves\nEnd\n", "b.phases");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("b.phases:2:"), std::string::npos) << bad.error().message;
}

}  // namespace def_phases_auto_test
}  // namespace permuzzle::def
