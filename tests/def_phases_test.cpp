// Solving by phases (puzzles/def/phases.hpp, `def solve --phases`, `def random`'s moves):
// every answer is checked here by replaying it with the reader's own apply_moves, and lengths
// against the optimal solver (a second method).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <queue>
#include <sstream>
#include <unordered_map>

#include "cli_runner.hpp"
#include "def_test_data.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/phases.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/solver.hpp"

namespace permuzzle::def {
namespace def_phases_test {

using test_data::data_file;

Definition load(const std::string& name) {
  return test_data::data_definition(name);
}

// Distances by breadth-first search over a small coordinate (0..states-1) of the puzzle's
// positions, from `goals`, with `step(x, move)` the coordinate after a move (the second method of
// the Together and Parity tests: every move's inverse is a move, so these are distances to).
std::vector<int> coordinate_distances(const Definition& d, int states,
                                      const std::vector<int>& goals,
                                      const std::function<int(int, const Move&)>& step) {
  std::vector<int> dist(static_cast<std::size_t>(states), -1);
  std::queue<int> queue;
  for (int x : goals) {
    dist[static_cast<std::size_t>(x)] = 0;
    queue.push(x);
  }
  while (!queue.empty()) {
    const int x = queue.front();
    queue.pop();
    for (const Move& m : d.moves) {
      const int y = step(x, m);
      if (dist[static_cast<std::size_t>(y)] < 0) {
        dist[static_cast<std::size_t>(y)] = dist[static_cast<std::size_t>(x)] + 1;
        queue.push(y);
      }
    }
  }
  return dist;
}

// `text`, read as the phase file `file_name`, is refused with one error that starts with `where`
// (file:line:column) and names `what`.
void expect_phase_file_error(const Definition& d, const std::string& file_name,
                             const std::string& text, const std::string& where,
                             const std::string& what) {
  auto r = parse_phase_file(d, text, file_name);
  ASSERT_FALSE(r) << text;
  EXPECT_EQ(r.error().message.rfind(where, 0), 0u) << r.error().message;
  EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
}

// Corners oriented first (all identical, orientations tracked), then solved.
constexpr const char* TWO_PHASES_2X2 =
    "# orient, then solve\n"
    "Phase orient\n"
    "CORNERS\n"
    "1 1 1 1 1 1 1\n"
    "0 0 0 0 0 0 0\n"
    "End\n";

TEST(DefPhases, PhaseFileSolutionReplaysAndIsNoShorterThanOptimal) {
  const Definition d = load("2x2x2-fixed-corner.tws");
  auto specs = parse_phase_file(d, TWO_PHASES_2X2, "orient.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  const auto phases = phases_from_specs(d, *specs);
  ASSERT_EQ(phases.size(), 2u);  // the Solved pattern is added as the last phase
  TableStore store;
  auto solver = PhasedSolver::create(d, phases, {}, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto optimal = DefSolver::create(d, {}, store, RunContext{});
  ASSERT_TRUE(optimal);
  Rng rng(7);
  auto g = build_group(d);
  ASSERT_TRUE(g);
  for (int i = 0; i < 5; ++i) {
    const State start = random_position(d, *g, rng);
    auto r = (*solver)->solve(start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->phases.size(), 2u);
    // Replayed by the reader's own move application.
    EXPECT_EQ(apply_moves(d, start, r->move_indices), d.solved);
    // After phase 1 every corner is oriented: the orientations of the state are all 0.
    // (The phase's own moves: the whole sequence may merge moves across the boundary.)
    std::vector<std::size_t> first;
    for (const std::string& name : r->phases[0].moves) first.push_back(*d.find_move(name));
    const State mid = apply_moves(d, start, first);
    for (auto o : mid.sets[0].ori) EXPECT_EQ(o, 0);
    auto best = (*optimal)->solve(start, RunContext{});
    ASSERT_TRUE(best);
    EXPECT_GE(r->length, best->front().length);
    // Moves of one face merge across the phase boundary: never longer than the phases.
    EXPECT_LE(r->length, r->phases[0].length + r->phases[1].length);
  }
}

TEST(DefPhases, AutoOnTheTwoByTwoGivesAProvenTwoPhaseReduction) {
  const Definition d = load("2x2x2-fixed-corner.tws");
  auto phases = auto_phases(d, RunContext{});
  ASSERT_TRUE(phases) << phases.error().message;
  ASSERT_EQ(phases->size(), 2u);
  // The sizes multiply to the puzzle's 3,674,160 positions (published count).
  const auto sizes = phase_sizes(d, *phases, RunContext{});
  ASSERT_EQ(sizes.size(), 2u);
  ASSERT_FALSE(sizes[0].positions.empty());
  ASSERT_FALSE(sizes[1].positions.empty());
  EXPECT_EQ(mpz_class(sizes[0].positions) * mpz_class(sizes[1].positions), 3674160);
  TableStore store;
  auto solver = PhasedSolver::create(d, *phases, {}, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto g = build_group(d);
  Rng rng(11);
  for (int i = 0; i < 5; ++i) {
    const State start = random_position(d, *g, rng);
    auto r = (*solver)->solve(start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(apply_moves(d, start, r->move_indices), d.solved);
    EXPECT_LE(r->length, 11 + 11);  // each phase at most God's number
  }
}

TEST(DefPhases, AutoOnTheCubeWithinThirtyMoves) {
  const Definition d = load("3x3x3.tws");
  auto phases = auto_phases(d, RunContext{});
  ASSERT_TRUE(phases) << phases.error().message;
  ASSERT_EQ(phases->size(), 2u);
  TableStore store;
  PhaseOptions o;
  o.memory_bytes = std::uint64_t{256} << 20;
  auto solver = PhasedSolver::create(d, *phases, o, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto moves = parse_move_sequence(d, "R U R' U' F2 D L' B2 U F' R2 D' L B' U2 R D2 F L2 B");
  ASSERT_TRUE(moves);
  const State start = apply_moves(d, *moves);
  auto r = (*solver)->solve(start, RunContext{});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(apply_moves(d, start, r->move_indices), d.solved);
  EXPECT_LE(r->length, 30);
}

TEST(DefPhases, QuarterTurnsNeedAQuarterTurnPerBaseMove) {
  const Definition d = load("3x3x3.tws");
  auto specs = parse_phase_file(d, "Phase half\nMoves U R2\nEnd\n", "q.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  TableStore store;
  PhaseOptions o;
  o.metric = Metric::Qtm;
  auto solver = PhasedSolver::create(d, phases_from_specs(d, *specs), o, store, RunContext{});
  ASSERT_FALSE(solver);
  EXPECT_EQ(solver.error().kind, ErrorKind::InvalidInput);
  EXPECT_NE(solver.error().message.find("R2"), std::string::npos) << solver.error().message;
}

TEST(DefPhases, InverseSequenceUndoes) {
  const Definition d = load("3x3x3.tws");
  auto moves = parse_move_sequence(d, "R U2 F' D B2 L'");
  ASSERT_TRUE(moves);
  auto inv = inverse_sequence(d, *moves);
  ASSERT_TRUE(inv);
  EXPECT_EQ(apply_moves(d, apply_moves(d, *moves), *inv), d.solved);
}

// Moves merge across others only where they commute as group elements. TopSpin (8,4) with the
// discs of slots 8 and 1..4 identical in Solved: the turnstile T (reversing slots 1..4) changes
// nothing of that pattern, nor of the pattern S makes of it, so S T and T S agree on it, yet
// they differ on most positions. S2 T S3 must stay
// three moves (merged into S5 T it moves other discs: the last resort's near-solved positions
// were refused as failing their replay, and the topspin's plan failed, before this was so).
TEST(DefPhases, MovesMergeOnlyWhereTheyCommuteAsElements) {
  auto d = parse_definition(
      "Name topspin-8-4-pattern\nSet DISCS 8 1\nSolved\nDISCS\n1 1 1 1 2 3 4 1\nEnd\n"
      "Move S\nDISCS\n8 1 2 3 4 5 6 7\nEnd\nMove T\nDISCS\n4 3 2 1 5 6 7 8\nEnd\n",
      "topspin-8-4-pattern.tws");
  ASSERT_TRUE(d) << d.error().message;
  const auto commuting = commuting_bases(*d);
  ASSERT_EQ(commuting.size(), 4u);
  EXPECT_FALSE(commuting[0 * 2 + 1]);
  EXPECT_FALSE(commuting[1 * 2 + 0]);
  auto moves = parse_move_sequence(*d, "S2 T S3");
  ASSERT_TRUE(moves);
  const auto merged = merge_moves(*d, commuting, *moves);
  EXPECT_EQ(merged, *moves);
  // Merging keeps the effect (on every position: the identity's labels are all distinct).
  auto parallel = parse_move_sequence(*d, "S2 S3 T T S'");
  ASSERT_TRUE(parallel);
  const auto short_form = merge_moves(*d, commuting, *parallel);
  EXPECT_EQ(short_form.size(), 1u);
  EXPECT_EQ(apply_moves(*d, d->identity(), short_form), apply_moves(*d, d->identity(), *parallel));
}

// A phase whose moves cannot change its pattern (every corner identical, orientations ignored)
// leaves every slot out of its puzzle: it has nothing to search, counts one position, and the
// solve goes on to the next phase (its answer replayed here; 3 moves, the scramble's length).
TEST(DefPhases, PhaseItsMovesCannotChangeIsSolvedAsItStands) {
  const Definition d = load("2x2x2-fixed-corner.tws");
  auto specs = parse_phase_file(d, "Phase nothing\nCORNERS\n1 1 1 1 1 1 1\n? ? ? ? ? ? ?\nEnd\n",
                                "nothing.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  const auto phases = phases_from_specs(d, *specs);
  ASSERT_EQ(phases.size(), 2u);
  const auto sizes = phase_sizes(d, phases, RunContext{});
  EXPECT_EQ(sizes[0].positions, "1");
  EXPECT_EQ(sizes[1].positions, "3674160");
  TableStore store;
  auto solver = PhasedSolver::create(d, phases, {}, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto moves = parse_move_sequence(d, "R U F");
  ASSERT_TRUE(moves);
  const State start = apply_moves(d, d.solved, *moves);
  auto r = (*solver)->solve(start, RunContext{});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->phases.size(), 2u);
  EXPECT_TRUE(r->phases[0].moves.empty());
  EXPECT_EQ(r->move_indices.size(), 3u);
  EXPECT_EQ(apply_moves(d, start, r->move_indices), d.solved);
}

TEST(DefPhases, BadPatternIsOneErrorWithItsLine) {
  const Definition d = load("2x2x2-fixed-corner.tws");
  // Line 5: an orientation other than the Solved one.
  auto bad = parse_phase_file(d,
                              "Phase a\nCORNERS\n1 1 1 1 1 1 1\n0 0 0 0 0 0 0\nEnd\n"
                              "Phase b\nCORNERS\n1 2 3 4 5 6 7\n0 2 0 0 0 0 0\nEnd\n",
                              "bad.phases");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("bad.phases:9:3: ", 0), 0u) << bad.error().message;
  EXPECT_NE(bad.error().message.find("expected 0 or ?"), std::string::npos);
  // An unknown move on the Moves line.
  auto move = parse_phase_file(d, "Phase a\nMoves U Q\nEnd\n", "m.phases");
  ASSERT_FALSE(move);
  EXPECT_EQ(move.error().message.rfind("m.phases:2:9: ", 0), 0u) << move.error().message;
  // Identical pieces of the Solved pattern given different numbers (4x4x4 centres).
  const Definition big = load("4x4x4-fixed-corner.tws");
  auto split = parse_phase_file(
      big, "Phase x\nCENTERS\n1 2 2 2 4 4 6 5 6 5 3 3 4 4 6 5 6 5 3 3 1 1 1 1\nEnd\n", "c.phases");
  ASSERT_FALSE(split);
  EXPECT_EQ(split.error().message.rfind("c.phases:3:3: ", 0), 0u) << split.error().message;
  EXPECT_NE(split.error().message.find("identical pieces"), std::string::npos);
}

// The 3x3x3's last layer with U and three sequences that keep the first two layers (Sune, an
// edge-orienting F R U R' U' F', the T permutation).
constexpr const char* LAST_LAYER =
    "Phase last-layer\n"
    "Moves U U2 U'\n"
    "Sequence sune R U R' U R U2 R'\n"
    "Sequence flip F R U R' U' F'\n"
    "Sequence tperm R U R' U' R' F R2 U' R' U' R U R' F'\n"
    "End\n";

TEST(DefPhases, SequencesSolveTheCubesLastLayer) {
  const Definition d = load("3x3x3.tws");
  auto specs = parse_phase_file(d, LAST_LAYER, "ll.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  ASSERT_EQ((*specs)[0].sequences.size(), 3u);
  EXPECT_EQ((*specs)[0].sequences[0].order, 6);  // Sune's order, as every cuber knows
  EXPECT_EQ((*specs)[0].sequences[2].order, 2);  // a permutation of two swaps
  const auto phases = phases_from_specs(d, *specs);
  ASSERT_EQ(phases.size(), 1u);
  // The phase's puzzle is the last layer only (the slots U and the sequences' net effects
  // touch), and U with these sequences reaches all of it: 4!·4!/2 · 3^3 · 2^3 = 62,208
  // positions, the published count of last-layer cases.
  const auto sizes = phase_sizes(d, phases, RunContext{});
  ASSERT_EQ(sizes.size(), 1u);
  EXPECT_EQ(sizes[0].positions, "62208");
  TableStore store;
  auto solver = PhasedSolver::create(d, phases, {}, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  Rng rng(11);
  const std::vector<std::string> words = {"U",
                                          "U2",
                                          "U'",
                                          "R U R' U R U2 R'",
                                          "F R U R' U' F'",
                                          "R U R' U' R' F R2 U' R' U' R U R' F'"};
  for (int i = 0; i < 5; ++i) {
    std::string scramble;
    for (int w = 0; w < 12; ++w) scramble += words[rng.below(words.size())] + " ";
    auto moves = parse_move_sequence(d, scramble);
    ASSERT_TRUE(moves);
    const State start = apply_moves(d, *moves);
    auto r = (*solver)->solve(start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    // Sequences come out as the puzzle's moves, and the whole replays to Solved.
    EXPECT_EQ(apply_moves(d, start, r->move_indices), d.solved);
    std::vector<std::size_t> phase_moves;
    for (const std::string& name : r->phases[0].moves) {
      auto m = d.find_move(name);
      ASSERT_TRUE(m) << name;
      phase_moves.push_back(*m);
    }
    EXPECT_EQ(apply_moves(d, start, phase_moves), d.solved);
    EXPECT_EQ(r->phases[0].length, static_cast<int>(phase_moves.size()));
    EXPECT_FALSE(r->phases[0].optimal);  // optimal in sequences, not in face turns
  }
}

// Checked against Dijkstra's algorithm over the phase puzzle's states (a second method: states
// and a priority queue, not ranks and buckets; `states_expected` of them, the farthest past
// `over`): every state's lower bound is at most its distance (with bytes, at least the distance
// less `rounding`), and IDA* finds solutions of exactly the distance, with bytes and in 4 bits.
void expect_optimal_in_moves(const Definition& pd, std::size_t states_expected, int over,
                             int rounding) {
  // Step 1. Dijkstra from Solved (every move's inverse is a move of the same cost).
  auto key = [](const State& s) {
    std::string k;
    for (const SetState& set : s.sets) {
      k.append(set.perm.begin(), set.perm.end());
      k.append(set.ori.begin(), set.ori.end());
      k += '|';
    }
    return k;
  };
  std::unordered_map<std::string, int> dist;
  std::unordered_map<std::string, State> states;
  using Item = std::pair<int, std::string>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  dist[key(pd.solved)] = 0;
  states[key(pd.solved)] = pd.solved;
  queue.push({0, key(pd.solved)});
  while (!queue.empty()) {
    const auto [du, ku] = queue.top();
    queue.pop();
    if (dist[ku] != du) continue;
    const State u = states[ku];
    for (const Move& m : pd.moves) {
      const State v = apply(pd, u, m);
      const std::string kv = key(v);
      auto it = dist.find(kv);
      if (it == dist.end() || du + m.htm_cost < it->second) {
        dist[kv] = du + m.htm_cost;
        states[kv] = v;
        queue.push({du + m.htm_cost, kv});
      }
    }
  }
  ASSERT_EQ(dist.size(), states_expected);
  // Step 2. The solver's bound never exceeds the distance (with bytes, the default where they
  // fit the budget, it is the distance; in 4 bits, scaled, it is rounded down); its solutions
  // have it exactly.
  EXPECT_GT(std::max_element(dist.begin(), dist.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; })
                ->second,
            over);
  for (const bool wide : {true, false}) {
    SCOPED_TRACE(wide ? "bytes" : "4 bits");
    TableStore store;
    DefSolveOptions options;
    options.max_length = 1000;  // (the long sequences' phase: solutions of over 254 moves)
    // The bytes (62,208) do not fit 40,000 bytes.
    if (!wide) options.memory_bytes = 40'000;
    auto solver = DefSolver::create(pd, options, store, RunContext{});
    ASSERT_TRUE(solver) << solver.error().message;
    // Bytes: one table, exact. 4 bits: scaled (and split, in this budget), rounded down.
    if (wide) ASSERT_EQ((*solver)->tables().size(), 1u);
    for (const PdbInfo& t : (*solver)->tables()) EXPECT_EQ(t.exact, wide && rounding == 0);
    for (const auto& [k, s] : states) {
      auto bound = (*solver)->lower_bound(s);
      ASSERT_TRUE(bound);
      ASSERT_LE(*bound, dist[k]);
      if (wide) ASSERT_GE(*bound, dist[k] - rounding);
    }
    Rng rng(5);
    std::vector<std::string> keys;
    for (const auto& [k, s] : states) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    for (int i = 0; i < 6; ++i) {
      const std::string& k = keys[rng.below(keys.size())];
      auto r = (*solver)->solve(states[k], RunContext{});
      ASSERT_TRUE(r) << r.error().message;
      ASSERT_FALSE(r->empty());
      EXPECT_EQ(r->front().length, dist[k]);
      int cost = 0;
      State at = states[k];
      for (const std::string& name : r->front().moves) {
        cost += pd.moves[*pd.find_move(name)].htm_cost;
        at = apply(pd, at, pd.moves[*pd.find_move(name)]);
      }
      EXPECT_EQ(cost, dist[k]);
      EXPECT_EQ(at, pd.solved);
    }
  }
}

// A sequence costs the face turns it is played as (Move::htm_cost): the phase's databases are
// built by a weighted search over ranks and scaled into 4 bits. Checked against Dijkstra's
// algorithm over the phase puzzle's states (a second method: states and a priority queue,
// not ranks and buckets): every state's lower bound is at most its distance, and IDA* finds
// solutions of exactly the distance.
TEST(DefPhases, SequencesCostTheirMovesAndThePhaseSearchIsOptimalInMoves) {
  const Definition d = load("3x3x3.tws");
  auto specs = parse_phase_file(d, LAST_LAYER, "ll.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  const auto phases = phases_from_specs(d, *specs);
  const Definition pd = phase_definition(d, phases[0]);
  // Sune (7 turns) costs 7; its square, played as two Sunes, merges R' R away and then U2 U
  // into U': R U R' U R U' R' U R U2 R', 11.
  auto cost_of = [&](const std::string& name) {
    auto m = pd.find_move(name);
    EXPECT_TRUE(m) << name;
    return m ? pd.moves[*m].htm_cost : -1;
  };
  EXPECT_EQ(cost_of("U"), 1);
  EXPECT_EQ(cost_of("sune"), 7);
  EXPECT_EQ(cost_of("sune'"), 7);
  EXPECT_EQ(cost_of("sune2"), 11);
  EXPECT_EQ(cost_of("tperm"), 14);
  ASSERT_NO_FATAL_FAILURE(expect_optimal_in_moves(pd, 62208, 15, 0));
}

// The same with sequences made long (each followed by (R U R' U')^6, the identity, twice):
// distances pass 254, where the weighted search goes on in two bytes per rank and the
// bytes keep floor(d / 2) (scale 2): every bound within 1 of the distance (in one byte they
// stopped at 254, and the searches from there took minutes on the 5x5x5).
TEST(DefPhases, LongSequencesKeepTheirDistancesPast254) {
  const Definition d = load("3x3x3.tws");
  const std::string six = " R U R' U' R U R' U' R U R' U' R U R' U' R U R' U' R U R' U'";
  const std::string text = "Phase last-layer\nMoves U U2 U'\nSequence sune R U R' U R U2 R'" + six +
                           six + "\nSequence flip F R U R' U' F'" + six + six +
                           "\nSequence tperm R U R' U' R' F R2 U' R' U' R U R' F'" + six + six +
                           "\nEnd\n";
  auto specs = parse_phase_file(d, text, "long.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  const auto phases = phases_from_specs(d, *specs);
  const Definition pd = phase_definition(d, phases[0]);
  ASSERT_NO_FATAL_FAILURE(expect_optimal_in_moves(pd, 62208, 254, 1));
}

TEST(DefPhases, BadSequenceIsOneErrorWithItsPlace) {
  const Definition d = load("3x3x3.tws");
  auto expect_error = [&](const std::string& text, const std::string& where,
                          const std::string& what) {
    expect_phase_file_error(d, "s.phases", text, where, what);
  };
  expect_error("Phase a\nSequence x R Q\nEnd\n", "s.phases:2:14: ", "Q");
  expect_error("Phase a\nSequence R U R'\nEnd\n", "s.phases:2:10: ", "expected a new name");
  expect_error("Phase a\nSequence x R\nSequence x U\nEnd\n",
               "s.phases:3:10: ", "expected a new name");
  expect_error("Phase a\nSequence x R R'\nEnd\n", "s.phases:2:10: ", "does nothing");
  // R U has order 105: its powers would be 104 search moves.
  expect_error("Phase a\nSequence x R U\nEnd\n", "s.phases:2:10: ", "order above 12");
  expect_error("Phase a\nSequence x\nEnd\n", "s.phases:2:", "expected the sequence's moves");
}

// An F2L pair (the DFR corner and the FR edge, 3x3x3.tws slots 5 and 9) that must end
// together, not home: joined as a rotation of the cube would place them, anywhere (`Blocks`
// are the rotations x and y; one of them written as a power). The second method is a
// breadth-first search written here over the pair's 8·3·12·2 = 576 arrangements, from every
// joined one (the home arrangement's images under the file's rotations, found here too).
constexpr const char* F2L_PAIR =
    "Phase pair\n"
    "Blocks x\nBlocks y' y2\n"
    "Together CORNERS 5 EDGES 9\n"
    "CORNERS\n1 1 1 1 2 1 1 1\n? ? ? ? 0 ? ? ?\n"
    "EDGES\n1 1 1 1 1 1 1 1 2 1 1 1\n? ? ? ? ? ? ? ? 0 ? ? ?\n"
    "End\n";

TEST(DefPhases, TogetherPiecesEndJoinedAtTheirDistance) {
  const Definition d = load("3x3x3.tws");
  auto specs = parse_phase_file(d, F2L_PAIR, "pair.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  const Phase phase = phases_from_specs(d, *specs).front();
  // The pair as (corner slot, twist, edge slot, flip), one index; a move takes the piece at
  // slot s to the slot i whose effect reads s, turned by the effect's orientation there.
  auto index = [](int c, int co, int e, int eo) { return ((c * 3 + co) * 12 + e) * 2 + eo; };
  auto step = [&](int x, const Move& m) {
    int eo = x % 2, e = (x / 2) % 12, co = (x / 24) % 3, c = x / 72;
    const SetState& mc = m.effect.sets[0];
    const SetState& me = m.effect.sets[1];
    int c2 = 0, e2 = 0;
    while (mc.perm[static_cast<std::size_t>(c2)] != c) ++c2;
    while (me.perm[static_cast<std::size_t>(e2)] != e) ++e2;
    co = (co + mc.ori[static_cast<std::size_t>(c2)]) % 3;
    eo = (eo + me.ori[static_cast<std::size_t>(e2)]) % 2;
    return index(c2, co, e2, eo);
  };
  std::vector<int> joined = {index(4, 0, 8, 0)};
  std::vector<char> is_joined(576, 0);
  is_joined[static_cast<std::size_t>(joined[0])] = 1;
  ASSERT_GE(d.rotations.size(), 2u);
  for (std::size_t i = 0; i < joined.size(); ++i) {
    for (const BaseMove& r : d.rotations) {
      Move m;
      m.effect = r.effect;
      const int y = step(joined[i], m);
      if (!is_joined[static_cast<std::size_t>(y)]) {
        is_joined[static_cast<std::size_t>(y)] = 1;
        joined.push_back(y);
      }
    }
  }
  EXPECT_EQ(joined.size(), 24u);  // the cube's 24 rotations (the corner's 8 slots x 3 twists)
  // The phase's places are the same 24.
  auto groups = together_groups(d, phase, RunContext{});
  ASSERT_TRUE(groups) << groups.error().message;
  ASSERT_EQ(groups->size(), 1u);
  EXPECT_EQ((*groups)[0].places.size(), 24u);
  // Distances to a joined arrangement with every move (their inverses are moves), and to the
  // home arrangement alone (what the phase would ask without `Together`).
  auto distances = [&](const std::vector<int>& goals) {
    return coordinate_distances(d, 576, goals, step);
  };
  const std::vector<int> dist = distances(joined);
  const std::vector<int> home = distances({joined[0]});
  // The phase's optimal solutions have exactly that length, from random positions.
  const Definition pd = phase_definition(d, phase);
  DefSolveOptions o;
  o.together = *groups;
  TableStore store;
  auto solver = DefSolver::create(pd, o, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto g = build_group(d);
  ASSERT_TRUE(g);
  Rng rng(35);
  int longest = 0, closer = 0;
  for (int i = 0; i < 30; ++i) {
    const State position = random_position(d, *g, rng);
    int c = 0, e = 0;
    while (position.sets[0].perm[static_cast<std::size_t>(c)] != 4) ++c;
    while (position.sets[1].perm[static_cast<std::size_t>(e)] != 8) ++e;
    const auto x =
        static_cast<std::size_t>(index(c, position.sets[0].ori[static_cast<std::size_t>(c)], e,
                                       position.sets[1].ori[static_cast<std::size_t>(e)]));
    const int expected = dist[x];
    closer += expected < home[x] ? 1 : 0;
    auto start = project_state(d, phase, position);
    ASSERT_TRUE(start) << start.error().message;
    auto r = (*solver)->solve(*start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->front().length, expected) << "position " << i;
    longest = std::max(longest, expected);
  }
  EXPECT_GE(longest, 3);  // the sample reaches past trivial pairs
  EXPECT_GE(closer, 10);  // and joining is mostly shorter than going home
}

TEST(DefPhases, BadTogetherIsOneErrorWithItsPlace) {
  const Definition d = load("3x3x3.tws");
  auto expect_error = [&](const std::string& text, const std::string& where,
                          const std::string& what) {
    expect_phase_file_error(d, "t.phases", text, where, what);
  };
  const std::string pattern = "EDGES\n1 2 3 4 4 4 4 4 4 4 4 4\n? ? ? ? ? ? ? ? ? ? ? ?\nEnd\n";
  expect_error("Phase a\nTogether EDGES 1 2\n" + pattern, "t.phases:2:1: ", "Blocks");
  expect_error("Phase a\nBlocks\nTogether EDGES 1 2\n" + pattern,
               "t.phases:2:", "expected after Blocks the moves");
  expect_error("Phase a\nBlocks U Q\n" + pattern, "t.phases:2:10: ", "Q");
  expect_error("Phase a\nBlocks U\nTogether 1 2\n" + pattern,
               "t.phases:3:10: ", "expected a set name");
  expect_error("Phase a\nBlocks U\nTogether EDGES 1 13\n" + pattern,
               "t.phases:3:18: ", "(1 to 12)");
  expect_error("Phase a\nBlocks U\nTogether EDGES 1 2\nTogether EDGES 2 3\n" + pattern,
               "t.phases:4:16: ", "in a together group already");
  // A together piece shares its number; two kinds of free pieces.
  expect_error("Phase a\nBlocks U\nTogether EDGES 1 4\n" + pattern,
               "t.phases:3:1: ", "a number of its own");
  expect_error(
      "Phase a\nBlocks U\nTogether EDGES 1 2\n"
      "EDGES\n1 2 3 4 4 4 4 4 4 4 5 5\n? ? ? ? ? ? ? ? ? ? ? ?\nEnd\n",
      "t.phases:3:1: ", "free one");
  // Free pieces whose orientation is tracked.
  expect_error(
      "Phase a\nBlocks U\nTogether EDGES 1 2\n"
      "EDGES\n1 2 3 4 4 4 4 4 4 4 4 4\n? ? ? ? 0 ? ? ? ? ? ? ?\nEnd\n",
      "t.phases:3:1: ", "orientation ?");
  // Read back as written (format_phase_file).
  auto ok = parse_phase_file(d, F2L_PAIR, "pair.phases");
  ASSERT_TRUE(ok) << ok.error().message;
  const auto phases = phases_from_specs(d, *ok);
  auto again = parse_phase_file(d, format_phase_file(d, phases), "again.phases");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ((*again)[0].blocks, (*ok)[0].blocks);
  EXPECT_EQ((*again)[0].together, (*ok)[0].together);
}

// `Parity CORNERS`: the 2x2x2's corners oriented with their permutation even. The second
// method is a breadth-first search written here over (the seven corners' twists, the
// permutation's parity): 3^7 x 2 states, the parity of each move's permutation counted here by
// its cycles. The phase's optimal lengths equal the distances to (twists 0, even), and are
// longer than the plain pattern's (twists 0) for some positions; each solution replayed ends
// oriented and even.
constexpr const char* ORIENT_EVEN =
    "Phase orient-even\nParity CORNERS\n"
    "CORNERS\n1 1 1 1 1 1 1\n0 0 0 0 0 0 0\nEnd\n";

TEST(DefPhases, ParityLineEndsEvenAtItsDistance) {
  const Definition d = load("2x2x2-fixed-corner.tws");
  auto specs = parse_phase_file(d, ORIENT_EVEN, "even.phases");
  ASSERT_TRUE(specs) << specs.error().message;
  const Phase phase = phases_from_specs(d, *specs).front();
  ASSERT_EQ(phase.parity.size(), 1u);
  const int n = d.sets[0].pieces;
  ASSERT_EQ(n, 7);
  // The parity of a permutation in state form (perm[slot] = the piece there), by its cycles.
  auto parity_of = [&](const std::vector<std::uint8_t>& perm,
                       const std::vector<std::uint8_t>& home) {
    int p = 0;
    std::vector<char> seen(perm.size(), 0);
    for (std::size_t i = 0; i < perm.size(); ++i) {
      int length = 0;
      for (std::size_t j = i; !seen[j]; j = home[perm[j]]) {
        seen[j] = 1;
        ++length;
      }
      if (length > 0) p ^= (length - 1) & 1;
    }
    return p;
  };
  std::vector<std::uint8_t> identity(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) identity[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(j);
  std::vector<std::uint8_t> home(256, 0);
  for (int j = 0; j < n; ++j)
    home[d.solved.sets[0].perm[static_cast<std::size_t>(j)]] = static_cast<std::uint8_t>(j);
  // A state: the twists by slot (base 3) and the parity.
  const int twists = 2187;
  auto step = [&](int x, const Move& m) {
    const SetState& e = m.effect.sets[0];
    int t = x % twists, next = 0, scale = 1;
    std::vector<int> ori(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j, t /= 3) ori[static_cast<std::size_t>(j)] = t % 3;
    for (int j = 0; j < n; ++j, scale *= 3) {
      const std::size_t js = static_cast<std::size_t>(j);
      next += scale * ((ori[e.perm[js]] + e.ori[js]) % 3);
    }
    return next + twists * ((x / twists) ^ parity_of(e.perm, identity));
  };
  const std::vector<int> dist = coordinate_distances(d, 2 * twists, {0}, step);
  const std::vector<int> plain = coordinate_distances(d, 2 * twists, {0, twists}, step);
  const Definition pd = phase_definition(d, phase);
  ASSERT_EQ(pd.sets.size(), 2u);  // CORNERS and the parity's two pieces
  DefSolveOptions o;
  o.every_table_sets = {1};
  TableStore store;
  auto solver = DefSolver::create(pd, o, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto g = build_group(d);
  ASSERT_TRUE(g);
  Rng rng(36);
  int longer = 0;
  for (int i = 0; i < 30; ++i) {
    const State position = random_position(d, *g, rng);
    int x = 0;
    for (int j = n - 1; j >= 0; --j) x = x * 3 + position.sets[0].ori[static_cast<std::size_t>(j)];
    x += twists * parity_of(position.sets[0].perm, home);
    auto start = project_state(d, phase, position);
    ASSERT_TRUE(start) << start.error().message;
    auto r = (*solver)->solve(*start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->front().length, dist[static_cast<std::size_t>(x)]) << "position " << i;
    longer += dist[static_cast<std::size_t>(x)] > plain[static_cast<std::size_t>(x)] ? 1 : 0;
    std::vector<std::size_t> moves;
    for (const std::string& name : r->front().moves) {
      auto m = d.find_move(name);
      ASSERT_TRUE(m) << name;
      moves.push_back(*m);
    }
    const State end = apply_moves(d, position, moves);
    EXPECT_EQ(parity_of(end.sets[0].perm, home), 0) << "position " << i;
    for (std::uint8_t t : end.sets[0].ori) EXPECT_EQ(t, 0) << "position " << i;
  }
  EXPECT_GE(longer, 5);  // the parity costs moves for some positions
  // Through the phase chain (PhasedSolver names the parity set's table itself): replayed.
  test_data::expect_solves_random_positions(d, phases_from_specs(d, *specs), 37, 3);
}

TEST(DefPhases, BadParityIsOneErrorWithItsPlace) {
  const Definition d = load("4x4x4-fixed-corner.tws");
  auto expect_error = [&](const std::string& text, const std::string& where,
                          const std::string& what) {
    expect_phase_file_error(d, "p.phases", text, where, what);
  };
  const std::string pattern = "CORNERS\n1 1 1 1 1 1 1\n0 0 0 0 0 0 0\nEnd\n";
  expect_error("Phase a\nParity\n" + pattern, "p.phases:2:", "expected `Parity SET");
  expect_error("Phase a\nParity WINGS\n" + pattern, "p.phases:2:8: ", "unknown set 'WINGS'");
  expect_error("Phase a\nParity EDGES EDGES\n" + pattern, "p.phases:2:14: ", "named twice");
  std::string nine;
  for (int k = 0; k < 9; ++k) nine += "Parity EDGES\n";
  expect_error("Phase a\n" + nine + pattern, "p.phases:10:1: ", "more than 8 Parity lines");
  // The centres' Solved pattern repeats pieces: their permutation has no parity.
  expect_error("Phase a\nParity CENTERS\n" + pattern, "p.phases:2:8: ", "more than once");
  // Read back as written (format_phase_file).
  auto ok = parse_phase_file(d, "Phase a\nParity EDGES CORNERS\n" + pattern, "ok.phases");
  ASSERT_TRUE(ok) << ok.error().message;
  auto again = parse_phase_file(d, format_phase_file(d, phases_from_specs(d, *ok)), "again.phases");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ((*again)[0].parity, (*ok)[0].parity);
  EXPECT_EQ(parity_text(d, (*ok)[0].parity[0]), "EDGES CORNERS");
}

// `def info --phases` names a together phase's blocks and groups (JSON and text) as the file
// wrote them.
TEST(DefPhasesCli, InfoListsTogetherGroups) {
  const std::string path = ::testing::TempDir() + "/pair_info.phases";
  std::ofstream(path) << F2L_PAIR;
  auto info =
      test::run_cli("--json --quiet def info " + data_file("3x3x3.tws") + " --phases " + path);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const auto phase = info.json()["phases"][0];
  EXPECT_EQ(phase["blocks"], nlohmann::json::parse(R"(["x", "y' y2"])"));
  EXPECT_EQ(phase["together"], nlohmann::json::parse(R"(["CORNERS 5 EDGES 9"])"));
  auto text = test::run_cli("--quiet def info " + data_file("3x3x3.tws") + " --phases " + path);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("1. pair (moves: all; 1 together group)"), std::string::npos) << text.out;
  std::remove(path.c_str());
}

// `def info --phases` shows a phase's Parity lines: the 4x4x4 reduction's OLL-parity phase.
TEST(DefPhasesCli, InfoShowsParityLines) {
  const std::string args = "def info " + data_file("4x4x4-fixed-corner.tws") + " --phases " +
                           data_file("4x4x4-reduction.phases");
  auto info = test::run_cli("--json --quiet " + args);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const auto phases = info.json()["phases"];
  ASSERT_EQ(phases.size(), 12u);
  EXPECT_EQ(phases[9]["parity"], nlohmann::json::parse(R"(["EDGES"])"));
  EXPECT_EQ(phases[9]["positions"], "2");
  EXPECT_FALSE(phases[10].contains("parity"));
  auto text = test::run_cli("--quiet " + args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("10. oll-parity (moves: none [oll]; even EDGES): 2 positions"),
            std::string::npos)
      << text.out;
}

TEST(DefPhasesCli, SolveInfoAndRandom) {
  const std::string cube = data_file("3x3x3.tws");
  // A phase file through the CLI: Kociemba's two phases.
  auto solve = test::run_cli("--json --quiet --tables none --memory 512 def solve " + cube +
                             " --moves \"R U F' L2 D B' R2 U' F D2\" --phases " +
                             data_file("3x3x3-kociemba.phases"));
  ASSERT_EQ(solve.exit_code, 0) << solve.err;
  const auto s = solve.json()["solutions"][0];
  EXPECT_TRUE(s["verified"].get<bool>());
  EXPECT_FALSE(s["optimal"].get<bool>());
  ASSERT_EQ(s["phases"].size(), 2u);
  EXPECT_EQ(s["phases"][0]["pattern"], "G1");
  EXPECT_LE(s["length"].get<int>(),
            s["phases"][0]["length"].get<int>() + s["phases"][1]["length"].get<int>());
  std::string seq;
  for (const auto& m : s["moves"]) seq += " " + m.get<std::string>();
  // Replayed outside the solver: `def apply` of scramble + solution is solved.
  auto check = test::run_cli("--json --quiet def apply " + cube +
                             " --moves \"R U F' L2 D B' R2 U' F D2" + seq + "\"");
  ASSERT_EQ(check.exit_code, 0) << check.err;
  EXPECT_TRUE(check.json()["solved"].get<bool>());
  // def info --phases auto: two phases whose sizes multiply to the cube's order.
  auto info = test::run_cli("--json --quiet def info " + data_file("2x2x2-fixed-corner.tws") +
                            " --phases auto");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const auto ph = info.json()["phases"];
  ASSERT_EQ(ph.size(), 2u);
  EXPECT_EQ(mpz_class(ph[0]["positions"].get<std::string>()) *
                mpz_class(ph[1]["positions"].get<std::string>()),
            3674160);
  // def random: the moves make exactly the printed position.
  auto rnd = test::run_cli("--json --quiet --tables none def random " +
                           data_file("2x2x2-fixed-corner.tws") + " --seed 5");
  ASSERT_EQ(rnd.exit_code, 0) << rnd.err;
  const auto rj = rnd.json();
  ASSERT_TRUE(rj["moves"].is_array());
  std::string rmoves;
  for (const auto& m : rj["moves"]) rmoves += (rmoves.empty() ? "" : " ") + m.get<std::string>();
  auto made = test::run_cli("--json --quiet def apply " + data_file("2x2x2-fixed-corner.tws") +
                            " --moves \"" + rmoves + "\"");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_EQ(made.json()["state"], rj["state"]);
  // def random --phases FILE: the scramble sequence from those phases (Kociemba's two on the
  // 3x3x3, whose phase bounds 12 + 18 cap its length), making the printed position too.
  const std::string cube3 = data_file("3x3x3.tws");
  auto kr = test::run_cli("--json --quiet --tables none def random " + cube3 +
                          " --seed 9 --phases " + data_file("3x3x3-kociemba.phases"));
  ASSERT_EQ(kr.exit_code, 0) << kr.err;
  const auto kj = kr.json();
  ASSERT_TRUE(kj["moves"].is_array());
  EXPECT_LE(kj["moves"].size(), 30u);
  std::string kmoves;
  for (const auto& m : kj["moves"]) kmoves += (kmoves.empty() ? "" : " ") + m.get<std::string>();
  auto kmade = test::run_cli("--json --quiet def apply " + cube3 + " --moves \"" + kmoves + "\"");
  ASSERT_EQ(kmade.exit_code, 0) << kmade.err;
  EXPECT_EQ(kmade.json()["state"], kj["state"]);
  // A bad phase file: exit 2 and one error naming its line.
  char path[] = "/tmp/permuzzle-phases-XXXXXX";
  const int fd = mkstemp(path);
  const std::string bad = "Phase p\nCORNERS\n1 1 1 1 1 1 1 1\n0 0 0 0 0 0 0 9\nEnd\n";
  ASSERT_EQ(write(fd, bad.data(), bad.size()), static_cast<ssize_t>(bad.size()));
  close(fd);
  auto refused =
      test::run_cli("--quiet --tables none def solve " + cube + " --moves U --phases " + path);
  std::remove(path);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find(std::string(path) + ":4:15"), std::string::npos) << refused.err;
}

}  // namespace def_phases_test
}  // namespace permuzzle::def
