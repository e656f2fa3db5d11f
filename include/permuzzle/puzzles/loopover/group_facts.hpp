// Group facts of a Loopover board, computed by the group core (PermGroup, Schreier-Sims) from
// the move permutations, never assumed.
#pragma once

#include <gmpxx.h>

#include <string>

#include "permuzzle/puzzles/loopover/board.hpp"

namespace permuzzle::loopover {

struct GroupFacts {
  std::string group;           // recognised structure, e.g. "S16" or "A9"
  mpz_class order;             // exact
  bool all_moves_odd = false;  // every single-cell shift is an odd permutation
  bool all_moves_even = false;
  bool contains_transposition_1_2 = false;  // (1,2) is in the group
  // The spec's word (2AA-2-A)^(c-1) (on boards with a side of 2: the single move `A` when
  // c == 2, else `1`): its cycles and whether it is the transposition of cells 1 and 2.
  std::string spec_word;
  std::string spec_word_cycles;
  bool spec_word_swaps_1_2 = false;
  // A word the tool found that swaps two adjacent cells (empty on odd x odd boards, whose
  // group has no transposition), and its cycles.
  std::string transposition_word;
  std::string transposition_cycles;
};

Result<GroupFacts> group_facts(BoardSize size);

}  // namespace permuzzle::loopover
