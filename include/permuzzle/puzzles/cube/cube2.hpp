// The 2x2x2 cube: optimal solutions from a full distance table.
//
// Data layout: 24 stickers in the URFDLB face order of the 3x3x3 facelet string, four per face,
// row by row as seen in the usual net (U with B on top, D with F on top, side faces with U on
// top): U1..U4 = 0..3 (U1 at ULB, U2 at UBR, U3 at UFL, U4 at URF), R = 4..7, F = 8..11,
// D = 12..15, L = 16..19, B = 20..23. A 2x2x2 has no centres, so the cube may be given in any
// of its 24 orientations: the colours are read relative to the corner at DBL, which is taken as
// solved (its D, B and L stickers name the colours of faces D, B and L; the colour never seen on
// a cubie with a face's colour is the opposite face's). The moves U, R and F (9 face turns)
// never move that corner; the state is the permutation of the other 7 corners and the twists of
// 6 of them: 7! x 3^6 = 3,674,160 positions, each with its distance in the half-turn metric in a
// table of one byte per position (built by breadth-first search through the table store).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::cube2 {

inline constexpr int STICKERS = 24;
inline constexpr std::uint32_t POSITIONS = 3674160;

struct Cube2 {
  std::array<std::uint8_t, 8> cp{0, 1, 2, 3, 4, 5, 6, 7};  // cubie at each corner position
  std::array<std::uint8_t, 8> co{};                        // its twist (Kociemba's convention)
  bool operator==(const Cube2&) const = default;
};

struct Reading {
  bool valid = false;                 // every cubie real and present once, twists sum to 0
  std::vector<std::string> problems;  // what is wrong otherwise
  Cube2 state;                        // relative to the DBL corner, when valid
};
// Errors only for malformed text (not 24 stickers); impossible cubes are listed in problems.
Result<Reading> read_facelets(std::string_view text);

struct DistanceTable {
  std::vector<std::uint8_t> distance;  // [perm * 729 + twist]
  std::vector<std::uint64_t> histogram;
};
Result<std::shared_ptr<const DistanceTable>> distance_table(TableStore& store,
                                                            const RunContext& run,
                                                            TableReport* report = nullptr);
std::uint32_t index_of(const Cube2& c);

struct Solution {
  std::vector<cube::CubeMove> moves;  // U, R, F turns
  bool verified = false;              // replayed on the 24 stickers: every face one colour
};
// An optimal solution (half-turn metric) of a valid reading's state, replayed on `facelets`.
Result<Solution> solve(const DistanceTable& table, std::string_view facelets);

// Applies moves (face turns, wide turns and whole-cube rotations x y z, as parsed by
// cube::parse_moves) to a 24-sticker string.
Result<std::string> apply_moves(std::string_view facelets,
                                const std::vector<cube::CubeMove>& moves);

}  // namespace permuzzle::cube2
