// Loopover (rectangular) boards: applying moves, the seeds' move notation, positions as text,
// solvability and random positions. Rules and notation: shared spec section 4.
//
// Conventions (see types.hpp):
// - A Position lists the tile in each cell, row-major; tiles are 1..cells(); the goal has
//   tile i+1 in cell i.
// - A Move moves pieces: a row move with amount k > 0 carries the piece in cell (r, j) to
//   (r, j+k mod c) (shift RIGHT); a column move with k > 0 carries (i, col) to (i+k mod r, col)
//   (shift DOWN). So on 4x6 the move `3` is the GAP cycle (3,9,15,21) on cells and `-B` is
//   (12,11,10,9,8,7).
// - As a permutation (perm.hpp, GAP order), a position is the product s of the moves applied
//   to the goal, s = m1*m2*...*mk: the piece with home cell x stands in cell s(x), i.e.
//   position[s(x)] == x + 1. position_to_perm/perm_to_position convert.
//
// Notation (parse_moves / format_moves):
//   move      := ['-'] (DIGIT | LETTER)       column 1..c shifts DOWN, row A.. shifts RIGHT
//   item      := (move | '-'? '(' sequence ')') ['^' ['-'] NUMBER]
//   sequence  := item*                        blanks and commas between items are ignored
// A single move with an exponent (`B^2`) is ONE move of amount 2 (one move in MTM, two in STM);
// a group with an exponent is repeated. `-` before a group inverts it, `^-k` inverts and repeats.
// Lower-case row letters are accepted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/puzzles/loopover/types.hpp"
#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/rng.hpp"

namespace permuzzle::loopover {

inline constexpr int MIN_SIDE = 2;
inline constexpr int MAX_SIDE = 9;
// Longest sequence the parser expands (guards `(AB)^999999999`).
inline constexpr std::size_t MAX_PARSED_MOVES = 1'000'000;

using MoveSequence = std::vector<Move>;

// "4x6" (rows x columns; 'X' and '*' accepted) -> {4, 6}; sides must be 2..9.
Result<BoardSize> parse_size(std::string_view text);
std::string format_size(BoardSize size);  // "4x6"
Status validate_size(BoardSize size);

Position goal_position(BoardSize size);
bool is_goal(const Position& position);

// Tiles row-major: numbers separated by blanks, commas, '/' or ';' (brackets ignored), e.g.
// "2 1 3 4" or "[[2,1],[3,4]]". On boards with at most 9 cells a run of digits without
// separators ("2134") is read one digit per tile. Checks that the tiles are exactly 1..cells.
Result<Position> parse_position(BoardSize size, std::string_view text);
// Checks size and that `position` holds exactly the tiles 1..cells (message says which tile
// is missing or repeated).
Status validate_position(BoardSize size, const Position& position);
std::string format_position(const Position& position);  // "2 1 3 4" (row-major, one line)
std::string format_grid(BoardSize size, const Position& position);  // aligned rows, '\n' ended

// Moves -----------------------------------------------------------------------------------
Status validate_move(BoardSize size, const Move& move);
// Length of the line a move shifts (columns for row moves, rows for column moves).
inline int line_length(BoardSize size, Axis axis) {
  return axis == Axis::Row ? size.cols : size.rows;
}
// Applies one move in place (any amount, negative allowed).
void apply_move(BoardSize size, Position& position, const Move& move);
void apply_moves(BoardSize size, Position& position, const MoveSequence& moves);
Move inverse(const Move& move);
MoveSequence inverse(const MoveSequence& moves);
// Moves counted in a metric: STM counts |amount| reduced to the shorter way round the line
// (a written `B^3` on a line of 4 is one cell left), MTM counts each move with a nonzero
// net shift as 1.
int move_cost(BoardSize size, const Move& move, Metric metric);
// The single moves of a metric, rows first (by line), then columns. Per line, STM: +1 and -1
// (only +1 on a line of 2, where they coincide); MTM: every nonzero shift k = 1..len-1, written
// the shorter way round (k - len when k > len/2). Each move's inverse is in the list.
std::vector<Move> metric_moves(BoardSize size, Metric metric);
int sequence_length(BoardSize size, const MoveSequence& moves, Metric metric);

// The move as a permutation of the cells (GAP order, 0-based points, degree cells()).
Perm move_perm(BoardSize size, const Move& move);
Perm position_to_perm(const Position& position);  // s with position[s(x)] == x + 1
Position perm_to_position(BoardSize size, const Perm& perm);

// Notation --------------------------------------------------------------------------------
// Parses a sequence; errors carry the 0-based character position of the problem.
Result<MoveSequence> parse_moves(BoardSize size, std::string_view text);
std::string format_move(const Move& move);  // "3", "-B", "B^2", "-3^2"
std::vector<std::string> format_move_list(const MoveSequence& moves);
std::string format_moves(const MoveSequence& moves);  // tokens joined by blanks; "" if empty
// Rewrites a sequence as the moves of a metric: STM -> unit moves (|amount| == 1, the shorter
// way round), MTM -> consecutive moves on one line merged into one move (empty merges dropped).
MoveSequence normalize(BoardSize size, const MoveSequence& moves, Metric metric);

// Solvability and random positions ---------------------------------------------------------
// Odd x odd boards reach only even permutations (group A_rc); all others reach everything.
bool all_moves_even(BoardSize size);
int position_sign(const Position& position);  // +1 even, -1 odd permutation of the tiles
bool is_solvable(BoardSize size, const Position& position);
// Uniformly random solvable position (uniform over the reachable positions).
Position random_position(BoardSize size, Rng& rng);

}  // namespace permuzzle::loopover
