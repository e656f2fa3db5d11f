// The 15-puzzle as permutations, groupoid model (spec section 3).
//
// Data layout: a Board16 lists, cell by cell (cells 1..16 row by row, stored 0-based), the label
// standing there; labels are 1..15 for tiles and 16 for the blank. The goal has label i in
// cell i. The code of a position is the permutation of S16 with i^code = label in cell i
// ("which label replaced the label of the goal"). Sliding the blank onto the tile with label t
// multiplies the code on the right by the transposition (16,t).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/rng.hpp"

namespace permuzzle::fifteen {

inline constexpr int CELLS = 16;
inline constexpr int BLANK = 16;
using Board16 = std::array<std::uint8_t, CELLS>;

Board16 goal_board();
// 16 labels separated by spaces or commas, 0 or 16 for the blank, e.g. "1 2 3 ... 15 0".
Result<Board16> parse_position(std::string_view text);
std::string format_position(const Board16& b);  // "1 2 ... 15 0" (0 = blank)
int blank_cell(const Board16& b);               // 0-based
bool adjacent(int cell_a, int cell_b);          // 0-based cells of the 4x4 board
// Solvable (reachable from the goal): permutation parity equals the parity of the blank's
// taxicab distance from cell 16.
bool is_solvable(const Board16& b);
Board16 random_solvable(Rng& rng);

Perm code_of(const Board16& b);
Result<Board16> position_of(const Perm& code);

struct BlankPathResult {
  std::vector<Perm> transpositions;  // (16,t) for each step, in order
  Perm product;                      // their product
  Perm code;                         // code of the final position = start code * product
  Board16 end{};
};
// Moves the blank along `cells` (1-based); the first cell may repeat the blank's own cell.
// An illegal step (not adjacent to the blank) is an error naming the step.
Result<BlankPathResult> apply_blank_path(const Board16& start, const std::vector<int>& cells);
Result<std::vector<int>> parse_path(std::string_view text);  // "12,11,7,6,2"

}  // namespace permuzzle::fifteen
