#include "coordinates.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>

#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::cube::detail {

namespace {

constexpr int binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  int r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

template <std::size_t N>
int lehmer_rank(const std::uint8_t* p) {
  int rank = 0;
  for (std::size_t i = 0; i < N; ++i) {
    int smaller = 0;
    for (std::size_t j = i + 1; j < N; ++j) smaller += p[j] < p[i];
    rank = rank * static_cast<int>(N - i) + smaller;
  }
  return rank;
}

// The symmetry generators, as cubies (Kociemba's descriptions of the four basic symmetries:
// a third turn about the URF-DBL diagonal, a half turn about the F-B axis, a quarter turn about
// the U-D axis, and the reflection in the plane between L and R). Checked by CubeBasics::make:
// each conjugates every face turn to a face turn.
KCube sym_urf3() {
  KCube c;
  c.cp = {0, 4, 5, 1, 3, 7, 6, 2};
  c.co = {1, 2, 1, 2, 2, 1, 2, 1};
  c.ep = {1, 8, 5, 9, 3, 11, 7, 10, 0, 4, 6, 2};
  c.eo = {1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1};
  return c;
}
KCube sym_f2() {
  KCube c;
  c.cp = {5, 4, 7, 6, 1, 0, 3, 2};
  c.ep = {6, 5, 4, 7, 2, 1, 0, 3, 9, 8, 11, 10};
  return c;
}
KCube sym_u4() {
  KCube c;
  c.cp = {3, 0, 1, 2, 7, 4, 5, 6};
  c.ep = {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10};
  c.eo = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
  return c;
}
KCube sym_lr2() {
  KCube c;
  c.cp = {1, 0, 3, 2, 5, 4, 7, 6};
  c.co = {3, 3, 3, 3, 3, 3, 3, 3};
  c.ep = {2, 1, 0, 3, 6, 5, 4, 7, 9, 8, 11, 10};
  return c;
}

}  // namespace

std::string move_name(int m) {
  static constexpr const char* SUFFIX[3] = {"", "2", "'"};
  return std::string(1, FACE_NAMES[m / 3]) + SUFFIX[m % 3];
}

void KCube::corners_times(const KCube& b) {
  std::array<std::uint8_t, 8> p, o;
  for (int i = 0; i < 8; ++i) {
    p[i] = cp[b.cp[i]];
    // Twists add mod 3; a mirrored factor (3..5) reverses the sense of the other's twist.
    const int x = co[b.cp[i]], y = b.co[i];
    int r;
    if (x < 3 && y < 3) {
      r = (x + y) % 3;
    } else if (x < 3) {
      r = x + y;
      if (r >= 6) r -= 3;
    } else if (y < 3) {
      r = x - y;
      if (r < 3) r += 3;
    } else {
      r = x - y;
      if (r < 0) r += 3;
    }
    o[i] = static_cast<std::uint8_t>(r);
  }
  cp = p;
  co = o;
}

void KCube::edges_times(const KCube& b) {
  std::array<std::uint8_t, 12> p, o;
  for (int i = 0; i < 12; ++i) {
    p[i] = ep[b.ep[i]];
    o[i] = static_cast<std::uint8_t>((eo[b.ep[i]] + b.eo[i]) & 1);
  }
  ep = p;
  eo = o;
}

KCube KCube::operator*(const KCube& b) const {
  KCube c = *this;
  c.corners_times(b);
  c.edges_times(b);
  return c;
}

KCube KCube::inverse() const {
  KCube d;
  for (int i = 0; i < 12; ++i) d.ep[ep[i]] = static_cast<std::uint8_t>(i);
  for (int i = 0; i < 12; ++i) d.eo[i] = eo[d.ep[i]];
  for (int i = 0; i < 8; ++i) d.cp[cp[i]] = static_cast<std::uint8_t>(i);
  for (int i = 0; i < 8; ++i) {
    const int o = co[d.cp[i]];
    d.co[i] = static_cast<std::uint8_t>(o >= 3 ? o : (3 - o) % 3);
  }
  return d;
}

