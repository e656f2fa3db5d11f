// Benchmark instance lists in Korf's format (data/korf100.txt, data/korf24.txt): one instance a
// line, the tiles row-major with 0 for the blank, then the published optimal length. Blank lines
// are skipped. Parsing only: the caller reads the file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/puzzles/sliding/types.hpp"

namespace permuzzle::sliding {

struct BenchmarkInstance {
  int line = 0;  // 1-based line number in the source
  Position start;
  int published = 0;  // published optimal length
};

// Errors name the source and the line: a tile out of range or repeated, too few or too many
// numbers, a missing or non-positive length.
Result<std::vector<BenchmarkInstance>> parse_benchmark_instances(std::string_view text,
                                                                 BoardSize size,
                                                                 const std::string& source);

}  // namespace permuzzle::sliding
