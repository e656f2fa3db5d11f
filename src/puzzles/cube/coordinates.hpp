// Internal to the cube solvers: cubies in the position-indexed form of Kociemba's papers, the
// coordinates of the two-phase algorithm, the cube's symmetries, and their move tables.
//
// Data layout: KCube holds, per corner POSITION (URF, UFL, ULB, UBR, DFR, DLF, DBL, DRB), the
// cubie there (cp) and its twist (co: 0..2 for rotations; 3..5 marks a mirrored cube, used only
// by the left-right reflection symmetry), and per edge position (UR, UF, UL, UB, DR, DF, DL, DB,
// FR, FL, BL, BR) the cubie (ep) and its flip (eo). This is the inverse view of CubieState
// (r[i] = where cubie i is): cp[r[i]] = i, co[r[i]] = v[i]. a * b applies a, then b.
//
// Coordinates (each 0 for the solved cube):
//   twist 0..2186   the twists of corners 0..6 as a base-3 number (corner 7 follows)
//   flip 0..2047    the flips of edges 0..10 as a base-2 number
//   slice 0..494    which 4 positions hold the UD-slice edges FR FL BL BR (a combination)
//   cperm 0..40319  the corner permutation (Lehmer rank)
//   eperm 0..40319  the permutation of the 8 U/D edges, inside phase 2's subgroup H
//   sperm 0..23     the permutation of the 4 slice edges, inside H
//   ccomb 0..69     which 4 of the 8 corner positions hold the U-layer corners URF UFL ULB UBR
//                   (a combination, ranked like slice; the optimal solver's extra coordinate)
// Moves are numbered 3 * face + (quarter turns - 1), faces U R F D L B (Kociemba's order).
// Symmetries are numbered 16 * urf3 + 8 * f2 + 2 * u4 + lr2 (48 of them); the first 16 keep
// the U-D axis (the group D4h that reduces the phase-1 coordinates).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "permuzzle/puzzles/cube/cubie.hpp"

