// Internal to the cube solvers: the coordinates of the H48 kind (Tronto's H48 solver, nissy-core
// doc/h48.md), their exact table h0 and the hK tables (2 bits over a base, below).
//
// The target subgroup K: every corner in its own tetrad ({URF, ULB, DLF, DRB} or {UFL, UBR, DFR,
// DBL}) and twisted 0, every edge in its own slice (M: UF UB DF DB, S: UR UL DR DL, E: FR FL BL
// BR). Inside its tetrad a corner's twist is the same whichever axis it is counted from, so every
// one of the 48 symmetries maps K to itself; K contains the half-turn group <U2, R2, F2, D2, L2,
// B2>. The coordinates of a cube X are those of the coset K X (left multiplication by K keeps
// them; moves act on the right):
//   csep 0..69        which 4 corner positions hold the tetrad {URF, ULB, DLF, DRB}
//   cocsep 0..153089  twist * 70 + csep (the corners' part)
//   esep 0..34649     e * 70 + m: e (0..494) which 4 positions hold E edges, m (0..69) which 4 of
//                     the other 8 positions (in increasing order) hold M edges
// (4-element subsets ranked in increasing order of their bit masks: comb8, comb12).
// Under the 48 symmetries the 153,090 cocsep values fall into 3393 classes (nissy's published
// count; CubeH48 tests it). The h0 coordinate is (class, esep of the conjugate whose cocsep is the
// class's representative): 3393 x 34650 = 117,567,450 values.
//
// Data layout of H48H0Table: entry c * 34650 + e holds the distance to K of class c's
// representative corners with the edges e, 4 bits (low nibble first), 58,783,725 bytes. As in
// optimal_table.hpp, a class with a non-trivial stabiliser has several entries for one position up
// to symmetry (those of its conjugates by the stabiliser), each filled with its own distance.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "../../core/huge_pages.hpp"
#include "coordinates.hpp"

namespace permuzzle::cube::detail {

inline constexpr int N_CSEP = 70;
inline constexpr int N_COCSEP = N_TWIST * N_CSEP;       // 153,090
inline constexpr int N_COCSEP_CLASS = 3393;             // Tronto's count, checked on build
inline constexpr int N_ESEP = N_SLICE * 70;             // 34,650
inline constexpr std::uint8_t TETRAD_A_CUBIES = 0xA5;   // corners 0, 2, 5, 7 as a bit set
inline constexpr std::uint16_t M_SLICE_CUBIES = 0x0AA;  // edges 1, 3, 5, 7
inline constexpr std::uint64_t H48_H0_ENTRIES = std::uint64_t(N_COCSEP_CLASS) * N_ESEP;

struct H48Coords {
  std::vector<std::uint8_t> csep_move;           // [csep * 18 + m]
  std::vector<std::uint16_t> esep_move;          // [esep * 18 + m]
  std::vector<std::uint16_t> esep_conj;          // [esep * 48 + s]: esep of conj(x, s)
  std::vector<std::uint32_t> cocsep_class_sym;   // [cocsep] -> class << 6 | s, conj(x, s) rep
  std::vector<std::uint32_t> cocsep_rep;         // [class] -> cocsep
  std::vector<std::uint64_t> cocsep_stabilizer;  // [class] -> bits s: conj(rep, s) is rep
  // [cocsep] -> the least number of moves taking the corners into K's (a lower bound of the
  // position's distance to K that the searches check before reading a big table: nissy's
  // "cdata" bound).
  std::vector<std::uint8_t> cocsep_distance;
  std::array<std::uint8_t, 256> comb8_of_mask{};  // 4-bit masks of 8 positions -> 0..69
  std::array<std::uint8_t, N_CSEP> comb8_mask{};  // the inverse
  std::vector<std::uint16_t> comb12_of_mask;      // 4-bit masks of 12 positions -> 0..494
  std::vector<std::uint16_t> comb12_mask;         // the inverse
  // Edges as 12-bit masks, bit 11 - i for position i (so that mask >> 1 is flip()'s number):
  // moves and symmetries permute the positions (mask_move, mask_conj: [m or s][mask]), flip the
  // bits of move_flips / sym_flips, and a symmetry also flips the cubies of the slices whose
  // bit is set in slice_flips[s] (1 = S, 2 = M, 4 = E: how S^-1 counts their flips).
  std::vector<std::uint16_t> mask_move;  // [m * 4096 + mask]
  std::vector<std::uint16_t> mask_conj;  // [s * 4096 + mask]
  std::array<std::uint16_t, N_MOVES> move_flips{};
  std::array<std::uint16_t, N_SYM> sym_flips{};
  std::array<std::uint8_t, N_SYM> slice_flips{};
  std::array<std::uint8_t, N_SYM * N_SYM> sym_mult{};  // [a * 48 + b]: S_a S_b

