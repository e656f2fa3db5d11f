// libFuzzer harness: the sliding-puzzle text formats (puzzles/sliding/board.hpp): board sizes,
// positions (with and without a given size), goals and move sequences. Two selector bytes: the
// first picks the format, the second a board size among the 62 supported ones.
#include <optional>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"

namespace {

using namespace permuzzle::sliding;
using permuzzle::fuzz::accepted;
using permuzzle::fuzz::check;

std::vector<BoardSize> supported_sizes() {
  std::vector<BoardSize> out;
  for (int r = 2; r <= MAX_SIDE; ++r)
    for (int c = 2; c <= MAX_SIDE; ++c)
      if (check_board_size({r, c}).ok()) out.push_back({r, c});
  return out;
}
const std::vector<BoardSize> SIZES = supported_sizes();

// A parsed position holds every tile of its board once, and reads back from each printed form.
void check_position_round_trips(BoardSize size, const Position& p) {
  check(check_position(size, p).ok());
  auto flat = parse_position(format_flat(p), size);
  check(flat.ok() && *flat == p);
  BoardSize shape;
  auto grid = parse_position(format_grid_line(size, p), std::nullopt, &shape);
  check(grid.ok() && *grid == p && shape == size);
  auto board = parse_position(format_board(size, p), std::nullopt, &shape);
  check(board.ok() && *board == p && shape == size);
}

void fuzz_size(const std::string& text) {
  auto size = parse_board_size(text);
  if (!accepted(size)) return;
  check(check_board_size(*size).ok());
  auto again = parse_board_size(to_string(*size));
  check(again.ok() && *again == *size);
}

void fuzz_position(const std::string& text, std::optional<BoardSize> given) {
  BoardSize inferred{0, 0};
  auto p = parse_position(text, given, &inferred);
  if (!accepted(p)) return;
  if (given) check(inferred == *given);
  check_position_round_trips(inferred, *p);
}

void fuzz_goal(const std::string& text, BoardSize size) {
  auto goal = parse_goal(text, size);
  if (!accepted(goal)) return;
  check(check_position(size, *goal).ok());
}

// Moves from the standard goal: every accepted sequence replays to the same position, reads
// back from both printed forms, and (moves keep the parity invariant) ends on a position the
// parity rule calls solvable.
void fuzz_moves(const std::string& text, BoardSize size) {
  const Position start = standard_goal(size);
  Position p = start;
  auto seq = apply_moves(size, p, text);
  if (!accepted(seq)) return;
  check(seq->directions.size() == seq->tiles.size());
  check(check_position(size, p).ok());
  check(solvability(size, p, start).solvable);
  Position q = start;
  auto tiles = replay(size, q, seq->directions);
  check(tiles.ok() && *tiles == seq->tiles && q == p);
  for (const std::string& printed :
       {format_directions(seq->directions), format_tiles(seq->tiles)}) {
    Position r = start;
    auto again = apply_moves(size, r, printed);
    check(again.ok() && again->directions == seq->directions && r == p);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [selector, rest] = permuzzle::fuzz::split(data, size);
  auto [size_selector, view] =
      permuzzle::fuzz::split(reinterpret_cast<const std::uint8_t*>(rest.data()), rest.size());
  const std::string text(view);
  const BoardSize board = SIZES[size_selector % SIZES.size()];
  switch (selector % 8) {
    case 0:
      fuzz_size(text);
      break;
    case 1:
    case 2:
      fuzz_position(text, std::nullopt);
      break;
    case 3:
      fuzz_position(text, board);
      break;
    case 4:
      fuzz_goal(text, board);
      break;
    default:
      fuzz_moves(text, board);
      break;
  }
  return 0;
}
