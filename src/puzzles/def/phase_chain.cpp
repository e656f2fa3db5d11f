// The planned chain of `--phases auto` (issue 35, parts 1 and 2): the pieces placed phase by
// phase, each phase's moves being those that disturb no piece placed before, with sequences
// found by search (sequences.hpp) where those moves cannot finish the phase.
//
// Units are the labels of the Solved pattern (a label's home slots: one slot for a distinct
// piece, several for identical ones). Placed: the home slots of the units placed so far, and
// every slot no move changes. Each round:
// 1. Active base moves: those changing no placed slot. The candidates for the phase's new units
//    F, all within `cap` arrangements (the falling factorial of the free slots of each set by
//    F's slots, times the orientations; for the rest of the puzzle its exact count):
//    a. the rest of the puzzle in one phase;
//    b. a block step (the block chain's idea, without its group-element restriction): stop
//       using 1 to BLOCK_CHAIN_MAX_REMOVED active base moves; F = the units no remaining active
//       move changes; the step taken is the first of the chain of block steps that places the
//       most slots (planned ahead: block_step);
//    c. a piece step: units one by one while within `cap`, first those no active move changes
//       (they need sequences whatever comes later), then those fewer active moves change (they
//       keep the others in use longer), then those sharing more base moves with the placed ones.
//    The free slots are kept linked: a block step, or the one-move block a piece step starts,
//    may not split a class of the active moves (moves joined by changing common slots). On the
//    megaminx, giving up FR while R, DL and D stay left R's face apart from the others: its
//    pieces could then leave only by sequences across placed slots, longer than any searched.
//    When the plan fails and this rule refused some step, a second plan is made without it (the
//    master pyraminx's tips); the library and every phase already proven are reused.
//    A set with one unit left unplaced gets it in this phase too.
// 2. The phase: its pattern numbers F first, then the placed units, then one identical piece
//    whose orientation is ignored; its moves are the active ones (none: only_sequences).
// 3. Proof that it can always be finished: the positions of the phase's puzzle (the orbit of its
//    pattern under its moves and sequences) must equal orbit_G(placed + F) / orbit_G(placed),
//    the arrangements of F that the whole group allows once the placed units are home (orbit-
//    stabiliser: Stab(placed + F) <= Stab(placed) <= G). Where they differ, sequences that leave
//    every placed slot alone are added (SequenceLibrary::for_phase; then twice as many, then
//    with conjugating words one move longer) and the phase is checked again; then the group's
//    test (complete_by_group): candidates leaving the placed slots alone, shortest first, that
//    the group of the phase's moves and sequences does not contain are added one by one (the
//    FTO's last phase lacked a factor of 3 that no sequence chosen by kind gave; the 4x4x4's
//    seventh its corners' twist), with a last resort (near-solved positions solved by the
//    phases before: the 4x4x4's wing parity). A phase still short ends the plan (nullopt: auto
//    falls back). A try that reaches no more positions than the one before ends the tries, and
//    a plan makes at most CHAIN_MAX_SEARCHES sequence searches: a plan that cannot succeed fails
//    in bounded time.
// The cap comes from the memory budget: the tables of a phase get min(budget / CHAIN_PHASES,
// PHASE_MEMORY_CAP) bytes at 4 bits per position, so a phase of at most twice that many
// arrangements has an exact table (the arrangements counted are its rank space); a phase with
// sequences is kept to CHAIN_SEQUENCE_WORK / its search moves (its table's BFS).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <tuple>
#include <unordered_map>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/phases.hpp"

