// Symmetry classes of a definition file's positions, ranked densely for the whole-graph BFS
// (search/bfs.hpp), as Loopover's symmetry_classes.hpp does for the built-in boards (issue 33).
//
// The group: symmetry.hpp's point maps, one per action on positions (maps that differ by a map
// commuting with every move act alike and are counted once). A map acts on a position by
// conjugation: the piece of home h in slot i with orientation x goes to slot pi(i), as the piece
// of home pi(h), with orientation e*x + t_i + c(label of h), where the map sends the point (i, r)
// to (pi(i), e*r + t_i) and c(label) = solved_ori(pi(h)) - e*solved_ori(h) - t_h (refused when
// identical pieces disagree on it). Conjugate positions are at the same distance from solved.
//
// The index (a sym-coordinate, as in Kociemba's cube tables). The puzzle's coordinates
// (compiled.hpp's components) are split into two parts that the maps keep apart:
// - O, "outer": whole orbits of components under the maps (a map sends a component's pieces to
//   another component's, or its own), whose values are conjugated on their own. Every value o of
//   O is tabulated: its class k (a representative rep(k) and the classes' stabilisers) and one
//   action taking o to rep(k). O is chosen small (at most max(4096, positions / 256) values, and
//   it must hold the permutations that the orientations kept in R depend on, below).
// - R, "rest": the other components, each conjugated by a table A[action][value] into its image
//   component. An orientation coordinate whose conjugate depends on the permutation of its
//   pieces (c(label) not the same for every label) gets, besides, an offset B[action][o] added
//   digit by digit (the permutation is then in O): conjugate = A(value) + B(o).
// A class of positions is ranked k * |R| + r, r the mixed-radix value of R's components after
// the action taking o to rep(k); when rep(k) has a stabiliser, the smallest r over it is the
// canonical rank, the others are never claimed. Memory is per class (2 bits each) times the
// share of ranks wasted on stabilised representatives, plus the tables.
//
// Refused (the caller searches without symmetry) when: the puzzle has no symmetry but the
// identity, a map sends a piece orbit across groups the components do not mirror, a component is
// not tabulated, identical pieces disagree on their orientation offsets, a coordinate depends on
// a permutation that is not in O, or the tables pass their limits.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/symmetry.hpp"

namespace permuzzle::def {

struct DefSymmetryData;

class DefSymmetryClasses {
 public:
  // `group` must hold its elements (SymmetryOptions::keep_elements). The puzzle must outlive
  // the classes (they keep a pointer to its move tables). Polls `run`; `memory_bytes` bounds the
  // tables built here.
  static Result<DefSymmetryClasses> create(const CompiledPuzzle& puzzle, const SymmetryGroup& group,
                                           const RunContext& run, std::uint64_t memory_bytes);

  // What create() refuses from the puzzle alone (no ranking, a move without its inverse, a
  // coordinate without a move table), before the symmetry group is searched for.
  static Status supports(const CompiledPuzzle& puzzle);

  std::uint64_t states() const;       // the index range: O classes * |R|, canonical or not
  std::uint64_t group_order() const;  // actions on positions
  std::uint64_t table_bytes() const;  // the tables of this object

  // The canonical index of a position's class (a position the moves reach).
  std::uint64_t index(const Position& position) const;
  // The canonical member of the class of a canonical index.
  Position position(std::uint64_t index) const;
  bool canonical(std::uint64_t index) const;
  // The positions in the class of a canonical index: |G| / |stabiliser of its position|.
  std::uint64_t orbit_size(std::uint64_t index) const;

  // The neighbours of a class for search/bfs.hpp: the canonical indices of the classes of its
  // position's neighbours (one per move, repeats allowed); none for a non-canonical index.
  class Expander {
   public:
    explicit Expander(const DefSymmetryData* data);
    template <class Visit>
    void for_each_neighbour(std::uint64_t index, Visit&& visit) {
      if (index != have_) load(index);
      if (!canonical_) return;
      for (int m = 0; m < moves_; ++m) {
        if (visit(neighbour(m))) return;
      }
    }

   private:
    void load(std::uint64_t index);
    std::uint64_t neighbour(int move);

    const DefSymmetryData* d_;
    std::uint64_t have_ = ~std::uint64_t{0};
    bool canonical_ = false;
    int moves_ = 0;
    std::uint64_t k_ = 0;
    std::vector<std::uint32_t> outer_;  // O components' values of rep(k)
    std::vector<std::uint32_t> rest_;   // R components' values
    std::vector<std::uint32_t> after_;  // scratch: R values after a move
    std::vector<std::uint32_t> image_;  // scratch: R values after an action
  };
  Expander expander() const { return Expander(data_.get()); }

 private:
  std::shared_ptr<const DefSymmetryData> data_;
};

}  // namespace permuzzle::def