namespace permuzzle::cube::detail {

inline constexpr int N_MOVES = 18;
inline constexpr int N_TWIST = 2187;
inline constexpr int N_FLIP = 2048;
inline constexpr int N_SLICE = 495;
inline constexpr int N_PERM8 = 40320;
inline constexpr int N_SPERM = 24;
inline constexpr int N_CCOMBP = 140;
inline constexpr int N_CCOMB = 70;
inline constexpr int N_SYM = 48;
inline constexpr int N_SYM_D4H = 16;
inline constexpr int N_FLIPSLICE_CLASS = 64430;  // Kociemba's published count, checked on build
inline constexpr int N_PHASE2_MOVES = 10;
// Phase 2's moves (U, U2, U', R2, F2, D, D2, D', L2, B2) as indices into the 18.
inline constexpr std::array<int, N_PHASE2_MOVES> PHASE2_MOVES = {0, 1, 2, 4, 7, 9, 10, 11, 13, 16};
inline bool is_phase2_move(int m) {
  const int f = m / 3;
  return f == 0 || f == 3 || m % 3 == 1;
}
// Canonical order of consecutive moves: never the same face twice, and of two opposite faces
// (which commute) only U before D, R before L, F before B.
inline bool allowed_after(int last_move, int m) {
  if (last_move < 0) return true;
  const int lf = last_move / 3, f = m / 3;
  return f != lf && f != lf - 3;
}
std::string move_name(int m);  // "U", "U2", "U'", ...

struct KCube {
  std::array<std::uint8_t, 8> cp{0, 1, 2, 3, 4, 5, 6, 7};
  std::array<std::uint8_t, 8> co{};
  std::array<std::uint8_t, 12> ep{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::array<std::uint8_t, 12> eo{};

  bool operator==(const KCube&) const = default;
  KCube operator*(const KCube& b) const;  // apply *this, then b
  KCube inverse() const;
  void corners_times(const KCube& b);  // corners only: *this = *this * b
  void edges_times(const KCube& b);    // edges only

  int twist() const;
  int flip() const;
  int slice() const;
  int cperm() const;
  int eperm() const;  // valid in H (U/D edges in U/D positions)
  int sperm() const;  // valid in H
  int ccomb() const;
};

KCube from_cubie(const CubieState& c);
CubieState to_cubie(const KCube& k);

// The 18 move cubes and the 48 symmetry cubes; conjugation of moves by symmetries.
struct CubeBasics {
  std::array<KCube, N_MOVES> moves;
  std::array<KCube, N_SYM> syms;
  std::array<int, N_SYM> sym_inverse;
  // conj_move[m * 48 + s]: the move equal to S_s^-1 * M_m * S_s.
  std::array<std::uint8_t, N_MOVES * N_SYM> conj_move;
  // The face turns on the 54 stickers of the facelet model (its move_perm), for replaying
  // solutions without rebuilding the sticker geometry: sticker_moves[m][i] is the image of i.
  std::array<std::array<std::uint8_t, 54>, N_MOVES> sticker_moves;
  KCube conj(const KCube& x, int s) const { return syms[sym_inverse[s]] * x * syms[s]; }
  static CubeBasics make();
};

// Move tables, symmetry tables and the phase-2 pruning tables: small (about 14 MB), built in
// memory in well under a second.
struct CoordTables {
  CubeBasics basics;
  std::vector<std::uint16_t> twist_move;  // [twist * 18 + m]
  std::vector<std::uint16_t> flip_move;   // [flip * 18 + m]
  std::vector<std::uint16_t> slice_move;  // [slice * 18 + m]
  std::vector<std::uint16_t> cperm_move;  // [cperm * 18 + m]
  std::vector<std::uint8_t> sperm_move;   // [sperm * 18 + m], phase-2 moves only
  std::vector<std::uint16_t> twist_conj;  // [twist * 16 + s]: twist of conj(x, s), s in D4h
  // Flip-slice classes under D4h: flipslice = slice * 2048 + flip.
  std::vector<std::uint16_t> fs_class;       // [flipslice] -> class
  std::vector<std::uint8_t> fs_to_rep;       // [flipslice] -> s with conj(x, s) the representative
  std::vector<std::uint32_t> fs_rep;         // [class] -> representative flipslice
  std::vector<std::uint16_t> fs_stabilizer;  // [class] -> bit set of s with conj(rep, s) = rep
  // fs_class and fs_to_rep in one word, class << 4 | s (one cache line per read: the searches
  // read it at random).
  std::vector<std::uint32_t> fs_class_sym;  // [flipslice]
  // Flip-slice classes followed through moves (the optimal search's forward axes): row c holds,
  // for each move m, fs_class_sym of the representative of class c times M_m, 3 bytes each
  // (little-endian), 18 of them padded to 64 bytes: a node's row is one cache line, read once
  // for all its children (fs_class_sym costs a line per child). For x with class_sym c << 4 | s,
  // x * M has class_sym fs_after(t, x's, m) (see coordinates.hpp's fs_after).
  struct alignas(64) FsMoveRow {
    std::array<std::uint8_t, 64> bytes;
  };
  std::vector<FsMoveRow> fs_class_move;  // [class]
  // Corners and edges together (as min2phase does): which 4 corner positions hold U corners
  // (70 combinations) and the corner parity, ccombp = ccomb * 2 + parity.
  std::vector<std::uint8_t> cperm_ccombp;  // [cperm] -> ccombp
  std::vector<std::uint8_t> ccombp_move;   // [ccombp * 18 + m], phase-2 moves only
  // Phase 2 on symmetry classes (as min2phase does): the corner permutation and the U/D-edge
  // permutation are each reduced by the 16 symmetries of D4h to their classes (2768), so that
  // phase 2's tables (about 640 KB) stay in the level-2 cache; the full-size ones (9 MB)
  // missed it on every probe. A permutation p is read as class_sym[p] = class << 4 | s, where
  // conj(x, s) has the class's representative permutation. For a phase-2 move j (an index into
  // PHASE2_MOVES), x * M_j is read through the representative: conj(x * M, s) =
  // conj(x, s) * conj(M, s), so its class_sym is class_move[class * 10 + p2_conj_move[j * 16 +
  // s]] with that symmetry s2 composed: the new symmetry is sym_mult[s * 16 + s2].
  std::vector<std::uint16_t> cperm_class_sym;                  // [cperm]
  std::vector<std::uint16_t> eperm_class_sym;                  // [eperm]
  std::vector<std::uint16_t> cperm_rep;                        // [class] -> cperm
  std::vector<std::uint16_t> eperm_rep;                        // [class] -> eperm
  std::vector<std::uint16_t> cclass_move;                      // [class * 10 + j] -> class << 4 | s
  std::vector<std::uint16_t> eclass_move;                      // [class * 10 + j] -> class << 4 | s
  std::array<std::uint8_t, N_SYM_D4H * N_SYM_D4H> sym_mult{};  // [a * 16 + b]: S_a S_b
  std::array<std::uint8_t, N_PHASE2_MOVES * N_SYM_D4H> p2_conj_move{};  // [j * 16 + s]
  std::vector<std::uint8_t> sperm_conj;   // [sperm * 16 + s]: sperm of conj(x, s)
  std::vector<std::uint8_t> ccombp_conj;  // [ccombp * 16 + s]: ccombp of conj(x, s)
  // Phase-2 pruning: the exact distances inside H of the projections (corners with slice
  // edges, U/D edges with slice edges, U/D edges with the corner combination), each indexed by
  // the representative's class and the other coordinate conjugated by the same symmetry.
  std::vector<std::uint8_t> prune_cclass_sperm;   // [class * 24 + sperm]
  std::vector<std::uint8_t> prune_eclass_sperm;   // [class * 24 + sperm]
  std::vector<std::uint8_t> prune_eclass_ccombp;  // [class * 140 + ccombp]
  // The corner combination alone (the optimal solver's big table): all 18 moves, and its
  // conjugation by the D4h symmetries (which map the U and D layers to themselves or to each
  // other, so the conjugate's combination is a function of the combination).
  std::vector<std::uint8_t> ccomb_move;  // [ccomb * 18 + m]
  std::vector<std::uint8_t> ccomb_conj;  // [ccomb * 16 + s]: ccomb of conj(x, s), s in D4h
  // Combination ranks from position masks (bit j: position j holds a slice edge / a U corner),
  // for searches that compute coordinates of whole cubes.
  std::vector<std::uint16_t> slice_of_mask;  // [12-bit mask] (only masks of 4 bits are valid)
  std::vector<std::uint8_t> ccomb_of_mask;   // [8-bit mask]
  std::uint64_t bytes() const;
  // `stop` (if given) is asked between the steps (each well under a second): when it says stop,
  // the tables are left incomplete and `stopped` is set.
  static CoordTables make(const std::function<bool()>& stop = {});
  bool stopped = false;
};

// class << 4 | s of x * M_j for phase-2 move j, given x's class << 4 | s (see CoordTables).
inline int class_after(const CoordTables& t, const std::vector<std::uint16_t>& class_move, int x,
                       int j) {
  const int s = x & 15;
  const int y = class_move[(x >> 4) * N_PHASE2_MOVES + t.p2_conj_move[j * N_SYM_D4H + s]];
  return (y & ~15) | t.sym_mult[s * N_SYM_D4H + (y & 15)];
}

// class_sym (class << 4 | s) of the representative of flip-slice class c times M_m (its row in
// fs_class_move).
inline std::uint32_t fs_rep_after(const CoordTables& t, std::uint32_t c, int m) {
  const std::uint8_t* row = t.fs_class_move[c].bytes.data();
  return row[3 * m] | std::uint32_t(row[3 * m + 1]) << 8 | std::uint32_t(row[3 * m + 2]) << 16;
}

// class_sym (class << 4 | s) of x * M_m from x's flip-slice class_sym: conj(x * M, s) =
// conj(x, s) * conj(M, s), the representative times a move, whose class_sym composes with s.
inline std::uint32_t fs_after(const CoordTables& t, std::uint32_t x, int m) {
  const int s = static_cast<int>(x & 15);
  const std::uint32_t y = fs_rep_after(t, x >> 4, t.basics.conj_move[m * N_SYM + s]);
  return (y & ~15u) | t.sym_mult[s * N_SYM_D4H + (y & 15)];
}

// The phase-1 pruning table: the exact distance to H of every (flip-slice class, twist),
// 64430 x 2187 entries, 4 bits each (about 70 MB). Entry (c, t) at byte (c * 2187 + t) / 2,
// low nibble for even indices.
struct Phase1Table {
  std::vector<std::uint8_t> nibbles;
  int get(std::uint64_t index) const { return (nibbles[index >> 1] >> ((index & 1) * 4)) & 15; }
  static constexpr std::uint64_t ENTRIES = std::uint64_t(N_FLIPSLICE_CLASS) * N_TWIST;
  static constexpr std::uint64_t BYTES = (ENTRIES + 1) / 2;
};

// The phase-1 table entry of the phase-1 coordinates (searches compute the entries of all
// children first and prefetch them: the table is far larger than the caches).
inline std::uint64_t phase1_index(const CoordTables& t, int twist, int flip, int slice) {
  const std::uint32_t fs = static_cast<std::uint32_t>(slice) * N_FLIP + flip;
  const std::uint32_t cs = t.fs_class_sym[fs];  // one read (fs_class and fs_to_rep are two)
  return std::uint64_t(cs >> 4) * N_TWIST + t.twist_conj[twist * N_SYM_D4H + (cs & 15)];
}
inline void prefetch_phase1(const Phase1Table& p, std::uint64_t index) {
  __builtin_prefetch(p.nibbles.data() + (index >> 1));
}

// Distance to H (a lower bound on the distance to solved) of the phase-1 coordinates.
inline int phase1_distance(const CoordTables& t, const Phase1Table& p, int twist, int flip,
                           int slice) {
  return p.get(phase1_index(t, twist, flip, slice));
}

// Builds the phase-1 table by breadth-first search over the classes (rows of 2187 twists, so
// that a row's children stay in cache). `cancelled` is polled between rows.
bool build_phase1(const CoordTables& t, Phase1Table& out, const std::function<bool()>& cancelled,
                  const std::function<void(int depth, std::uint64_t filled)>& progress);

}  // namespace permuzzle::cube::detail
