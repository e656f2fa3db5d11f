// The subgroup (chain) method: G = G0 > G1 > ... > Gk > 1, each stage solved optimally.
//
// Positions are group elements x; a move m takes x to x*m (GAP's order: x first, then m), so the
// state of stage i is the right coset G_{i+1}·x, and moves act on right cosets from the right.
// Stage i uses the generators of G_i and their inverses as moves (with `powers`, every power of
// a generator is one move: the half-turn metric for the cube), so a stage never undoes the
// stages before it: after stage i the position lies in G_{i+1}. For every stage the table of
// distances of the cosets G_{i+1}·g, g in G_i, is built by a breadth-first search from the
// coset G_{i+1} itself; a position is then solved stage by stage by descending the table, which
// takes exactly the coset's distance in moves (optimal per stage, not overall).
//
// Coset keys: the canonical element of G_{i+1}·x is the lexicographically least image list among
// h*x, h in G_{i+1}, found point by point over a stabiliser chain of G_{i+1} with base 1, 2, ...,
// n (at point k, take the orbit point o of the pointwise stabiliser of 1..k-1 whose image under
// the element so far is least).
//
// The word for an element E: solving E gives moves w_1 ... w_k with E * w_1 ... w_k = 1, so
// E = (w_1 ... w_k)^-1; each move is written in the generators of G0 (a power of one generator
// when it is one, else a short word given by the caller).
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

// One subgroup of a chain file: its generators (names as written, NAME=PERM, or "" when not
// named).
struct ChainSubgroup {
  std::vector<Perm> generators;
  std::vector<std::string> names;
  std::size_t line = 0;  // 1-based line in the file
};

// A chain file: one subgroup per line, generators in cycle (or list) notation separated by
// blanks, each optionally NAME=PERM, from G1 down; an empty line or a line "()" ends the chain
// (the trivial group is implied after the last line). Lines starting with '#' are comments.
// Errors name file:line:column.
Result<std::vector<ChainSubgroup>> parse_chain(std::string_view text, std::string_view file_name);

struct ChainOptions {
  bool powers = false;                    // every power of a generator is one move
  std::uint64_t max_cosets = 60'000'000;  // per stage; larger indices are refused
};

struct ChainStageInfo {
  mpz_class index;  // |G_i : G_{i+1}|
  std::size_t gods_number = 0;
  std::vector<std::uint64_t> histogram;  // cosets at distance 0, 1, ...
  std::size_t moves = 0;                 // number of distinct moves of the stage
  double seconds = 0;                    // time to build the stage's table
};

struct ChainSolution {
  Word word;                               // in G0's generators, verified
  std::vector<std::size_t> stage_lengths;  // moves per stage (= the coset's distance)
};

class SubgroupChain {
 public:
  // Builds every stage's distance table. `word_of` writes a move that is not a power of one of
  // G0's generators as a word in them (for example ShortWords::word).
  static Result<std::shared_ptr<SubgroupChain>> build(
      const PermGroup& g0, const std::vector<ChainSubgroup>& subgroups, const ChainOptions& options,
      const std::function<Result<Word>(const Perm&)>& word_of, const RunContext& run);

  const std::vector<ChainStageInfo>& stages() const { return info_; }
  // Distance of the coset G_{i+1}·x in stage i (x must lie in G_i).
  std::size_t distance(std::size_t stage, const Perm& x) const;
  Result<ChainSolution> solve(const Perm& element) const;

  struct Stage;  // defined in chain.cpp
  ~SubgroupChain();

 private:
  SubgroupChain();
  PermGroup g0_;
  std::size_t n_ = 0;
  std::vector<long long> orders_;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<ChainStageInfo> info_;
};

}  // namespace permuzzle