  int csep(const KCube& x) const;
  int cocsep(const KCube& x) const { return x.twist() * N_CSEP + csep(x); }
  int esep(const KCube& x) const;
  int cocsep_after(const CoordTables& t, int cocsep, int m) const {
    return t.twist_move[(cocsep / N_CSEP) * N_MOVES + m] * N_CSEP +
           csep_move[(cocsep % N_CSEP) * N_MOVES + m];
  }
  // A cube with the given coordinates (its other pieces as they come).
  KCube corners_cube(int cocsep) const;
  KCube edges_cube(int esep) const;
  // The h0 entry of a cube.
  std::uint64_t h0_index(const KCube& x) const {
    const std::uint32_t cs = cocsep_class_sym[cocsep(x)];
    return std::uint64_t(cs >> 6) * N_ESEP + esep_conj[esep(x) * N_SYM + (cs & 63)];
  }
  // A cube with the h11 coordinate `index` (of the conjugate form: its corners are its class's
  // representative's).
  KCube cube_of_h11(std::uint64_t index) const;

  // The h11 coordinate kept through moves without a cube: the corners' cocsep, the edges' esep,
  // their flips and which positions hold E and M edges (masks as above). About ten table reads a
  // move, where multiplying and conjugating cubes costs several times more.
  struct EdgeState {
    std::uint32_t cocsep;
    std::uint16_t esep, flips, e_mask, m_mask;
  };
  EdgeState state_of(const KCube& x) const;
  EdgeState after(const CoordTables& t, const EdgeState& x, int m) const {
    return {static_cast<std::uint32_t>(cocsep_after(t, static_cast<int>(x.cocsep), m)),
            esep_move[x.esep * N_MOVES + m],
            static_cast<std::uint16_t>(mask_move[m * 4096 + x.flips] ^ move_flips[m]),
            mask_move[m * 4096 + x.e_mask], mask_move[m * 4096 + x.m_mask]};
  }
  // The flips of conj(x, s) as flip() numbers them.
  int conj_flip(const EdgeState& x, int s) const {
    const std::uint16_t* c = &mask_conj[s * 4096];
    const int z = slice_flips[s];
    const int sm = 0xFFF & ~(x.e_mask | x.m_mask);
    const int f = c[x.flips] ^ sym_flips[s] ^ (z & 1 ? c[sm] : 0) ^ (z & 2 ? c[x.m_mask] : 0) ^
                  (z & 4 ? c[x.e_mask] : 0);
    return f >> 1;
  }
  // The h11 coordinate of a state as one index: the h0 entry and the 11 edge flips of the same
  // conjugate (flip() order: position 0 in the highest bit), h0 entry * 2048 + flips. The entry
  // a search reads: the class's symmetry, no variants.
  std::uint64_t h11_of(const EdgeState& x) const {
    const std::uint32_t cs = cocsep_class_sym[x.cocsep];
    const int s = static_cast<int>(cs & 63);
    return (std::uint64_t(cs >> 6) * N_ESEP + esep_conj[x.esep * N_SYM + s]) * 2048 +
           static_cast<std::uint64_t>(conj_flip(x, s));
  }
  // cocsep (as cocsep(x)) by shuffles: twist = (3 co0 + co1) 243 + (3 co2 + co3) 27 + (3 co4 +
  // co5) 3 + co6; the positions holding tetrad A's corners (a byte lookup of each cp) as a mask.
  int cocsep_of_cube(const KCube& x) const {
#if defined(__SSE4_1__)
    // KCube's bytes: cp at 0, co at 8, ep at 16, eo at 28 (40 in all).
    const __m128i corners = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&x));
    const __m128i pairs =
        _mm_maddubs_epi16(corners, _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 3, 1, 3, 1, 1, 0));
    const __m128i sums = _mm_madd_epi16(pairs, _mm_setr_epi16(0, 0, 0, 0, 243, 27, 3, 1));
    const int twist = _mm_extract_epi32(sums, 2) + _mm_extract_epi32(sums, 3);
    const __m128i in_a = _mm_setr_epi8(-1, 0, -1, 0, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0);
    const int cmask = _mm_movemask_epi8(_mm_shuffle_epi8(in_a, corners)) & 0xFF;
    return twist * N_CSEP + comb8_of_mask[cmask];
