#include "permuzzle/puzzles/sliding/instances.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <sstream>

#include "permuzzle/puzzles/sliding/board.hpp"

namespace permuzzle::sliding {

namespace {
constexpr const char* BLANKS = " \t\r\v\f";
}  // namespace

Result<std::vector<BenchmarkInstance>> parse_benchmark_instances(std::string_view text,
                                                                 BoardSize size,
                                                                 const std::string& source) {
  const int cells = size.cells();
  std::vector<BenchmarkInstance> out;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(BLANKS) == std::string::npos) continue;
    auto fail = [&](const std::string& what) {
      return make_error(fmt::format("{} line {}: {}; expected {} tiles (0 = blank) and the "
                                    "optimal length",
                                    source, number, what, cells),
                        line);
    };
    // Whitespace-separated tokens, each a whole integer: iostreams would accept "31-" as 31 and
    // stop silently at a number too large for long long.
    std::vector<long long> numbers;
    for (std::size_t i = line.find_first_not_of(BLANKS); i != std::string::npos;
         i = line.find_first_not_of(BLANKS, i)) {
      const std::size_t end = std::min(line.find_first_of(BLANKS, i), line.size());
      const std::string_view token = std::string_view(line).substr(i, end - i);
      long long v = 0;
      auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
      if (ec == std::errc::result_out_of_range) return fail(fmt::format("{} is too large", token));
      if (ec != std::errc() || ptr != token.data() + token.size())
        return fail(fmt::format("'{}' is not a number", token));
      numbers.push_back(v);
      i = end;
    }
    if (static_cast<int>(numbers.size()) != cells + 1)
      return fail(fmt::format("{} numbers", numbers.size()));
    BenchmarkInstance inst;
    inst.line = number;
    for (int i = 0; i < cells; ++i) {
      if (numbers[i] < 0 || numbers[i] >= cells)
        return fail(fmt::format("tile {} is out of range", numbers[i]));
      inst.start.push_back(static_cast<std::uint8_t>(numbers[i]));
    }
    if (auto s = check_position(size, inst.start, "the instance"); !s)
      return fail(s.error().message);
    if (numbers[cells] <= 0) return fail(fmt::format("length {} is not positive", numbers[cells]));
    if (numbers[cells] > std::numeric_limits<int>::max())
      return fail(fmt::format("length {} is too large", numbers[cells]));
    inst.published = static_cast<int>(numbers[cells]);
    out.push_back(std::move(inst));
  }
  return out;
}

}  // namespace permuzzle::sliding