int KCube::twist() const {
  int t = 0;
  for (int i = 0; i < 7; ++i) t = 3 * t + co[i];
  return t;
}
int KCube::flip() const {
  int f = 0;
  for (int i = 0; i < 11; ++i) f = 2 * f + eo[i];
  return f;
}
int KCube::slice() const {
  int a = 0, x = 0;
  for (int j = 11; j >= 0; --j) {
    if (ep[j] >= 8) a += binomial(11 - j, ++x);
  }
  return a;
}
int KCube::ccomb() const {
  int comb = 0, x = 0;
  for (int j = 0; j < 8; ++j) {
    if (cp[j] < 4) comb += binomial(j, ++x);
  }
  return comb;
}
int KCube::cperm() const {
  return lehmer_rank<8>(cp.data());
}
int KCube::eperm() const {
  return lehmer_rank<8>(ep.data());
}
int KCube::sperm() const {
  return lehmer_rank<4>(ep.data() + 8);
}

KCube from_cubie(const CubieState& c) {
  KCube k;
  for (int i = 0; i < 8; ++i) k.cp[c.r[i]] = static_cast<std::uint8_t>(i), k.co[c.r[i]] = c.v[i];
  for (int i = 0; i < 12; ++i) k.ep[c.s[i]] = static_cast<std::uint8_t>(i), k.eo[c.s[i]] = c.w[i];
  return k;
}

CubieState to_cubie(const KCube& k) {
  CubieState c;
  for (int p = 0; p < 8; ++p) c.r[k.cp[p]] = static_cast<std::uint8_t>(p), c.v[k.cp[p]] = k.co[p];
  for (int p = 0; p < 12; ++p) c.s[k.ep[p]] = static_cast<std::uint8_t>(p), c.w[k.ep[p]] = k.eo[p];
  return c;
}

CubeBasics CubeBasics::make() {
  CubeBasics b;
  // Step 1. Face turns from the sticker model (so both models agree by construction).
  for (int f = 0; f < 6; ++f) {
    const Perm turn = move_perm(std::string(1, FACE_NAMES[f]));
    auto quarter = from_sticker_perm(turn);
    assert(quarter);
    KCube q = from_cubie(*quarter), m = q;
    Perm stickers = turn;
    for (int p = 0; p < 3; ++p) {
      b.moves[3 * f + p] = m;
      m = m * q;
      for (Point i = 0; i < 54; ++i) {
        b.sticker_moves[3 * f + p][i] = static_cast<std::uint8_t>(stickers.image(i));
      }
      stickers *= turn;
    }
  }
  // Step 2. The 48 symmetries as products of the four generators.
  const KCube urf3 = sym_urf3(), f2 = sym_f2(), u4 = sym_u4(), lr2 = sym_lr2();
  KCube cc;
  for (int a = 0; a < 3; ++a) {
    for (int f = 0; f < 2; ++f) {
      for (int u = 0; u < 4; ++u) {
        for (int l = 0; l < 2; ++l) {
          b.syms[16 * a + 8 * f + 2 * u + l] = cc;
          cc = cc * lr2;
        }
        cc = cc * u4;
      }
      cc = cc * f2;
    }
    cc = cc * urf3;
  }
  for (int s = 0; s < N_SYM; ++s) {
    b.sym_inverse[s] = -1;
    for (int t = 0; t < N_SYM; ++t) {
      if (b.syms[s] * b.syms[t] == KCube{}) b.sym_inverse[s] = t;
    }
    assert(b.sym_inverse[s] >= 0);
  }
  // Step 3. Conjugated moves: every S^-1 M S must be a face turn.
  for (int m = 0; m < N_MOVES; ++m) {
    for (int s = 0; s < N_SYM; ++s) {
      const KCube c = b.conj(b.moves[m], s);
      int found = -1;
      for (int k = 0; k < N_MOVES; ++k) {
        if (b.moves[k] == c) found = k;
      }
      assert(found >= 0);
      b.conj_move[m * N_SYM + s] = static_cast<std::uint8_t>(found < 0 ? 0 : found);
    }
  }
  return b;
}