namespace permuzzle::def {

namespace {

// Phases the memory budget is shared between, when planning (the solver shares it between the
// phases it gets, at most PHASE_MEMORY_CAP each).
constexpr std::uint64_t CHAIN_PHASES = 16;
// A phase with sequences: positions x search moves at most this (its table's BFS).
constexpr double CHAIN_SEQUENCE_WORK = 2e9;
// Sequences per phase, first try (then twice as many).
constexpr std::size_t CHAIN_SEQUENCES = 60;
// Phases at most (a plan longer than this is given up).
constexpr std::size_t CHAIN_MAX_PHASES = 64;
// The free slots are kept linked (the file comment) in puzzles of up to this many base moves
// (classes of moves are bit masks).
constexpr std::size_t CHAIN_LINKED_MOVES = 64;
// Sequence searches at most over the whole plan (each takes up to about a second on the
// megaminx; its 12 phases take 9).
constexpr std::size_t CHAIN_MAX_SEARCHES = 32;

struct Unit {
  std::size_t set;
  std::uint8_t label;
  std::vector<std::uint8_t> slots;
};

std::optional<mpz_class> orbit_of(const Definition& d, const State& pattern,
                                  const RunContext& run) {
  Definition pd = d;
  pd.solved = pattern;
  auto f = group_facts(pd, run);
  if (!f) return std::nullopt;
  return f->positions;
}

// The positions a phase's moves and sequences reach (the group facts of its puzzle), or nullopt
// when they were not computed.
std::optional<mpz_class> phase_positions(const Definition& d, const Phase& p,
                                         const RunContext& run) {
  auto f = group_facts(phase_definition(d, p), run);
  if (!f) return std::nullopt;
  return f->positions;
}

// Names for found sequences: q, then letters, none a move of the puzzle or a power's name of
// another (power names add digits and ', which these names never hold).
std::string sequence_name(const Definition& d, std::size_t index) {
  while (true) {
    std::string name = "q";
    std::size_t i = index;
    do {
      name += static_cast<char>('a' + i % 26);
      i /= 26;
    } while (i > 0);
    bool clash = false;
    for (int k = 1; k < MAX_SEQUENCE_ORDER && !clash; ++k) {
      for (int order = k + 1; order <= MAX_SEQUENCE_ORDER && !clash; ++order)
        clash = static_cast<bool>(d.find_move(power_name(name, k, order)));
    }
    if (!clash) return name;
    index += 26 * 26 * 26;
  }
}

// Candidates the group's test examines at most, and adds at most, per phase.
constexpr std::size_t CHAIN_COMPLETION_CANDIDATES = 20'000;
constexpr std::size_t CHAIN_COMPLETION_ADDED = 24;
// Candidates outside the group whose phase the group's test counts at most, per phase.
constexpr std::size_t CHAIN_COMPLETION_CHECKS = 64;
// Words whose positions the last resort solves, per phase: of one or two moves, at most this
// many; where those are fewer, random words of CHAIN_RANDOM_SHORTEST moves and more (up to
// CHAIN_RANDOM_LENGTHS lengths) make up this many.
constexpr std::size_t CHAIN_SOLVED_WORDS = 400;
constexpr std::size_t CHAIN_RANDOM_SHORTEST = 3;
constexpr std::size_t CHAIN_RANDOM_LENGTHS = 14;
constexpr std::uint64_t CHAIN_RANDOM_SEED = 35;

// The group's test (plan_chain, step 3): candidates leaving the `placed` slots alone
// (SequenceLibrary::candidates, shortest first) that the group H of the phase's moves and
// sequences does not contain are added to the phase one by one until it reaches `need`
// positions (`reached` so far). Each one added at least doubles H, so few are needed where any will
// do. Last resort, where none of them completes it: the positions of words u of one or two moves
// are solved by the phases `before` (their tables built here, in `tables` or a store of its own); u
// v then sends every placed unit home, and those whose net effect H lacks (of order at most
// MAX_SEQUENCE_ORDER) are added. They are longer (a short word and the solution of a near-solved
// position), but they cost their length in the phase's search, and they reach what no short word
// keeping the placed slots does (the 4x4x4's wing parity: an odd number of inner slice turns).
// Whether the phase was completed.
Result<bool> complete_by_group(const Definition& d, Phase& phase, const SlotMarks& placed,
                               const std::vector<std::size_t>& active_moves,
                               const SequenceLibrary& library, const MetWords& met,
                               const std::vector<Phase>& before, std::size_t& named,
                               const mpz_class& need, mpz_class reached, int conjugator_length,
                               TableStore* tables, const RunContext& run) {
  auto ended = [&]() -> Result<bool> {
    if (run.should_stop()) return run.stop_error();
    return false;
  };
  auto pool = library.candidates(placed, active_moves, conjugator_length,
                                 CHAIN_COMPLETION_CANDIDATES, run, &met);
  if (!pool) return pool.error();
  // H: its generators and its chain (rebuilt when one joins; false when refused, past the
  // tables' limit).
  std::vector<Perm> generators;
  for (std::size_t m : active_moves) generators.push_back(to_perm(d, d.moves[m].effect));
  for (const PhaseSequence& q : phase.sequences) generators.push_back(to_perm(d, q.effect));
  SchreierSimsOptions group_options;
  group_options.run = &run;
  PermGroup group;
  auto rebuild = [&] {
    if (generators.empty()) return true;
    auto g = PermGroup::from_generators(generators, {}, group_options);
    if (!g) return false;
    group = std::move(*g);
    return true;
  };
  if (!rebuild()) return ended();
  // Offers q of net effect x (not in H): H grows by it, and the phase keeps it when it reaches
  // more positions with it (an element that only permutes identical pieces reaches none).
  // 1: the phase is complete; 0: go on; -1: no more (a cap, the run stopped, H's chain or the
  // count refused).
  std::size_t added = 0, checked = 0;
  auto offer = [&](PhaseSequence q, Perm x) {
    generators.push_back(std::move(x));
    if (!rebuild()) return -1;
    q.name = sequence_name(d, named++);
    phase.sequences.push_back(std::move(q));
    const auto now = phase_positions(d, phase, run);
    if (!now) return -1;
    if (*now == need) return 1;
    if (*now == reached) {
      phase.sequences.pop_back();
    } else {
      reached = *now;
      ++added;
    }
    return ++checked >= CHAIN_COMPLETION_CHECKS || added >= CHAIN_COMPLETION_ADDED ? -1 : 0;
  };
  for (PhaseSequence& q : *pool) {
    if (run.should_stop()) return run.stop_error();
    Perm x = to_perm(d, q.effect);
    if (group.contains(x)) continue;
    const int verdict = offer(std::move(q), std::move(x));
    if (verdict != 0) return verdict > 0 ? Result<bool>(true) : ended();
  }
  // The last resort. Step 1: the solver of the phases before (their tables in `tables`, planned
  // within the run's budget as the solve's are: it finds them there; or in a store of its own).
  if (before.empty()) return false;
  Definition partial = d;
  partial.solved = before.back().pattern;
  TableStore own;
  PhaseOptions solver_options;
  if (run.memory_budget() > 0) solver_options.memory_bytes = run.memory_budget();
  auto solver = PhasedSolver::create(partial, before, solver_options, tables ? *tables : own, run);
  if (!solver) return run.should_stop() ? Result<bool>(run.stop_error()) : false;
  // Step 2. Words u of one move, then two, each position solved: u v leaves every placed unit
  // home; those whose effect H lacks (order at most MAX_SEQUENCE_ORDER) are offered.
  // (followers[a]: the moves that may follow a in a word: another base, commuting ones in order.)
  const std::vector<char> commuting = commuting_bases(d);
  std::vector<std::vector<std::size_t>> followers(d.moves.size());
  for (std::size_t a = 0; a < d.moves.size(); ++a) {
    for (std::size_t b = 0; b < d.moves.size(); ++b) {
      const std::size_t x = d.moves[a].base, y = d.moves[b].base;
      if (x != y && !(commuting[x * d.base_moves.size() + y] && y < x)) followers[a].push_back(b);
    }
  }
  std::vector<std::vector<std::size_t>> words;
  for (std::size_t m = 0; m < d.moves.size(); ++m) words.push_back({m});
  for (std::size_t a = 0; a < d.moves.size(); ++a)
    for (std::size_t b : followers[a]) words.push_back({a, b});
  if (words.size() > CHAIN_SOLVED_WORDS) words.resize(CHAIN_SOLVED_WORDS);
  // Step 3. Where those are fewer, random words of 3 to 16 moves (seeded: the plan is the same
  // every time) up to CHAIN_SOLVED_WORDS: the topspin's phases before undo every word of one or
  // two moves (u v is then the identity, or an even reversal); longer ones leave them more. (A
  // word ends early at a move nothing may follow.)
  Rng rng(CHAIN_RANDOM_SEED);
  for (std::size_t i = 0; words.size() < CHAIN_SOLVED_WORDS; ++i) {
    std::vector<std::size_t> u{rng.below(d.moves.size())};
    while (u.size() < CHAIN_RANDOM_SHORTEST + i % CHAIN_RANDOM_LENGTHS &&
           !followers[u.back()].empty()) {
      const auto& next = followers[u.back()];
      u.push_back(next[rng.below(next.size())]);
    }
    words.push_back(std::move(u));
  }
  for (const std::vector<std::size_t>& u : words) {
    if (run.should_stop()) return run.stop_error();
    auto solved = (*solver)->solve(apply_moves(partial, partial.solved, u), run);
    if (!solved) {
      if (run.should_stop()) return run.stop_error();
      continue;
    }
    PhaseSequence q;
    q.moves = u;
    q.moves.insert(q.moves.end(), solved->move_indices.begin(), solved->move_indices.end());
    q.moves = merge_moves(d, commuting, q.moves);
    if (q.moves.empty()) continue;
    q.effect = apply_moves(d, d.identity(), q.moves);
    // Replayed: every placed unit home.
    if (apply_moves(partial, partial.solved, q.moves) != partial.solved) continue;
    Perm x = to_perm(d, q.effect);
    if (group.contains(x)) continue;
    const mpz_class order = x.order();
    if (order > MAX_SEQUENCE_ORDER) continue;
    q.order = static_cast<int>(order.get_si());
    auto inverse = inverse_sequence(d, q.moves);
    if (!inverse) continue;
    q.inverse = std::move(*inverse);
    const int verdict = offer(std::move(q), std::move(x));
    if (verdict != 0) return verdict > 0 ? Result<bool>(true) : ended();
  }
  return ended();
}

using Plan = std::optional<std::vector<Phase>>;

// A phase's proof (step 3): the orbit of its pattern, whether its moves and sequences finish
// it, and the sequences; by phase_key.
struct Proof {
  mpz_class after;
  bool complete = false;
  std::vector<PhaseSequence> sequences;
};
using Proofs = std::map<std::string, Proof>;

// The pattern and the moves of a phase (its proof depends on nothing else).
std::string phase_key(const Phase& p) {
  std::string key;
  for (const SetState& s : p.pattern.sets) {
    key.append(s.perm.begin(), s.perm.end());
    key.append(s.ori.begin(), s.ori.end());
    key += '|';
  }
  for (std::size_t m : p.moves) key += std::to_string(m) + ",";
  key += p.only_sequences ? "s" : "m";
  return key;
}

// One plan (the file comment); `keep_connected`: steps that split a class of the active moves
// are not taken. `library` is built on first need and kept for the next plan.
Result<Plan> plan_chain(const Definition& d, const AutoPhaseOptions& options, bool keep_connected,
                        std::optional<SequenceLibrary>& library, Proofs& proofs, bool& refused,
                        const RunContext& run) {
  const std::size_t sets = d.sets.size();
  const std::size_t bases = d.base_moves.size();
  if (bases == 0) return Plan{};
  // Step 0. Units, the slots each base move changes, and what is placed from the start.
  std::vector<Unit> units;
  for (std::size_t k = 0; k < sets; ++k) {
    const SetState& solved = d.solved.sets[k];
    std::map<int, std::size_t> index;
    for (std::size_t j = 0; j < solved.perm.size(); ++j) {
      auto [it, fresh] = index.emplace(solved.perm[j], units.size());
      if (fresh) units.push_back({k, solved.perm[j], {}});
      units[it->second].slots.push_back(static_cast<std::uint8_t>(j));
    }
  }
  std::vector<SlotMarks> touches(bases);
  for (std::size_t b = 0; b < bases; ++b) {
    for (std::size_t k = 0; k < sets; ++k) {
      const SetState& e = d.base_moves[b].effect.sets[k];
      std::vector<char> t(e.perm.size(), 0);
      for (std::size_t j = 0; j < t.size(); ++j)
        t[j] = e.perm[j] != j || e.ori[j] % d.sets[k].orientations != 0;
      touches[b].push_back(std::move(t));
    }
  }
  // linked[a]: the base moves that change a slot base move a changes, as a bit mask (for up to
  // CHAIN_LINKED_MOVES base moves; past that no class is told apart, as if none were linked).
  std::vector<std::uint64_t> linked(bases <= CHAIN_LINKED_MOVES ? bases : 0, 0);
  for (std::size_t a = 0; a < linked.size(); ++a) {
    for (std::size_t b = 0; b < bases; ++b) {
      for (std::size_t k = 0; k < sets && !(linked[a] >> b & 1); ++k) {
        for (std::size_t j = 0; j < touches[a][k].size(); ++j) {
          if (touches[a][k][j] && touches[b][k][j]) {
            linked[a] |= std::uint64_t{1} << b;
            break;
          }
        }
      }
    }
  }
  // Classes of the base moves in `moves` (a bit mask) joined by changing common slots: a step
  // that splits a class leaves free slots no move links (their pieces could only pass by
  // sequences across placed slots). 0 when classes are not kept apart.
  auto classes = [&](std::uint64_t moves) {
    if (!keep_connected || linked.empty()) return 0;
    int count = 0;
    while (moves != 0) {
      ++count;
      std::uint64_t reach = moves & (~moves + 1), grown = 0;
      while (grown != reach) {
        grown = reach;
        for (std::uint64_t r = reach; r != 0; r &= r - 1)
          reach |= linked[static_cast<std::size_t>(std::countr_zero(r))] & moves;
      }
      moves &= ~reach;
    }
    return count;
  };
  auto moves_unit = [&](std::size_t b, std::size_t u) {
    return std::any_of(units[u].slots.begin(), units[u].slots.end(),
                       [&](std::uint8_t j) { return touches[b][units[u].set][j] != 0; });
  };
  SlotMarks placed(sets);
  for (std::size_t k = 0; k < sets; ++k) {
    placed[k].assign(d.solved.sets[k].perm.size(), 0);
    for (std::size_t j = 0; j < placed[k].size(); ++j) {
      bool any = false;
      for (std::size_t b = 0; b < bases && !any; ++b) any = touches[b][k][j] != 0;
      placed[k][j] = any ? 0 : 1;
    }
  }
  std::vector<char> unit_placed(units.size(), 0);
  std::vector<std::size_t> placed_order;
  for (std::size_t u = 0; u < units.size(); ++u) {
    bool any = false;
    for (std::size_t b = 0; b < bases && !any; ++b) any = moves_unit(b, u);
    if (!any) {
      unit_placed[u] = 1;
      placed_order.push_back(u);
    }
  }
  // The pattern: `fresh` numbered first, then the placed units, then one identical piece per
  // set whose orientation is ignored.
  auto pattern_of = [&](const std::vector<std::size_t>& fresh) {
    State p = d.solved;
    std::vector<int> next(sets, 0);
    std::vector<std::vector<int>> number(sets, std::vector<int>(256, -1));
    auto give = [&](std::size_t u) { number[units[u].set][units[u].label] = next[units[u].set]++; };
    for (std::size_t u : fresh) give(u);
    for (std::size_t u : placed_order) give(u);
    for (std::size_t k = 0; k < sets; ++k) {
      SetState& s = p.sets[k];
      for (std::size_t j = 0; j < s.perm.size(); ++j) {
        const int nb = number[k][d.solved.sets[k].perm[j]];
        if (nb >= 0) {
          s.perm[j] = static_cast<std::uint8_t>(nb);
        } else {
          s.perm[j] = static_cast<std::uint8_t>(next[k]);
          s.ori[j] = ORIENTATION_IGNORED;
        }
      }
    }
    return p;
  };
  auto total = orbit_of(d, d.solved, run);
  if (run.should_stop()) return run.stop_error();
  if (!total) return Plan{};
  std::optional<mpz_class> before = orbit_of(d, pattern_of({}), run);
  if (!before) return Plan{};
  // The cap (file comment).
  const std::uint64_t share = std::min<std::uint64_t>(
      PHASE_MEMORY_CAP,
      std::max<std::uint64_t>(options.memory_bytes / CHAIN_PHASES, std::uint64_t{1} << 20));
  const double cap = static_cast<double>(share) * 2;
  std::vector<Phase> phases;
  std::size_t named = 0;
  std::size_t searches = 0;  // sequence searches (SequenceLibrary::for_phase) so far
  double round_cap = cap;    // the cap of this round (lowered for a phase with sequences)
  // The words met in the middle for the slots placed so far and the moves that keep them (the
  // same for every try and every round until more units are placed).
  std::optional<MetWords> met;
  // The sequences of a phase this round found too big with them (kept for its smaller ones).
  std::vector<PhaseSequence> carried;
  while (true) {
    if (run.should_stop()) return run.stop_error();
    std::vector<std::size_t> left;
    for (std::size_t u = 0; u < units.size(); ++u)
      if (!unit_placed[u]) left.push_back(u);
    if (left.empty()) break;
    if (phases.size() >= CHAIN_MAX_PHASES) return Plan{};
    // Step 1. Active moves and the free slots of each set.
    std::vector<char> active(bases, 0);
    for (std::size_t b = 0; b < bases; ++b) {
      bool clear = true;
      for (std::size_t k = 0; k < sets && clear; ++k)
        for (std::size_t j = 0; j < placed[k].size() && clear; ++j)
          clear = !(placed[k][j] && touches[b][k][j]);
      active[b] = clear;
    }
    std::vector<double> free(sets, 0);
    for (std::size_t k = 0; k < sets; ++k)
      for (char c : placed[k]) free[k] += c ? 0 : 1;
    // Arrangements of units in the free slots (`free_slots`: per set; identical pieces of a
    // unit counted once).
    auto arrangements = [&](const std::vector<std::size_t>& fresh,
                            const std::vector<double>& free_slots) {
      std::vector<double> used(sets, 0);
      double a = 1;
      for (std::size_t u : fresh) {
        const Unit& unit = units[u];
        for (std::size_t c = 0; c < unit.slots.size(); ++c) {
          a *= (free_slots[unit.set] - used[unit.set]) * d.sets[unit.set].orientations;
          a /= static_cast<double>(c + 1);
          used[unit.set] += 1;
        }
      }
      return a;
    };
    // 1b's block step, planned ahead. Sets of active base moves are bit masks over `on` (bit i:
    // on[i]). From a set A a step stops using 1 to BLOCK_CHAIN_MAX_REMOVED of its moves (leaving
    // one at least, and splitting no class of them) and places the units of `left` no move left
    // changes; those no move of A changes were placed by the steps before (at the root: none;
    // a unit no active move changes, one left over by the round before, is then in the first
    // step by itself). A block past the cap by one unit leaves the unit whose absence makes its
    // phase smallest to the next step (`pending`: placed with that step's units, by the moves
    // still in use and found sequences, as the committed megaminx file leaves a corner of its
    // fifth step). The chain chosen places the most slots, then leaves the fewest units over,
    // then has the smallest largest phase, then the fewest steps (memoised by A and the pending
    // unit); its first step is taken. Past the search's budget (units examined, sets memoised)
    // or stopped, the greedy step instead: the most slots placed per move given up, then the
    // most slots, then the smaller phase. Phases stay within the cap (`first_cap` for this round's
    // step, `cap` for the later ones). The units of the step taken; empty when there is none.
    auto block_step = [&](const std::vector<std::size_t>& on, const std::vector<std::size_t>& left,
                          double first_cap, double cap) -> std::vector<std::size_t> {
      const std::size_t n = on.size();
      constexpr std::uint64_t WORK = 40'000'000;
      // Memoised sets at most (about 64 bytes each: the memo stays within about 16 MB; the
      // megaminx's 12 faces need 3,142).
      constexpr std::size_t MEMO_STATES = 250'000;
      constexpr int NONE = -1;
      std::uint64_t work = 0, evaluations = 0;
      bool over = false, budgeted = true;
      const std::uint32_t all = (std::uint32_t{1} << n) - 1;
      std::vector<std::uint32_t> mask(left.size(), 0);  // [i]: the moves of `on` changing left[i]
      for (std::size_t i = 0; i < left.size(); ++i)
        for (std::size_t b = 0; b < n; ++b)
          if (moves_unit(on[b], left[i])) mask[i] |= std::uint32_t{1} << b;
      auto classes_of = [&](std::uint32_t set) {
        std::uint64_t moves = 0;
        for (std::uint32_t r = set; r != 0; r &= r - 1)
          moves |= std::uint64_t{1} << on[static_cast<std::size_t>(std::countr_zero(r))];
        return classes(moves);
      };
      struct Step {
        std::vector<std::size_t> fresh;  // the units it places
        int slots = 0;
        double size = 0;
        int dropped = NONE;  // the unit left over
      };
      // The step from `from` to `to` with the unit `pending` (or NONE) still to place.
      std::vector<double> free_here(sets);
      std::vector<std::size_t> less;
      auto step = [&](std::uint32_t from, std::uint32_t to, int pending) {
        Step out;
        free_here = free;
        for (std::size_t i = 0; i < left.size(); ++i) {
          const bool is_pending = static_cast<int>(left[i]) == pending;
          if (from != all && (mask[i] & from) == 0 && !is_pending) {
            free_here[units[left[i]].set] -= static_cast<double>(units[left[i]].slots.size());
          } else if ((mask[i] & to) == 0 || is_pending) {
            out.fresh.push_back(left[i]);
          }
        }
        work += left.size();
        out.size = arrangements(out.fresh, free_here);
        const double limit = from == all ? first_cap : cap;
        if (out.size > limit && out.fresh.size() >= 2) {
          std::size_t drop = out.fresh.size();
          double smallest = out.size;
          for (std::size_t j = 0; j < out.fresh.size(); ++j) {
            less = out.fresh;
            less.erase(less.begin() + static_cast<std::ptrdiff_t>(j));
            const double a = arrangements(less, free_here);
            if (a < smallest) {
              smallest = a;
              drop = j;
            }
          }
          if (drop < out.fresh.size() && smallest <= limit) {
            out.dropped = static_cast<int>(out.fresh[drop]);
            out.fresh.erase(out.fresh.begin() + static_cast<std::ptrdiff_t>(drop));
            out.size = smallest;
          }
        }
        for (std::size_t u : out.fresh) out.slots += static_cast<int>(units[u].slots.size());
        if (out.slots == 0 || out.size > limit) out.fresh.clear();
        return out;
      };
      // Each step from `from` that places something within the cap: visit(to, step).
      auto each_step = [&](std::uint32_t from, int pending, const auto& visit) {
        const int classes_before = classes_of(from);
        std::vector<std::size_t> bits, pick;
        for (std::uint32_t r = from; r != 0; r &= r - 1)
          bits.push_back(static_cast<std::size_t>(std::countr_zero(r)));
        std::function<void(std::size_t)> removals = [&](std::size_t start) {
          if (over) return;
          if (!pick.empty() && pick.size() < bits.size()) {
            std::uint32_t to = from;
            for (std::size_t b : pick) to &= ~(std::uint32_t{1} << bits[b]);
            if (classes_of(to) > classes_before) {
              refused = true;
            } else if (Step st = step(from, to, pending); !st.fresh.empty()) {
              visit(to, st);
            }
            // (Past the budget, or stopped: the greedy step, and the round's poll, take over.)
            if (budgeted && (work > WORK || ((++evaluations & 4095) == 0 && run.should_stop())))
              over = true;
          }
          if (pick.size() == BLOCK_CHAIN_MAX_REMOVED) return;
          for (std::size_t i = start; i < bits.size() && !over; ++i) {
            pick.push_back(i);
            removals(i + 1);
            pick.pop_back();
          }
        };
        removals(0);
      };
      struct Value {
        int slots = 0;
        int leftovers = 0;  // units left to the next step
        double worst = 0;
        int steps = 0;
        std::uint32_t next = 0;  // the set after the first step (0: none)
      };
      auto better = [](const Value& x, const Value& y) {
        if (x.slots != y.slots) return x.slots > y.slots;
        if (x.leftovers != y.leftovers) return x.leftovers < y.leftovers;
        if (x.worst != y.worst) return x.worst < y.worst;
        return x.steps < y.steps;
      };
      std::unordered_map<std::uint64_t, Value> memo;
      std::function<Value(std::uint32_t, int)> solve = [&](std::uint32_t from,
                                                           int pending) -> Value {
        const std::uint64_t key = (std::uint64_t(pending + 1) << 32) | from;
        if (auto it = memo.find(key); it != memo.end()) return it->second;
        Value best;
        each_step(from, pending, [&](std::uint32_t to, const Step& st) {
          Value v = solve(to, st.dropped);
          v.slots += st.slots;
          v.leftovers += st.dropped == NONE ? 0 : 1;
          v.worst = std::max(v.worst, st.size);
          v.steps += 1;
          v.next = to;
          if (best.next == 0 || better(v, best)) best = v;
        });
        memo[key] = best;
        if (memo.size() > MEMO_STATES) over = true;
        return best;
      };
      if (const Value root = solve(all, NONE); !over) {
        return root.next == 0 ? std::vector<std::size_t>{} : step(all, root.next, NONE).fresh;
      }
      over = false, budgeted = false;
      Step greedy;
      int greedy_removed = 1;
      each_step(all, NONE, [&](std::uint32_t to, const Step& st) {
        const int removed = static_cast<int>(n) - std::popcount(to);
        // Slots per move given up compared without division: a / r > b / s iff a s > b r.
        const long lhs = long(st.slots) * greedy_removed, rhs = long(greedy.slots) * removed;
        if (greedy.fresh.empty() || lhs > rhs ||
            (lhs == rhs &&
             (st.slots > greedy.slots || (st.slots == greedy.slots && st.size < greedy.size)))) {
          greedy = st;
          greedy_removed = removed;
        }
      });
      return greedy.fresh;
    };
    std::vector<std::size_t> fresh;
    // 1a. The rest, when its exact count is within the cap.
    if ((*total / *before) <= mpz_class(round_cap)) fresh = left;
    // 1b. Block steps.
    std::vector<std::size_t> on;
    for (std::size_t b = 0; b < bases; ++b)
      if (active[b]) on.push_back(b);
    if (fresh.empty() && on.size() >= 2 && on.size() <= BLOCK_CHAIN_MAX_BASES)
      fresh = block_step(on, left, round_cap, cap);
    // 1c. A piece step.
    if (fresh.empty()) {
      // The smallest block of one active move (the units it alone among the active ones
      // changes): split over phases when no block step fits, the block chain's step goes on
      // piece by piece.
      std::vector<char> in_block(units.size(), 0);
      {
        double smallest = 0;
        std::vector<std::size_t> chosen_block;
        // Moves whose block may go: those whose loss splits no class of the active moves (all
        // when every one would).
        std::uint64_t on_moves = 0;
        for (std::size_t b : on)
          if (b < CHAIN_LINKED_MOVES) on_moves |= std::uint64_t{1} << b;
        const int on_classes = classes(on_moves);
        std::vector<std::size_t> may_go;
        for (std::size_t b : on) {
          if (run.should_stop()) return run.stop_error();
          if (b >= CHAIN_LINKED_MOVES ||
              classes(on_moves & ~(std::uint64_t{1} << b)) <= on_classes) {
            may_go.push_back(b);
          } else {
            refused = true;
          }
        }
        if (may_go.empty()) may_go = on;
        for (std::size_t b : may_go) {
          std::vector<std::size_t> block;
          for (std::size_t u : left) {
            if (!moves_unit(b, u)) continue;
            bool other = false;
            for (std::size_t o : on) other = other || (o != b && moves_unit(o, u));
            if (!other) block.push_back(u);
          }
          const double size = arrangements(block, free);
          if (!block.empty() && (chosen_block.empty() || size < smallest)) {
            chosen_block = std::move(block);
            smallest = size;
          }
        }
        for (std::size_t u : chosen_block) in_block[u] = 1;
      }
      std::vector<char> taken(units.size(), 0);
      while (true) {
        int pick = -1;
        std::tuple<int, int, int, int> pick_key{0, 0, 0, 0};
        for (std::size_t u : left) {
          if (taken[u]) continue;
          int movers = 0, shared = 0;
          for (std::size_t b = 0; b < bases; ++b) {
            if (!moves_unit(b, u)) continue;
            movers += active[b] ? 1 : 0;
            bool near = false;
            for (std::size_t v = 0; v < units.size() && !near; ++v)
              near = (unit_placed[v] || taken[v]) && moves_unit(b, v);
            shared += near ? 1 : 0;
          }
          // Units no active move changes, then the chosen block's, then by the fewest active
          // moves changing them and the most base moves shared with the placed units.
          const int rank = movers == 0 ? 0 : in_block[u] ? 1 : 2;
          const std::tuple<int, int, int, int> key{rank, movers, -shared, static_cast<int>(u)};
          if (pick < 0 || key < pick_key) {
            pick = static_cast<int>(u);
            pick_key = key;
          }
        }
        if (pick < 0) break;
        std::vector<std::size_t> more = fresh;
        more.push_back(static_cast<std::size_t>(pick));
        if (!fresh.empty() && arrangements(more, free) > round_cap) break;
        fresh = std::move(more);
        taken[static_cast<std::size_t>(pick)] = 1;
      }
    }
    // A set with one unit left: it is forced into its slots now.
    for (std::size_t k = 0; k < sets; ++k) {
      std::vector<std::size_t> rest;
      for (std::size_t u : left) {
        if (units[u].set == k && std::find(fresh.begin(), fresh.end(), u) == fresh.end())
          rest.push_back(u);
      }
      if (rest.size() == 1) fresh.push_back(rest.front());
    }
    // Step 2. The phase.
    Phase phase;
    phase.pattern = pattern_of(fresh);
    std::vector<std::size_t> active_moves;
    for (std::size_t m = 0; m < d.moves.size(); ++m)
      if (active[d.moves[m].base]) active_moves.push_back(m);
    phase.only_sequences = active_moves.empty();
    if (active_moves.size() < d.moves.size()) phase.moves = active_moves;
    std::string names;
    for (std::size_t u : fresh) {
      names += (names.empty() ? "" : ",") + d.sets[units[u].set].name + ":" +
               std::to_string(units[u].slots.front() + 1);
    }
    phase.name = fmt::format("p{}-{}", phases.size() + 1, names);
    // Step 3. The proof, with sequences where the moves fall short (or the one an earlier plan
    // made of the same phase).
    const std::string proof_key = phase_key(phase);
    auto known = proofs.find(proof_key);
    if (known != proofs.end()) {
      if (!known->second.complete) return Plan{};
      phase.sequences = known->second.sequences;
      for (PhaseSequence& q : phase.sequences) q.name = sequence_name(d, named++);
    }
    auto after = known != proofs.end() ? std::optional<mpz_class>(known->second.after)
                                       : orbit_of(d, phase.pattern, run);
    if (run.should_stop()) return run.stop_error();
    if (!after) return Plan{};
    const mpz_class need = *after / *before;
    bool complete = known != proofs.end();
    if (!complete) {
      mpz_class reached = 0;  // positions the phase's moves and sequences reach so far
      auto reaches = [&](const Phase& p) {
        auto now = phase_positions(d, p, run);
        if (now) reached = *now;
        return now && *now == need;
      };
      complete = !phase.only_sequences && reaches(phase);
      if (run.should_stop()) return run.stop_error();
      // The sequences of this round's larger phase (too big with them, step 3's end): they
      // finish any part of it (its arrangements reached, so are their projections).
      if (!complete && !carried.empty()) {
        phase.sequences = carried;
        for (PhaseSequence& q : phase.sequences) q.name = sequence_name(d, named++);
        complete = reaches(phase);
        if (run.should_stop()) return run.stop_error();
      }
      // Tries: CHAIN_SEQUENCES sequences, twice as many, then twice as many with conjugating words
      // one move longer.
      // A try that reaches no more than the one before ends them (more of the same kinds of
      // sequences do not help: e.g. an odd permutation no commutator gives), and the plan has at
      // most CHAIN_MAX_SEARCHES of them: a plan that cannot succeed fails in bounded time.
      mpz_class reached_before = -1;
      for (int attempt = 0; !complete && attempt < 3; ++attempt) {
        if (attempt > 0 && reached == reached_before) break;
        if (++searches > CHAIN_MAX_SEARCHES) return Plan{};
        reached_before = reached;
        const std::size_t room = attempt == 0 ? CHAIN_SEQUENCES : 2 * CHAIN_SEQUENCES;
        const int conjugator = options.sequences.conjugator_length + (attempt == 2 ? 1 : 0);
        if (!library) {
          auto lib = SequenceLibrary::build(d, options.sequences, run);
          if (!lib && run.should_stop()) return run.stop_error();
          if (!lib) return Plan{};  // refused (too many moves): no plan with sequences
          library = std::move(*lib);
        }
        SlotMarks target(sets);
        for (std::size_t k = 0; k < sets; ++k) target[k].assign(placed[k].size(), 0);
        for (std::size_t u : fresh)
          for (std::uint8_t j : units[u].slots) target[units[u].set][j] = 1;
        if (!met) {
          auto words = library->meet_in_the_middle(placed, active_moves, run);
          if (!words) return words.error();
          met = std::move(*words);
        }
        auto seqs = library->for_phase(placed, target, active_moves, room, conjugator, run, &*met);
        if (!seqs) return seqs.error();
        if (seqs->empty()) break;
        phase.sequences = std::move(*seqs);
        for (PhaseSequence& q : phase.sequences) q.name = sequence_name(d, named++);
        complete = reaches(phase);
        if (run.should_stop()) return run.stop_error();
      }
      // The group's test: where the sequences chosen by kind leave the phase short, candidates
      // its group does not contain yet, shortest first, are added one by one until it is
      // complete (each at least doubles the group: few are added).
      // (The tries ran: the library and this phase's words met in the middle are there.)
      if (!complete && library && met && searches < CHAIN_MAX_SEARCHES) {
        ++searches;
        auto added = complete_by_group(
            d, phase, placed, active_moves, *library, *met, phases, named, need, reached,
            options.sequences.conjugator_length + 1, options.tables, run);
        if (!added) return added.error();
        complete = *added;
      }
      proofs[proof_key] = {*after, complete, phase.sequences};
    }
    if (!complete) return Plan{};
    // A phase with sequences: its table's BFS within CHAIN_SEQUENCE_WORK.
    if (!phase.sequences.empty()) {
      double search_moves = static_cast<double>(phase.moves.size());
      for (const PhaseSequence& q : phase.sequences) search_moves += q.order - 1;
      if (need.get_d() * search_moves > CHAIN_SEQUENCE_WORK && fresh.size() > 1) {
        // Too big with its sequences: the same round again within the cap they allow, with
        // them (the 5x5x5's last centres).
        round_cap = std::min(round_cap / 2, CHAIN_SEQUENCE_WORK / search_moves);
        if (carried.empty()) carried = phase.sequences;
        continue;
      }
    }
    // Step 4. The units are placed.
    for (std::size_t u : fresh) {
      unit_placed[u] = 1;
      placed_order.push_back(u);
      for (std::uint8_t j : units[u].slots) placed[units[u].set][j] = 1;
    }
    before = after;
    round_cap = cap;
    carried.clear();
    met.reset();
    phases.push_back(std::move(phase));
  }
  if (phases.empty()) phases.push_back({"solved", d.solved, {}, {}, false});
  return Plan{std::move(phases)};
}

}  // namespace

Result<std::optional<std::vector<Phase>>> planned_chain(const Definition& d,
                                                        const AutoPhaseOptions& options,
                                                        const RunContext& run) {
  // Keeping the free slots linked first (the megaminx: a face split from the others leaves its
  // pieces no way out but long sequences), then without (the master pyraminx's tips).
  // The second plan only when the first refused a step (else it would be the same plan).
  // The library and the phases proven (or not) are kept for the second plan.
  std::optional<SequenceLibrary> library;
  Proofs proofs;
  bool refused = false;
  auto linked = plan_chain(d, options, true, library, proofs, refused, run);
  if (!linked || *linked || !refused) return linked;
  return plan_chain(d, options, false, library, proofs, refused, run);
}

}  // namespace permuzzle::def
