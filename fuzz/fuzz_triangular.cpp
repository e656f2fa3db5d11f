// libFuzzer harness: the triangular Loopover text formats (TriBoard::parse_moves and
// TriBoard::parse_position, puzzles/loopover/triangular.hpp). Selector byte: bit 0 picks the
// format, the rest the number of rows (2..8).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/loopover/triangular.hpp"

namespace {

using namespace permuzzle::loopover;
using permuzzle::fuzz::accepted;
using permuzzle::fuzz::check;

std::vector<TriBoard> make_boards() {
  std::vector<TriBoard> out;
  for (int rows = TriBoard::MIN_ROWS; rows <= TriBoard::MAX_ROWS; ++rows)
    out.push_back(*TriBoard::create(rows));
  return out;
}
const std::vector<TriBoard> BOARDS = make_boards();

void fuzz_moves(const TriBoard& board, std::string_view text) {
  auto moves = board.parse_moves(text);
  if (!accepted(moves)) return;
  for (const TriMove& m : *moves) {
    check(m.family == 'D' || m.family == 'L' || m.family == 'R');
    check(m.dir == 1 || m.dir == -1);
    check(board.move_index(m) >= 0);
  }
  auto again = board.parse_moves(TriBoard::format_moves(*moves));
  check(again.ok() && *again == *moves);
  // The moves keep up and down pieces apart, and the reversed inverse sequence undoes them.
  if (moves->size() > 2048) return;
  TriPosition p = board.apply(board.solved(), *moves);
  auto printed = board.parse_position([&] {
    std::string s;
    for (auto label : p) s += std::to_string(label) + ",";
    return s;
  }());
  check(printed.ok() && *printed == p);
  std::vector<TriMove> undo(moves->rbegin(), moves->rend());
  for (TriMove& m : undo) m.dir = -m.dir;
  check(board.apply(p, undo) == board.solved());
}

void fuzz_position(const TriBoard& board, std::string_view text) {
  auto p = board.parse_position(text);
  if (!accepted(p)) return;
  const int n = board.cells();
  check(static_cast<int>(p->size()) == n);
  std::vector<bool> seen(static_cast<std::size_t>(n) + 1, false);
  for (int c = 0; c < n; ++c) {
    const int label = (*p)[c];
    check(label >= 1 && label <= n && !seen[label]);
    seen[label] = true;
    check(board.is_up(c) == board.is_up(label - 1));
  }
  std::string printed;
  for (auto label : *p) printed += std::to_string(label) + " ";
  auto again = board.parse_position(printed);
  check(again.ok() && *again == *p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [selector, text] = permuzzle::fuzz::split(data, size);
  const TriBoard& board = BOARDS[(selector >> 1) % BOARDS.size()];
  if (selector & 1)
    fuzz_position(board, text);
  else
    fuzz_moves(board, text);
  return 0;
}
