// Optimal sliding-puzzle solving without pattern databases: IDA* with Manhattan, linear
// conflict and the last-move rule, and a bidirectional variant that still proves optimality.
//
// Forward IDA*: iterative deepening on f = g + h, children in U D L R order, never undoing the
// previous move (the only move pair that commutes trivially on a sliding board). The heuristic
// is updated incrementally: Manhattan by one table difference, linear conflicts by recomputing
// only the one line whose membership changed (a vertical move can only change the row line of
// the moved tile's goal row, a horizontal one the column line of its goal column). The search
// loop works on fixed-size arrays and never allocates; 3x3, 4x4 and 5x5 are compiled with the
// board size as template parameters, other boards use a runtime-size instance.
//
// Bidirectional (front-to-end with a meet-in-the-middle perimeter): a breadth-first search
// backwards from the goal stores every position within distance D (complete layers, as many as
// fit in `perimeter_states`) with its exact distance. The forward IDA* then uses
//   h'(s) = exact distance          if s is in the perimeter,
//           max(h(s), D + 1)        otherwise (s is farther than D from the goal),
// which is admissible, so the first solution found is optimal; the back half of the path is
// read off the stored distances. Node counts of both directions are reported.
#pragma once

#include <cstdint>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/sliding/types.hpp"

namespace permuzzle::sliding {

enum class Heuristic : std::uint8_t { Manhattan, LinearConflict };

struct SolveOptions {
  Heuristic heuristic = Heuristic::LinearConflict;
  bool last_move = true;                       // add the last-move rule (2 moves) when it applies
  bool bidirectional = false;                  // perimeter + forward IDA*, see above
  std::uint64_t perimeter_states = 1'000'000;  // cap on stored backward states
  int perimeter_depth = -1;      // -1: as deep as the cap allows; otherwise exactly this depth
  std::uint64_t max_nodes = 0;   // 0 = unlimited; else give up (LimitExceeded) after this many
  ProgressCallback on_progress;  // after each IDA* iteration and every ~16M nodes
  // Cancellation and time limit, checked every ~1M nodes (a few ms): the search then stops with
  // the run's error (Cancelled or LimitExceeded). Null: no checks.
  const RunContext* run = nullptr;
};

// Optimal solution from `start` to `goal` (both validated here; unsolvable -> ErrorKind::
// Unsolvable with the parity reason). The returned moves have been replayed from `start` and
// reach `goal`.
Result<SolveResult> solve(BoardSize size, const Position& start, const Position& goal,
                          const SolveOptions& options = {});

// Ok when `start` (a valid position) can reach `goal`; otherwise an Unsolvable error with the
// parity rule's reason ("the position cannot reach the goal: ...").
Status check_solvable(BoardSize size, const Position& start, const Position& goal);

// Replays `result.moves` from `start`, fills `result.tiles`, and checks that `goal` is reached
// (an Internal error otherwise). Used by every solver before it returns.
Status verify_solution(BoardSize size, const Position& start, const Position& goal,
                       SolveResult& result);

}  // namespace permuzzle::sliding
