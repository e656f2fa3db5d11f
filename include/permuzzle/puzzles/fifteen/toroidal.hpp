// The 15-puzzle's toroidal model: legal positions <-> elements of a permutation group on 23
// points (spec section 3).
//
// Roll rows and columns of the board (as a torus) until the blank is in cell 16; tile t then
// stands in rolled cell k and the element maps t -> k (t, k in 1..15). The row shift a and the
// column shift b (mod 4) are coded on points 16..19 and 20..23 as rotations:
// 16+j -> 16+(j+a)%4 and 20+j -> 20+(j+b)%4. With the blank in real row rb and column cb
// (0-based), a = (rb + 1) mod 4 and b = (cb + 1) mod 4, so the goal is the identity.
// The generators L, R, U, D (tile moves left, right, up, down = the blank moves the other way)
// act by right multiplication: position after move m  <->  element * m.
#pragma once

#include <array>
#include <string>

#include "permuzzle/puzzles/fifteen/groupoid.hpp"
#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"

namespace permuzzle::fifteen {

enum class TileMove { L, R, U, D };
inline constexpr char TILE_MOVE_NAMES[] = "LRUD";

// L, R, U, D exactly as written in the spec.
const std::array<Perm, 4>& toroidal_generators();

bool is_legal(const Board16& b, TileMove m);
Board16 apply_move(const Board16& b, TileMove m);  // requires is_legal

Perm to_toroidal(const Board16& b);
// The position of an element; an error if it is not of the form above.
Result<Board16> from_toroidal(const Perm& element);

}  // namespace permuzzle::fifteen
