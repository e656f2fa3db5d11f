// Internal to the cube solvers: pruning tables of the phase-1 coordinates times an extra
// coordinate, at 2 bits an entry (the distance mod 3), built breadth-first by rows.
//
// The optimal solver's big tables (as in Rokicki's nxopt): the distance of (flip-slice class,
// twist, ccomb, sorder) to the subgroup H' of cubes with twist 0, flip 0, the slice edges in the
// slice in an order of K (below), and the U corners in the U layer. H' contains U and D (and
// R2 L2 ... only in pairs), which the search's tricks rely on. Four sizes, by the slice edges'
// order kept (sorder, Q values; SliceOrder below):
//   Q = 1  64430 x 2187 x 70     =  9,863,588,700 entries,  2.30 GiB (no order: nxopt's table)
//   Q = 2  ... x 2 (order mod A4: the parity)  19,727,177,400 entries,  4.60 GiB
//   Q = 3  ... x 3 (order mod D4)               29,590,766,100 entries,  6.89 GiB
//   Q = 6  ... x 6 (order mod V4)               59,181,532,200 entries, 13.78 GiB
// With the trivial extra coordinate (size 1) the same builder gives the phase-1 table mod 3 (the
// test compares the two); with the order alone, phase-1-sized tables the tests check too.
//
// Data layout: one row per flip-slice class c (its representative's coordinates, as in
// phase1_index): entry e = t * extra + x for the twist t and the extra coordinate x = ccomb * Q +
// sorder, all conjugated by the symmetry fs_to_rep of the position's flip-slice (the same
// symmetry for all: the entry is the coordinates of the conjugate S^-1 X S whose flip-slice is
// the representative).
// Entry e of row c is bits 2(e%4)..2(e%4)+1 of byte c * row_bytes + e / 4; rows are padded to 64
// bytes (whole cache lines: threads own rows while building). Values 0..2 are the distance mod 3;
// 3 means unvisited while building (the padding keeps 3). A class whose representative has a
// non-trivial stabiliser has several entries for one position up to symmetry (the entries of
// its conjugates by the stabiliser); every entry holds its own coordinates' distance, so all
// entries are filled, symmetric ones with equal values.
//
// Reading mod-3 values: a child X*m differs from X by at most 1 in distance, so its distance is
// the parent's plus 0, +1 or -1, whichever has the child's residue (mod3_step).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <vector>

#include "../../core/huge_pages.hpp"
#include "coordinates.hpp"

namespace permuzzle::cube::detail {

using permuzzle::detail::HugePageAllocator;

struct Mod3Table {
  int extra = 1;                  // size of the extra coordinate (1, 70 x Q or Q)
  std::uint64_t row_entries = 0;  // 2187 * extra
  std::uint64_t row_bytes = 0;    // row_entries / 4, rounded up to a multiple of 64
  std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> data;

