// Sliding puzzles: the vocabulary shared by the generic solver, the pattern-database solver,
// the whole-graph analysis and the CLI.
//
// Layout conventions (docs/architecture.md):
// - Cells are numbered 0..rows*cols-1 row by row inside the library (1-based only in text).
// - A Position lists, cell by cell, the tile standing there; 0 is the blank.
// - A move is named by the direction the BLANK travels (U, D, L, R) or, equivalently, by the
//   tile that slides into the blank's cell. Move sequences are applied left to right.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace permuzzle::sliding {

struct BoardSize {
  int rows = 4;
  int cols = 4;
  int cells() const { return rows * cols; }
  bool operator==(const BoardSize&) const = default;
};

using Position = std::vector<std::uint8_t>;  // tile per cell, 0 = blank

enum class Direction : std::uint8_t { Up = 0, Down = 1, Left = 2, Right = 3 };  // blank travels

// Reported while a search runs (IDA* iteration finished, or periodically inside one).
struct SearchProgress {
  int bound = 0;            // no solution shorter than this exists (proven so far)
  std::uint64_t nodes = 0;  // nodes expanded so far, all directions
  double seconds = 0;
  std::string note;  // free text, e.g. "forward", "backward", "pdb 7-8"
};
using ProgressCallback = std::function<void(const SearchProgress&)>;

struct SolveResult {
  std::vector<Direction> moves;  // blank directions, from start to goal
  std::vector<int> tiles;        // the tile moved by each move (same length as moves)
  bool optimal = false;          // proven minimal
  std::uint64_t nodes = 0;       // total nodes expanded
  std::uint64_t nodes_forward = 0;
  std::uint64_t nodes_backward = 0;  // 0 unless bidirectional
  double seconds = 0;
  std::string method;  // e.g. "ida*+linear-conflict", "ida*+pdb 7-8", "bidirectional"
  std::string heuristic;
};

}  // namespace permuzzle::sliding
