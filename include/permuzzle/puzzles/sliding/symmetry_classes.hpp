// Symmetry classes of sliding-board positions, ranked for the whole-graph BFS (bfs.hpp).
//
// The group. A map sigma of the board (one of the rectangle's 4 isometries, the square's 8) keeps
// cells adjacent, so it sends every move of the blank to a move. It acts on a position p by
// conjugation, p'[sigma(c)] = rel(p[c]), where the tile relabelling rel sends the tile whose goal
// cell is g to the tile whose goal cell is sigma(g) (rel(0) = 0). The goal maps to itself exactly
// when sigma fixes the goal's blank cell; then conjugate positions are equally far from the goal.
// So the group is the stabiliser of that cell: for the standard goal (blank in a corner) the
// transpose on square boards (order 2) and nothing else; a blank in the middle of a 3x3 board
// gives all 8 maps, in the middle row or column of a rectangle 2. A conjugation keeps the parity
// class of SlidingRanking (it keeps the cycle type of the arrangement and the blank's distance
// from its goal cell, whose parities together are the invariant), so each class is indexed on
// its own.
//
// The index (a sym-coordinate over the blank's cell). The cells fall into orbits under the group;
// each orbit's smallest cell is its representative. A class of positions is indexed by the
// representative cell of its blank's orbit and the smallest SlidingRanking rank, among the
// class's positions with the blank at that cell, of the tiles' order:
//   index = orbit * (n-1)!/2 + (rank - representative * (n-1)!/2)
// Indices run over orbits * (n-1)!/2 (3x3, centre goal: 3 orbits instead of 9 cells; standard
// goal: 6 instead of 9); an index that is not its class's smallest (a position with symmetries of
// its blank's stabiliser) is never claimed.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "permuzzle/core/ranking.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/puzzles/sliding/bfs.hpp"
#include "permuzzle/puzzles/sliding/types.hpp"

namespace permuzzle::sliding {

// The board maps that fix `goal`'s blank cell, as cell maps (map[c] = sigma(c)); the identity
// first. Order 1, 2, 4 or 8.
std::vector<std::vector<std::uint8_t>> goal_symmetries(BoardSize size, const Position& goal);

// A position conjugated by a cell map of goal_symmetries(size, goal).
Position conjugate_position(const Position& position, const std::vector<std::uint8_t>& map,
                            const Position& goal);

namespace detail {

// Parity of a permutation of 1..m (its inversions mod 2).
inline int permutation_parity(const std::uint8_t* t, int m) {
  std::uint32_t later = 0;
  int parity = 0;
  for (int i = m - 1; i >= 0; --i) {
    const unsigned v = t[i] - 1u;
    parity ^= std::popcount(later & ((1u << v) - 1u)) & 1;
    later |= 1u << v;
  }
  return parity;
}

// The tiles' order of ranks of one parity class, kept between calls for the classes' Expander
// below (bfs.cpp's SlidingExpander does the same steps but
// learns the parity from its prefix sums, which this cursor's own parity pass would slow by a
// tenth): ranks reach an expander in ascending order within a range, so a nearby later rank
// with the same blank is reached by a few lexicographic steps (amortised O(1)) instead of an
// unrank (O(n^2)).
class TilesCursor {
 public:
  TilesCursor(const SlidingRanking& ranking, int klass)
      : ranking_(&ranking),
        klass_(klass),
        m_(ranking.size().cells() - 1),
        per_blank_(ranking.per_blank()) {}

  // Loads `rank` (below ranking.states()): tiles() then holds its tiles' order t[0..n-2] and
  // blank() its blank's cell.
  void load(std::uint64_t rank) {
    if (rank == loaded_) return;
    if (loaded_ < rank && rank - loaded_ <= 4 &&
        rank / per_blank_ == static_cast<unsigned>(blank_)) {
      // lex(t) = 2q + digit becomes 2(q + 1) by stepping from 2q (last two tiles ascending)
      // twice in lexicographic order; then the parity picks the last digit as below.
      for (; loaded_ < rank; ++loaded_) {
        if (t_[m_ - 2] > t_[m_ - 1]) std::swap(t_[m_ - 2], t_[m_ - 1]);
        std::next_permutation(t_, t_ + m_);
        std::next_permutation(t_, t_ + m_);
      }
    } else {
      loaded_ = rank;
      blank_ = static_cast<int>(rank / per_blank_);
      unrank_permutation(2 * (rank % per_blank_), m_, t_, 1);
    }
    // lex(t) is even here (the last two tiles ascending): swapping them turns the last digit
    // from 0 to 1 (weight 1) and changes nothing before it.
    if (permutation_parity(t_, m_) != ranking_->tiles_parity(klass_, blank_)) {
      std::swap(t_[m_ - 2], t_[m_ - 1]);
    }
  }
  const std::uint8_t* tiles() const { return t_; }
  int blank() const { return blank_; }

 private:
  const SlidingRanking* ranking_;
  int klass_, m_;
  std::uint64_t per_blank_;
  std::uint64_t loaded_ = ~std::uint64_t{0};
  int blank_ = 0;
  std::uint8_t t_[BFS_MAX_CELLS] = {};
};

}  // namespace detail

struct SlidingClassesData;

class SlidingSymmetryClasses {
 public:
  // The classes of the positions in parity class `klass` of `ranking` under the maps fixing
  // `goal`'s blank cell (a board and goal already checked).
  SlidingSymmetryClasses(const SlidingRanking& ranking, const Position& goal, int klass);

  std::uint64_t states() const;       // the index range: orbits * (n-1)!/2
  std::uint64_t group_order() const;  // the number of maps
  int parity_class() const;

  // The canonical index of a position of the parity class.
  std::uint64_t index(const Position& position) const;
  // The member of an index's class with the blank at the orbit's representative cell.
  Position position(std::uint64_t index) const;
  // Whether the index is its class's smallest (only those are ever claimed).
  bool canonical(std::uint64_t index) const;
  // The positions of the class of a canonical index: group order / |stabiliser|.
  std::uint64_t orbit_size(std::uint64_t index) const;
  // Those positions, each once, in no particular order.
  std::vector<Position> orbit(std::uint64_t index) const;

  // The neighbours of a class for search/bfs.hpp: the canonical indices of its position's
  // neighbours' classes; none for an index that is not canonical.
  class Expander {
   public:
    explicit Expander(const SlidingClassesData* data);
    template <class Visit>
    void for_each_neighbour(std::uint64_t index, Visit&& visit) {
      if (index != have_) load(index);
      for (int i = 0; i < count_; ++i) {
        if (visit(neighbours_[static_cast<std::size_t>(i)])) return;
      }
    }

   private:
    void load(std::uint64_t index);

    const SlidingClassesData* d_;
    detail::TilesCursor cursor_;  // the tiles' order at the representative cell
    std::uint64_t have_ = ~std::uint64_t{0};
    int count_ = 0;  // neighbours of the loaded index (0 when it is not canonical)
    std::array<std::uint64_t, 4> neighbours_{};
  };
  Expander expander() const { return Expander(data_.get()); }

 private:
  std::shared_ptr<const SlidingClassesData> data_;
};

}  // namespace permuzzle::sliding
