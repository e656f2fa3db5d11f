// Internal: what SolverTables holds (two_phase.hpp keeps it opaque).
#pragma once

#include <memory>

#include "coordinates.hpp"
#include "h48.hpp"
#include "optimal_table.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

namespace permuzzle::cube {

struct SolverTables {
  std::shared_ptr<const detail::CoordTables> coords;
  std::shared_ptr<const detail::Phase1Table> phase1;
};

// The big table; `data` holds the rows, then OPTIMAL_TRAILER bytes: the number of entries at
// each distance 0..31 (uint64, little-endian as on the machine that built it; the file format is
// this machine's, as for every table of the store).
struct OptimalTable {
  detail::Mod3Table table;
  // The extra coordinate: the corner part's size (ccomb's 70; 1 in tests' phase-1-sized tables)
  // and the slice edges' order (Q = order.size; null for Q = 1).
  int corners = detail::N_CCOMB;
  std::shared_ptr<const detail::SliceOrder> order;
  std::vector<std::uint64_t> per_depth;
  static constexpr std::uint64_t TRAILER = 32 * 8;
};

// The H48 search's tables (h48.hpp): the coordinates, the exact h0 table (the fallback where the
// hK table says "at most its base") and the hK table.
struct H48Tables {
  std::shared_ptr<const detail::H48Coords> coords;
  std::shared_ptr<const detail::H48H0Table> h0;
  std::shared_ptr<const detail::H48K2Table> k2;
};

namespace detail {
// The moves of a solution (indices 0..17) as CubeMoves.
std::vector<CubeMove> to_cube_moves(const std::vector<int>& moves);
// Replays on the sticker model (with its face turns kept in `basics`) and fills the common
// fields of a solution.
Result<CubeSolution> finish_solution(const CubeBasics& basics, const CubieState& state,
                                     const std::vector<int>& moves, Metric metric);
}  // namespace detail

}  // namespace permuzzle::cube
