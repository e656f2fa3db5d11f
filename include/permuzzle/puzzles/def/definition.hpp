// Any permutation puzzle given by a definition file (ksolve/twsearch text format or cubing.js
// KPuzzle JSON): the model shared by the reader, group facts, whole-graph BFS and the solver.
//
// Spec: ../shared/spec/definition-files.md.
//
// Data layout: everything is 0-based and in *state form* (passive): for a set with n pieces,
// `perm[i]` is the piece sitting in slot i and `ori[i]` is the orientation of the piece sitting
// in slot i (0..orientations-1). A move is stored in the same form (the reader converts ksolve's
// per-piece orientation lines of `Move` blocks on reading). Applying move m to state s:
//   new.perm[i] = s.perm[m.perm[i]],  new.ori[i] = (s.ori[m.perm[i]] + m.ori[i]) mod o
// i.e. "apply s, then m" in GAP order. A solved state may repeat pieces (identical pieces) and
// may mark an orientation ORIENTATION_IGNORED ('?' in the file): positions are then the orbit of
// that pattern, not of the group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/result.hpp"

namespace permuzzle::def {

// '?' in a Solved/StartState orientation line.
inline constexpr std::uint8_t ORIENTATION_IGNORED = 255;
inline constexpr int MAX_PIECES = 255;
inline constexpr int MAX_ORIENTATIONS = 127;

struct PieceSet {
  std::string name;
  int pieces = 0;        // 1..MAX_PIECES
  int orientations = 1;  // 1..MAX_ORIENTATIONS
};

// One set's part of a state or move.
struct SetState {
  std::vector<std::uint8_t> perm;  // perm[slot] = piece (0-based)
  std::vector<std::uint8_t> ori;   // ori[slot] = orientation, or ORIENTATION_IGNORED in patterns
  bool operator==(const SetState&) const = default;
};

// One slot of one set (both 0-based).
struct SlotRef {
  std::size_t set = 0;
  std::uint8_t slot = 0;
  bool operator==(const SlotRef&) const = default;
};

// A whole state: sets[k] belongs to Definition::sets[k].
struct State {
  std::vector<SetState> sets;
  bool operator==(const State&) const = default;
};

// A search move: a base move (from `Move`, `MoveTransformation` or `MoveSequence`) or one of its
// generated powers. Names follow the spec: order 4 gives X, X2, X'; order 5 X, X2, X2', X'.
struct Move {
  std::string name;
  std::size_t base = 0;  // index into Definition::base_moves
  int power = 1;         // 1..order-1: this move is base^power
  int qtm_cost = 1;      // min(power, order - power): the quarter-turn metric's cost
  // The half-turn metric's cost: 1 for a move of the puzzle; a phase's sequence power costs the
  // puzzle's moves it stands for (phases.cpp), so that a phase's search minimises moves played.
  int htm_cost = 1;
  State effect;  // in state form
};

struct BaseMove {
  std::string name;
  int order = 1;  // order of the base move as a state transformation
  State effect;
};

struct Definition {
  std::string name;            // from `Name`, else the file name
  std::vector<PieceSet> sets;  // in file order
  State solved;                // the pattern to reach (may repeat pieces, may ignore orientations)
  std::vector<BaseMove> base_moves;
  std::vector<Move> moves;          // every search move: powers of each base move, in file order
  std::vector<BaseMove> rotations;  // whole-puzzle rotations (x, y, z, ...v): symmetries only
  // MoveAlias: (alias, move it names) — accepted in move sequences, not extra search moves.
  std::vector<std::pair<std::string, std::string>> aliases;
  // Illegal: illegal[set][slot] lists the pieces that may never sit in that slot.
  std::vector<std::vector<std::vector<std::uint8_t>>> illegal;

  // The identity state (every set's perm 0..n-1, orientations 0).
  State identity() const;
  // Index of the search move or alias named `name`, or an error naming the known moves.
  Result<std::size_t> find_move(std::string_view name) const;
};

// State transformations (no checks: states must belong to the definition).
State apply(const Definition& d, const State& s, const State& move_effect);
inline State apply(const Definition& d, const State& s, const Move& m) {
  return apply(d, s, m.effect);
}

}  // namespace permuzzle::def
