// Admissible lower bounds on the number of moves of a sliding-puzzle position, with their parts.
//
// - Manhattan: the sum over tiles of the row and column distances to the goal cell.
// - Linear conflict (the correct version): for each row, take the tiles that stand in their
//   goal row; the least number of them that must leave the row so the rest are in goal order is
//   (count - longest increasing subsequence of their goal columns); each leaving tile costs 2
//   vertical moves more than Manhattan counts. Likewise for columns (2 horizontal moves). Row
//   extras are vertical, column extras horizontal, both are charged to distinct tile moves, so
//   Manhattan + all row and column extras is admissible.
// - Last move: the last move of any solution slides a tile whose goal cell n is next to the
//   goal blank cell b out of b into n; so that tile visits b. If for every such neighbour tile
//   the detour through b costs 2 more moves than its Manhattan distance, add 2. Combined with
//   linear conflict only when no neighbour tile may already be charged extra moves along the
//   same axis by a conflict of its line (a tile in its goal column with a column conflict for
//   a horizontal neighbour, in its goal row with a row conflict for a vertical one).
#pragma once

#include <string>
#include <vector>

#include "permuzzle/puzzles/sliding/types.hpp"

namespace permuzzle::sliding {

struct BoundReport {
  int manhattan = 0;
  std::vector<int> manhattan_per_tile;  // index = tile (index 0, the blank, is 0)
  std::vector<int> row_conflicts;       // extra moves per row (2 x tiles to remove)
  std::vector<int> col_conflicts;       // extra moves per column
  int linear_conflict = 0;              // sum of row and column extras
  int last_move = 0;                    // 0 or 2: last-move rule on top of Manhattan alone
  int last_move_with_lc = 0;            // 0 or 2: on top of Manhattan + linear conflict

  int manhattan_bound() const { return manhattan; }
  int linear_conflict_bound() const { return manhattan + linear_conflict; }
  int last_move_bound() const { return manhattan + last_move; }
  int best() const { return manhattan + linear_conflict + last_move_with_lc; }
};

// `goal` is any arrangement; start and goal must be valid positions of `size` (not checked).
BoundReport compute_bounds(BoardSize size, const Position& start, const Position& goal);

// Extra moves of one line: 2 x (k - length of the longest increasing subsequence of `keys`).
int line_conflict(const int* keys, int k);

}  // namespace permuzzle::sliding