std::uint64_t CoordTables::bytes() const {
  return twist_move.size() * 2 + flip_move.size() * 2 + slice_move.size() * 2 +
         cperm_move.size() * 2 + sperm_move.size() + twist_conj.size() * 2 + fs_class.size() * 2 +
         fs_to_rep.size() + fs_rep.size() * 4 + fs_stabilizer.size() * 2 + fs_class_sym.size() * 4 +
         fs_class_move.size() * sizeof(FsMoveRow) + cperm_ccombp.size() + ccombp_move.size() +
         cperm_class_sym.size() * 2 + eperm_class_sym.size() * 2 + cperm_rep.size() * 2 +
         eperm_rep.size() * 2 + cclass_move.size() * 2 + eclass_move.size() * 2 + sym_mult.size() +
         p2_conj_move.size() + sperm_conj.size() + ccombp_conj.size() + prune_cclass_sperm.size() +
         prune_eclass_sperm.size() + prune_eclass_ccombp.size() + ccomb_move.size() +
         ccomb_conj.size() + slice_of_mask.size() * 2 + ccomb_of_mask.size();
}

namespace {

// Breadth-first distances inside H over (a, b) pairs with their own phase-2 move tables.
std::vector<std::uint8_t> phase2_prune(const std::vector<std::uint16_t>& a_move, int na,
                                       const std::vector<std::uint8_t>& b_move, int nb) {
  std::vector<std::uint8_t> dist(static_cast<std::size_t>(na) * nb, 0xFF);
  dist[0] = 0;
  std::size_t filled = 1;
  for (int d = 0; filled < dist.size(); ++d) {
    for (int a = 0; a < na; ++a) {
      for (int b = 0; b < nb; ++b) {
        if (dist[static_cast<std::size_t>(a) * nb + b] != d) continue;
        for (int m : PHASE2_MOVES) {
          const std::size_t i =
              static_cast<std::size_t>(a_move[a * N_MOVES + m]) * nb + b_move[b * N_MOVES + m];
          if (dist[i] == 0xFF) dist[i] = static_cast<std::uint8_t>(d + 1), ++filled;
        }
      }
    }
  }
  return dist;
}

// The classes of a permutation coordinate under D4h, numbered by their smallest member (the
// representative): class_sym[p] = class << 4 | s with conj(x, s) the representative.
void reduce_by_d4h(const CubeBasics& b, const std::vector<KCube>& cube_of,
                   int (KCube::*coord)() const, std::vector<std::uint16_t>& class_sym,
                   std::vector<std::uint16_t>& rep) {
  constexpr std::uint16_t NONE = 0xFFFF;
  class_sym.assign(cube_of.size(), NONE);
  rep.clear();
  for (std::size_t k = 0; k < cube_of.size(); ++k) {
    if (class_sym[k] != NONE) continue;
    const auto cls = static_cast<std::uint16_t>(rep.size());
    rep.push_back(static_cast<std::uint16_t>(k));
    for (int s = 0; s < N_SYM_D4H; ++s) {
      // y = conj(x, s), so conj(y, s^-1) = x is the representative.
      const auto y = static_cast<std::size_t>((b.conj(cube_of[k], s).*coord)());
      if (class_sym[y] == NONE) {
        class_sym[y] = static_cast<std::uint16_t>(cls << 4 | b.sym_inverse[s]);
      }
    }
  }
}

// [class * 10 + j]: class_sym of the representative after phase-2 move j.
std::vector<std::uint16_t> class_moves(const std::vector<std::uint16_t>& rep,
                                       const std::vector<std::uint16_t>& raw_move,
                                       const std::vector<std::uint16_t>& class_sym) {
  std::vector<std::uint16_t> out(rep.size() * N_PHASE2_MOVES);
  for (std::size_t c = 0; c < rep.size(); ++c) {
    for (int j = 0; j < N_PHASE2_MOVES; ++j) {
      out[c * N_PHASE2_MOVES + j] = class_sym[raw_move[rep[c] * N_MOVES + PHASE2_MOVES[j]]];
    }
  }
  return out;
}

// The rows of a [a * width + b] table for the representatives a = rep[class].
std::vector<std::uint8_t> rows_of(const std::vector<std::uint8_t>& full,
                                  const std::vector<std::uint16_t>& rep, int width) {
  std::vector<std::uint8_t> out;
  out.reserve(rep.size() * static_cast<std::size_t>(width));
  for (std::uint16_t a : rep) {
    const auto row = full.begin() + static_cast<std::ptrdiff_t>(a) * width;
    out.insert(out.end(), row, row + width);
  }
  return out;
}

}  // namespace

