#include "permuzzle/puzzles/loopover/symmetry_classes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>

#include "permuzzle/core/ranking.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"

namespace permuzzle::loopover {

namespace {

constexpr std::uint32_t NO_CLASS = std::numeric_limits<std::uint32_t>::max();
constexpr int MAX_ROWS = 4;  // the wide board of at most 16 cells has r <= 4

std::uint64_t binomial_coefficient(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t r = 1;
  for (int i = 1; i <= k; ++i)
    r = r * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return r;
}

}  // namespace

// Layouts (see the header):
// - perms: the c! permutations of S_c by Lehmer rank, c bytes each; comp[a * F + b] = rank of
//   a o b ((a o b)[j] = a[b[j]]); parity, half (rank among the permutations of its parity) and
//   from_half[parity][half].
// - pattern classes: class_of[x], map_of[x] (a symmetry taking x to its class's representative)
//   for every pattern rank x; per class: rep (cell -> row label), slot (cell -> rank among its
//   label's cells), cells[A][s] (the cell of slot s of label A), base parity (of the position
//   with every y_A the identity), and its stabiliser as transforms.
// - transitions[k * moves + m]: the class reached by move m from class k's representative and
//   the transform of y (src, left, kinv).
struct Transform {
  std::uint32_t target = 0;  // the class (transitions only)
  std::uint16_t kinv = 0;    // rank of kappa^-1 (tile columns relabelled)
  std::uint8_t src[MAX_ROWS] = {};
  std::uint16_t left[MAX_ROWS] = {};  // slot permutation of the destination row
};

struct SymmetryClassesData {
  BoardSize board;  // as asked
  Metric metric = Metric::Stm;
  bool transposed = false;  // the wide board is the board transposed
  bool square = false;
  int R = 0, C = 0, n = 0;  // the wide board
  std::uint32_t F = 0;      // c!
  std::uint32_t last = 0;   // radix of the last digit (F, or F / 2 on odd x odd boards)
  bool odd_odd = false;
  std::uint64_t ysize = 0;
  std::uint64_t group_order = 0;
  int moves = 0;

  std::vector<std::uint8_t> perms;
  std::vector<std::uint16_t> comp;
  std::vector<std::uint8_t> parity;
  std::vector<std::uint16_t> half;
  std::vector<std::uint16_t> from_half[2];

  // G0 (no transpose): row map, column map, cell map, rank of kappa^-1, inverse element.
  std::vector<std::array<std::uint8_t, 16>> row_map, col_map, cell_map;
  std::vector<std::uint16_t> kinv;
  std::vector<std::uint8_t> inverse;

  std::vector<std::uint32_t> class_of;
  std::vector<std::uint8_t> map_of;
  std::vector<std::array<std::uint8_t, 16>> rep, slot;
  std::vector<std::array<std::array<std::uint8_t, 16>, MAX_ROWS>> cells;
  std::vector<std::uint8_t> base_parity;
  std::vector<std::uint32_t>
      stab_begin;  // stabiliser transforms of class k: [begin[k], begin[k+1])
  std::vector<Transform> stab;
  std::vector<Transform> transitions;
  std::vector<std::array<std::uint8_t, 16>> move_dst;  // content of cell c goes to dst[c]

  // Full group in wide orientation (cell maps), only on square boards (orbit sizes).
  std::vector<std::vector<std::uint8_t>> full_group;

  std::uint64_t binom[17][17] = {};  // binom[n][k], n <= 16

  std::uint64_t binomial(int a, int b) const { return b < 0 || b > a ? 0 : binom[a][b]; }

  std::uint64_t pattern_rank(const std::uint8_t* pattern) const {
    // Label A's cells among the cells not taken by labels < A, colex subset rank; mixed radix.
    std::uint64_t rank = 0, radix = 1;
    std::uint32_t taken = 0;
    int remaining = n;
    for (int a = 0; a + 1 < R; ++a) {
      std::uint64_t r = 0;
      int idx = 0, chosen = 0;
      for (int c = 0; c < n; ++c) {
        if (taken >> c & 1u) continue;
        if (pattern[c] == a) {
          ++chosen;
          r += binomial(idx, chosen);
          taken |= 1u << c;
        }
        ++idx;
      }
      rank += r * radix;
      radix *= binomial(remaining, C);
      remaining -= C;
    }
    return rank;
  }

