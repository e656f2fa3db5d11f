// Board symmetries of rectangular Loopover and the seeds' lower bound.
//
// A symmetry is a permutation sigma of the cells that maps every move to a move (or its
// inverse): shifting all rows right together, shifting all columns down together, the mirrors
// (left-right, top-bottom) and, on square boards, the quarter turn. It acts on positions by
// conjugation: the position s (as a cell permutation, board.hpp) goes to s^sigma =
// sigma^-1 * s * sigma, which has optimal solutions of the same length in STM and MTM (the image
// of a solution under sigma solves it).
#pragma once

#include <string>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

namespace permuzzle::loopover {

struct Symmetry {
  std::string name;  // "shift-rows", "shift-columns", "mirror-left-right", ...
  Perm cells;        // GAP order, 0-based points, degree cells()
};

// The generators listed above (the quarter turn only on square boards).
std::vector<Symmetry> symmetry_generators(BoardSize size);
// Every element of the symmetry group, identity first (closure of the generators).
std::vector<Perm> symmetry_group(BoardSize size);
// The symmetry group of the board in a metric, identity first: symmetry_group(size), and in MTM
// (a shift of a line by any amount is one move) also the scalings x -> a*x of the rows and of
// the columns by every unit a modulo their length, which turn a shift by k into a shift by a*k
// (symmetry_classes.hpp: 3x5 60 in STM, 120 in MTM).
std::vector<Perm> metric_symmetry_group(BoardSize size, Metric metric);
// The position s^sigma.
Position conjugate_position(BoardSize size, const Position& position, const Perm& sigma);
// The image of a move sequence under sigma: solves conjugate_position(start) when `moves`
// solves start.
MoveSequence conjugate_moves(BoardSize size, const MoveSequence& moves, const Perm& sigma);

// The seeds' bound (spec section 4), admissible in STM and MTM (the argument is in
// symmetry.cpp). Row moves and column moves are counted separately; each is "pieces touches
// needed" divided by the pieces one move touches (c for a row move, r for a column move):
// - distances: a piece at cyclic column distance d from home needs ceil(d / h) row-move
//   touches (h = 1 in STM, floor(c/2) in MTM, the most one shift can bring it closer);
// - lifts: pieces standing in their home row that never leave it are only ever moved by that
//   row's shifts, so they all keep one common column offset; every other one of them must
//   leave the row and come back, which takes at least 2 column-move touches (columns: the same
//   transposed, paid in row-move touches);
// - broken rows: a row holding exactly its own pieces loses one of them to the first column
//   move, so when any column move is needed at all, at least one of its pieces is lifted;
// - parity: in STM a row move is odd iff c is even, a column move iff r is even.
struct SeedsBound {
  int horizontal_sum = 0;  // sum over tiles of the cyclic column distance to home
  int vertical_sum = 0;    // sum over tiles of the cyclic row distance to home
  int horizontal = 0;      // row moves needed by the column distances alone
  int vertical = 0;        // column moves needed by the row distances alone
  int column_lifts = 0;    // pieces that must leave their home column (paid by row moves)
  int row_lifts = 0;       // pieces that must leave their home row (paid by column moves)
  int broken_columns = 0;  // complete columns broken by row moves (beyond the lifts)
  int broken_rows = 0;     // complete rows broken by column moves (beyond the lifts)
  int lift_moves = 0;      // moves added by lifts and broken lines (both axes)
  int parity_fix = 0;      // moves added by the parity of the position (STM)
  int total = 0;
};
SeedsBound seeds_bound(BoardSize size, const Position& position, Metric metric);

}  // namespace permuzzle::loopover
