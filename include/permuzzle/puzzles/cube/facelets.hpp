// The 3x3x3 Rubik's cube as stickers (spec section 6).
//
// Data layout: the 54 stickers are numbered as in the common facelet string used by Kociemba's
// solvers: faces in the order U, R, F, D, L, B, nine stickers each, row by row as seen in the
// usual net (U with B on top, D with F on top, the side faces with U on top), so U1..U9 = 0..8,
// R1..R9 = 9..17, F = 18..26, D = 27..35, L = 36..44, B = 45..53; centres are 4, 13, 22, ...
// Moves are permutations of these 54 points (GAP convention: the sticker at x moves to x^p),
// computed from the geometry: each sticker has a position in {-1,0,1}^3 and an outward normal,
// and a move rotates the stickers of its layers a quarter turn clockwise seen from its face.
// GAP's cube example numbers only the 48 moving stickers (faces U, L, F, R, B, D, eight each,
// centres skipped); to_gap/from_gap convert.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"

namespace permuzzle::cube {

inline constexpr int STICKERS = 54;
inline constexpr char FACE_NAMES[] = "URFDLB";

// One parsed move: the face/slice/rotation letter as written and the number of clockwise
// quarter turns (1, 2 or 3).
struct CubeMove {
  std::string name;  // "U", "M", "x", "r" / "Rw", ...
  int turns = 1;
  bool operator==(const CubeMove&) const = default;
};

// Singmaster notation: U D L R F B, slices M (as L) E (as D) S (as F), rotations x y z, wide
// moves u d l r f b or Uw ...; suffix ' or - or 3 for the inverse, 2 for a half turn. Moves
// may be separated by spaces or written together ("RUR'U'").
Result<std::vector<CubeMove>> parse_moves(std::string_view text);
std::string format_moves(const std::vector<CubeMove>& moves);  // "R U R' U'"

// The permutation of the 54 stickers of one quarter turn of a basic move ("U", "M", "x", "r").
Perm move_perm(const std::string& name);
Perm moves_perm(const std::vector<CubeMove>& moves);  // product, left to right

// The 48-sticker numbering of GAP's cube example: gap point g (0-based) is sticker to_54[g].
const std::array<int, 48>& gap_to_54();
// A 54-point permutation fixing the centres, as a permutation of GAP's 48 points.
Result<Perm> to_gap(const Perm& p54);
Perm from_gap(const Perm& p48);
// GAP's six generators U, L, F, R, B, D of the cube group on 48 points, in that order
// (tests/cube_test.cpp checks them against the literal cycles of spec/groups.md).
std::vector<Perm> gap_generators();

// Facelet string of the cube whose stickers were permuted by `p` from the solved cube.
std::string facelets_of(const Perm& p54);
inline std::string solved_facelets() {
  return facelets_of(Perm());
}

}  // namespace permuzzle::cube
