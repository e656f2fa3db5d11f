#include "optimal_table.hpp"

#include "row_levels.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <unordered_set>

namespace permuzzle::cube::detail {

namespace {

// Any 2-bit field equal to 3 (unvisited) in the word?
inline bool has_unvisited(std::uint64_t w) {
  return (w & (w >> 1) & 0x5555555555555555ull) != 0;
}

}  // namespace

SliceOrder SliceOrder::make(const CoordTables& t, int q) {
  SliceOrder o;
  SliceOrder failed;
  failed.size = 0;
  // Step 1. K as a list of relabellings of the slice edges 0..3 (FR FL BL BR, in cyclic order).
  std::vector<std::array<int, 4>> all;
  std::array<int, 4> p{0, 1, 2, 3};
  do all.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  auto inversions = [](const std::array<int, 4>& a) {
    int n = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) n += a[i] > a[j];
    return n;
  };
  auto in_k = [&](const std::array<int, 4>& k) {
    switch (q) {
      case 2:  // A4
        return inversions(k) % 2 == 0;
      case 3: {  // D4, the square's symmetries: k(i + 1) = k(i) +- 1 (mod 4) for every i
        const int step = (k[1] - k[0] + 4) % 4;
        if (step != 1 && step != 3) return false;
        for (int i = 0; i < 4; ++i)
          if ((k[(i + 1) % 4] - k[i] + 4) % 4 != step) return false;
        return true;
      }
      case 6:  // V4: the identity and the three double transpositions
        return k[k[0]] == 0 && k[k[1]] == 1 && k[k[2]] == 2 && k[k[3]] == 3 &&
               inversions(k) % 2 == 0;
      default:
        return false;
    }
  };
  std::vector<std::array<int, 4>> group;
  for (const auto& k : all)
    if (in_k(k)) group.push_back(k);
  if (group.empty() || 24 / group.size() != std::size_t(q)) return failed;
  // Step 2. The coset of every rho (rank -> edge), numbered by its smallest code (the
  // identity's coset first).
  auto code = [](const std::array<int, 4>& r) { return (r[0] * 4 + r[1]) * 4 + r[2]; };
  std::array<int, 64> smallest{};
  smallest.fill(-1);
  for (const auto& r : all) {
    int best = 64;
    for (const auto& k : group) best = std::min(best, code({k[r[0]], k[r[1]], k[r[2]], k[r[3]]}));
    smallest[code(r)] = best;
  }
  std::vector<int> firsts;
  for (int c : smallest)
    if (c >= 0 && std::find(firsts.begin(), firsts.end(), c) == firsts.end()) firsts.push_back(c);
  std::sort(firsts.begin(), firsts.end());
  for (int c = 0; c < 64; ++c) {
    if (smallest[c] >= 0) {
      o.of_code[c] = static_cast<std::uint8_t>(
          std::find(firsts.begin(), firsts.end(), smallest[c]) - firsts.begin());
    }
  }
  // Step 3. The slices' positions.
  o.positions.resize(N_SLICE);
  for (int mask = 0; mask < (1 << 12); ++mask) {
    if (__builtin_popcount(mask) != 4) continue;
    auto& pos = o.positions[t.slice_of_mask[mask]];
    int n = 0;
    for (int j = 0; j < 12; ++j)
      if ((mask >> j) & 1) pos[n++] = static_cast<std::uint8_t>(j);
  }
  // Step 4. Moves and conjugations, on a cube per slice and rho; every rho of a coset must give
  // the same image.
  o.size = q;
  o.move.assign(std::size_t(N_SLICE) * N_MOVES * q, 0xFF);
  o.conj.assign(std::size_t(N_SLICE) * N_SYM_D4H * q, 0xFF);
  auto set = [&](std::uint8_t& slot, int value) {
    if (slot != 0xFF && slot != value) return false;
    slot = static_cast<std::uint8_t>(value);
    return true;
  };
  for (int slice = 0; slice < N_SLICE; ++slice) {
    for (const auto& r : all) {
      KCube c;
      int other = 0;
      for (int j = 0, n = 0; j < 12; ++j) {
        const bool in_slice = n < 4 && o.positions[slice][n] == j;
        c.ep[j] = static_cast<std::uint8_t>(in_slice ? 8 + r[n++] : other++);
      }
      const int from = o.of_code[code(r)];
      for (int m = 0; m < N_MOVES; ++m) {
        KCube d = c;
        d.edges_times(t.basics.moves[m]);
        if (!set(o.move[(slice * N_MOVES + m) * q + from], o.of(d))) return failed;
      }
      for (int s = 0; s < N_SYM_D4H; ++s) {
        if (!set(o.conj[(slice * N_SYM_D4H + s) * q + from], o.of(t.basics.conj(c, s)))) {
          return failed;
        }
      }
    }
  }
  return o;
}

