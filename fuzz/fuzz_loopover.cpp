// libFuzzer harness: the Loopover text formats (puzzles/loopover/board.hpp): board sizes,
// positions and move sequences. Selector byte: the low 2 bits pick the format, the rest a board
// size (rows and columns 2..9).
#include <string>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

namespace {

using namespace permuzzle::loopover;
using permuzzle::Perm;
using permuzzle::fuzz::accepted;
using permuzzle::fuzz::check;

// Past this many moves the checks below cost more than the parse; `(AB)^500000` is legal.
constexpr std::size_t CHECKED_MOVES = 4096;

void fuzz_size(std::string_view text) {
  auto size = parse_size(text);
  if (!accepted(size)) return;
  check(validate_size(*size).ok());
  auto again = parse_size(format_size(*size));
  check(again.ok() && *again == *size);
}

void fuzz_position(BoardSize size, std::string_view text) {
  auto p = parse_position(size, text);
  if (!accepted(p)) return;
  check(validate_position(size, *p).ok());
  for (const std::string& printed : {format_position(*p), format_grid(size, *p)}) {
    auto again = parse_position(size, printed);
    check(again.ok() && *again == *p);
  }
  if (size.cells() <= 9) {  // the compact digit form
    std::string digits;
    for (auto t : *p) digits += static_cast<char>('0' + t);
    auto again = parse_position(size, digits);
    check(again.ok() && *again == *p);
  }
  // The permutation view converts both ways.
  check(perm_to_position(size, position_to_perm(*p)) == *p);
}

void fuzz_moves(BoardSize size, std::string_view text) {
  auto moves = parse_moves(size, text);
  if (!accepted(moves)) return;
  check(moves->size() <= MAX_PARSED_MOVES);
  for (const Move& m : *moves) {
    check(validate_move(size, m).ok());
    const int len = line_length(size, m.axis);
    check(m.amount != 0 && m.amount > -len && m.amount < len);  // reduced, never a no-op
  }
  if (moves->size() > CHECKED_MOVES) return;
  // Step 1. The printed sequence reads back the same moves.
  auto again = parse_moves(size, format_moves(*moves));
  check(again.ok() && *again == *moves);
  // Step 2. Applying the moves agrees with the product of their permutations (GAP order), and
  //         the inverse sequence goes back to the goal.
  const Position goal = goal_position(size);
  Position p = goal;
  apply_moves(size, p, *moves);
  check(validate_position(size, p).ok());
  Perm product(static_cast<std::size_t>(size.cells()));
  for (const Move& m : *moves) product *= move_perm(size, m);
  check(position_to_perm(p) == product);
  Position back = p;
  apply_moves(size, back, inverse(*moves));
  check(back == goal);
  // Step 3. Normalising to either metric keeps the position, and a sequence costs at least as
  //         much in STM as in MTM.
  for (Metric metric : {Metric::Stm, Metric::Mtm}) {
    Position q = goal;
    apply_moves(size, q, normalize(size, *moves, metric));
    check(q == p);
  }
  check(sequence_length(size, *moves, Metric::Stm) >= sequence_length(size, *moves, Metric::Mtm));
  // Step 4. Odd x odd boards reach only even permutations.
  check(is_solvable(size, p));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [selector, text] = permuzzle::fuzz::split(data, size);
  const int side = (selector >> 2) % 64;
  const BoardSize board{2 + side / 8, 2 + side % 8};
  switch (selector & 3) {
    case 0:
      fuzz_size(text);
      break;
    case 1:
      fuzz_position(board, text);
      break;
    default:
      fuzz_moves(board, text);
      break;
  }
  return 0;
}
