// Sequences found by search (issue 35, part 1): move sequences of a definition-file puzzle that
// change few pieces (3-cycles, two pieces twisted or flipped in place, double swaps), found as
// commutators and conjugates of short move words, for phases whose pieces cannot be placed by
// single moves without disturbing the pieces already solved.
//
// The search, in two stages:
// 1. The library (SequenceLibrary::build), once per puzzle: commutators [A, B] = A B A' B' of a
//    canonical word A of up to `word_length` moves and a move B, kept when their net effect
//    moves or twists at most MAX_SEQUENCE_SUPPORT slots; also a power X^k of a commutator of
//    at most MAX_POWERED_SUPPORT slots when that power has at most MAX_SEQUENCE_SUPPORT (a
//    3-cycle of edges done together with a corner swap gives, squared, the 3-cycle alone). A
//    pair (A, B) is only composed when A sends at most 2 of the slots B changes outside them
//    (the commutator changes at least |A(supp B) \ supp B| * 2 slots), so the words can be long
//    enough for a megaminx. One entry per net effect up to inversion, the shortest.
// 2. Per phase (SequenceLibrary::for_phase): first, words met in the middle: canonical words of
//    every move, shortest first, keyed by where they send the pieces of the `fixed` slots (a
//    hash of the inverse effect there; up to 300,000 words stored and 1,000,000 examined); a
//    word V whose key an earlier word W has gives V W', which sends every fixed slot's piece
//    home (F R U R' U' F' on the 3x3x3 from F R U and F U R). Those changing a `target` slot,
//    shortest first, take up to a quarter of `max_sequences` (on the megaminx's auto chain:
//    133.4 moves on the bench instead of 143.0). Then conjugates C X C' of a library entry X by a
//    canonical word C of at most `conjugator_length` moves whose net effect leaves every slot
//    of `fixed` alone (C X C' changes exactly the slots C(supp X)), one per net effect up to
//    inversion, shortest first; those changing a `target` slot first, then the shortest that
//    change some other free slot no entry chosen so far changes, up to `max_sequences`.
// Every sequence returned is replayed on the puzzle (apply) and its net effect compared with
// the one the search computed before it is returned.
//
// Data layout of the search: a state is flat over the slots of every set (slot g = the set's
// offset + slot), `perm[g]` the global slot whose content comes to g and `ori[g]` the twist
// added there, composed as definition.hpp's apply ("x then y": (xy).perm[g] =
// x.perm[y.perm[g]]).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/def/definition.hpp"
#include "permuzzle/puzzles/def/reader.hpp"

