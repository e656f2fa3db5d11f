#include "permuzzle/puzzles/binary/board.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace permuzzle::binary {

std::size_t Board::ones() const {
  return static_cast<std::size_t>(std::count(cells.begin(), cells.end(), 1));
}

Result<Board> parse_board(std::string_view text) {
  const std::string input(text);
  Board b;
  int col = 0;
  bool in_row = false;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    char ch = i < text.size() ? text[i] : ' ';
    if (ch == '0' || ch == '1') {
      b.cells.push_back(static_cast<std::uint8_t>(ch - '0'));
      ++col;
      in_row = true;
    } else if (std::isspace(static_cast<unsigned char>(ch)) || ch == '/' || ch == ',') {
      if (!in_row) continue;
      if (b.rows == 0) {
        b.cols = col;
      } else if (col != b.cols) {
        return make_error(fmt::format("row {} has {} cells but row 1 has {}; all rows must have "
                                      "the same length",
                                      b.rows + 1, col, b.cols),
                          input, i > 0 ? i - 1 : 0);
      }
      ++b.rows;
      col = 0;
      in_row = false;
    } else {
      return make_error("expected rows of 0 and 1 separated by spaces, e.g. \"1101 0110\"", input,
                        i);
    }
  }
  if (b.rows == 0) return make_error("empty board; expected rows of 0 and 1", input);
  if (static_cast<std::uint64_t>(b.rows) * static_cast<std::uint64_t>(b.cols) > (1u << 30)) {
    return make_error("board too large (at most 2^30 cells)", input);
  }
  return b;
}

std::string format_board(const Board& b) {
  std::string out;
  out.reserve(b.size() + static_cast<std::size_t>(b.rows));
  for (int r = 0; r < b.rows; ++r) {
    if (r) out += ' ';
    for (int c = 0; c < b.cols; ++c) out += static_cast<char>('0' + b.cells[r * b.cols + c]);
  }
  return out;
}

Board default_goal(const Board& start) {
  Board g = start;
  std::size_t k = start.ones();
  std::fill(g.cells.begin(), g.cells.end(), 0);
  std::fill(g.cells.begin(), g.cells.begin() + static_cast<std::ptrdiff_t>(k), 1);
  return g;
}

Board random_board(int rows, int cols, std::size_t ones, Rng& rng) {
  Board b;
  b.rows = rows;
  b.cols = cols;
  b.cells.assign(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), 0);
  ones = std::min(ones, b.cells.size());
  std::fill(b.cells.begin(), b.cells.begin() + static_cast<std::ptrdiff_t>(ones), 1);
  rng.shuffle(b.cells.begin(), b.cells.end());
  return b;
}

Status check_compatible(const Board& start, const Board& goal) {
  if (start.rows != goal.rows || start.cols != goal.cols) {
    return make_error(
        fmt::format("start is {}x{} but goal is {}x{}; the boards must have the "
                    "same shape",
                    start.rows, start.cols, goal.rows, goal.cols));
  }
  if (start.ones() != goal.ones()) {
    return make_error(fmt::format("start has {} ones but goal has {}; swaps keep the number of "
                                  "1s, so they must match",
                                  start.ones(), goal.ones()),
                      {}, Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  return Ok{};
}

Status Replayer::status() const {
  if (!failed_) return Ok{};
  return make_error(
      fmt::format("swap {} {}", count_ + 1,
                  bad_equal_ ? "exchanges two equal cells (wasted move)" : "leaves the board"));
}

Result<Board> replay(const Board& start, const std::vector<SwapCode>& swaps) {
  Replayer r(start);
  for (SwapCode s : swaps) {
    if (!r.apply(s)) return r.status().error();
  }
  return r.board();
}

}  // namespace permuzzle::binary