#else
    return cocsep(x);
#endif
  }
  // The h11 coordinate of a cube (h11_of(state_of(x)) without the state): the corners' class
  // and symmetry s, then the edges of conj(x, s) = S^-1 x S by byte shuffles. The searches'
  // coordinate of a node: one read of a 600 KB table and a few of small ones.
  std::uint64_t h11_of_cube(const KCube& x) const {
    return h11_of_cube(x, cocsep_of_cube(x));
  }
  // The same with the cube's cocsep known.
  std::uint64_t h11_of_cube(const KCube& x, int cocsep_value) const {
#if defined(__SSE4_1__)
    const auto* base = reinterpret_cast<const std::uint8_t*>(&x);
    auto load = [](const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); };
    // Step 1. The corners' class and the symmetry taking them to its representative.
    const std::uint32_t cs = cocsep_class_sym[cocsep_value];
    const int s = static_cast<int>(cs & 63);
    // Step 2. The edges of S^-1 x S: t = x S (t.ep[i] = x.ep[S.ep[i]], t.eo[i] = x.eo[S.ep[i]]
    // ^ S.eo[i]), then S^-1 t. Lanes 12..15 carry nothing used.
    const __m128i xep = load(base + 16);
    const __m128i xeo = _mm_srli_si128(load(base + 24), 4);
    const __m128i sep = load(sym_edges[s].ep.data()), seo = load(sym_edges[s].eo.data());
    const __m128i iep = load(sym_inverse_edges[s].ep.data());
    const __m128i ieo = load(sym_inverse_edges[s].eo.data());
    const __m128i tep = _mm_shuffle_epi8(xep, sep);
    const __m128i teo = _mm_xor_si128(_mm_shuffle_epi8(xeo, sep), seo);
    const __m128i cep = _mm_shuffle_epi8(iep, tep);
    const __m128i ceo = _mm_xor_si128(_mm_shuffle_epi8(ieo, tep), teo);
    // Step 3. esep: the E edges' positions, then the M edges' among the other 8 (gathered in
    // increasing order by the E mask's shuffle); flips with position 0 in the highest bit.
    const int emask = _mm_movemask_epi8(_mm_cmpgt_epi8(cep, _mm_set1_epi8(7))) & 0xFFF;
    const int e = comb12_of_mask[emask];
    const __m128i others = _mm_shuffle_epi8(cep, load(non_e_positions[e].data()));
    const __m128i in_m = _mm_setr_epi8(0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0);
    const int mmask = _mm_movemask_epi8(_mm_shuffle_epi8(in_m, others)) & 0xFF;
    const __m128i reversed =
        _mm_shuffle_epi8(ceo, _mm_setr_epi8(10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -1, -1, -1, -1));
    const int flips = _mm_movemask_epi8(_mm_cmpgt_epi8(reversed, _mm_setzero_si128())) & 0x7FF;
    return (std::uint64_t(cs >> 6) * N_ESEP +
            static_cast<std::uint64_t>(e * 70 + comb8_of_mask[mmask])) *
               2048 +
           static_cast<std::uint64_t>(flips);
#else
    (void)cocsep_value;
    return h11_of(state_of(x));
#endif
  }
  // Edge parts of the symmetries and their inverses, and the 8 positions outside each E mask
  // (by its comb12 rank, increasing, then -1s), for h11_of_cube's shuffles.
  struct EdgeBytes {
    alignas(16) std::array<std::uint8_t, 16> ep;
    alignas(16) std::array<std::uint8_t, 16> eo;
  };
  std::array<EdgeBytes, N_SYM> sym_edges{}, sym_inverse_edges{};
  std::vector<std::array<std::uint8_t, 16>> non_e_positions;

  // Calls f(h11 index) for each conjugate of the state by its class's stabiliser (the entries of
  // one position up to symmetry; the identity's first). Returns the smallest (a canonical key).
  template <class F>
  std::uint64_t for_each_h11_variant(const EdgeState& x, F&& f) const {
    const std::uint32_t cs = cocsep_class_sym[x.cocsep];
    const int s = static_cast<int>(cs & 63);
    const std::uint64_t row = std::uint64_t(cs >> 6) * N_ESEP;
    const std::uint64_t first =
        (row + esep_conj[x.esep * N_SYM + s]) * 2048 + static_cast<std::uint64_t>(conj_flip(x, s));
    f(first);
    std::uint64_t least = first;
    for (std::uint64_t bits = cocsep_stabilizer[cs >> 6] & ~std::uint64_t(1); bits;
         bits &= bits - 1) {
      const int u = sym_mult[s * N_SYM + __builtin_ctzll(bits)];
      const std::uint64_t i = (row + esep_conj[x.esep * N_SYM + u]) * 2048 +
                              static_cast<std::uint64_t>(conj_flip(x, u));
      f(i);
      least = std::min(least, i);
    }
    return least;
  }
  // Fails (empty class tables) if the classes are not Tronto's 3393; `stop` is asked between the
  // steps (each well under a second).
  static H48Coords make(const CoordTables& t, const std::function<bool()>& stop = {});
};

