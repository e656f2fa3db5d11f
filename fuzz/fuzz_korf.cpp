// libFuzzer harness: benchmark instance lists in Korf's format
// (parse_benchmark_instances, puzzles/sliding/instances.hpp). Selector byte: the board size.
#include <charconv>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/instances.hpp"

namespace {

using namespace permuzzle::sliding;
using permuzzle::fuzz::accepted;
using permuzzle::fuzz::check;

// The instance files in data/ are 3x3, 4x4 and 5x5; small boards make short valid lines.
constexpr BoardSize SIZES[] = {{2, 2}, {2, 3}, {3, 3}, {4, 4}, {5, 5}, {2, 8}};

// Line `number` (1-based) of `text`, as std::getline splits it.
std::string_view line_of(std::string_view text, int number) {
  for (int n = 1; n < number; ++n) text.remove_prefix(text.find('\n') + 1);
  return text.substr(0, text.find('\n'));
}

// The last blank-separated token of a line, read independently of the parser (iostreams).
bool last_number(std::string_view line, long long& value) {
  auto end = line.find_last_not_of(" \t\r\v\f");
  if (end == std::string_view::npos) return false;
  auto begin = line.find_last_of(" \t\r\v\f", end);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  std::string_view token = line.substr(begin, end + 1 - begin);
  if (!token.empty() && token[0] == '+') token.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  return ec == std::errc() && ptr == token.data() + token.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [selector, text] = permuzzle::fuzz::split(data, size);
  const BoardSize board = SIZES[selector % std::size(SIZES)];
  auto list = parse_benchmark_instances(text, board, "fuzz");
  if (!accepted(list)) return 0;
  // Every instance is a full arrangement with a positive length, on increasing lines, and the
  // length is exactly the number written at the end of its line.
  std::string printed;
  int previous_line = 0;
  for (const auto& inst : *list) {
    check(inst.line > previous_line);
    previous_line = inst.line;
    check(check_position(board, inst.start).ok());
    check(inst.published > 0);
    long long written = 0;
    check(last_number(line_of(text, inst.line), written) && written == inst.published);
    printed += format_flat(inst.start) + " " + std::to_string(inst.published) + "\n";
  }
  // Printing the instances one a line reads back the same list.
  auto again = parse_benchmark_instances(printed, board, "printed");
  check(again.ok() && again->size() == list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    check((*again)[i].start == (*list)[i].start);
    check((*again)[i].published == (*list)[i].published);
    check((*again)[i].line == static_cast<int>(i) + 1);
  }
  return 0;
}
