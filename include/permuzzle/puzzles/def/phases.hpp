// Solving definition-file puzzles of any size in phases (issue 24, part 3): a chain of patterns
// to reach in order, each phase solved optimally by DefSolver (solver.hpp) for its pattern,
// starting where the previous phase ended.
//
// A phase is a pattern in the puzzle's state form (reader.hpp's Phase): slots whose home
// pieces get the same number are identical for that phase, a '?' orientation is not cared for
// yet. Its puzzle (phase_definition) is the definition with that pattern as Solved, only the
// phase's moves (each base move replaced by the subgroup its allowed powers generate) and no
// rotations. A position of the whole puzzle becomes a position of the phase by renaming every
// piece (label of the puzzle's Solved pattern) with the number its home slot has in the phase
// pattern (project_state); the phase file's checks make that renaming well defined.
//
// `auto` (auto_phases) derives phases from the puzzle itself:
// 1. Two-phase reduction (Kociemba's scheme, found generically): for a base move, or two that
//    commute, keep them whole and every other base move of even order only as its half power;
//    H = the group those generate. Phase 1 reaches the pattern of H's slot orbits (pieces of an
//    H-orbit identical, orientations tracked where no generator of H changes them), phase 2
//    solves with H's moves. A candidate is kept only when the group facts prove phase 2 always
//    solvable: positions(puzzle) = positions(phase 1 pattern) x positions(H on the Solved
//    pattern); among those the one with the smaller larger phase wins.
// 2. Otherwise, where every position is a group element, a block chain (the Loopover fast
//    solver's block building, found generically): the moves in use shrink phase by phase. A
//    step stops using a few base moves; the slots none of the remaining moves touch are the
//    phase's new pieces (solved with the moves still in use), chosen to place the most pieces
//    within BLOCK_CHAIN_POSITIONS arrangements; a step is kept only when the group facts prove
//    that the remaining moves generate the whole stabiliser of the slots placed so far
//    (|<remaining>| x positions(placed pattern) = |G|), so every later phase can finish. The
//    rest is one phase once the remaining group is within BLOCK_CHAIN_POSITIONS.
// 3. Otherwise the planned chain (phase_chain.cpp, planned_chain below): pieces placed phase by
//    phase with the moves that disturb no placed piece, phase sizes from the memory budget, each
//    phase proven complete by group facts, with sequences found by search (sequences.hpp) where
//    those moves fall short. nullopt when some phase cannot be proven: then step 4.
// 4. Otherwise a piece chain: the pieces (labels of the Solved pattern, orbit by orbit, slot
//    order) are solved a few at a time with every move, each phase adding pieces while the
//    arrangements of the new pieces stay within CHAIN_NEW_POSITIONS (a stabiliser chain of the
//    puzzle's group acting on its pieces). The phase pattern numbers the new pieces first so
//    that its pattern databases track them before the pieces already solved.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/definition.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/sequences.hpp"
#include "permuzzle/puzzles/def/solver.hpp"