bool build_mod3_table(const CoordTables& t, const ExtraCoord& extra, unsigned threads,
                      Mod3Table& out, const std::function<bool()>& cancelled,
                      const std::function<void(int, std::uint64_t)>& progress,
                      std::vector<std::uint64_t>* per_depth) {
  // Step 1. Shape, and the small tables of the inner loops.
  const int X = extra.size;
  if (X < 1 || X > 511) return false;  // the entries in hand pack x in 9 bits
  const Mod3Table shape = Mod3Table::shape(X);
  out.extra = shape.extra;
  out.row_entries = shape.row_entries;
  out.row_bytes = shape.row_bytes;
  // Filled with 3 (unvisited) in pieces, polling between them: faulting in gigabytes (huge pages
  // compacted on the way) takes tens of seconds for the largest table.
  out.data.clear();
  out.data.reserve(out.bytes());
  for (std::uint64_t left = out.bytes(); left > 0;) {
    if (cancelled && cancelled()) return false;
    const std::uint64_t piece = std::min<std::uint64_t>(left, std::uint64_t(64) << 20);
    out.data.insert(out.data.end(), piece, 0xFF);
    left -= piece;
  }
  std::uint8_t* const base = out.data.data();
  const std::uint64_t row_bytes = out.row_bytes, row_entries = out.row_entries;
  const std::uint64_t total = out.entries();
  // tcol[(m * 16 + s) * 2187 + tw]: the twist moved by m, then conjugated by s (one contiguous
  // column per (move, symmetry): the inner loop's map of a row's twists to its target row's).
  std::vector<std::uint16_t> tcol(std::size_t(N_MOVES) * N_SYM_D4H * N_TWIST);
  for (int m = 0; m < N_MOVES; ++m) {
    for (int s = 0; s < N_SYM_D4H; ++s) {
      for (int tw = 0; tw < N_TWIST; ++tw) {
        tcol[(m * N_SYM_D4H + s) * N_TWIST + tw] =
            t.twist_conj[t.twist_move[tw * N_MOVES + m] * N_SYM_D4H + s];
      }
    }
  }
  // The extra coordinate's map from a row's entries to its target row's for move m (moved, then
  // conjugated by the symmetry s to the target's representative): it depends on the row's
  // slice when the slice edges' order is part of it, so it is made per row and move (X values,
  // against the row's 2187 X entries).
  auto extra_map = [&](std::uint32_t c, int m, int s, std::uint16_t* out) {
    const int slice = static_cast<int>(t.fs_rep[c] / N_FLIP);
    const int moved = t.slice_move[slice * N_MOVES + m];
    for (int x = 0; x < X; ++x) {
      out[x] =
          static_cast<std::uint16_t>(extra.conjugated(extra.after_move(x, slice, m), moved, s));
    }
  };
  // Bit d of row_depths[c]: row c holds an entry at distance d (forward levels skip the others).
  std::vector<std::uint32_t> row_depths(N_FLIPSLICE_CLASS, 0);
  // Step 2. The goal: twist 0, extra 0 in the row of flip-slice 0 (its own representative, which
  // every symmetry fixes with these coordinates: one entry).
  base[0] = 0xFC;
  row_depths[0] = 1;
  // Step 3. The levels (row_levels.hpp), a row at a time; the distances are at most about 18.
  std::vector<std::uint64_t> counts;
  auto make_worker = [&] {
    // (t << 9) | x of the row's entries in hand, and the extra coordinate's map, kept between
    // rows.
    std::vector<std::uint32_t> list;
    list.reserve(row_entries);
    return [&, list = std::move(list), xc = std::vector<std::uint16_t>(X)](
               std::uint32_t c, RowLevel level) mutable -> std::uint64_t {
      const int d = level.depth;
      const int cur = d % 3, next = (d + 1) % 3;
      std::uint8_t* const row = base + c * row_bytes;
      std::uint64_t local = 0;
      list.clear();
      if (!level.backward) {
        // Forward: every entry of residue d (a few of distance d - 3 come along: their
        // neighbours are all visited, so they set nothing).
        if (!((__atomic_load_n(&row_depths[c], __ATOMIC_RELAXED) >> d) & 1)) return 0;
        for (std::uint64_t k = 0; k < row_bytes; ++k) {
          const std::uint8_t b = row_load(row + k);
          if (b == 0xFF) continue;
          for (int j = 0; j < 4; ++j) {
            const std::uint64_t e = 4 * k + j;
            if (e < row_entries && ((b >> (2 * j)) & 3) == cur) {
              list.push_back(static_cast<std::uint32_t>(((e / X) << 9) | (e % X)));
            }
          }
        }
        for (int m = 0; m < N_MOVES && !list.empty(); ++m) {
          // The row of the representative of c moved by m, and the symmetry that takes the
          // moved flip-slice to that row's representative.
          const std::uint32_t y = fs_rep_after(t, c, m), cc = y >> 4;
          const int s = static_cast<int>(y & 15);
          const std::uint16_t* tc = &tcol[(m * N_SYM_D4H + s) * N_TWIST];
          extra_map(c, m, s, xc.data());
          std::uint8_t* const target = base + cc * row_bytes;
          const std::uint32_t stab = t.fs_stabilizer[cc] & ~1u;
          const int target_slice = static_cast<int>(t.fs_rep[cc] / N_FLIP);
          std::uint64_t before = local;
          // Sets an unvisited entry of the target row (atomically: other threads may set
          // entries of the same byte).
          auto claim = [&](std::uint32_t e) {
            std::uint8_t* p = target + (e >> 2);
            const int sh = (e & 3) * 2;
            if (((row_load(p) >> sh) & 3) != 3) return;
            const std::uint8_t old = __atomic_fetch_and(
                p, static_cast<std::uint8_t>(~((3 ^ next) << sh)), __ATOMIC_RELAXED);
            if (((old >> sh) & 3) == 3) ++local;
          };
          for (std::uint32_t v : list) {
            const std::uint32_t t2 = tc[v >> 9], x2 = xc[v & 511];
            claim(t2 * X + x2);
            // The stabiliser's images of the new entry are the same position up to
            // symmetry: same distance (a forward level must set every entry of it).
            for (std::uint32_t bits = stab; bits; bits &= bits - 1) {
              const int s2 = __builtin_ctz(bits);
              claim(std::uint32_t(t.twist_conj[t2 * N_SYM_D4H + s2]) * X +
                    static_cast<std::uint32_t>(
                        extra.conjugated(static_cast<int>(x2), target_slice, s2)));
            }
          }
          if (local != before) {
            __atomic_fetch_or(&row_depths[cc], 1u << (d + 1), __ATOMIC_RELAXED);
          }
        }
        return local;
      }
      // Backward: this thread owns row c; every unvisited entry looks for a neighbour of
      // residue d (an unvisited entry is at distance > d, so such a neighbour is at d).
      const auto* words = reinterpret_cast<const std::uint64_t*>(row);
      for (std::uint64_t k = 0; k < row_bytes / 8; ++k) {
        const std::uint64_t w = __atomic_load_n(words + k, __ATOMIC_RELAXED);
        if (!has_unvisited(w)) continue;
        for (int j = 0; j < 32; ++j) {
          const std::uint64_t e = 32 * k + j;
          if (e < row_entries && ((w >> (2 * j)) & 3) == 3) {
            list.push_back(static_cast<std::uint32_t>(((e / X) << 9) | (e % X)));
          }
        }
      }
      std::uint64_t before = local;
      for (int m = 0; m < N_MOVES && !list.empty(); ++m) {
        // The row of the representative of c moved by m, and the symmetry that takes the
        // moved flip-slice to that row's representative.
        const std::uint32_t y = fs_rep_after(t, c, m), cc = y >> 4;
        const int s = static_cast<int>(y & 15);
        const std::uint16_t* tc = &tcol[(m * N_SYM_D4H + s) * N_TWIST];
        extra_map(c, m, s, xc.data());
        const std::uint8_t* const target = base + cc * row_bytes;
        std::size_t kept = 0;
        for (std::uint32_t v : list) {
          const std::uint32_t e2 = std::uint32_t(tc[v >> 9]) * X + xc[v & 511];
          if (((row_load(target + (e2 >> 2)) >> ((e2 & 3) * 2)) & 3) == cur) {
            const std::uint32_t e = (v >> 9) * X + (v & 511);
            std::uint8_t* p = row + (e >> 2);
            row_store(p, static_cast<std::uint8_t>(row_load(p) & ~((3 ^ next) << ((e & 3) * 2))));
            ++local;
          } else {
            list[kept++] = v;
          }
        }
        list.resize(kept);
      }
      if (local != before) {
        __atomic_fetch_or(&row_depths[c], 1u << (d + 1), __ATOMIC_RELAXED);
      }
      return local;
    };
  };
  if (!run_row_levels(N_FLIPSLICE_CLASS, 16, total, 30, threads, cancelled, progress, counts,
                      make_worker)) {
    return false;
  }
  if (per_depth) *per_depth = counts;
  return true;
}

