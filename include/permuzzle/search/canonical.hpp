// Canonical move sequences: a finite automaton over move sequences that prunes the ones another
// sequence of the same or smaller length already covers, for any puzzle given as permutations.
//
// Moves are grouped into families (the powers of one base move: R, R2, R'). Two families commute
// when every move of one commutes with every move of the other. A sequence is pruned when
//  (a) a move's family was played earlier with only moves that commute with it in between
//      (F X F = F F X = one move of F or nothing, when the family is closed under products), or
//  (b) a move of family A follows a move of family B > A (families ordered by first appearance)
//      with only moves commuting with B in between (B could move past A: A ... B is the same
//      position and comes first in the order).
// The automaton state is the set of families that commute with every move played after them
// (twsearch's canonical sequences); after a move of family F it becomes
// {G in state : G commutes with F} + {F}. What survives is one sequence per element of the
// partially commutative monoid (Anisimov-Knuth lexicographic normal form), with repeated
// families merged, so every position keeps a canonical sequence of its shortest length.
//
// A family whose products leave it (say R and R2 given without R') is not merged with itself
// (rule (a) would then drop positions); rule (b) still applies to it.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"

namespace permuzzle::search {

struct CanonicalOptions {
  // Family index per move (0-based, any numbering; families are ordered by their first move).
  // Empty: derived, as the classes of "one move is a power of the other", by first appearance.
  std::vector<int> families;
  std::size_t max_states = 1u << 16;  // LimitExceeded beyond (many commuting families)
  // false: families are taken as never commuting, so only a family repeated at once is pruned
  // (one state per last family): the fallback for move sets with too many commuting families
  // (a phase of hundreds of disjoint 3-cycles) for the full automaton.
  bool use_commutation = true;
};

class CanonicalAutomaton {
 public:
  static constexpr int START = 0;
  static constexpr int PRUNED = -1;

  // Every loop checks `run` (stop token and deadline: its stop error), and the table is refused
  // (LimitExceeded, with the estimate) once its memory would pass the run's memory budget.
  static Result<CanonicalAutomaton> build(const std::vector<Perm>& moves,
                                          const CanonicalOptions& options = {},
                                          const RunContext& run = RunContext{});

  int states() const { return states_; }
  int moves() const { return moves_; }
  int families() const { return families_; }
  int family_of(int move) const { return family_[static_cast<std::size_t>(move)]; }
  bool commute(int family_a, int family_b) const {
    return commute_[static_cast<std::size_t>(family_a * families_ + family_b)] != 0;
  }
  bool closed(int family) const { return closed_[static_cast<std::size_t>(family)] != 0; }
  // The state after playing `move` in `state`, or PRUNED.
  int next(int state, int move) const {
    return table_[static_cast<std::size_t>(state) * static_cast<std::size_t>(moves_) +
                  static_cast<std::size_t>(move)];
  }
  // Row-major [state][move], for search kernels that index it themselves.
  const std::vector<std::int32_t>& table() const { return table_; }

  // Canonical sequences of each length 0..max_length, exact.
  std::vector<mpz_class> count_sequences(int max_length) const;

 private:
  int states_ = 0;
  int moves_ = 0;
  int families_ = 0;
  std::vector<int> family_;
  std::vector<char> commute_;
  std::vector<char> closed_;
  std::vector<std::int32_t> table_;
};

}  // namespace permuzzle::search
