// A definition compiled for search: a perfect ranking of its positions and move tables on
// per-group coordinates (whole-graph BFS, pattern databases, IDA*).
//
// Data layout.
// - Piece groups: each set is split into the orbits of its slots under the moves (pieces never
//   leave their orbit). A group's state is, per group slot (ascending set slot), a *label* and an
//   orientation. Labels number the distinct (piece value, orientation ignored?) pairs of the
//   solved pattern in the group, so identical pieces share a label and a position is a pattern,
//   not a permutation; the orientation of a piece whose solved orientation is '?' is kept at 0.
// - Coordinates (components), each an integer in 0..size-1:
//   * Perm: the arrangement of the labels over the group's slots. Distinct labels: the Lehmer
//     rank (n!), halved (rank >> 1, even permutations only) when every move acts on the group
//     as an even permutation. Repeated labels: for each label but the last, the combination
//     rank of its slots among the slots still free (n!/prod(c!)).
//   * Ori: the orientations of the group's slots in base o, slot 0 most significant; the last
//     slot is left out when every move keeps the group's orientation sum (mod o) fixed, which
//     is then the solved pattern's.
//   * Mixed (a group where some pieces ignore orientation and some do not): perm rank * o^k +
//     the orientations of the k pieces that keep one, in slot order.
//   In state form a move changes orientations by its own increments only, so Perm and Ori
//   coordinates of a group transform independently.
//   * Joint (CompileOptions::joint_raw_limit): several small tabulated coordinates whose
//     combinations the moves do not all reach (two sets that always move together: the pyraminx
//     and skewb files of twsearch; only parts of two piece groups or more) are replaced
//     by one coordinate numbering only the reachable combinations. Their "raw" value is mixed
//     radix over the parts (`parts`, each with its weight inside the raw value); `raws` lists
//     the reachable raw values ascending, and the joint coordinate of a raw value is its index
//     there (found by a breadth-first search from the solved one over the parts' move tables).
// - The rank of a position is mixed radix over the components: components computed directly
//   (too big for a move table) first, most significant, then the tabulated ones by decreasing
//   size (the smallest innermost: consecutive ranks share the outer coordinates, and the
//   neighbours of one outer value fall into one small block per move, which stays in cache).
// - Move tables: table[c * moves + m] = the coordinate after move m (uint32).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/def/definition.hpp"

