// The cube as cubies with orientations: the (r, v, s, w) form of spec section 6.
//
// Data layout: corners URF, UFL, ULB, UBR, DFR, DLF, DBL, DRB (0..7) and edges UR, UF, UL, UB,
// DR, DF, DL, DB, FR, FL, BL, BR (0..11), numbered like Kociemba's solvers. r[i] is the position
// now holding corner cubie i (GAP style: cubie i goes to r[i]); v[i] in Z3 is its twist: the
// index, within the position's sticker triple (U/D sticker first, then clockwise), at which the
// cubie's U/D sticker now sits. s and w likewise for edges (w[i] in Z2, 1 = flipped).
// Composition (apply a, then b) is the semidirect product
//   r = r_a * r_b,  v[i] = v_a[i] + v_b[r_a[i]]   (and the same for s, w),
// i.e. the second position's orientation vector is permuted by the first's permutation before
// the two are added.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/rng.hpp"

namespace permuzzle::cube {

extern const char* const CORNER_NAMES[8];
extern const char* const EDGE_NAMES[12];

struct CubieState {
  std::array<std::uint8_t, 8> r{0, 1, 2, 3, 4, 5, 6, 7};
  std::array<std::uint8_t, 8> v{};
  std::array<std::uint8_t, 12> s{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::array<std::uint8_t, 12> w{};

  bool operator==(const CubieState&) const = default;
  CubieState operator*(const CubieState& then) const;  // apply *this, then `then`
  CubieState inverse() const;
  bool is_solved() const { return *this == CubieState{}; }
  // "r = (1,2,3) v = [..] s = ... w = [..]" with 1-based cycles.
  std::string describe() const;
};

// The cubie form of a sticker permutation (centres fixed); an error if it is not a cube move.
Result<CubieState> from_sticker_perm(const Perm& p54);
Perm to_sticker_perm(const CubieState& c);  // 54 points, centres fixed
// Where a rigid motion of the whole cube (face turn, slice, rotation x y z: a 54-point sticker
// permutation, centres free to move) takes the cubie of each position: r/s the position it goes
// to, v/w the index within that position's sticker triple/pair at which its first sticker lands
// (the same convention as from_sticker_perm for face turns). An error if the stickers of a
// position do not land together on one position in cyclic order (not a rigid motion).
Result<CubieState> rigid_motion_cubies(const Perm& p54);
std::string to_facelets(const CubieState& c);

// The fundamental theorem's three conditions, each with the value found.
struct TheoremCheck {
  int corner_sign = 1, edge_sign = 1;
  int twist_sum = 0;  // mod 3
  int flip_sum = 0;   // mod 2
  bool solvable() const { return corner_sign == edge_sign && twist_sum == 0 && flip_sum == 0; }
  std::vector<std::string> failures() const;
};
TheoremCheck check_theorem(const CubieState& c);

// Reading a 54-character facelet string (URFDLB order). Colours are whatever characters the
// string uses; the six centres define which colour belongs to which face, so strings of
// rotated cubes are read relative to their centres.
struct FaceletReading {
  bool valid = false;                 // a physically reassembled cube (every cubie real, once)
  std::vector<std::string> problems;  // colour counts, impossible or duplicate cubies, ...
  CubieState state;                   // when valid
};
// Errors only for malformed text (wrong length); impossible cubes are reported in problems.
Result<FaceletReading> read_facelets(std::string_view text);

// A uniformly random element of the cube group (all states satisfying the theorem).
CubieState random_state(Rng& rng);

}  // namespace permuzzle::cube
