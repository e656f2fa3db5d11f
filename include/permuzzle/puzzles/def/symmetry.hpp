// The symmetry group of a definition file's puzzle, found by a backtrack search (issue 33).
//
// Points: every (set, slot, orientation) of the slots some move changes (slots no move touches
// are left out: any permutation of them would count otherwise). A move is the permutation of
// points that carries the piece in slot m.perm[i] to slot i, its orientation raised by
// m.ori[i] (definition.hpp's state form). A symmetry is a permutation phi of the points that
// - keeps every set, maps each slot's orientations onto one slot's, as o -> e*o + t with the
//   same unit e for the whole set (e = -1: a mirror image, which turns twists backwards);
// - conjugates the move set onto itself, each move onto a move of the same quarter-turn cost
//   (phi^-1 m phi; a mirror image maps a quarter turn onto an inverse quarter turn);
// - keeps the solved pattern: slots holding identical pieces go to slots holding identical
//   pieces, ignored orientations to ignored orientations.
// Then conjugate positions are at the same distance from solved. The 3x3x3 file has 48 (the
// rotations and reflections of the cube), the 3x3 Loopover file 72, the 4x4 Loopover file 128.
//
// Search: phi is fixed by the image of one point per orbit of the moves and by where it sends
// each generating move (the power-1 moves): phi(g(p)) = phi g phi^-1 (phi(p)). The points of an
// orbit are assigned along a spanning tree of the generators; an image is tried for an orbit's
// first point, and a target move (of the same cost) for a generator the first time the tree
// needs it; every generator edge between assigned points is checked as soon as it can be.
// Complete assignments are checked for the conditions above and counted; those commuting with
// every move act on no position (see SymmetryGroup::central), and the order reported is the
// number of different actions on positions.
#pragma once

#include <cstdint>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/def/definition.hpp"

namespace permuzzle::def {

// A point of the search: orientation `ori` of slot `slot` (0-based) of set `set`.
struct SymmetryPoint {
  std::uint32_t set = 0, slot = 0, ori = 0;
};

struct SymmetryGroup {
  // The symmetries as they act on positions: maps / central.
  std::uint64_t order = 0;
  // Point maps found, and those among them that commute with every move: those conjugate every
  // position to itself (a twist of every corner at once, a flip of every edge, the twist of a
  // piece no move takes out of its slot), so the group acting on positions is the quotient.
  // The 3x3x3 file: 288 maps, 6 central (3 twists x 2 flips), 48 symmetries.
  std::uint64_t maps = 0;
  std::uint64_t central = 0;
  std::size_t points = 0;  // the points the symmetries permute (slots moved x orientations)
  // Every point map found, as images of the points (identity first), when `keep_elements`.
  std::vector<std::vector<std::uint32_t>> elements;
  // With `keep_elements`: what each point is (the elements' indices).
  std::vector<SymmetryPoint> point_list;
  std::uint64_t nodes = 0;  // search steps
};

struct SymmetryOptions {
  bool keep_elements = false;
  // Search steps allowed (LimitExceeded past it: files of thousands of moves).
  std::uint64_t max_nodes = 20'000'000;
  std::size_t max_points = 4096;
  // With keep_elements: most point images kept (elements x points; LimitExceeded past it: a
  // puzzle whose pieces twist in place has |G| x o^pieces maps).
  std::uint64_t max_kept_images = std::uint64_t{1} << 24;
};

Result<SymmetryGroup> symmetry_group(const Definition& d, const RunContext& run,
                                     const SymmetryOptions& options = {});

}  // namespace permuzzle::def