namespace permuzzle::def {

enum class Metric { Htm, Qtm };

struct PieceGroup {
  std::size_t set = 0;
  int orientations = 1;
  std::vector<std::uint8_t> slots;          // set slots of this orbit, ascending
  std::vector<std::uint8_t> solved_labels;  // per group slot
  std::vector<std::uint8_t> solved_ori;     // per group slot (0 where ignored)
  std::vector<std::uint8_t> label_value;    // per label: the piece value (0-based)
  std::vector<char> label_ignored;          // per label: orientation ignored ('?')
  std::vector<int> multiplicity;            // per label
  bool distinct = true;                     // every label once
  bool even_only = false;                   // Perm rank halved (see the file comment)
  bool ori_sum_fixed = false;               // Ori rank leaves the last slot out
  int ori_sum = 0;                          // the fixed sum mod o
  int ignored_pieces = 0;
  // Exactly one label repeats (the "blank", e.g. the pieces a pattern database does not track):
  // Perm is then the arrangement rank of the other labels' slots, in label order (n!/(n-b)!),
  // and Mixed (when only the blank ignores orientation) that times their orientations in
  // label order.
  int blank = -1;
  bool mixed_arrangement = false;
  int size() const { return static_cast<int>(slots.size()); }
};

// One group's part of a position.
struct GroupState {
  std::vector<std::uint8_t> labels;
  std::vector<std::uint8_t> ori;
  bool operator==(const GroupState&) const = default;
};
using Position = std::vector<GroupState>;  // per group

// A move restricted to one group: new.labels[j] = labels[src[j]], new.ori[j] = ori[src[j]] +
// dori[j].
struct GroupMove {
  std::vector<std::uint8_t> src;
  std::vector<std::uint8_t> dori;
  bool operator==(const GroupMove&) const = default;
};

struct Component {
  enum class Kind { Perm, Ori, Mixed, Joint };
  Kind kind = Kind::Perm;
  std::size_t group = 0;
  std::uint64_t size = 1;
  std::uint64_t weight = 1;          // its factor in the rank
  std::vector<std::uint32_t> table;  // [coordinate * moves + move]; empty: computed directly
  std::uint64_t ori_part = 1;        // Mixed: the orientations' factor (o^k) of the coordinate
  // Joint: the parts (weight = their factor in the raw value; no move tables of their own) and
  // the reachable raw values, ascending (see the file comment).
  std::vector<Component> parts;
  std::vector<std::uint64_t> raws;
  // Mixed arrangement components too large for `table` (a pattern database's 5 of 8 corners):
  // a factored move table. arrangement_moves[(a * moves + m) * 2] = the next arrangement of
  // arrangement a times ori_part, [... + 1] = the move's orientation increments (digits in
  // label order, as a value of the orientation part) times ori_part; then the value after move m
  // of a * ori_part + x is arrangement_moves[...] + ori_add[increments * ori_part + x], where
  // ori_add adds digit by digit mod o. Empty: none (the component is computed directly).
  std::vector<std::uint32_t> arrangement_moves;
  std::vector<std::uint32_t> ori_add;
  bool tabulated() const { return !table.empty(); }
};

struct CompileOptions {
  Metric metric = Metric::Htm;
  // Largest move table of one component; bigger components are computed directly.
  std::uint64_t max_table_bytes = std::uint64_t{256} << 20;
  // Move indices (into Definition::moves) to search with; empty: the metric's moves (HTM: every
  // move; QTM: the moves of QTM cost 1, whose products give every power at its cost).
  std::vector<std::size_t> moves;
  // false: a rank space past 2^64 is no error; states() is then 0 and only the position
  // functions (solved, apply, position_of, state_of) may be used.
  bool require_ranks = true;
  // Above 0: the small tabulated coordinates (smallest first, while the product of their sizes
  // stays within this limit) are joined into one Joint coordinate when the moves reach fewer
  // of their combinations than the product. The ranks are then fewer (the whole-graph BFS of
  // twsearch's pyraminx file: 302,330,880 instead of 3,627,970,560), but a position whose
  // joined part the moves cannot reach from solved has no rank: only positions reached by the
  // moves may be ranked (rank() gives such a position the rank of some reachable one).
  std::uint64_t joint_raw_limit = 0;
};

class CompiledPuzzle {
 public:
  // Refuses definitions with Illegal entries, and rank spaces past 2^64.
  // The move tables' loops check `run` (stop token and deadline).
  static Result<CompiledPuzzle> compile(const Definition& def, const CompileOptions& options = {},
                                        const RunContext& run = RunContext{});

  const Definition& definition() const { return *def_; }
  Metric metric() const { return metric_; }
  const std::vector<PieceGroup>& groups() const { return groups_; }
  const std::vector<Component>& components() const { return components_; }
  std::uint64_t states() const { return states_; }  // 0: not ranked (past 2^64)
  bool ranked() const { return states_ != 0; }
  // Search moves: indices into definition().moves.
  const std::vector<std::size_t>& moves() const { return moves_; }
  int move_count() const { return static_cast<int>(moves_.size()); }
  const std::vector<GroupMove>& group_moves(int move) const {
    return group_moves_[static_cast<std::size_t>(move)];
  }
  // The search move undoing `move` (-1 if none among the search moves).
  int inverse(int move) const { return inverse_[static_cast<std::size_t>(move)]; }
  bool undirected() const { return undirected_; }
  std::uint64_t table_bytes() const;