namespace permuzzle::def {

// A together group's places are at most this many (the images of its home slots under the
// block moves' group, found by breadth-first search).
inline constexpr std::size_t MAX_TOGETHER_PLACES = 100'000;

// Block chain (auto step 2): each phase's arrangements of its new pieces stay within this, and
// the rest is one phase once the remaining moves' group has at most this many elements; a step
// gives up at most BLOCK_CHAIN_MAX_REMOVED base moves and checks at most BLOCK_CHAIN_CHECKS
// candidates with group facts; puzzles with more than BLOCK_CHAIN_MAX_BASES base moves skip it.
inline constexpr std::uint64_t BLOCK_CHAIN_POSITIONS = 3'000'000;
inline constexpr std::size_t BLOCK_CHAIN_MAX_REMOVED = 4;
inline constexpr std::size_t BLOCK_CHAIN_CHECKS = 8;
inline constexpr std::size_t BLOCK_CHAIN_MAX_BASES = 16;
// The arrangements of a chain phase's new pieces stay within this (see the file comment).
inline constexpr std::uint64_t CHAIN_NEW_POSITIONS = 200'000;
// Each phase's pattern databases get min(memory / phases, this).
inline constexpr std::uint64_t PHASE_MEMORY_CAP = std::uint64_t{32} << 20;

// Optimal solutions of a phase to choose from by default (PhaseOptions::branch; the last phase
// without sequences gives one): measured on `bench def-phases` (20 positions each), it
// shortens the megaminx's answers from 143.4 to 126.8 moves and the 4x4x4's from 180.1 to
// 154.6 for milliseconds per solve.
inline constexpr int DEFAULT_PHASE_BRANCH = 32;

// With a slack, a phase's solver gives up to branch x this many solutions to choose from.
inline constexpr std::size_t SLACK_EXAMINE_FACTOR = 8;

struct PhaseOptions {
  Metric metric = Metric::Htm;
  std::uint64_t memory_bytes = std::uint64_t{2} << 30;  // every phase's databases together
  int max_length = 100;                                 // per phase
  // Per phase: the first solution of at most max_length from DefSolver's quick weighted pass
  // is taken (a budget rather than optimality; DefSolveOptions::accept_non_optimal).
  bool accept_non_optimal = false;
  // A beam over the phases (the built-in Loopover fast solver's scheme, generic): each of the
  // `beam_width` positions kept after a phase is solved by the next phase with up to `branch`
  // of its optimal solutions (distinct end positions); the `beam_width` end positions with the
  // least moves so far plus the following phase's lower bound (its distance when its table is
  // exact) are kept. 1 and 1: one optimal solution per phase, as in a plain chain. The
  // default, 1 and DEFAULT_PHASE_BRANCH: a chain that goes on from the best of each phase's
  // optimal solutions (they differ in how they merge with the moves so far, in where they leave
  // the next phase and, with sequences, in their length once expanded). With
  // accept_non_optimal the branch is 1.
  int beam_width = 1;
  int branch = DEFAULT_PHASE_BRANCH;
  // With branch > 1: a phase's solutions up to this much longer than its optimum are tried too
  // (one longer phase can leave the next phases shorter).
  int slack = 0;
  // Where every position is a group element (the Solved pattern is the identity): the inverse
  // position starts the beam too, and a solution found for it is inverted (the same length).
  bool inverse = false;
};

// The phases of a phase file; the puzzle's own Solved pattern (every move) is appended when the
// last phase is not it.
std::vector<Phase> phases_from_specs(const Definition& d, const std::vector<PhaseSpec>& specs);
struct AutoPhaseOptions {
  // The tables' memory (PhaseOptions::memory_bytes): the planned chain sizes its phases by it.
  std::uint64_t memory_bytes = std::uint64_t{2} << 30;
  SequenceSearchOptions sequences;
  // Where the planned chain's last resort builds the tables of the phases it solves with: the
  // store the solve will use finds them there; none: a store of its own, dropped with the plan.
  TableStore* tables = nullptr;
};

// Phases derived from the puzzle (see the file comment). Group facts are computed with `run`.
Result<std::vector<Phase>> auto_phases(const Definition& d, const RunContext& run,
                                       const AutoPhaseOptions& options = {});

// The planned chain (auto step 3, phase_chain.cpp): nullopt when some phase could not be
// proven complete (auto then falls back to the piece chain); an error when the run stopped.
Result<std::optional<std::vector<Phase>>> planned_chain(const Definition& d,
                                                        const AutoPhaseOptions& options,
                                                        const RunContext& run);

// The phases as a phase file (docs/def-phases.md) that parse_phase_file reads back to the same
// phases: names made single tokens, `comment` lines first as `# ` lines.
std::string format_phase_file(const Definition& d, const std::vector<Phase>& phases,
                              const std::vector<std::string>& comment = {});
// One together group as a phase file's `Together` line writes it, without the keyword: each set's
// name before its first slot, slots numbered from 1 ("EDGES 4 6").
std::string together_text(const Definition& d, const std::vector<SlotRef>& group);
// A `Parity` line's sets as the file writes them after the keyword ("EDGES").
std::string parity_text(const Definition& d, const std::vector<std::size_t>& sets);

// The phase's own puzzle (see the file comment). Slots that none of the phase's moves touch
// are left out of it (their content cannot change during the phase), and a set with no slot
// left; the pattern numbers in the slots kept are renumbered 0.. in their order.
Definition phase_definition(const Definition& d, const Phase& phase);
// The phase's together groups in its puzzle's terms (phase_definition's sets and slots), as
// DefSolveOptions::together takes them: each group's places are the images of its pieces' home
// slots (and Solved orientations) under the group the phase's block moves generate; a piece
// whose home slot the phase leaves out stays home (the projection checks it) and is no part of
// its group there, nor is a place through a slot left out. LimitExceeded past
// MAX_TOGETHER_PLACES places.
Result<std::vector<TogetherGroup>> together_groups(const Definition& d, const Phase& phase,
                                                   const RunContext& run);
// A position of the puzzle (pattern form of d.solved) as a position of the phase's puzzle; an
// error (Unsolvable) when a slot the phase leaves out does not already hold what the phase's
// pattern wants there.
Result<State> project_state(const Definition& d, const Phase& phase, const State& position);
// "CORNERS 1 1 1 ... / ? ? ..." in one line per set that differs from the Solved pattern.
std::string phase_pattern_text(const Definition& d, const Phase& phase);

struct PhaseSize {
  std::string name;
  std::string moves;             // "all" or the allowed moves
  std::string positions;         // exact decimal, or empty when refused
  std::string refused;           // why positions were not computed
  std::uint64_t rank_space = 0;  // of the phase's compiled puzzle (0: past 2^64)
};
// Positions per phase: the orbit of the phase pattern under the phase's moves.
std::vector<PhaseSize> phase_sizes(const Definition& d, const std::vector<Phase>& phases,
                                   const RunContext& run);

struct PhaseReport {
  std::string pattern;  // the phase's name
  std::vector<std::string> moves;
  int length = 0;
  bool optimal = true;  // for this phase's pattern
  double seconds = 0;
};

struct PhasedSolution {
  // All phases, in order, with moves merged across phase boundaries (merge_moves): the length
  // can be less than the phases' lengths added up.
  std::vector<std::string> moves;
  std::vector<std::size_t> move_indices;  // the same as indices into Definition::moves
  int length = 0;                         // in the metric
  // The phases solved the inverse position (PhaseOptions::inverse): `phases` are its phases and
  // `moves` the inverse of their moves.
  bool inverse = false;
  std::vector<PhaseReport> phases;
  double seconds = 0;
};

struct PhaseProjection;  // phases.cpp

class PhasedSolver {
 public:
  // Builds (or loads) every phase's pattern databases.
  static Result<std::shared_ptr<PhasedSolver>> create(const Definition& d,
                                                      std::vector<Phase> phases,
                                                      const PhaseOptions& options,
                                                      TableStore& tables, const RunContext& run);
  // Solves `start` (pattern form of d.solved) phase by phase (with the options' beam); the
  // whole sequence is replayed from `start` before it is returned.
  Result<PhasedSolution> solve(const State& start, const RunContext& run) const;
  const std::vector<Phase>& phases() const { return phases_; }
  // Every phase's tables, in phase order.
  std::vector<std::vector<PdbInfo>> tables() const;