  static Mod3Table shape(int extra) {
    Mod3Table t;
    t.extra = extra;
    t.row_entries = std::uint64_t(N_TWIST) * extra;
    t.row_bytes = ((t.row_entries + 3) / 4 + 63) / 64 * 64;
    return t;
  }
  std::uint64_t bytes() const { return std::uint64_t(N_FLIPSLICE_CLASS) * row_bytes; }
  std::uint64_t entries() const { return std::uint64_t(N_FLIPSLICE_CLASS) * row_entries; }
  // The byte and shift of entry e of row c.
  std::uint64_t byte_index(std::uint32_t c, std::uint64_t e) const {
    return c * row_bytes + (e >> 2);
  }
  int get(std::uint32_t c, std::uint64_t e) const {
    return (data[byte_index(c, e)] >> ((e & 3) * 2)) & 3;
  }
};

// The slice edges' order up to a group K of relabellings (sorder). For a cube, list the slice
// edges (FR FL BL BR = 0..3) in the order of their positions (increasing position index): a
// permutation rho of 0..3 (rank -> edge). A move reorders the ranks (rho' = rho sigma, sigma a
// function of the slice positions and the move); a symmetry of D4h also relabels the edges
// (rho' = tau rho sigma, tau in the square's D4 on FR FL BL BR, which are in cyclic order). So
// the coset K rho is a coordinate, with move and conjugation tables that depend on the slice
// positions, whenever tau normalises K: K = A4 (Q = 2, the parity), D4 (Q = 3), V4 (Q = 6).
// U and D move no slice edge: the goal coset (0, the identity's) is kept by them, so H' still
// contains U and D. make() checks that every rho of a coset has the same image (the coordinate
// is well defined) and fails otherwise.
struct SliceOrder {
  int size = 1;                    // Q
  std::vector<std::uint8_t> move;  // [(slice * 18 + m) * Q + q]: sorder of X * M_m
  std::vector<std::uint8_t> conj;  // [(slice * 16 + s) * Q + q]: sorder of conj(X, s), s in D4h
  std::array<std::uint8_t, 64> of_code{};              // [(e0 * 4 + e1) * 4 + e2] -> q (e3 follows)
  std::vector<std::array<std::uint8_t, 4>> positions;  // [slice]: its positions, increasing
  // Q = 2, 3 or 6; anything else (or a coordinate found not well defined) gives size 0.
  static SliceOrder make(const CoordTables& t, int q);
  int of(const KCube& c, int slice) const {
    const auto& p = positions[slice];
    return of_code[((c.ep[p[0]] - 8) * 4 + (c.ep[p[1]] - 8)) * 4 + (c.ep[p[2]] - 8)];
  }
  int of(const KCube& c) const { return of(c, c.slice()); }
};

// The extra coordinate x = c * Q + q: a corner part c (size / Q values: 1 or ccomb's 70) with its
// move table [c * 18 + m] and D4h conjugation [c * 16 + s], and the slice edges' order q (none:
// Q = 1). The order's tables need the slice coordinate of the position they act on.
struct ExtraCoord {
  int size = 1;
  const std::uint8_t* move = nullptr;
  const std::uint8_t* conj = nullptr;
  const SliceOrder* order = nullptr;
  int order_size() const { return order ? order->size : 1; }
  // The parts moved or conjugated one at a time (c, q: the corner part and the order; the search
  // keeps them apart).
  int corner_after_move(int c, int m) const { return move[c * N_MOVES + m]; }
  int order_after_move(int q, int slice, int m) const {
    return order ? order->move[(slice * N_MOVES + m) * order->size + q] : 0;
  }
  // x of conj(X, s) from X's parts (its slice before the conjugation).
  int conjugated(int c, int q, int slice, int s) const {
    if (!order) return conj[c * N_SYM_D4H + s];
    return conj[c * N_SYM_D4H + s] * order->size +
           order->conj[(slice * N_SYM_D4H + s) * order->size + q];
  }
  // The same on x = c * Q + q.
  int after_move(int x, int slice, int m) const {
    const int q = order_size();
    return corner_after_move(x / q, m) * q + order_after_move(x % q, slice, m);
  }
  int conjugated(int x, int slice, int s) const {
    const int q = order_size();
    return conjugated(x / q, x % q, slice, s);
  }
};

// Distance of child = parent + mod3_step(parent, child residue) (neighbours differ by <= 1).
inline int mod3_step(int parent, int residue) {
  const int d = (residue - parent % 3 + 3) % 3;  // 0: same, 1: +1, 2: -1
  return parent + (d == 2 ? -1 : d);
}

// Builds the table breadth-first: forward levels (each entry of the level sets its unvisited
// neighbours) while the level is small, then backward levels (each unvisited entry looks for a
// neighbour in the level). Rows are shared among `threads` threads. `cancelled` is polled between
// rows (by the calling thread); `progress` is called after each level. `per_depth` receives the
// number of entries at each distance. False when cancelled (or on an internal failure).
bool build_mod3_table(const CoordTables& t, const ExtraCoord& extra, unsigned threads,
                      Mod3Table& out, const std::function<bool()>& cancelled,
                      const std::function<void(int depth, std::uint64_t filled)>& progress,
                      std::vector<std::uint64_t>* per_depth);

// The exact distance of an entry's position, by descending the table: from the position
// (twist, flip, slice, extra) follow a neighbour one closer (residue - 1) until the goal.
int mod3_exact_distance(const CoordTables& t, const ExtraCoord& extra, const Mod3Table& table,
                        int twist, int flip, int slice, int x);

// The raw coordinates (no symmetry) within `depth` moves of the goal by breadth-first search of
// their move tables alone: layer d holds {twist, flip, slice, x} at distance d. A second method
// beside the tables (which go by symmetry classes and rows).
std::vector<std::vector<std::array<int, 4>>> raw_coordinate_layers(const CoordTables& t,
                                                                   const ExtraCoord& extra,
                                                                   int depth);

// The row (class) and entry of the coordinates.
struct Mod3Index {
  std::uint32_t row;
  std::uint32_t entry;
};
inline Mod3Index mod3_index(const CoordTables& t, const ExtraCoord& extra, int twist, int flip,
                            int slice, int x) {
  const std::uint32_t fs = static_cast<std::uint32_t>(slice) * N_FLIP + flip;
  const int s = t.fs_to_rep[fs];
  return {t.fs_class[fs], static_cast<std::uint32_t>(t.twist_conj[twist * N_SYM_D4H + s]) *
                                  static_cast<std::uint32_t>(extra.size) +
                              static_cast<std::uint32_t>(extra.conjugated(x, slice, s))};
}

}  // namespace permuzzle::cube::detail