  // Positions.
  Position solved() const;
  // A state of the definition (pattern form: piece values per slot as in the solved pattern,
  // '?' orientations where it has them) as a position; an error when its pieces are not the
  // solved pattern's pieces in each orbit.
  Result<Position> position_of(const State& state) const;
  State state_of(const Position& position) const;
  void apply(Position& position, int move) const;
  // `to` = `from` after the move; `to` must have the shape of a position (no allocation).
  void apply_to(const Position& from, int move, Position& to) const;
  std::uint64_t rank(const Position& position) const;
  Position unrank(std::uint64_t rank) const;
  // One component's coordinate of a position / the position's group part from a coordinate.
  std::uint64_t coordinate(std::size_t component, const Position& position) const;
  void set_coordinate(std::size_t component, std::uint64_t c, Position& position) const;
  // Whether every joined coordinate of the position is one the moves reach from solved (always
  // true without Joint components).
  bool joint_reachable(const Position& position) const;
  // The coordinate after a move, computed (not from the table).
  std::uint64_t coordinate_after(std::size_t component, std::uint64_t c, int move) const;

 private:
  std::uint64_t coordinate_of(const Component& c, const Position& position) const;
  void set_coordinate_of(const Component& c, std::uint64_t x, Position& position) const;
  Status join_components(const CompileOptions& options, const RunContext& run);

  std::shared_ptr<const Definition> def_;
  Metric metric_ = Metric::Htm;
  std::vector<PieceGroup> groups_;
  std::vector<Component> components_;
  std::uint64_t states_ = 1;
  std::vector<std::size_t> moves_;
  std::vector<std::vector<GroupMove>> group_moves_;  // [move][group]
  std::vector<int> inverse_;
  bool undirected_ = true;
};

// The neighbours of consecutive ranks, for search::bfs (one per thread).
class RankExpander {
 public:
  explicit RankExpander(const CompiledPuzzle& puzzle);
  template <class Visit>
  void for_each_neighbour(std::uint64_t rank, Visit&& visit) {
    if (inner_factored_) {
      // A factored innermost component (Component::arrangement_moves): within one arrangement
      // only the orientation value changes.
      if (rank - factored_block_ < factored_span_) {
        coord_.back() = factored_base_ + (rank - factored_block_);
        have_ = rank;
      } else {
        load(rank);
      }
      const std::uint64_t x = rank - factored_block_;
      const int moves = moves_;
      for (int m = 0; m < moves; ++m) {
        const std::uint32_t* r = factored_row_ + 2 * m;
        if (visit(outer_[static_cast<std::size_t>(m)] + r[0] + factored_add_[r[1] + x])) return;
      }
      return;
    }
    if (rank - block_ < inner_rows_) {
      // The loaded outer value (a scan within one block) and a tabulated inner component: the
      // inner row only.
      coord_.back() = rank - block_;
      inner_row_ = inner_table_ + (rank - block_) * static_cast<std::uint64_t>(moves_);
      have_ = rank;
    } else {
      load(rank);
    }
    const int moves = moves_;
    for (int m = 0; m < moves; ++m) {
      if (visit(outer_[static_cast<std::size_t>(m)] + inner_after(m))) return;
    }
  }
  // All neighbours of `rank`, move by move.
  void neighbours(std::uint64_t rank, std::uint64_t* out);
  // The values of component k after each move from `value`, for a component that was not
  // tabulated when the expander was made (CompiledPuzzle::compile fills its move tables so).
  void component_neighbours(std::size_t k, std::uint64_t value, std::uint32_t* out);
  // The BFS table the neighbours are looked up in (entries of `bits` bits): when a scan enters a
  // new outer coordinate, the expander prefetches the block of entries each move leads to, so
  // their cache misses overlap instead of stalling the scan one by one.
  void set_prefetch(const std::uint64_t* words, unsigned bits) {
    prefetch_words_ = reinterpret_cast<const char*>(words);
    prefetch_bits_ = bits;
  }

