// libFuzzer harness: the 15-puzzle groupoid text formats (parse_position and parse_path,
// puzzles/fifteen/groupoid.hpp). Selector byte: bit 0 picks the format.
#include <array>
#include <string>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/fifteen/groupoid.hpp"

namespace {

using namespace permuzzle::fifteen;
using permuzzle::fuzz::accepted;
using permuzzle::fuzz::check;

void fuzz_position(std::string_view text) {
  auto b = parse_position(text);
  if (!accepted(b)) return;
  std::array<bool, CELLS + 1> seen{};
  for (auto label : *b) {
    check(label >= 1 && label <= BLANK && !seen[label]);
    seen[label] = true;
  }
  auto again = parse_position(format_position(*b));
  check(again.ok() && *again == *b);
  auto from_code = position_of(code_of(*b));
  check(from_code.ok() && *from_code == *b);
}

void fuzz_path(std::string_view text) {
  auto path = parse_path(text);
  if (!accepted(path)) return;
  std::string printed;
  for (int cell : *path) {
    check(cell >= 1 && cell <= CELLS);
    printed += std::to_string(cell) + ",";
  }
  auto again = parse_path(printed);
  check(again.ok() && *again == *path);
  // Walking the blank from the goal: an accepted walk keeps the code and the board in step
  // (apply_blank_path checks that itself) and keeps the position solvable.
  auto walk = apply_blank_path(goal_board(), *path);
  if (walk.ok()) check(is_solvable(walk->end));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [selector, text] = permuzzle::fuzz::split(data, size);
  if (selector & 1)
    fuzz_path(text);
  else
    fuzz_position(text);
  return 0;
}