CoordTables CoordTables::make(const std::function<bool()>& stop) {
  CoordTables t;
  // Asked between steps and every 1024 iterations of the long loops (a cancelled request answers
  // within milliseconds, not at the end of a step).
  auto stopped_at = [&stop](std::uint64_t i) { return (i & 1023) == 0 && stop && stop(); };
  t.basics = CubeBasics::make();
  const auto& mv = t.basics.moves;
  // Step 1. Orientation coordinates.
  t.twist_move.resize(N_TWIST * N_MOVES);
  std::vector<KCube> twist_cube(N_TWIST);
  for (int tw = 0; tw < N_TWIST; ++tw) {
    KCube c;
    int x = tw, sum = 0;
    for (int i = 6; i >= 0; --i) sum += c.co[i] = static_cast<std::uint8_t>(x % 3), x /= 3;
    c.co[7] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
    assert(c.twist() == tw);
    twist_cube[tw] = c;
    for (int m = 0; m < N_MOVES; ++m) {
      KCube d = c;
      d.corners_times(mv[m]);
      t.twist_move[tw * N_MOVES + m] = static_cast<std::uint16_t>(d.twist());
    }
  }
  t.flip_move.resize(N_FLIP * N_MOVES);
  for (int f = 0; f < N_FLIP; ++f) {
    KCube c;
    int x = f, sum = 0;
    for (int i = 10; i >= 0; --i) sum += c.eo[i] = static_cast<std::uint8_t>(x & 1), x >>= 1;
    c.eo[11] = static_cast<std::uint8_t>(sum & 1);
    for (int m = 0; m < N_MOVES; ++m) {
      KCube d = c;
      d.edges_times(mv[m]);
      t.flip_move[f * N_MOVES + m] = static_cast<std::uint16_t>(d.flip());
    }
  }
  if (stop && stop()) {
    t.stopped = true;
    return t;
  }
  // Step 2. The slice combination: one cube per combination of 4 of the 12 positions.
  std::vector<KCube> slice_cube(N_SLICE);
  for (int mask = 0; mask < (1 << 12); ++mask) {
    if (__builtin_popcount(mask) != 4) continue;
    KCube c;
    int se = 8, oe = 0;
    for (int j = 0; j < 12; ++j) c.ep[j] = static_cast<std::uint8_t>((mask >> j) & 1 ? se++ : oe++);
    slice_cube[c.slice()] = c;
  }
  t.slice_of_mask.assign(1 << 12, 0);
  for (int s = 0; s < N_SLICE; ++s) {
    int mask = 0;
    for (int j = 0; j < 12; ++j) mask |= (slice_cube[s].ep[j] >= 8) << j;
    t.slice_of_mask[mask] = static_cast<std::uint16_t>(s);
  }
  t.slice_move.resize(N_SLICE * N_MOVES);
  for (int s = 0; s < N_SLICE; ++s) {
    assert(slice_cube[s].slice() == s);
    for (int m = 0; m < N_MOVES; ++m) {
      KCube d = slice_cube[s];
      d.edges_times(mv[m]);
      t.slice_move[s * N_MOVES + m] = static_cast<std::uint16_t>(d.slice());
    }
  }
  if (stop && stop()) {
    t.stopped = true;
    return t;
  }
  // Step 3. Permutations: the k-th permutation in lexicographic order has Lehmer rank k.
  t.cperm_move.resize(N_PERM8 * N_MOVES);
  t.cperm_ccombp.resize(N_PERM8);
  std::vector<std::uint16_t> eperm_move(N_PERM8 * N_MOVES, 0);  // phase-2 moves only
  std::vector<KCube> perm_cube(N_PERM8);  // corners and U/D edges in the k-th permutation
  std::array<std::uint8_t, 8> p{0, 1, 2, 3, 4, 5, 6, 7};
  for (int k = 0; k < N_PERM8; ++k, std::next_permutation(p.begin(), p.end())) {
    if (stopped_at(k)) {
      t.stopped = true;
      return t;
    }
    KCube c;
    c.cp = p;
    std::copy(p.begin(), p.end(), c.ep.begin());
    assert(c.cperm() == k && c.eperm() == k);
    perm_cube[k] = c;
    {
      int comb = 0, x = 0, inversions = 0;
      for (int j = 0; j < 8; ++j) {
        if (p[j] < 4) comb += binomial(j, ++x);
        for (int i = 0; i < j; ++i) inversions += p[i] > p[j];
      }
      t.cperm_ccombp[k] = static_cast<std::uint8_t>(comb * 2 + (inversions & 1));
    }
    for (int m = 0; m < N_MOVES; ++m) {
      KCube d = c;
      d.corners_times(mv[m]);
      t.cperm_move[k * N_MOVES + m] = static_cast<std::uint16_t>(d.cperm());
      if (is_phase2_move(m)) {
        d.edges_times(mv[m]);
        eperm_move[k * N_MOVES + m] = static_cast<std::uint16_t>(d.eperm());
      }
    }
  }
  t.sperm_move.assign(N_SPERM * N_MOVES, 0);
  t.sperm_conj.resize(N_SPERM * N_SYM_D4H);
  std::array<std::uint8_t, 4> q{8, 9, 10, 11};
  for (int k = 0; k < N_SPERM; ++k, std::next_permutation(q.begin(), q.end())) {
    KCube c;
    std::copy(q.begin(), q.end(), c.ep.begin() + 8);
    assert(c.sperm() == k);
    for (int s = 0; s < N_SYM_D4H; ++s) {
      t.sperm_conj[k * N_SYM_D4H + s] = static_cast<std::uint8_t>(t.basics.conj(c, s).sperm());
    }
    for (int m : PHASE2_MOVES) {
      KCube d = c;
      d.edges_times(mv[m]);
      t.sperm_move[k * N_MOVES + m] = static_cast<std::uint8_t>(d.sperm());
    }
  }
  // The corner combination with parity, moved through representatives.
  t.ccombp_move.assign(N_CCOMBP * N_MOVES, 0);
  {
    std::vector<int> rep(N_CCOMBP, -1);
    for (int k = 0; k < N_PERM8; ++k) {
      if (stopped_at(k)) {
        t.stopped = true;
        return t;
      }
      if (rep[t.cperm_ccombp[k]] < 0) rep[t.cperm_ccombp[k]] = k;
    }
    for (int v = 0; v < N_CCOMBP; ++v) {
      assert(rep[v] >= 0);
      for (int m : PHASE2_MOVES) {
        t.ccombp_move[v * N_MOVES + m] = t.cperm_ccombp[t.cperm_move[rep[v] * N_MOVES + m]];
      }
    }
  }
  // The corner combination alone: one cube per combination of 4 of the 8 positions.
  {
    std::vector<KCube> comb_cube(N_CCOMB);
    for (int mask = 0; mask < (1 << 8); ++mask) {
      if (__builtin_popcount(mask) != 4) continue;
      KCube c;
      int uc = 0, dc = 4;
      for (int j = 0; j < 8; ++j)
        c.cp[j] = static_cast<std::uint8_t>((mask >> j) & 1 ? uc++ : dc++);
      comb_cube[c.ccomb()] = c;
    }
    t.ccomb_of_mask.assign(256, 0);
    for (int mask = 0; mask < 256; ++mask) {
      if (__builtin_popcount(mask) != 4) continue;
      KCube c;
      int uc = 0, dc = 4;
      for (int j = 0; j < 8; ++j)
        c.cp[j] = static_cast<std::uint8_t>((mask >> j) & 1 ? uc++ : dc++);
      t.ccomb_of_mask[mask] = static_cast<std::uint8_t>(c.ccomb());
    }
    t.ccomb_move.resize(N_CCOMB * N_MOVES);
    t.ccomb_conj.resize(N_CCOMB * N_SYM_D4H);
    for (int v = 0; v < N_CCOMB; ++v) {
      assert(comb_cube[v].ccomb() == v);
      for (int m = 0; m < N_MOVES; ++m) {
        KCube d = comb_cube[v];
        d.corners_times(mv[m]);
        t.ccomb_move[v * N_MOVES + m] = static_cast<std::uint8_t>(d.ccomb());
      }
      for (int s = 0; s < N_SYM_D4H; ++s) {
        t.ccomb_conj[v * N_SYM_D4H + s] =
            static_cast<std::uint8_t>(t.basics.conj(comb_cube[v], s).ccomb());
      }
    }
  }
  if (stop && stop()) {
    t.stopped = true;
    return t;
  }
  // Step 4. Symmetry tables of D4h (the symmetries 0..15 keep the U-D axis, so they map the
  // phase-1 coordinates to phase-1 coordinates).
  t.twist_conj.resize(N_TWIST * N_SYM_D4H);
  for (int tw = 0; tw < N_TWIST; ++tw) {
    for (int s = 0; s < N_SYM_D4H; ++s) {
      t.twist_conj[tw * N_SYM_D4H + s] =
          static_cast<std::uint16_t>(t.basics.conj(twist_cube[tw], s).twist());
    }
  }
  constexpr std::uint16_t NONE = 0xFFFF;
  t.fs_class.assign(static_cast<std::size_t>(N_SLICE) * N_FLIP, NONE);
  t.fs_to_rep.assign(static_cast<std::size_t>(N_SLICE) * N_FLIP, 0);
  for (std::uint32_t fs = 0; fs < static_cast<std::uint32_t>(N_SLICE) * N_FLIP; ++fs) {
    if (stopped_at(fs)) {
      t.stopped = true;
      return t;
    }
    if (t.fs_class[fs] != NONE) continue;
    const auto cls = static_cast<std::uint16_t>(t.fs_rep.size());
    t.fs_rep.push_back(fs);
    t.fs_stabilizer.push_back(0);
    KCube c = slice_cube[fs / N_FLIP];
    int x = static_cast<int>(fs % N_FLIP), sum = 0;
    for (int i = 10; i >= 0; --i) sum += c.eo[i] = static_cast<std::uint8_t>(x & 1), x >>= 1;
    c.eo[11] = static_cast<std::uint8_t>(sum & 1);
    for (int s = 0; s < N_SYM_D4H; ++s) {
      // y = S_s^-1 c S_s (edges only), so that conj(y, s^-1) is the representative.
      KCube y = t.basics.syms[t.basics.sym_inverse[s]];
      y.edges_times(c);
      y.edges_times(t.basics.syms[s]);
      const std::uint32_t fy = static_cast<std::uint32_t>(y.slice()) * N_FLIP + y.flip();
      if (t.fs_class[fy] == NONE) {
        t.fs_class[fy] = cls;
        t.fs_to_rep[fy] = static_cast<std::uint8_t>(t.basics.sym_inverse[s]);
      }
      if (fy == fs) t.fs_stabilizer.back() |= static_cast<std::uint16_t>(1u << s);
    }
  }
  assert(t.fs_rep.size() == N_FLIPSLICE_CLASS);
  t.fs_class_sym.resize(t.fs_class.size());
  for (std::size_t fs = 0; fs < t.fs_class.size(); ++fs) {
    t.fs_class_sym[fs] = (std::uint32_t(t.fs_class[fs]) << 4) | t.fs_to_rep[fs];
  }
  t.fs_class_move.resize(t.fs_rep.size());
  for (std::size_t c = 0; c < t.fs_rep.size(); ++c) {
    auto& row = t.fs_class_move[c].bytes;
    row.fill(0);
    const std::uint32_t fs = t.fs_rep[c];
    for (int m = 0; m < N_MOVES; ++m) {
      const std::uint32_t fl = t.flip_move[(fs % N_FLIP) * N_MOVES + m];
      const std::uint32_t sl = t.slice_move[(fs / N_FLIP) * N_MOVES + m];
      const std::uint32_t y = t.fs_class_sym[sl * N_FLIP + fl];
      for (int b = 0; b < 3; ++b) row[3 * m + b] = static_cast<std::uint8_t>(y >> (8 * b));
    }
  }
  if (stop && stop()) {
    t.stopped = true;
    return t;
  }
  // Step 5. Phase 2 on symmetry classes: the classes, the symmetries' products and the moves
  // and coordinates conjugated.
  reduce_by_d4h(t.basics, perm_cube, &KCube::cperm, t.cperm_class_sym, t.cperm_rep);
  reduce_by_d4h(t.basics, perm_cube, &KCube::eperm, t.eperm_class_sym, t.eperm_rep);
  for (int a = 0; a < N_SYM_D4H; ++a) {
    for (int b = 0; b < N_SYM_D4H; ++b) {
      const KCube ab = t.basics.syms[a] * t.basics.syms[b];
      for (int k = 0; k < N_SYM_D4H; ++k) {
        if (t.basics.syms[k] == ab) t.sym_mult[a * N_SYM_D4H + b] = static_cast<std::uint8_t>(k);
      }
    }
  }
  for (int j = 0; j < N_PHASE2_MOVES; ++j) {
    for (int s = 0; s < N_SYM_D4H; ++s) {
      const int m = t.basics.conj_move[PHASE2_MOVES[j] * N_SYM + s];
      const auto at = std::find(PHASE2_MOVES.begin(), PHASE2_MOVES.end(), m);
      assert(at != PHASE2_MOVES.end());  // D4h keeps the U-D axis: phase-2 moves stay so
      t.p2_conj_move[j * N_SYM_D4H + s] = static_cast<std::uint8_t>(at - PHASE2_MOVES.begin());
    }
  }
  t.ccombp_conj.resize(N_CCOMBP * N_SYM_D4H);
  for (int v = 0; v < N_CCOMBP; ++v) {
    for (int s = 0; s < N_SYM_D4H; ++s) {  // a conjugate has the same parity
      t.ccombp_conj[v * N_SYM_D4H + s] =
          static_cast<std::uint8_t>(t.ccomb_conj[(v / 2) * N_SYM_D4H + s] * 2 + v % 2);
    }
  }
  t.cclass_move = class_moves(t.cperm_rep, t.cperm_move, t.cperm_class_sym);
  t.eclass_move = class_moves(t.eperm_rep, eperm_move, t.eperm_class_sym);
  if (stop && stop()) {
    t.stopped = true;
    return t;
  }
  // Step 6. Phase-2 pruning: breadth-first search over the full coordinates (9.4 MB for a
  // moment), then the representatives' rows kept.
  t.prune_cclass_sperm =
      rows_of(phase2_prune(t.cperm_move, N_PERM8, t.sperm_move, N_SPERM), t.cperm_rep, N_SPERM);
  t.prune_eclass_sperm =
      rows_of(phase2_prune(eperm_move, N_PERM8, t.sperm_move, N_SPERM), t.eperm_rep, N_SPERM);
  t.prune_eclass_ccombp =
      rows_of(phase2_prune(eperm_move, N_PERM8, t.ccombp_move, N_CCOMBP), t.eperm_rep, N_CCOMBP);
  return t;
}

