// Loopover (rectangular): the vocabulary shared by the optimal solver, the fast multi-stage
// solver, the whole-graph analysis and the CLI. Rules and notation: shared spec section 4.
//
// Layout conventions (docs/architecture.md):
// - Cells are numbered 0..rows*cols-1 row by row inside the library (1-based in text).
// - A Position lists, cell by cell, the tile standing there; tiles are 1..rows*cols and the
//   goal has tile i+1 in cell i.
// - A Move shifts one whole line cyclically. Row moves: amount > 0 shifts RIGHT (the rightmost
//   piece wraps to the left). Column moves: amount > 0 shifts DOWN (the bottom piece wraps to
//   the top). In the seeds' notation row 0 shifted right by one is `A`, left is `-A`; column 0
//   shifted down is `1`, up is `-1`.
#pragma once

#include <cstdint>
#include <vector>

namespace permuzzle::loopover {

struct BoardSize {
  int rows = 4;
  int cols = 4;
  int cells() const { return rows * cols; }
  bool operator==(const BoardSize&) const = default;
};

using Position = std::vector<std::uint8_t>;  // tile per cell, tiles 1..cells()

enum class Axis : std::uint8_t { Row, Column };

// STM counts each one-cell shift (|amount| cells); MTM counts any shift of one line as 1.
enum class Metric : std::uint8_t { Stm, Mtm };

struct Move {
  Axis axis = Axis::Row;
  std::uint8_t index = 0;  // 0-based row (A = 0) or column (1 = 0)
  std::int8_t amount = 1;  // signed shift in cells; STM moves have |amount| == 1
  bool operator==(const Move&) const = default;
};

}  // namespace permuzzle::loopover
