// Permutation groups given by generators: Schreier–Sims stabilizer chains and what they answer.
//
// A PermGroup owns its generators (named g1, g2, ... unless names are given) and a base and
// strong generating set computed on construction. Orders are exact (GMP). Points are 0-based
// in the API, 1-based in every text form (see perm.hpp).
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/run_context.hpp"

namespace permuzzle {

struct SchreierSimsOptions {
  // Deterministic Schreier–Sims by default; randomized (with a deterministic verification
  // step, so the answer is still exact) is faster for large degrees.
  bool randomized = false;
  std::uint64_t seed = 1;
  // Base points to use first (0-based, distinct), e.g. {p} to read off the stabilizer of p.
  std::vector<Point> base_prefix;
  // Up to degree 256 (and up to 1024 when they fit in 256 MiB) the chain stores every
  // transversal element and its inverse explicitly (fast sifting); above, Schreier vectors
  // (shallow Schreier trees). S_m / A_m above degree 256 are recognised by Jordan's theorem
  // and need no tables. A group whose tables would exceed this many bytes is refused with
  // ErrorKind::LimitExceeded.
  std::size_t max_table_bytes = std::size_t{1} << 30;
  // Automatic: as described above. Explicit / SchreierVectors force one representation (no
  // S_m / A_m shortcut), e.g. to compare the two in tests and benchmarks.
  enum class Transversals { Automatic, Explicit, SchreierVectors };
  Transversals transversals = Transversals::Automatic;
  // When nonzero: |G| as the caller has proven it (e.g. the levels of a backtrack search).
  // The randomized construction then stops as soon as its chain reaches this order, without
  // the verification step (a wrong value is caught: the chain never reaches a larger order
  // and the deterministic algorithm runs; callers compare the resulting order with theirs).
  mpz_class known_order = 0;
  // When given: the tables also stay within its memory budget (the smaller of the two bounds
  // refuses), and its stop request (time limit, cancellation) ends the construction with
  // run->stop_error(). Not kept after from_generators returns.
  const RunContext* run = nullptr;
};

// A word in the generators: each letter is a generator index and an exponent (+1 or -1).
struct Letter {
  std::size_t generator = 0;
  int exponent = 1;
  bool operator==(const Letter&) const = default;
};
using Word = std::vector<Letter>;

// What recognition found out about a group.
struct GroupStructure {
  std::string structure;  // e.g. "S16", "A9", "S10 x S6", "C4", or "order 48" if not recognised
  bool transitive = false;
  bool recognised = false;  // true when `structure` is an exact name, not a description
  std::vector<std::vector<Point>> orbits;  // nontrivial orbits on the moved points
};

class PermGroup {
 public:
  PermGroup();  // the trivial group (no generators), so a PermGroup is always usable

  // Generators must not be empty; names (if given) must match their count.
  static Result<PermGroup> from_generators(std::vector<Perm> generators,
                                           std::vector<std::string> names = {},
                                           const SchreierSimsOptions& options = {});

  // The stabilizer chain as bytes, for a cache of chains (the CLI's, in the table store): the
  // base, the strong generators of each level, and how each orbit point was reached, so that
  // from_chain rebuilds the very same chain (same transversals, same answers) without
  // Schreier–Sims. Layout (uint32 little endian throughout): degree n, representation R (0:
  // explicit transversals, 1: Schreier vectors), level count L, length of |G| in decimal then
  // its digits (one byte each, padded with zero bytes to a multiple of 4); then for R = 0: per
  // level the base point, strong generator count c, c x n images; then per level the orbit
  // size m and for each orbit point after the base: point, parent's orbit index, level of the
  // strong generator s with u_point = u_parent * s, index of s there; for R = 1: the Schreier
  // vector chain's pool and trees verbatim (SvChain::write_record in perm_group.cpp). Empty
  // when S_m / A_m was recognised without a chain (nothing worth saving), and when `run` asks
  // to stop while it is written (a chain of thousands of levels is tens of megabytes). The
  // record is appended to `prefix` (a header of whole words, e.g. the cache's), so that a
  // file's payload is written without a second copy of the record.
  std::vector<std::uint8_t> chain_record(const RunContext* run = nullptr,
                                         std::vector<std::uint8_t> prefix = {}) const;
  // The group of `generators` with the chain read from `record` (chain_record() of the group
  // of the same generators): orbits and transversals are recomputed from the base and strong
  // generators, the product of the orbit lengths must equal the recorded order and every
  // generator must sift through the chain; anything else (a damaged or foreign record) is an
  // error, and the caller builds the chain with from_generators instead. options: only
  // max_table_bytes and run are used.
  static Result<PermGroup> from_chain(std::vector<Perm> generators, std::vector<std::string> names,
                                      std::span<const std::uint8_t> record,
                                      const SchreierSimsOptions& options = {});

  std::size_t degree() const;  // largest moved point over all generators
  const std::vector<Perm>& generators() const;
  const std::vector<std::string>& generator_names() const;

  mpz_class order() const;
  bool contains(const Perm& element) const;
  std::vector<std::vector<Point>> orbits() const;
  std::vector<Point> base() const;
  std::vector<Perm> strong_generators() const;
  std::size_t strong_generator_count() const;  // without building the Perms (large groups)
  PermGroup stabilizer(Point point) const;
  Perm random_element(Rng& rng) const;  // uniform
  // All elements, sorted; an error (LimitExceeded) if the group has more than `limit` elements
  // or, with a run context, when the list would not fit in its memory budget (checked before
  // anything is allocated); the enumeration stops with run->stop_error() when asked to.
  Result<std::vector<Perm>> elements(std::uint64_t limit = 100000,
                                     const RunContext* run = nullptr) const;
  // Bytes the list of elements() takes per element (the estimate behind its memory check).
  std::uint64_t element_bytes() const;
  // Bytes the stabiliser chain holds (its transversals or Schreier trees and strong generators):
  // computations built beside the chain (short words) count it against their memory budget.
  std::uint64_t chain_bytes() const;
  GroupStructure describe() const;

  // A word in the generators equal to `element` (verified by multiplying back), or an error
  // when the element is not in the group. With a run context, the word chain's transversal
  // table (built on the first call) is refused over its memory budget too.
  Result<Word> word(const Perm& element, const RunContext* run = nullptr) const;
  Perm evaluate(const Word& word) const;
  std::string word_to_string(const Word& word) const;  // "g1 g2^-1 ..."

  // Implementation detail shared with the .cpp; defined there.
  struct Chain;

 private:
  std::vector<Perm> generators_;
  std::vector<std::string> names_;
  std::shared_ptr<const Chain> chain_;
};

// A name for a generator (NAME=PERM on the command line, chain files): a letter or '_' first,
// then letters, digits, '_' or '\''.
bool valid_generator_name(const std::string& name);

}  // namespace permuzzle