bool build_phase1(const CoordTables& t, Phase1Table& out, const std::function<bool()>& cancelled,
                  const std::function<void(int, std::uint64_t)>& progress) {
  constexpr std::uint8_t EMPTY = 15;
  // Step 1. Every entry empty, a slice at a time: the first touch of 70 MB faults its pages in,
  // which on a virtual machine under load took 0.4 s of CPU, too long to go without a poll.
  constexpr std::size_t SLICE = std::size_t(1) << 20;
  std::vector<std::uint8_t>& nb = out.nibbles;
  nb.clear();
  nb.reserve(Phase1Table::BYTES);
  while (nb.size() < Phase1Table::BYTES) {
    if (cancelled && cancelled()) return false;
    nb.insert(nb.end(), std::min<std::size_t>(SLICE, Phase1Table::BYTES - nb.size()), 0xFF);
  }
  // depths_in_row[c]: bit d set when row c holds an entry at depth d (rows without the current
  // depth are skipped).
  std::vector<std::uint16_t> depths_in_row(N_FLIPSLICE_CLASS, 0);
  std::uint64_t filled = 0;
  auto get = [&](std::uint64_t i) { return (nb[i >> 1] >> ((i & 1) * 4)) & 15; };
  auto set = [&](std::uint64_t i, int d) {
    std::uint8_t& byte = nb[i >> 1];
    byte = static_cast<std::uint8_t>((i & 1) ? ((byte & 0x0F) | (d << 4)) : ((byte & 0xF0) | d));
  };
  // Sets (c, tw) and the entries of the positions symmetric to it under c's stabilizer.
  auto claim = [&](std::uint32_t c, int tw, int d) {
    const std::uint64_t base = std::uint64_t(c) * N_TWIST;
    if (get(base + tw) != EMPTY) return;
    set(base + tw, d), ++filled;
    depths_in_row[c] |= static_cast<std::uint16_t>(1u << d);
    for (std::uint32_t bits = t.fs_stabilizer[c] & ~1u; bits; bits &= bits - 1) {
      const int s = __builtin_ctz(bits);
      const int tw2 = t.twist_conj[tw * N_SYM_D4H + s];
      if (get(base + tw2) == EMPTY) set(base + tw2, d), ++filled;
    }
  };
  // Step 2. Breadth-first, level by level, over the rows that hold the level; a poll every 1024
  // such rows.
  claim(0, 0, 0);
  std::uint64_t rows_expanded = 0;
  for (int d = 0; filled < Phase1Table::ENTRIES; ++d) {
    if (d >= 14) return false;  // cannot happen: the phase-1 diameter is 12
    const std::uint64_t before = filled;
    for (std::uint32_t c = 0; c < N_FLIPSLICE_CLASS; ++c) {
      if (!(depths_in_row[c] & (1u << d))) continue;
      if ((rows_expanded++ & 1023) == 0 && cancelled && cancelled()) return false;
      std::array<std::uint32_t, N_MOVES> child_class;
      std::array<int, N_MOVES> child_sym;
      for (int m = 0; m < N_MOVES; ++m) {
        const std::uint32_t y = fs_rep_after(t, c, m);
        child_class[m] = y >> 4;
        child_sym[m] = static_cast<int>(y & 15);
      }
      const std::uint64_t base = std::uint64_t(c) * N_TWIST;
      for (int tw = 0; tw < N_TWIST; ++tw) {
        if (get(base + tw) != d) continue;
        for (int m = 0; m < N_MOVES; ++m) {
          const int tw2 = t.twist_conj[t.twist_move[tw * N_MOVES + m] * N_SYM_D4H + child_sym[m]];
          claim(child_class[m], tw2, d + 1);
        }
      }
    }
    if (progress) progress(d + 1, filled);
    if (filled == before) return false;
  }
  return true;
}

}  // namespace permuzzle::cube::detail