namespace permuzzle::def {

// Slots (over every set) a library entry changes at most, and a commutator whose power is tried.
inline constexpr std::size_t MAX_SEQUENCE_SUPPORT = 4;
inline constexpr std::size_t MAX_POWERED_SUPPORT = 8;
// Library entries kept at most.
inline constexpr std::size_t MAX_LIBRARY_ENTRIES = 20'000;
// Puzzles with more search moves are refused (LimitExceeded): the word counts and the
// conjugating words grow with the square of the moves.
inline constexpr std::size_t MAX_SEQUENCE_SEARCH_MOVES = 512;
// Conjugating words kept at most (shorter words first).
inline constexpr std::size_t MAX_CONJUGATORS = 250'000;

struct SequenceSearchOptions {
  // Longest A of a commutator [A, B]; 0: the longest whose pairs (A, B) stay within
  // `pair_budget`.
  int word_length = 0;
  std::uint64_t pair_budget = 2'000'000;
  // Longest conjugating word C of C X C'.
  int conjugator_length = 2;
  // Bytes the library may hold (its entries' states and moves; at most the run's memory budget).
  std::uint64_t memory_bytes = std::uint64_t{64} << 20;
};

// Slots by set: marks[set][slot] (the layout of State).
using SlotMarks = std::vector<std::vector<char>>;

struct MetWords;

class SequenceLibrary {
 public:
  // The library of the puzzle (stage 1). Polls `run`; LimitExceeded when it stopped.
  static Result<SequenceLibrary> build(const Definition& d, const SequenceSearchOptions& options,
                                       const RunContext& run);
  // Sequences leaving every `fixed` slot alone (stage 2) for a phase with the moves `moves`
  // (indices into Definition::moves); unnamed (the caller names them); order at most
  // MAX_SEQUENCE_ORDER; each replayed. Besides those changing a `target` slot, the shortest
  // that join two classes of slots the moves and the sequences so far keep apart (so that a
  // piece can travel between them; larger entries too, where no 3-cycle joins them), then
  // those changing a slot nothing changes yet.
  // `met`: the words met in the middle for these `fixed` slots and `moves` (meet_in_the_middle),
  // when the caller keeps them for several tries of one phase; null: found here.
  Result<std::vector<PhaseSequence>> for_phase(const SlotMarks& fixed, const SlotMarks& target,
                                               const std::vector<std::size_t>& moves,
                                               std::size_t max_sequences, int conjugator_length,
                                               const RunContext& run,
                                               const MetWords* met = nullptr) const;
  // For_phase's first stage, which depends on `fixed` and `moves` alone (a phase's tries with
  // more sequences or longer conjugators share it): the words met in the middle, shortest first.
  Result<MetWords> meet_in_the_middle(const SlotMarks& fixed, const std::vector<std::size_t>& moves,
                                      const RunContext& run) const;
  // Candidates for a phase the chosen sequences leave short (the planned chain adds, shortest
  // first, those its group does not contain yet): the words met in the middle and the conjugates
  // C X C' that leave every `fixed` slot alone, merged shortest first, one per net effect up to
  // inversion, at most `limit`, each replayed; unnamed; those of order past MAX_SEQUENCE_ORDER
  // left out.
  Result<std::vector<PhaseSequence>> candidates(const SlotMarks& fixed,
                                                const std::vector<std::size_t>& moves,
                                                int conjugator_length, std::size_t limit,
                                                const RunContext& run,
                                                const MetWords* met = nullptr) const;
  std::size_t size() const { return entries_.size(); }
  int word_length() const { return word_length_; }

  // A flat state (see the file comment).
  struct Flat {
    std::vector<std::uint16_t> perm;
    std::vector<std::uint8_t> ori;
  };
  struct Entry {
    Flat effect;
    std::vector<std::uint16_t> support;  // global slots it changes, increasing
    std::vector<std::size_t> moves;      // indices into Definition::moves
  };

 private:
  struct Pool;  // conjugates C X C' (sequences.cpp)
  Result<Pool> conjugates(const std::vector<char>& is_fixed, const std::vector<char>& is_target,
                          int conjugator_length, const RunContext& run) const;
  Result<PhaseSequence> replayed(const std::vector<std::size_t>& moves, const Flat& y) const;
  std::vector<char> flat_marks(const SlotMarks& marks) const;  // per global slot
  // `met` when given, else the words met in the middle found here (held by `own`).
  Result<const MetWords*> met_words(const SlotMarks& fixed, const std::vector<std::size_t>& moves,
                                    const RunContext& run, const MetWords* met,
                                    std::optional<MetWords>& own) const;

  const Definition* def_ = nullptr;
  SequenceSearchOptions options_;
  int word_length_ = 0;
  std::vector<std::size_t> offset_;        // first global slot of each set
  std::vector<std::uint8_t> modulus_;      // orientations of each global slot's set
  std::vector<Flat> move_effects_;         // per Definition::moves
  std::vector<std::size_t> inverse_move_;  // per Definition::moves
  std::vector<char> commuting_;            // base moves a and b commute: [a * bases + b]
  std::vector<Entry> entries_;
};

// Sequences met in the middle (SequenceLibrary::meet_in_the_middle): each word's moves and net
// effect, every one sending every fixed slot's piece home, one per effect up to inversion.
struct MetWords {
  struct Word {
    std::vector<std::size_t> moves;
    SequenceLibrary::Flat effect;
  };
  std::vector<Word> words;  // shortest first
};

}  // namespace permuzzle::def
