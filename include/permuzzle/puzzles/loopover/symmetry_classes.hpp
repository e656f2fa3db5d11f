// Symmetry classes of Loopover positions, ranked densely for the whole-graph BFS (search/bfs.hpp).
//
// The group (symmetry.hpp's metric_symmetry_group). A symmetry is a map of the cells that sends
// every move of the metric to a move of the same metric and fixes the goal, so that conjugate
// positions s^sigma = sigma^-1 s sigma (board.hpp's GAP order) are at the same distance. Maps of
// the form (r, c) -> (rho(r), kappa(c)) send rows to rows and columns to columns; a column shift by
// k becomes a shift by a*k when rho is r -> a*r + b, so STM (shifts by one cell) allows a = +-1
// (the dihedral maps of the rows, and of the columns) and MTM (any shift of one line is one move)
// every unit a mod r (the affine maps). Square boards add the transpose. Orders: 3x3 72, 3x4 48,
// 4x4 128 (both metrics), 3x5 60 in STM and 120 in MTM, 2x5 20 in STM and 40 in MTM.
//
// The index (a sym-coordinate, as in Kociemba's cube tables). The board is taken wide (r <= c;
// a tall board is searched transposed, which is an isomorphism of its graph). A position is
// split into
// - its row pattern x: for every cell, the home row of the tile standing there (a multiset
//   permutation, n! / (c!)^r of them: 34,650 on 3x4, 756,756 on 3x5), on which the symmetries
//   without the transpose act; its classes under them are tabulated (every x -> its class k and
//   one symmetry taking x to the class's representative);
// - the rest y: per home row A, the bijection from home column j to the "slot" of tile (A, j),
//   its rank among the cells of pattern value A in cell order: r permutations of S_c.
// A class of positions is ranked k * |Y| + y(rep), y ranked mixed radix in r digits of c!
// (on odd x odd boards only even positions exist: the last digit is ranked among the
// permutations of the one parity that makes the position even, c!/2 of them). When the
// representative x of k has symmetries of its own (its stabiliser), several y rank the same class;
// the canonical one is the smallest rank, the others are never claimed. On square boards the
// transpose maps row patterns to column patterns; a class there is the smaller of the two
// indices of s and of its transpose (computed through whole positions: only 2x2 and 3x3 are
// searched). Index size, with the stabilised patterns' share (measured): 3x4 826 pattern
// classes x 13,824 = 11,418,624 ranks (2.9 MB; 9,993,860 classes); 3x5 STM 12,841 x 864,000 =
// 11.09 G (2.77 GB at 2 bits; 15!/2/60 = 10.9 G), MTM 6,431 x 864,000 (1.39 GB); 2x7 STM 1.08
// GB, MTM 0.39 GB.
//
// A move on (k, y): the pattern k goes to a pattern in class k' through a fixed symmetry, and
// every digit y_A becomes L_B o y_A o kappa^-1 for a slot permutation L_B of the destination row
// B (tabulated per class and move), two lookups in the c! x c! composition table
// per digit; then the smallest rank over the stabiliser of k'.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

namespace permuzzle::loopover {

// Longest line of the wide board whose permutations the index composes by table (c! x c!
// entries: 7 -> 50 MB); longer lines (2x8) are searched without symmetry.
inline constexpr int MAX_SYMMETRY_LINE = 7;

// Whether the class index supports the board (its longer side <= MAX_SYMMETRY_LINE).
bool symmetry_classes_supported(BoardSize size);

struct SymmetryClassesData;

class SymmetryClasses {
 public:
  // Builds the pattern classes and transitions (polls `run`, checks its memory budget; the
  // BFS table itself is the caller's: states() entries).
  static Result<SymmetryClasses> create(BoardSize size, Metric metric, const RunContext& run);

  BoardSize size() const;
  Metric metric() const;
  std::uint64_t states() const;       // the index range: classes * |Y|, canonical or not
  std::uint64_t group_order() const;  // |G| (with the transpose on square boards)
  std::uint64_t pattern_classes() const;

  // The canonical index of the class of a reachable position (board orientation).
  std::uint64_t index(const Position& position) const;
  // The canonical member of an index's class (board orientation), any index below states().
  Position position(std::uint64_t index) const;
  // Whether the index is the canonical rank of its class (only those are ever claimed).
  bool canonical(std::uint64_t index) const;
  // The positions in the class of a canonical index: |G| / |stabiliser of its position|.
  std::uint64_t orbit_size(std::uint64_t index) const;

  // The neighbours of a class for search/bfs.hpp: the canonical indices of the classes of
  // its position's neighbours (one per move, repeats allowed); none for a non-canonical index.
  class Expander {
   public:
    explicit Expander(const SymmetryClassesData* data) : d_(data) {}
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
    std::uint64_t neighbour(int move) const;

    const SymmetryClassesData* d_;
    std::uint64_t have_ = ~std::uint64_t{0};
    bool canonical_ = false;
    int moves_ = 0;
    std::uint32_t k_ = 0;
    std::uint16_t y_[4] = {};
  };
  Expander expander() const { return Expander(data_.get()); }

 private:
  std::shared_ptr<const SymmetryClassesData> data_;
};

}  // namespace permuzzle::loopover