struct H48H0Table {
  std::vector<std::uint8_t, permuzzle::detail::HugePageAllocator<std::uint8_t>> nibbles;  // BYTES
  std::vector<std::uint64_t> per_depth;  // entries at each distance
  static constexpr std::uint64_t BYTES = (H48_H0_ENTRIES + 1) / 2;
  int get(std::uint64_t index) const { return (nibbles[index >> 1] >> ((index & 1) * 4)) & 15; }
};

// The hK tables (K = 0..11): the h0 entry and the flips of the first K edge positions,
// (h0 entry << K) | (flips >> (11 - K)), 2 bits an entry (4 a byte, low bits first) relative to a
// base b: 0 = at most b (the reader falls back to another bound), 1 = b + 1, 2 = b + 2, 3 = at
// least b + 3. For 0 < K < 11 the entry is not a coordinate of a subgroup (a move brings
// untracked flips in); its value is the least distance of the positions it stands for (the
// h11 distance minimised over the untracked flips), as Tronto's H48 tables hold. (A breadth-first
// search over hK entries that lets untracked flips take any value on the way finds only h0's
// distances: tried, see docs/cube.md.)
struct H48K2Table {
  int k = 0;
  int base = 0;
  std::vector<std::uint8_t, permuzzle::detail::HugePageAllocator<std::uint8_t>> data;
  static std::uint64_t entries(int k) { return H48_H0_ENTRIES << k; }
  static std::uint64_t bytes(int k) { return (entries(k) + 3) / 4; }
  std::uint64_t index_of_h11(std::uint64_t h11) const {
    return (h11 >> 11) << k | (h11 & 2047) >> (11 - k);
  }
  int get(std::uint64_t index) const { return (data[index >> 2] >> ((index & 3) * 2)) & 3; }
};

// Fills an hK table by depth-first search, Tronto's method: (1) the h11 coordinates within
// `short_depth` moves by breadth-first search over whole cubes (keys up to symmetry, in memory);
// (2) from each at exactly `short_depth`, every canonical move sequence up to base + 2 moves in
// all, skipping the positions the first step met (they are searched from their own start), each
// position marking its entries (all its symmetric variants) with the least of its depth seen.
// Every h11 coordinate at distance D in (short_depth, base + 2] is met at depth D along a
// shortest path, so each entry gets min(distance) exactly, clipped as the layout says.
// short_depth <= base is required. `cancelled` is polled every few thousand positions;
// `progress` gets the start positions done and their number. False when cancelled.
//
// Checkpoints (`resume`): the starts are an index and marks keep minima, so a table saved when
// every start below some index is done, with that index, is a valid point to go on from (a start
// done twice changes nothing). `resume.first_start` > 0 says that `out.data` already holds such a
// table (its size checked) and the search goes on from there; `resume.due` is polled with
// `cancelled`, and when it says so the threads stop, `resume.save` gets the index below which every
// start is done (the table complete up to it), and the threads go on.
struct H48BuildResume {
  std::uint64_t first_start = 0;
  std::function<bool()> due;
  std::function<void(std::uint64_t next_start)> save;
};
bool build_h48_k2(const CoordTables& t, const H48Coords& h, int k, int base, int short_depth,
                  unsigned threads, H48K2Table& out, const std::function<bool()>& cancelled,
                  const std::function<void(std::uint64_t done, std::uint64_t total)>& progress,
                  const H48BuildResume& resume = {});

// Breadth-first search over the h0 entries (forward while a level is small, then backward:
// each unvisited entry looks for a neighbour in the level), one byte an entry while building,
// packed to nibbles at the end. Rows (classes) are shared among `threads` threads; `cancelled` is
// polled between rows, `progress` called after each level. False when cancelled.
bool build_h48_h0(const CoordTables& t, const H48Coords& h, unsigned threads, H48H0Table& out,
                  const std::function<bool()>& cancelled,
                  const std::function<void(int depth, std::uint64_t filled)>& progress);

}  // namespace permuzzle::cube::detail
