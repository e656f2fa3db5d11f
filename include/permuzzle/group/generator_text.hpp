// Generators as text: GAP's list syntax and cycle notation, one or many per line, for files and
// standard input (`group ... --generators-file FILE|-`).
//
// Accepted forms:
// - GAP's list: "[ (1,2,3), (1,2) ]", elements separated by commas outside parentheses; blanks
//   and line breaks anywhere inside (GAP breaks long permutations across lines, ending a line
//   with '\' inside a number);
// - otherwise generators separated by blanks, line breaks, commas or semicolons, each in cycle
//   notation "(1,2,3)(4,5)" (no blank between its cycles) or list notation "[2,3,1]", each
//   optionally named NAME=PERM or NAME := PERM;
// - '#' starts a comment up to the end of its line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"

namespace permuzzle {

struct NamedGenerator {
  std::string name;  // "" when not named
  Perm perm;
};

// Errors name source:line:column and what was expected. With a run, the generators' images are
// counted as they are read: a list over its memory budget is refused (LimitExceeded) before it
// is all held (each generator is as large as its largest point: "(99999,100000)" is 400 KB).
Result<std::vector<NamedGenerator>> parse_generator_text(std::string_view text,
                                                         std::string_view source,
                                                         const RunContext* run = nullptr);

// The bytes a list of generators holds (their images), for memory checks while one is read.
std::uint64_t generator_bytes(const Perm& generator);

// One more generator read into a list of `bytes` so far: adds its images, refuses a list over
// the run's memory budget (`what` names the list read so far) and stops a stopped run (tens of
// thousands of generators take seconds to read). Every reader of generator lists calls it.
Status account_generator(std::uint64_t& bytes, const Perm& generator, const RunContext& run,
                         const std::string& what);

// Does an argument hold several generators (a GAP list or more than one line) rather than one?
bool looks_like_generator_list(std::string_view text);

}  // namespace permuzzle