 private:
  void load(std::uint64_t rank);
  std::uint64_t inner_after(int m) {
    return inner_tabulated_ ? inner_row_[m] : direct_after(count_ - 1, m);
  }
  void load_direct(std::size_t k, std::uint64_t c);
  std::uint64_t direct_after(std::size_t k, int m);

  const CompiledPuzzle* puzzle_;
  int moves_;
  std::size_t count_;           // components
  std::uint64_t have_ = ~0ULL;  // rank loaded
  // The fast path of for_each_neighbour: the rank of the loaded outer value (inner coordinate
  // 0) and the inner component's size when it is tabulated (else 0: never taken).
  std::uint64_t block_ = ~0ULL;
  std::uint64_t inner_rows_ = 0;
  const std::uint32_t* inner_table_ = nullptr;
  std::vector<std::uint64_t> coord_;  // per component
  std::vector<std::uint64_t> outer_;  // per move: the outer components' part of the neighbour
  const std::uint32_t* inner_row_ = nullptr;
  bool inner_tabulated_ = true;
  // The fast path of a factored innermost component: the ranks [factored_block_,
  // factored_block_ + factored_span_) share the outer value and the arrangement loaded
  // (inner coordinate factored_base_ at factored_block_; its row of arrangement_moves).
  bool inner_factored_ = false;
  std::uint64_t factored_block_ = ~0ULL;
  std::uint64_t factored_span_ = 0;
  std::uint64_t factored_base_ = 0;
  const std::uint32_t* factored_row_ = nullptr;
  const std::uint32_t* factored_add_ = nullptr;
  const char* prefetch_words_ = nullptr;
  unsigned prefetch_bits_ = 0;
  std::vector<std::uint32_t> zeros_;  // the inner row of a puzzle without components
  // Direct distinct Perm components: the loaded labels, the Lehmer prefix sums and the sets of
  // labels after each slot, per component (the neighbour's rank changes only in the slots a
  // move touches: [lo, hi]).
  struct Direct {
    std::vector<std::uint8_t> labels;
    std::vector<std::uint32_t> after;
    std::vector<std::uint64_t> prefix;
    std::vector<std::uint64_t> weight;
    std::vector<int> lo, hi;  // per move
    std::uint64_t loaded = ~0ULL;
    bool fast = false;
    // Arrangement components (PieceGroup::blank): the tracked labels' slots and orientations,
    // and per move where each slot's piece goes.
    bool arrangement = false;
    bool with_ori = false;
    std::vector<std::uint8_t> pos, ori, next_pos;
    std::uint64_t ori_size = 1;                  // o^k
    std::vector<std::vector<std::uint8_t>> dst;  // [move][slot]
    Position scratch;                            // generic components: unrank, apply, rank
    GroupState after_state;                      // (its group after a move)
    // A factored move table (Component::arrangement_moves): the loaded arrangement's row and
    // orientation value.
    const std::uint32_t* factored = nullptr;
    const std::uint32_t* ori_add = nullptr;
    const std::uint32_t* row = nullptr;
    std::uint64_t ori_value = 0;
  };
  std::vector<Direct> direct_;
};

// Replays moves (indices into d.moves) on a state in pattern form, independently of any
// ranking: new.perm[i] = s.perm[m.perm[i]], new.ori[i] = s.ori[m.perm[i]] + m.ori[i] ('?' stays).
State replay(const Definition& d, State state, const std::vector<std::size_t>& moves);
// The solved pattern with every empty part filled in (identity, orientation 0).
State full_solved(const Definition& d);

// Parity of an arrangement of the distinct values 0..n-1: 0 even, 1 odd (n - cycles, mod 2).
int arrangement_parity(const std::vector<std::uint8_t>& values);

// A hash of everything that defines the puzzle's positions and moves (sets, solved pattern,
// moves with their names), for table and checkpoint keys.
std::uint64_t definition_hash(const Definition& d);

// Metric names "htm" / "qtm".
Result<Metric> parse_metric(std::string_view text);
std::string_view metric_name(Metric metric);

}  // namespace permuzzle::def