 private:
  std::shared_ptr<const Definition> def_;
  std::vector<Phase> phases_;
  PhaseOptions options_;
  std::vector<std::shared_ptr<DefSolver>> solvers_;
  // Per phase, how a position becomes the phase's (project_state), worked out once: the
  // phase's puzzle is not rebuilt for every candidate the beam ranks.
  std::vector<std::shared_ptr<const PhaseProjection>> projections_;
  std::vector<char> commuting_;  // commuting_bases: [a * bases + b]
};

// Whether every position is a group element: each set's Solved pattern is the identity (every
// piece distinct and home, every orientation tracked and 0), so that a position has an inverse.
bool positions_are_elements(const Definition& d);
// The inverse of a position (positions_are_elements): a state is the map slot -> piece with
// orientations, composed as apply() does; the inverse sends the home of the piece in slot i
// back to i, with the opposite orientation. The inverse of a move sequence reaches it.
State inverse_position(const Definition& d, const State& position);

// Which base moves commute: [a * bases + b] (a base commutes with itself).
std::vector<char> commuting_bases(const Definition& d);

// `moves` (indices into Definition::moves) with moves of one base merged where only moves that
// commute with them stand between (R U' R2 with R and U commuting: U' R'), and cancelled
// where their powers add up to the identity. Never longer in either metric. `commuting` empty:
// only adjacent moves of one base are merged.
std::vector<std::size_t> merge_moves(const Definition& d, const std::vector<char>& commuting,
                                     const std::vector<std::size_t>& moves);

}  // namespace permuzzle::def