  void pattern_unrank(std::uint64_t rank, std::uint8_t* pattern) const {
    std::fill(pattern, pattern + n, static_cast<std::uint8_t>(R - 1));
    std::uint32_t taken = 0;
    int remaining = n;
    for (int a = 0; a + 1 < R; ++a) {
      const std::uint64_t radix = binomial(remaining, C);
      std::uint64_t r = rank % radix;
      rank /= radix;
      // Colex unrank of a C-subset of the `remaining` free cells.
      std::vector<int> chosen(static_cast<std::size_t>(C));
      for (int i = C; i >= 1; --i) {
        int v = i - 1;
        while (binomial(v + 1, i) <= r) ++v;
        r -= binomial(v, i);
        chosen[static_cast<std::size_t>(i - 1)] = v;
      }
      int idx = 0;
      std::uint32_t newly = 0;
      for (int c = 0; c < n; ++c) {
        if (taken >> c & 1u) continue;
        if (std::find(chosen.begin(), chosen.end(), idx) != chosen.end()) {
          pattern[c] = static_cast<std::uint8_t>(a);
          newly |= 1u << c;
        }
        ++idx;
      }
      taken |= newly;
      remaining -= C;
    }
  }

  std::uint16_t compose(std::uint16_t a, std::uint16_t b) const {
    return comp[static_cast<std::size_t>(a) * F + b];
  }

  // y' = t(y): y'_B = left_B o y_src(B) o kappa^-1.
  void apply(const Transform& t, const std::uint16_t* y, std::uint16_t* out) const {
    for (int b = 0; b < R; ++b) out[b] = compose(t.left[b], compose(y[t.src[b]], t.kinv));
  }

  std::uint64_t encode(std::uint32_t k, const std::uint16_t* y) const {
    std::uint64_t rem = 0;
    for (int a = 0; a + 1 < R; ++a) rem = rem * F + y[a];
    rem = rem * last + (odd_odd ? half[y[R - 1]] : y[R - 1]);
    return static_cast<std::uint64_t>(k) * ysize + rem;
  }

  std::uint32_t decode(std::uint64_t index, std::uint16_t* y) const {
    const auto k = static_cast<std::uint32_t>(index / ysize);
    std::uint64_t rem = index % ysize;
    const auto l = static_cast<std::uint16_t>(rem % last);
    rem /= last;
    unsigned par = base_parity[k];
    for (int a = R - 2; a >= 0; --a) {
      y[a] = static_cast<std::uint16_t>(rem % F);
      rem /= F;
      par ^= parity[y[a]];
    }
    y[R - 1] = odd_odd ? from_half[par][l] : l;
    return k;
  }

  // The smallest rank of (k, y) over k's stabiliser (G0 only).
  std::uint64_t min_over_stabiliser(std::uint32_t k, const std::uint16_t* y) const {
    std::uint64_t best = encode(k, y);
    std::uint16_t z[MAX_ROWS];
    for (std::uint32_t i = stab_begin[k]; i < stab_begin[k + 1]; ++i) {
      apply(stab[i], y, z);
      best = std::min(best, encode(k, z));
    }
    return best;
  }

  // Wide-orientation positions (tile per cell, 1-based tiles).
  void wide_position(std::uint32_t k, const std::uint16_t* y, std::uint8_t* p) const {
    for (int a = 0; a < R; ++a) {
      const std::uint8_t* perm = &perms[static_cast<std::size_t>(y[a]) * C];
      for (int j = 0; j < C; ++j)
        p[cells[k][a][perm[j]]] = static_cast<std::uint8_t>(a * C + j + 1);
    }
  }

  // G0-canonical index of a wide position.
  std::uint64_t g0_index(const std::uint8_t* p) const {
    std::uint8_t pattern[16];
    for (int c = 0; c < n; ++c) pattern[c] = static_cast<std::uint8_t>((p[c] - 1) / C);
    const std::uint64_t x = pattern_rank(pattern);
    const std::uint32_t k = class_of[x];
    const std::size_t s = map_of[x];
    std::uint8_t yarr[MAX_ROWS][16];
    for (int c = 0; c < n; ++c) {
      const int home = p[c] - 1;
      const int a = row_map[s][home / C], j = col_map[s][home % C];
      yarr[a][j] = slot[k][cell_map[s][c]];
    }
    std::uint16_t y[MAX_ROWS];
    for (int a = 0; a < R; ++a) y[a] = static_cast<std::uint16_t>(rank_permutation(yarr[a], C));
    return min_over_stabiliser(k, y);
  }

