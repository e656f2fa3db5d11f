// Shared helpers of the libFuzzer harnesses (fuzz/fuzz_*.cpp).
//
// Input layout of every harness that fuzzes more than one format or needs a parameter (a board
// size, a peg count): the first byte selects the format and the parameter, the rest is the text
// handed to the parser. libFuzzer's value profile and comparison tracing learn the selector like
// any other byte, so every format gets its share of the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "permuzzle/core/result.hpp"

namespace permuzzle::fuzz {

// A violated invariant: abort() so that libFuzzer records the input as a crash (assert would
// vanish under NDEBUG).
inline void check(bool condition) {
  if (!condition) std::abort();
}

struct Input {
  std::uint8_t selector = 0;
  std::string_view text;
};

inline Input split(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return {};
  return {data[0], std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1)};
}

// Every rejection carries a message and, when it points into its input, a position inside it
// (one past the end is allowed: "expected more here").
inline void check_error(const Error& e) {
  check(!e.message.empty());
  check(e.position == Error::NO_POSITION || e.position <= e.input.size());
  (void)e.describe();
}

// The error of a failed Result, checked; true when the Result holds a value.
template <class R>
bool accepted(const R& result) {
  if (!result.ok()) check_error(result.error());
  return result.ok();
}

}  // namespace permuzzle::fuzz
