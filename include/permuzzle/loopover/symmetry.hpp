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

#include "permuzzle/loopover/board.hpp"
#include "permuzzle/perm.hpp"

namespace permuzzle::loopover {

struct Symmetry {
  std::string name;  // "shift-rows", "shift-columns", "mirror-left-right", ...
  Perm cells;        // GAP order, 0-based points, degree cells()
};

// The generators listed above (the quarter turn only on square boards).
std::vector<Symmetry> symmetry_generators(BoardSize size);
// Every element of the symmetry group, identity first (closure of the generators).
std::vector<Perm> symmetry_group(BoardSize size);
// The position s^sigma.
Position conjugate_position(BoardSize size, const Position& position, const Perm& sigma);
// The image of a move sequence under sigma: solves conjugate_position(start) when `moves`
// solves start.
MoveSequence conjugate_moves(BoardSize size, const MoveSequence& moves, const Perm& sigma);

// The seeds' bound: horizontal and vertical distances (cyclic, summed over tiles) each divided
// by what one move can reduce them by (STM: c cells for a row move, r for a column move; MTM:
// c * floor(c/2) and r * floor(r/2)), rounded up, and a parity fix when every move is odd.
struct SeedsBound {
  int horizontal_sum = 0;  // sum over tiles of the cyclic column distance to home
  int vertical_sum = 0;    // sum over tiles of the cyclic row distance to home
  int horizontal = 0;      // row moves needed at least
  int vertical = 0;        // column moves needed at least
  int parity_fix = 0;      // 1 when the sum has the wrong parity for an all-odd move set
  int total = 0;
};
SeedsBound seeds_bound(BoardSize size, const Position& position, Metric metric);

}  // namespace permuzzle::loopover