  void transpose_wide(const std::uint8_t* p, std::uint8_t* out) const {  // square only
    for (int c = 0; c < n; ++c) {
      const int home = p[c] - 1;
      out[(c % C) * C + c / C] = static_cast<std::uint8_t>((home % C) * C + home / C + 1);
    }
  }

  std::uint64_t wide_index(const std::uint8_t* p) const {
    std::uint64_t best = g0_index(p);
    if (square) {
      std::uint8_t t[16];
      transpose_wide(p, t);
      best = std::min(best, g0_index(t));
    }
    return best;
  }

  // The canonical index of (k, y), a class of positions reached by the search.
  std::uint64_t canonical_index(std::uint32_t k, const std::uint16_t* y) const {
    if (square) {
      std::uint8_t p[16];
      wide_position(k, y, p);
      return wide_index(p);
    }
    if (stab_begin[k] == stab_begin[k + 1]) return encode(k, y);
    return min_over_stabiliser(k, y);
  }

  bool is_canonical(std::uint32_t k, const std::uint16_t* y) const {
    if (!square && stab_begin[k] == stab_begin[k + 1]) return true;
    return canonical_index(k, y) == encode(k, y);
  }
};

bool symmetry_classes_supported(BoardSize size) {
  return std::max(size.rows, size.cols) <= MAX_SYMMETRY_LINE && size.cells() <= 16;
}

Result<SymmetryClasses> SymmetryClasses::create(BoardSize size, Metric metric,
                                                const RunContext& run) {
  if (auto ok = validate_size(size); !ok) return ok.error();
  if (!symmetry_classes_supported(size)) {
    return make_error(fmt::format("symmetry classes need boards of at most 16 cells with lines "
                                  "of at most {} cells ({} given)",
                                  MAX_SYMMETRY_LINE, format_size(size)),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  auto d = std::make_shared<SymmetryClassesData>();
  d->board = size;
  d->metric = metric;
  d->transposed = size.rows > size.cols;
  d->square = size.rows == size.cols;
  d->R = std::min(size.rows, size.cols);
  d->C = std::max(size.rows, size.cols);
  d->n = d->R * d->C;
  const int R = d->R, C = d->C, n = d->n;
  for (int a = 0; a <= 16; ++a) {
    for (int b = 0; b <= a; ++b) d->binom[a][b] = binomial_coefficient(a, b);
  }
  const BoardSize wide{R, C};
  d->F = static_cast<std::uint32_t>(*factorial(C));
  d->odd_odd = R % 2 == 1 && C % 2 == 1;
  d->last = d->odd_odd ? d->F / 2 : d->F;
  d->ysize = d->last;
  for (int a = 0; a + 1 < R; ++a) d->ysize *= d->F;

  // Step 1. The group (symmetry.hpp) on the wide board, and G0: its elements that keep rows
  // rows (all of them but the transposes), as a row map, a column map and a cell map.
  const std::vector<Perm> group = metric_symmetry_group(wide, metric);
  for (const Perm& g : group) {
    const auto image = [&](int x) { return static_cast<int>(g.image(static_cast<Point>(x))); };
    if (image(0) / C != image(1) / C) continue;  // a transpose
    std::array<std::uint8_t, 16> r{}, c{}, cell{};
    for (int i = 0; i < R; ++i) r[i] = static_cast<std::uint8_t>(image(i * C) / C);
    for (int j = 0; j < C; ++j) c[j] = static_cast<std::uint8_t>(image(j) % C);
    for (int x = 0; x < n; ++x) cell[x] = static_cast<std::uint8_t>(image(x));
    std::uint8_t inv[16];
    for (int j = 0; j < C; ++j) inv[c[j]] = static_cast<std::uint8_t>(j);
    d->row_map.push_back(r);
    d->col_map.push_back(c);
    d->cell_map.push_back(cell);
    d->kinv.push_back(static_cast<std::uint16_t>(rank_permutation(inv, C)));
  }
  const std::size_t g0 = d->cell_map.size();
  d->group_order = group.size();
  for (std::size_t s = 0; s < g0; ++s) {
    for (std::size_t t = 0; t < g0; ++t) {
      bool id = true;
      for (int x = 0; x < n && id; ++x) id = d->cell_map[t][d->cell_map[s][x]] == x;
      if (id) d->inverse.push_back(static_cast<std::uint8_t>(t));
    }
  }

  // Step 2. Memory: the search's table (2 bits per class, at least n!/|G| of them) and the
  // pattern tables, before anything large is built.
  std::uint64_t patterns = 1;
  for (int a = 0, left = n; a + 1 < R; ++a, left -= C) patterns *= d->binomial(left, C);
  const std::uint64_t min_classes = *factorial(n) / d->group_order / (d->odd_odd ? 2 : 1);
  const std::uint64_t tables = static_cast<std::uint64_t>(d->F) * d->F * 2 + patterns * 5 +
                               (patterns / g0 + 1) * 120 * (sizeof(Transform) + 64);
  if (auto ok = run.check_memory(
          min_classes / 4 + tables,
          fmt::format("a breadth-first search of the {} board over {} symmetry classes (2 bits "
                      "for each of at least {} classes, and their tables)",
                      format_size(size), d->group_order, min_classes));
      !ok) {
    return ok.error();
  }

  // Step 3. S_c: permutations, composition, parity.
  const std::uint32_t F = d->F;
  d->perms.resize(static_cast<std::size_t>(F) * C);
  {
    std::vector<std::uint8_t> p(static_cast<std::size_t>(C));
    std::iota(p.begin(), p.end(), 0);
    std::uint32_t r = 0;
    do {
      std::copy(p.begin(), p.end(), d->perms.begin() + static_cast<std::ptrdiff_t>(r) * C);
      ++r;
    } while (std::next_permutation(p.begin(), p.end()));
  }
  d->comp.resize(static_cast<std::size_t>(F) * F);
  d->parity.resize(F);
  d->half.resize(F);
  std::uint16_t count[2] = {0, 0};
  for (std::uint32_t a = 0; a < F; ++a) {
    const std::uint8_t* pa = &d->perms[static_cast<std::size_t>(a) * C];
    int inversions = 0;
    for (int i = 0; i < C; ++i) {
      for (int j = i + 1; j < C; ++j) inversions += pa[i] > pa[j] ? 1 : 0;
    }
    d->parity[a] = static_cast<std::uint8_t>(inversions & 1);
    d->half[a] = count[d->parity[a]]++;
    d->from_half[d->parity[a]].push_back(static_cast<std::uint16_t>(a));
    if (a % 64 == 0 && run.should_stop()) return run.stop_error();
    for (std::uint32_t b = 0; b < F; ++b) {
      const std::uint8_t* pb = &d->perms[static_cast<std::size_t>(b) * C];
      std::uint8_t ab[16];
      for (int j = 0; j < C; ++j) ab[j] = pa[pb[j]];
      d->comp[static_cast<std::size_t>(a) * F + b] =
          static_cast<std::uint16_t>(rank_permutation(ab, C));
    }
  }

  // Step 4. Pattern classes: the smallest pattern rank of each orbit is its representative.
  d->class_of.assign(patterns, NO_CLASS);
  d->map_of.assign(patterns, 0);
  std::vector<std::vector<Transform>> stabilisers;
  std::uint8_t pattern[16], image[16];
  for (std::uint64_t x = 0; x < patterns; ++x) {
    if ((x & 0xFFF) == 0 && run.should_stop()) return run.stop_error();
    if (d->class_of[x] != NO_CLASS) continue;
    const auto k = static_cast<std::uint32_t>(d->rep.size());
    d->pattern_unrank(x, pattern);
    std::array<std::uint8_t, 16> rep{}, slot{};
    std::array<std::array<std::uint8_t, 16>, MAX_ROWS> cells{};
    int next[MAX_ROWS] = {};
    for (int c = 0; c < n; ++c) {
      rep[c] = pattern[c];
      slot[c] = static_cast<std::uint8_t>(next[pattern[c]]++);
      cells[pattern[c]][slot[c]] = static_cast<std::uint8_t>(c);
    }
    d->rep.push_back(rep);
    d->slot.push_back(slot);
    d->cells.push_back(cells);
    {
      // Parity of the position with tile (A, j) in slot j of label A.
      std::uint8_t p[16];
      for (int a = 0; a < R; ++a) {
        for (int j = 0; j < C; ++j) p[cells[a][j]] = static_cast<std::uint8_t>(a * C + j);
      }
      int inversions = 0;
      for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) inversions += p[i] > p[j] ? 1 : 0;
      }
      d->base_parity.push_back(static_cast<std::uint8_t>(inversions & 1));
    }
    stabilisers.emplace_back();
    for (std::size_t s = 0; s < g0; ++s) {
      for (int c = 0; c < n; ++c) image[d->cell_map[s][c]] = d->row_map[s][pattern[c]];
      const std::uint64_t y = d->pattern_rank(image);
      if (d->class_of[y] == NO_CLASS) {
        d->class_of[y] = k;
        d->map_of[y] = d->inverse[s];
      }
      if (y == x && s != 0) {
        // A stabiliser element: tile (A, j) in slot s of A goes to slot slot[sigma(cell)] of
        // rho(A), relabelled (rho(A), kappa(j)).
        Transform t;
        t.kinv = d->kinv[s];
        for (int a = 0; a < R; ++a) {
          std::uint8_t q[16];
          for (int sl = 0; sl < C; ++sl) q[sl] = slot[d->cell_map[s][cells[a][sl]]];
          const int b = d->row_map[s][a];
          t.src[b] = static_cast<std::uint8_t>(a);
          t.left[b] = static_cast<std::uint16_t>(rank_permutation(q, C));
        }
        stabilisers.back().push_back(t);
      }
    }
  }
  // (Element 0 of G0 is the identity: the group lists it first.)
  const std::uint32_t classes = static_cast<std::uint32_t>(d->rep.size());
  d->stab_begin.push_back(0);
  for (const auto& st : stabilisers) {
    d->stab.insert(d->stab.end(), st.begin(), st.end());
    d->stab_begin.push_back(static_cast<std::uint32_t>(d->stab.size()));
  }

  // Step 5. Moves and transitions.
  for (const Move& move : metric_moves(wide, metric)) {
    Position p = goal_position(wide);
    apply_move(wide, p, move);
    std::array<std::uint8_t, 16> dst{};
    for (int c = 0; c < n; ++c) dst[p[c] - 1] = static_cast<std::uint8_t>(c);
    d->move_dst.push_back(dst);
  }
  d->moves = static_cast<int>(d->move_dst.size());
  d->transitions.resize(static_cast<std::size_t>(classes) * d->moves);
  for (std::uint32_t k = 0; k < classes; ++k) {
    if ((k & 0xFF) == 0 && run.should_stop()) return run.stop_error();
    for (int m = 0; m < d->moves; ++m) {
      const auto& dst = d->move_dst[m];
      std::uint8_t moved[16];
      for (int c = 0; c < n; ++c) moved[dst[c]] = d->rep[k][c];
      const std::uint64_t x = d->pattern_rank(moved);
      const std::uint32_t target = d->class_of[x];
      const std::size_t s = d->map_of[x];
      Transform& t = d->transitions[static_cast<std::size_t>(k) * d->moves + m];
      t.target = target;
      t.kinv = d->kinv[s];
      for (int a = 0; a < R; ++a) {
        std::uint8_t l[16];
        for (int sl = 0; sl < C; ++sl) {
          const int cell = dst[d->cells[k][a][sl]];  // where slot sl's tile goes
          l[sl] = d->slot[target][d->cell_map[s][cell]];
        }
        const int b = d->row_map[s][a];
        t.src[b] = static_cast<std::uint8_t>(a);
        t.left[b] = static_cast<std::uint16_t>(rank_permutation(l, C));
      }
    }
  }

  // Step 6. The whole group on square boards (orbit sizes through whole positions).
  if (d->square) {
    for (const Perm& g : group) {
      std::vector<std::uint8_t> img(static_cast<std::size_t>(n));
      for (int c = 0; c < n; ++c)
        img[static_cast<std::size_t>(c)] =
            static_cast<std::uint8_t>(g.image(static_cast<Point>(c)));
      d->full_group.push_back(std::move(img));
    }
  }
  SymmetryClasses out;
  out.data_ = std::move(d);
  return out;
}

BoardSize SymmetryClasses::size() const {
  return data_->board;
}
Metric SymmetryClasses::metric() const {
  return data_->metric;
}
std::uint64_t SymmetryClasses::states() const {
  return static_cast<std::uint64_t>(data_->rep.size()) * data_->ysize;
}
std::uint64_t SymmetryClasses::group_order() const {
  return data_->group_order;
}
std::uint64_t SymmetryClasses::pattern_classes() const {
  return data_->rep.size();
}

std::uint64_t SymmetryClasses::index(const Position& position) const {
  const SymmetryClassesData& d = *data_;
  std::uint8_t p[16];
  if (!d.transposed) {
    std::copy(position.begin(), position.end(), p);
  } else {
    // The board has C rows of R cells: board cell (i, j) is wide cell (j, i), tile homes alike.
    for (int i = 0; i < d.C; ++i) {
      for (int j = 0; j < d.R; ++j) {
        const int home = position[static_cast<std::size_t>(i * d.R + j)] - 1;
        const int hi = home / d.R, hj = home % d.R;
        p[j * d.C + i] = static_cast<std::uint8_t>(hj * d.C + hi + 1);
      }
    }
  }
  return d.wide_index(p);
}

Position SymmetryClasses::position(std::uint64_t index) const {
  const SymmetryClassesData& d = *data_;
  std::uint16_t y[MAX_ROWS];
  const std::uint32_t k = d.decode(index, y);
  std::uint8_t p[16];
  d.wide_position(k, y, p);
  Position out(static_cast<std::size_t>(d.n));
  if (!d.transposed) {
    std::copy(p, p + d.n, out.begin());
    return out;
  }
  for (int i = 0; i < d.C; ++i) {
    for (int j = 0; j < d.R; ++j) {
      const int home = p[j * d.C + i] - 1;  // wide home (hj, hi)
      const int hj = home / d.C, hi = home % d.C;
      out[static_cast<std::size_t>(i * d.R + j)] = static_cast<std::uint8_t>(hi * d.R + hj + 1);
    }
  }
  return out;
}

bool SymmetryClasses::canonical(std::uint64_t index) const {
  std::uint16_t y[MAX_ROWS];
  const std::uint32_t k = data_->decode(index, y);
  return data_->is_canonical(k, y);
}

std::uint64_t SymmetryClasses::orbit_size(std::uint64_t index) const {
  const SymmetryClassesData& d = *data_;
  std::uint16_t y[MAX_ROWS];
  const std::uint32_t k = d.decode(index, y);
  if (d.square) {
    std::uint8_t p[16], q[16];
    d.wide_position(k, y, p);
    std::uint64_t fixing = 0;
    for (const auto& g : d.full_group) {
      for (int c = 0; c < d.n; ++c)
        q[g[static_cast<std::size_t>(c)]] =
            static_cast<std::uint8_t>(g[static_cast<std::size_t>(p[c] - 1)] + 1);
      fixing += std::equal(p, p + d.n, q) ? 1 : 0;
    }
    return d.group_order / fixing;
  }
  std::uint64_t fixing = 1;
  std::uint16_t z[MAX_ROWS];
  for (std::uint32_t i = d.stab_begin[k]; i < d.stab_begin[k + 1]; ++i) {
    d.apply(d.stab[i], y, z);
    fixing += std::equal(y, y + d.R, z) ? 1 : 0;
  }
  return d.group_order / fixing;
}

void SymmetryClasses::Expander::load(std::uint64_t index) {
  have_ = index;
  moves_ = d_->moves;
  k_ = d_->decode(index, y_);
  canonical_ = d_->is_canonical(k_, y_);
}

std::uint64_t SymmetryClasses::Expander::neighbour(int move) const {
  const Transform& t = d_->transitions[static_cast<std::size_t>(k_) * d_->moves + move];
  std::uint16_t z[MAX_ROWS];
  d_->apply(t, y_, z);
  return d_->canonical_index(t.target, z);
}

}  // namespace permuzzle::loopover
