// Short words for any permutation group: a Minkwitz-style word chain plus word shortening.
//
// ShortWords keeps, for a base b_0..b_{m-1} of the group, one transversal element per orbit point
// of every level together with a short word for it (Minkwitz 1998, "An algorithm for solving the
// factorization problem in permutation groups"). The tables start from a breadth-first ball of
// short words (every element of the ball has a shortest word), are completed from the group's
// own word() where the ball did not reach, and are then improved by products of stored words
// until a round brings nothing or the time budget is spent. A word for an element x is the
// shortest of several sifts (x itself, x^-1, and x times ball elements on either side), then
// shortened: free and power cancellation, and every subword of at most a few letters whose
// product lies in the ball replaced by the ball's shortest word for it. Every word returned is
// multiplied back and compared with the element.
//
// Uses only PermGroup's public interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

struct ShortWordOptions {
  double time_budget_seconds = 4.0;  // set-up: improvement rounds stop when it is spent
  std::size_t memory_budget_bytes = std::size_t{256} << 20;  // the ball of short words
  std::size_t ball_elements = 200000;  // at most this many elements in the ball
  std::size_t feed_elements = 20000;   // the shortest ball elements fed to the word chain
  std::size_t sift_tries = 20000;      // ball elements tried on each side of an element
  std::size_t max_rounds = 50;         // improvement rounds (each: products of stored words)
};

struct ShortWord {
  Word word;
  std::string method;  // "bfs (optimal)" inside the ball, else "minkwitz+shortening"
};

struct ShortWordStats {
  std::size_t ball_size = 0;    // elements with a known shortest word
  std::size_t ball_radius = 0;  // every element of length <= radius is in the ball
  std::size_t levels = 0;       // base length
  std::size_t table_entries = 0;
  std::size_t table_letters = 0;      // sum of the stored words' lengths
  std::size_t rounds = 0;             // improvement rounds run
  std::size_t filled_from_group = 0;  // table entries the ball and products did not reach
  double seconds = 0;
};

class ShortWords {
 public:
  // Builds the tables (time and memory bounded by `options`); errors when the group's own word
  // problem is refused for a table entry that no product reached.
  static Result<std::shared_ptr<ShortWords>> build(const PermGroup& group,
                                                   const ShortWordOptions& options = {},
                                                   const RunContext* run = nullptr);

  // A short word for `element` (an error when it is not in the group), verified.
  Result<ShortWord> word(const Perm& element) const;
  // Free/power cancellation and subword replacement by shorter equal words from the ball.
  Word shorten(Word word) const;
  const ShortWordStats& stats() const { return stats_; }
  const PermGroup& group() const { return group_; }

  // Implementation detail; defined in words.cpp.
  struct Impl;
  ~ShortWords();
  ShortWords(ShortWords&&) noexcept;

 private:
  ShortWords();
  PermGroup group_;
  ShortWordStats stats_;
  std::size_t sift_tries_ = 20000;
  std::unique_ptr<Impl> impl_;
};

// Helpers shared with the chain method.
Word inverse_word(const Word& word);
// Free reduction plus power reduction (runs of one generator taken modulo its order, with the
// smallest absolute exponent); `orders[g]` 0 = no modular reduction.
Word reduce_word(const Word& word, const std::vector<long long>& orders);
std::vector<long long> generator_orders(const PermGroup& group);

}  // namespace permuzzle