std::vector<std::vector<std::array<int, 4>>> raw_coordinate_layers(const CoordTables& t,
                                                                   const ExtraCoord& extra,
                                                                   int depth) {
  const auto X = static_cast<std::uint64_t>(extra.size);
  auto key = [X](const std::array<int, 4>& c) {
    return ((std::uint64_t(c[0]) * N_FLIP + c[1]) * N_SLICE + c[2]) * X + c[3];
  };
  std::unordered_set<std::uint64_t> seen{0};
  std::vector<std::vector<std::array<int, 4>>> layers{{{0, 0, 0, 0}}};
  for (int d = 1; d <= depth; ++d) {
    std::vector<std::array<int, 4>> next;
    for (const auto& c : layers.back()) {
      for (int m = 0; m < N_MOVES; ++m) {
        const std::array<int, 4> n{
            t.twist_move[c[0] * N_MOVES + m], t.flip_move[c[1] * N_MOVES + m],
            t.slice_move[c[2] * N_MOVES + m], extra.after_move(c[3], c[2], m)};
        if (seen.insert(key(n)).second) next.push_back(n);
      }
    }
    layers.push_back(std::move(next));
  }
  return layers;
}

int mod3_exact_distance(const CoordTables& t, const ExtraCoord& extra, const Mod3Table& table,
                        int twist, int flip, int slice, int x) {
  int steps = 0;
  for (;;) {
    if (twist == 0 && flip == 0 && slice == 0 && x == 0) return steps;
    const Mod3Index i = mod3_index(t, extra, twist, flip, slice, x);
    const int r = table.get(i.row, i.entry);
    bool moved = false;
    for (int m = 0; m < N_MOVES && !moved; ++m) {
      const int tw2 = t.twist_move[twist * N_MOVES + m], fl2 = t.flip_move[flip * N_MOVES + m];
      const int sl2 = t.slice_move[slice * N_MOVES + m], x2 = extra.after_move(x, slice, m);
      const Mod3Index j = mod3_index(t, extra, tw2, fl2, sl2, x2);
      if (table.get(j.row, j.entry) == (r + 2) % 3) {
        twist = tw2, flip = fl2, slice = sl2, x = x2, moved = true;
      }
    }
    if (!moved || ++steps > 40) return -1;  // a table without a way down: not a distance table
  }
}

}  // namespace permuzzle::cube::detail
