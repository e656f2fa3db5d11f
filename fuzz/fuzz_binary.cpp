// libFuzzer harness: binary puzzle boards (parse_board, puzzles/binary/board.hpp).
#include <string>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/binary/board.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace permuzzle::binary;
  using permuzzle::fuzz::check;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto board = parse_board(text);
  if (!permuzzle::fuzz::accepted(board)) return 0;
  const Board& b = *board;
  check(b.rows >= 1 && b.cols >= 1);
  check(b.cells.size() == static_cast<std::size_t>(b.rows) * static_cast<std::size_t>(b.cols));
  for (auto cell : b.cells) check(cell == 0 || cell == 1);
  auto again = parse_board(format_board(b));
  check(again.ok() && *again == b);
  // The default goal has the same shape and number of 1s, packed at the top.
  const Board goal = default_goal(b);
  check(check_compatible(b, goal).ok());
  for (std::size_t i = 0; i < goal.size(); ++i) check(goal.cells[i] == (i < b.ones() ? 1 : 0));
  return 0;
}
