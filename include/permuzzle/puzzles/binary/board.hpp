// The binary tile puzzle (swap game, spec section 7): boards of 0/1 cells and swap moves.
//
// Data layout: cells row by row, cells[r * cols + c] in {0, 1}. A swap of two orthogonally
// adjacent cells is encoded in one uint32: (cell << 1) | vertical, where the swap exchanges
// `cell` with its right neighbour (vertical = 0) or with the cell below (vertical = 1). A
// 1000 x 1000 board's ~10^8 swaps thus take 4 bytes each.
// Text form: rows of 0/1 separated by spaces, "1101 0110 0100 1010".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/rng.hpp"

namespace permuzzle::binary {

struct Board {
  int rows = 0, cols = 0;
  std::vector<std::uint8_t> cells;

  std::size_t size() const { return cells.size(); }
  std::size_t ones() const;
  bool operator==(const Board&) const = default;
};

using SwapCode = std::uint32_t;

inline SwapCode swap_code(std::uint32_t cell, bool vertical) {
  return (cell << 1) | (vertical ? 1 : 0);
}
inline std::uint32_t swap_first(SwapCode s) {
  return s >> 1;
}
inline std::uint32_t swap_second(SwapCode s, int cols) {
  return (s >> 1) + ((s & 1) ? static_cast<std::uint32_t>(cols) : 1u);
}

// Rows of 0/1 separated by whitespace; all rows the same length.
Result<Board> parse_board(std::string_view text);
std::string format_board(const Board& b);  // "1101 0110 ..."

// The default target: the same number of 1s filling the rows from the top, left to right.
Board default_goal(const Board& start);
// A uniformly random board with exactly `ones` 1s.
Board random_board(int rows, int cols, std::size_t ones, Rng& rng);

// Checks that start and goal have the same shape and number of 1s (errors name the counts).
Status check_compatible(const Board& start, const Board& goal);

// Replays swaps one at a time from a start board, checking each: it must stay on the board and
// exchange a 0 and a 1 (a swap of equal cells is wasted and rejected). The streaming form of
// replay(), for sequences too long to keep (a 3000 x 3000 board needs ~3.4e9 swaps): memory is
// one board whatever the length.
class Replayer {
 public:
  explicit Replayer(Board start) : board_(std::move(start)) {}
  // Applies one swap; false (and the board unchanged) when it is invalid. After a failure every
  // further swap is refused, and status() names the first bad swap.
  bool apply(SwapCode s) {
    if (failed_) return false;
    const std::uint32_t n = static_cast<std::uint32_t>(board_.cells.size());
    const std::uint32_t a = swap_first(s), c = swap_second(s, board_.cols);
    const bool vertical = s & 1;
    if (a >= n || c >= n || (!vertical && static_cast<int>(a % board_.cols) == board_.cols - 1) ||
        board_.cells[a] == board_.cells[c]) {
      failed_ = true;
      bad_equal_ = a < n && c < n && board_.cells[a] == board_.cells[c];
      return false;
    }
    std::swap(board_.cells[a], board_.cells[c]);
    ++count_;
    return true;
  }
  const Board& board() const { return board_; }
  std::uint64_t count() const { return count_; }  // swaps applied successfully
  Status status() const;

 private:
  Board board_;
  std::uint64_t count_ = 0;
  bool failed_ = false, bad_equal_ = false;
};

// Replays swaps from `start` (see Replayer). Returns the final board.
Result<Board> replay(const Board& start, const std::vector<SwapCode>& swaps);

}  // namespace permuzzle::binary
