#include "permuzzle/puzzles/sliding/instances.hpp"

#include <fmt/format.h>

#include <sstream>

#include "permuzzle/puzzles/sliding/board.hpp"

namespace permuzzle::sliding {

Result<std::vector<BenchmarkInstance>> parse_benchmark_instances(std::string_view text,
                                                                 BoardSize size,
                                                                 const std::string& source) {
  const int cells = size.cells();
  std::vector<BenchmarkInstance> out;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto fail = [&](const std::string& what) {
      return make_error(fmt::format("{} line {}: {}; expected {} tiles (0 = blank) and the "
                                    "optimal length",
                                    source, number, what, cells),
                        line);
    };
    std::istringstream ss(line);
    std::vector<long long> numbers;
    long long v;
    while (ss >> v) numbers.push_back(v);
    ss.clear();
    if (std::string rest; ss >> rest) return fail("'" + rest + "' is not a number");
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
    inst.published = static_cast<int>(numbers[cells]);
    out.push_back(std::move(inst));
  }
  return out;
}

}  // namespace permuzzle::sliding
