// Sliding puzzles: boards, positions, goals, moves, solvability and random positions.
//
// Everything here works on any board with 2..MAX_SIDE rows and columns: every board of at most
// MAX_BROAD_CELLS cells (2x2 ... 5x5, 4x6, 2x12) and the thin ones, 2 or 3 rows (or columns) by
// up to 16 (2x16 = 32 cells, 3x16 = MAX_CELLS = 48 cells). Positions are
// `Position` vectors (types.hpp): the tile standing on each cell, row by row, 0 = blank.
// A goal is any arrangement of the same tiles; "standard" puts the blank last, "blank-first"
// is the goal of Korf's benchmark instances (0 1 2 ... n-1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/sliding/types.hpp"

namespace permuzzle::sliding {

inline constexpr int MAX_CELLS = 48;
inline constexpr int MAX_SIDE = 16;
inline constexpr int MAX_BROAD_CELLS = 25;  // boards with both sides >= 4
inline constexpr int MAX_THIN_SIDE = 3;     // a board with a side <= 3 may use MAX_CELLS

// "4x4", "3X5" -> BoardSize; rejects the boards that check_board_size rejects.
Result<BoardSize> parse_board_size(const std::string& text);
Status check_board_size(BoardSize size);
std::string to_string(BoardSize size);  // "4x4"

// A parsed position. `rows_given` is the number of rows when the text was a grid ('/' or
// newlines), 0 when it was a flat list.
struct ParsedPosition {
  Position cells;
  int rows_given = 0;
};

// Reads a position: numbers row-major (separated by spaces or commas), rows optionally
// separated by '/' or newlines, '.' or 0 (or rows*cols when 0 is absent) as the blank.
// When `size` is given the tile count must match; otherwise the size is taken from the grid
// shape, or from a square tile count (4, 9, 16, 25).
Result<Position> parse_position(const std::string& text, std::optional<BoardSize> size,
                                BoardSize* inferred = nullptr);

// Goals: "standard" (blank last), "blank-first" (blank in cell 0, Korf), or an explicit
// arrangement in parse_position's syntax.
Result<Position> parse_goal(const std::string& text, BoardSize size);
Position standard_goal(BoardSize size);
Position blank_first_goal(BoardSize size);

// Checks that `p` holds each of 0..cells-1 exactly once.
Status check_position(BoardSize size, const Position& p, const std::string& what = "position");

std::string format_board(BoardSize size, const Position& p);      // aligned grid, '.' = blank
std::string format_flat(const Position& p);                       // "1 2 3 ... 0"
std::string format_grid_line(BoardSize size, const Position& p);  // "1 2 3 / 4 5 6 / 7 8 0"

char direction_letter(Direction d);  // 'U', 'D', 'L', 'R'
Direction opposite(Direction d);

// Applies one move by blank direction; false (and `p` unchanged) if the blank would leave the
// board.
bool apply_direction(BoardSize size, Position& p, Direction d);
// The tile that the move in direction `d` slides, or -1 if illegal.
int tile_for_direction(BoardSize size, const Position& p, Direction d);

// A move sequence as typed by users: tile numbers ("3 12 1 8") or blank directions
// ("U D L R" or "UDLR"), spaces or commas between them. Tile moves are resolved against the
// position they are applied to, so parse and apply together.
struct MoveSequence {
  std::vector<Direction> directions;
  std::vector<int> tiles;
};
Result<MoveSequence> apply_moves(BoardSize size, Position& p, const std::string& text);
// Replays a direction sequence; returns the tiles moved or an error if a move is illegal.
Result<std::vector<int>> replay(BoardSize size, Position& p, const std::vector<Direction>& moves);

std::string format_directions(const std::vector<Direction>& moves);  // "U L L D"
std::string format_tiles(const std::vector<int>& tiles);             // "3 12 1 8"

// Solvability by the parity rule (spec section 2), with its ingredients for explanations.
struct Solvability {
  bool solvable = false;
  int inversions = 0;       // inversions of the tiles of the position, blank ignored
  int goal_inversions = 0;  // the same for the goal
  int blank_row = 0;        // 0-based row of the blank in the position
  int goal_blank_row = 0;   // ... and in the goal
  bool even_columns = false;
  int parity = 0;       // (inversions + (even_columns ? |blank_row - goal_blank_row| : 0)) % 2
  int goal_parity = 0;  // goal_inversions % 2
  std::string reason;   // one or two sentences for humans
};
Solvability solvability(BoardSize size, const Position& p, const Position& goal);

// Uniformly random among the positions that can reach `goal` (a uniformly random arrangement;
// if it is on the wrong side of the parity rule, two fixed tiles are swapped — a bijection
// between the halves, so the result stays uniform). Drawn with SplitMixRng, the generator
// sliding positions have always been drawn with.
Position random_position(BoardSize size, const Position& goal, SplitMixRng& rng);

}  // namespace permuzzle::sliding
