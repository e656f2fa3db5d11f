// Triangular Loopover (spec section 5): a triangle of side f (2 <= f <= 8) cut into f^2 cells.
//
// Layout: row i (1..f from the top) holds 2i-1 cells numbered consecutively (row 1: cell 1;
// row 2: 2,3,4; row 3: 5..9; ...); in every row the odd positions point up, the even ones down.
// Inside the library cells are 0-based (cell 1 of the spec is 0). A position lists, cell by
// cell, the label (1..f^2) of the piece standing there; piece L belongs in cell L.
//
// Moves shift one line of cells parallel to a side: `D k` (parallel to the bottom side, right
// to left), `L k` (parallel to the left side, bottom to top), `R k` (parallel to the right side,
// top to bottom); k = 1..f-1 counts lines from that side (line f is a single cell). Up pieces
// move to the next up cell of the line, down pieces to the next down cell: the up cells and the
// down cells are two orbits. With f = 4: D2 = (9,7,5)(8,6), L3 = (14,9), R1 = (1,4,9,16)(3,8,15).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"

namespace permuzzle::loopover {

struct TriMove {
  char family = 'D';  // 'D', 'L' or 'R'
  int index = 1;      // 1..f-1, counted from that side
  int dir = 1;        // +1 as named in the spec, -1 its inverse (written with a leading '-')
  bool operator==(const TriMove&) const = default;
};

using TriPosition = std::vector<std::uint8_t>;  // label per cell, labels 1..f^2

class TriBoard {
 public:
  static constexpr int MIN_ROWS = 2;
  static constexpr int MAX_ROWS = 8;

  static Result<TriBoard> create(int rows);

  int rows() const { return rows_; }
  int cells() const { return rows_ * rows_; }
  bool is_up(int cell) const { return up_[cell]; }  // 0-based cell
  std::vector<int> up_cells() const;                // (n + f) / 2 cells, 0-based
  std::vector<int> down_cells() const;              // (n - f) / 2 cells, 0-based

  // The distinct moves: both directions of every line, once for lines whose cycles have
  // length <= 2 (there the move is its own inverse and is written without '-').
  const std::vector<TriMove>& moves() const { return moves_; }
  // Where each cell's piece goes (0-based), for a move in any direction.
  std::vector<int> move_map(const TriMove& move) const;
  Perm move_perm(const TriMove& move) const;
  int inverse_index(int move_index) const { return inverse_[move_index]; }
  int move_index(const TriMove& move) const;  // index in moves() (normalised), or -1

  // One generator per line (the spec's positive direction) and its name ("D1", ...).
  std::vector<Perm> generators() const;
  std::vector<std::string> generator_names() const;

  // "D2 -R1 L3" (spaces or commas optional between moves); errors name the offending character.
  Result<std::vector<TriMove>> parse_moves(std::string_view text) const;
  static std::string format_move(const TriMove& move);
  static std::string format_moves(const std::vector<TriMove>& moves);

  // f^2 labels separated by spaces or commas. Checks that the labels are 1..n once each and
  // that every piece stands in its own orbit (up pieces in up cells).
  Result<TriPosition> parse_position(std::string_view text) const;
  TriPosition solved() const;
  TriPosition apply(TriPosition position, const std::vector<TriMove>& moves) const;
  // Uniform over the group S_up x S_down (independent uniform arrangements of both orbits).
  TriPosition random_position(Rng& rng) const;
  std::string render(const TriPosition& position) const;  // the triangle, one row per line

 private:
  int rows_ = 0;
  std::vector<bool> up_;
  std::vector<TriMove> moves_;
  std::vector<int> inverse_;
  std::vector<std::vector<std::vector<int>>> line_cycles_;  // per line: up cycle, down cycle
  int line_of(const TriMove& move) const;
};

struct TriSolveOptions {
  // f <= optimal_max_rows: IDA* with exact per-orbit distance tables (f = 2, 3: whole-graph
  // BFS), proven optimal. Larger f: stage-wise (not proven optimal).
  int optimal_max_rows = 4;
  // The table store (on-disk cache of the f = 4 orbit table; the orbit tables are shared in
  // memory between calls); null: built for this call only.
  TableStore* tables = nullptr;
  // Cancellation and deadline of the optimal search (checked every few thousand nodes; a
  // stopped search returns the run's error). Null: none.
  const RunContext* run = nullptr;
};

struct TriSolveResult {
  std::vector<TriMove> moves;
  bool optimal = false;
  double seconds = 0;
  std::string method;
};

// Solves and verifies by replay. Each move (one cell shift of one line) counts 1.
Result<TriSolveResult> solve_triangular(const TriBoard& board, const TriPosition& start,
                                        const TriSolveOptions& options = {});

// Exact distances of every position for small f (whole-graph BFS over S_up x S_down);
// f <= 3 only. Used to cross-check the optimal solver. Index: see tri_state_index.
Result<std::vector<std::uint8_t>> triangular_bfs(const TriBoard& board);
std::uint64_t tri_state_index(const TriBoard& board, const TriPosition& position);

}  // namespace permuzzle::loopover
