#include "h48.hpp"

#include "row_levels.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <unordered_set>

namespace permuzzle::cube::detail {

namespace {

constexpr std::uint8_t UNVISITED = 0xFF;
constexpr std::uint32_t NO_CLASS = ~std::uint32_t(0);

}  // namespace

int H48Coords::csep(const KCube& x) const {
  int mask = 0;
  for (int j = 0; j < 8; ++j) mask |= ((TETRAD_A_CUBIES >> x.cp[j]) & 1) << j;
  return comb8_of_mask[mask];
}

int H48Coords::esep(const KCube& x) const {
  int e = 0, mm = 0, k = 0;
  for (int j = 0; j < 12; ++j) {
    if (x.ep[j] >= 8) {
      e |= 1 << j;
    } else {
      mm |= ((M_SLICE_CUBIES >> x.ep[j]) & 1) << k++;
    }
  }
  return comb12_of_mask[e] * 70 + comb8_of_mask[mm];
}

KCube H48Coords::corners_cube(int cocsep) const {
  KCube c;
  const int mask = comb8_mask[cocsep % N_CSEP];
  constexpr std::array<std::uint8_t, 4> A = {0, 2, 5, 7}, B = {1, 3, 4, 6};
  int a = 0, b = 0;
  for (int j = 0; j < 8; ++j) c.cp[j] = (mask >> j) & 1 ? A[a++] : B[b++];
  int twist = cocsep / N_CSEP, sum = 0;
  for (int i = 6; i >= 0; --i) {
    c.co[i] = static_cast<std::uint8_t>(twist % 3);
    sum += twist % 3;
    twist /= 3;
  }
  c.co[7] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
  return c;
}

KCube H48Coords::edges_cube(int esep) const {
  KCube c;
  const int e = comb12_mask[esep / 70], mm = comb8_mask[esep % 70];
  constexpr std::array<std::uint8_t, 4> M = {1, 3, 5, 7}, S = {0, 2, 4, 6};
  int ne = 0, nm = 0, ns = 0, k = 0;
  for (int j = 0; j < 12; ++j) {
    if ((e >> j) & 1) {
      c.ep[j] = static_cast<std::uint8_t>(8 + ne++);
    } else {
      c.ep[j] = (mm >> k++) & 1 ? M[nm++] : S[ns++];
    }
  }
  return c;
}

KCube H48Coords::cube_of_h11(std::uint64_t index) const {
  const std::uint64_t h0 = index / 2048;
  KCube c = corners_cube(static_cast<int>(cocsep_rep[h0 / N_ESEP]));
  const KCube e = edges_cube(static_cast<int>(h0 % N_ESEP));
  c.ep = e.ep;
  int parity = 0;
  for (int i = 0; i < 11; ++i) {
    c.eo[i] = static_cast<std::uint8_t>((index >> (10 - i)) & 1);
    parity ^= c.eo[i];
  }
  c.eo[11] = static_cast<std::uint8_t>(parity);
  return c;
}

H48Coords::EdgeState H48Coords::state_of(const KCube& x) const {
  EdgeState st{static_cast<std::uint32_t>(cocsep(x)), static_cast<std::uint16_t>(esep(x)), 0, 0, 0};
  for (int i = 0; i < 12; ++i) {
    const int bit = 1 << (11 - i);
    if (x.eo[i]) st.flips = static_cast<std::uint16_t>(st.flips | bit);
    if (x.ep[i] >= 8) st.e_mask = static_cast<std::uint16_t>(st.e_mask | bit);
    if ((M_SLICE_CUBIES >> x.ep[i]) & 1) st.m_mask = static_cast<std::uint16_t>(st.m_mask | bit);
  }
  return st;
}

H48Coords H48Coords::make(const CoordTables& t, const std::function<bool()>& stop) {
  H48Coords h;
  const CubeBasics& b = t.basics;
  // Step 1. Ranks of 4-element subsets (in increasing order of the mask).
  h.comb12_of_mask.assign(1 << 12, 0);
  for (int mask = 0, r8 = 0, r12 = 0; mask < (1 << 12); ++mask) {
    if (__builtin_popcount(mask) != 4) continue;
    if (mask < 256) {
      h.comb8_of_mask[mask] = static_cast<std::uint8_t>(r8);
      h.comb8_mask[r8++] = static_cast<std::uint8_t>(mask);
    }
    h.comb12_of_mask[mask] = static_cast<std::uint16_t>(r12++);
    h.comb12_mask.push_back(static_cast<std::uint16_t>(mask));
  }
  // Step 2. Move tables (csep with twist_move gives cocsep's) and the edges' conjugation.
  h.csep_move.resize(N_CSEP * N_MOVES);
  for (int v = 0; v < N_CSEP; ++v) {
    for (int m = 0; m < N_MOVES; ++m) {
      KCube c = h.corners_cube(v);
      c.corners_times(b.moves[m]);
      h.csep_move[v * N_MOVES + m] = static_cast<std::uint8_t>(h.csep(c));
    }
  }
  h.esep_move.resize(std::size_t(N_ESEP) * N_MOVES);
  h.esep_conj.resize(std::size_t(N_ESEP) * N_SYM);
  for (int v = 0; v < N_ESEP; ++v) {
    if (v % 4096 == 0 && stop && stop()) return H48Coords{};
    const KCube x = h.edges_cube(v);
    for (int m = 0; m < N_MOVES; ++m) {
      KCube c = x;
      c.edges_times(b.moves[m]);
      h.esep_move[v * N_MOVES + m] = static_cast<std::uint16_t>(h.esep(c));
    }
    for (int s = 0; s < N_SYM; ++s) {
      h.esep_conj[v * N_SYM + s] = static_cast<std::uint16_t>(h.esep(b.conj(x, s)));
    }
  }
  // Step 3. The edges' masks through moves and symmetries: position i of x * M holds what
  // position M.ep[i] of x held (likewise S.ep for S^-1 x S), flipped by M.eo / S.eo, and by S^-1's
  // flip of the cubie (a function of its slice: make() checks it).
  auto permuted = [](const KCube& p, int mask) {
    int r = 0;
    for (int i = 0; i < 12; ++i) r |= ((mask >> (11 - p.ep[i])) & 1) << (11 - i);
    return static_cast<std::uint16_t>(r);
  };
  auto flips = [](const KCube& p) {
    int r = 0;
    for (int i = 0; i < 12; ++i) r |= p.eo[i] << (11 - i);
    return static_cast<std::uint16_t>(r);
  };
  h.mask_move.resize(N_MOVES * 4096);
  h.mask_conj.resize(N_SYM * 4096);
  for (int m = 0; m < N_MOVES; ++m) {
    h.move_flips[m] = flips(b.moves[m]);
    for (int mask = 0; mask < 4096; ++mask)
      h.mask_move[m * 4096 + mask] = permuted(b.moves[m], mask);
  }
  for (int s = 0; s < N_SYM; ++s) {
    const KCube& sym = b.syms[s];
    h.sym_flips[s] = flips(sym);
    for (int mask = 0; mask < 4096; ++mask) h.mask_conj[s * 4096 + mask] = permuted(sym, mask);
    const KCube& inv = b.syms[b.sym_inverse[s]];
    std::array<int, 3> of_slice{-1, -1, -1};  // S, M, E
    for (int c = 0; c < 12; ++c) {
      const int z = c >= 8 ? 2 : (M_SLICE_CUBIES >> c) & 1;
      if (of_slice[z] >= 0 && of_slice[z] != inv.eo[c]) return H48Coords{};
      of_slice[z] = inv.eo[c];
    }
    h.slice_flips[s] = static_cast<std::uint8_t>(of_slice[0] | of_slice[1] << 1 | of_slice[2] << 2);
    for (int u = 0; u < N_SYM; ++u) {
      const KCube p = sym * b.syms[u];
      for (int v = 0; v < N_SYM; ++v) {
        if (b.syms[v] == p) h.sym_mult[s * N_SYM + u] = static_cast<std::uint8_t>(v);
      }
    }
  }
  // The same edge data as bytes for h11_of_cube.
  auto edge_bytes = [](const KCube& c) {
    EdgeBytes e{};
    for (int i = 0; i < 16; ++i) e.ep[i] = static_cast<std::uint8_t>(i < 12 ? c.ep[i] : i);
    for (int i = 0; i < 12; ++i) e.eo[i] = c.eo[i];
    return e;
  };
  for (int s = 0; s < N_SYM; ++s) {
    h.sym_edges[s] = edge_bytes(b.syms[s]);
    h.sym_inverse_edges[s] = edge_bytes(b.syms[b.sym_inverse[s]]);
  }
  for (const std::uint16_t mask : h.comb12_mask) {
    std::array<std::uint8_t, 16> gather;
    gather.fill(0x80);
    for (int i = 0, j = 0; i < 12; ++i) {
      if (!((mask >> i) & 1)) gather[j++] = static_cast<std::uint8_t>(i);
    }
    h.non_e_positions.push_back(gather);
  }
  // Step 4. cocsep classes: the first value met of each class is its representative; every
  // conjugate y = conj(rep, s) gets the symmetry s^-1 (conj(y, s^-1) = rep).
  h.cocsep_class_sym.assign(N_COCSEP, NO_CLASS);
  for (int x = 0; x < N_COCSEP; ++x) {
    if (h.cocsep_class_sym[x] != NO_CLASS) continue;
    const auto c = static_cast<std::uint32_t>(h.cocsep_rep.size());
    if (c >= N_COCSEP_CLASS) return H48Coords{};
    const KCube rep = h.corners_cube(x);
    std::uint64_t stab = 0;
    for (int s = 0; s < N_SYM; ++s) {
      const int y = h.cocsep(b.conj(rep, s));
      if (y == x) stab |= std::uint64_t(1) << s;
      if (h.cocsep_class_sym[y] == NO_CLASS) {
        h.cocsep_class_sym[y] = c << 6 | static_cast<std::uint32_t>(b.sym_inverse[s]);
      }
    }
    h.cocsep_rep.push_back(static_cast<std::uint32_t>(x));
    h.cocsep_stabilizer.push_back(stab);
  }
  if (h.cocsep_rep.size() != N_COCSEP_CLASS) return H48Coords{};
  // Step 5. The corners' distances to K's corners, breadth-first over cocsep values.
  h.cocsep_distance.assign(N_COCSEP, 0xFF);
  std::vector<int> level{h.cocsep(KCube{})};
  h.cocsep_distance[level.front()] = 0;
  for (int d = 1; !level.empty(); ++d) {
    std::vector<int> next;
    for (const int x : level) {
      for (int m = 0; m < N_MOVES; ++m) {
        const int y = h.cocsep_after(t, x, m);
        if (h.cocsep_distance[y] != 0xFF) continue;
        h.cocsep_distance[y] = static_cast<std::uint8_t>(d);
        next.push_back(y);
      }
    }
    level = std::move(next);
  }
  return h;
}

bool build_h48_h0(const CoordTables& t, const H48Coords& h, unsigned threads, H48H0Table& out,
                  const std::function<bool()>& cancelled,
                  const std::function<void(int, std::uint64_t)>& progress) {
  if (h.cocsep_rep.size() != N_COCSEP_CLASS) return false;
  // Step 1. One byte an entry while building, filled in pieces (polling between them).
  std::vector<std::uint8_t> dist;
  dist.reserve(H48_H0_ENTRIES);
  for (std::uint64_t left = H48_H0_ENTRIES; left > 0;) {
    if (cancelled && cancelled()) return false;
    const std::uint64_t piece = std::min<std::uint64_t>(left, std::uint64_t(16) << 20);
    dist.insert(dist.end(), piece, UNVISITED);
    left -= piece;
  }
  std::uint8_t* const base = dist.data();
  // Bit d of row_depths[c]: row c holds an entry at distance d (forward levels skip the others).
  std::vector<std::uint32_t> row_depths(N_COCSEP_CLASS, 0);
  // Step 2. The goal: the solved cube's entry (every symmetry fixes it: one entry).
  const std::uint64_t goal = h.h0_index(KCube{});
  base[goal] = 0;
  row_depths[goal / N_ESEP] = 1;
  // Step 3. The levels (row_levels.hpp), a row at a time.
  std::vector<std::uint64_t> counts;
  auto make_worker = [&] {
    // The row's esep values in hand, kept between rows.
    return [&, list = std::vector<std::uint16_t>()](std::uint32_t c,
                                                    RowLevel level) mutable -> std::uint64_t {
      const int d = level.depth;
      const auto cur = static_cast<std::uint8_t>(d), next = static_cast<std::uint8_t>(d + 1);
      std::uint8_t* const row = base + std::uint64_t(c) * N_ESEP;
      const int rep = static_cast<int>(h.cocsep_rep[c]);
      std::uint64_t local = 0;
      list.clear();
      if (!level.backward) {
        // Forward: every entry of distance d sets its unvisited neighbours and their images
        // under the target class's stabiliser (the same position up to symmetry).
        if (!((__atomic_load_n(&row_depths[c], __ATOMIC_RELAXED) >> d) & 1)) return 0;
        for (int e = 0; e < N_ESEP; ++e) {
          if (row_load(row + e) == cur) list.push_back(static_cast<std::uint16_t>(e));
        }
        for (int m = 0; m < N_MOVES; ++m) {
          const std::uint32_t cs = h.cocsep_class_sym[h.cocsep_after(t, rep, m)];
          const std::uint32_t cc = cs >> 6, s = cs & 63;
          std::uint8_t* const target = base + std::uint64_t(cc) * N_ESEP;
          const std::uint64_t stab = h.cocsep_stabilizer[cc] & ~std::uint64_t(1);
          const std::uint64_t before = local;
          auto claim = [&](std::uint32_t e) {
            std::uint8_t expected = UNVISITED;
            if (row_load(target + e) == UNVISITED &&
                __atomic_compare_exchange_n(target + e, &expected, next, false, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
              ++local;
            }
          };
          for (const std::uint16_t e : list) {
            const std::uint32_t e2 = h.esep_conj[h.esep_move[e * N_MOVES + m] * N_SYM + s];
            claim(e2);
            for (std::uint64_t bits = stab; bits; bits &= bits - 1) {
              claim(h.esep_conj[e2 * N_SYM + __builtin_ctzll(bits)]);
            }
          }
          if (local != before) {
            __atomic_fetch_or(&row_depths[cc], 1u << (d + 1), __ATOMIC_RELAXED);
          }
        }
        return local;
      }
      // Backward: this thread owns row c; an unvisited entry with a neighbour at d is at d + 1
      // (its distance is more than d, and neighbours differ by at most 1).
      for (int e = 0; e < N_ESEP; ++e) {
        if (row[e] == UNVISITED) list.push_back(static_cast<std::uint16_t>(e));
      }
      for (int m = 0; m < N_MOVES && !list.empty(); ++m) {
        const std::uint32_t cs = h.cocsep_class_sym[h.cocsep_after(t, rep, m)];
        const std::uint32_t s = cs & 63;
        const std::uint8_t* const target = base + std::uint64_t(cs >> 6) * N_ESEP;
        std::size_t kept = 0;
        for (const std::uint16_t e : list) {
          const std::uint32_t e2 = h.esep_conj[h.esep_move[e * N_MOVES + m] * N_SYM + s];
          if (row_load(target + e2) == cur) {
            row_store(row + e, next);
            ++local;
          } else {
            list[kept++] = e;
          }
        }
        list.resize(kept);
      }
      if (local) __atomic_fetch_or(&row_depths[c], 1u << (d + 1), __ATOMIC_RELAXED);
      return local;
    };
  };
  // (A distance of 16 would not fit 4 bits; h0's are at most 12.)
  if (!run_row_levels(N_COCSEP_CLASS, 1, H48_H0_ENTRIES, 15, threads, cancelled, progress, counts,
                      make_worker)) {
    return false;
  }
  // Step 4. Packed two entries a byte.
  out.nibbles.assign(H48H0Table::BYTES, 0);
  for (std::uint64_t i = 0; i < H48_H0_ENTRIES; ++i) {
    out.nibbles[i >> 1] |= static_cast<std::uint8_t>(base[i] << ((i & 1) * 4));
  }
  out.per_depth = counts;
  return true;
}

namespace {

// The first step's keys for the depth-first step's look-ups (one per position below the last
// level): open addressing, linear probing, a multiplicative hash, at most half full. One cache miss
// a look-up where std::unordered_set took a division and two or more (a third of the build's time
// went there, measured with perf on h7). Layout: `slots_` of keys, EMPTY where none (h11 keys are
// below 2^38).
class KeySet {
 public:
  explicit KeySet(const std::unordered_set<std::uint64_t>& keys) {
    int bits = 1;
    while ((std::uint64_t(1) << bits) < 2 * keys.size() + 2) ++bits;
    shift_ = 64 - bits;
    mask_ = (std::uint64_t(1) << bits) - 1;
    slots_.assign(mask_ + 1, EMPTY);
    for (const std::uint64_t key : keys) {
      std::uint64_t i = slot_of(key);
      while (slots_[i] != EMPTY) i = (i + 1) & mask_;
      slots_[i] = key;
    }
  }
  bool contains(std::uint64_t key) const {
    for (std::uint64_t i = slot_of(key);; i = (i + 1) & mask_) {
      if (slots_[i] == key) return true;
      if (slots_[i] == EMPTY) return false;
    }
  }

 private:
  static constexpr std::uint64_t EMPTY = ~std::uint64_t(0);
  std::uint64_t slot_of(std::uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull) >> shift_; }
  std::vector<std::uint64_t> slots_;
  std::uint64_t mask_ = 0;
  int shift_ = 63;
};

// Lowers entry i of the table to v if it is above (2-bit fields; other threads write the same
// bytes).
inline void mark_min(std::uint8_t* data, std::uint64_t i, int v) {
  std::uint8_t* p = data + (i >> 2);
  const int sh = static_cast<int>(i & 3) * 2;
  std::uint8_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (((old >> sh) & 3) > v) {
    const auto next = static_cast<std::uint8_t>((old & ~(3 << sh)) | (v << sh));
    if (__atomic_compare_exchange_n(p, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      return;
    }
  }
}

}  // namespace

bool build_h48_k2(const CoordTables& t, const H48Coords& h, int k, int base, int short_depth,
                  unsigned threads, H48K2Table& out, const std::function<bool()>& cancelled,
                  const std::function<void(std::uint64_t, std::uint64_t)>& progress,
                  const H48BuildResume& resume) {
  if (k < 0 || k > 11 || short_depth < 0 || short_depth > base || base > 20 ||
      h.cocsep_rep.size() != N_COCSEP_CLASS) {
    return false;
  }
  out.k = k;
  out.base = base;
  // Step 1. Every entry "at least base + 3", filled in pieces (polling between them), unless the
  // table comes from a checkpoint.
  if (resume.first_start > 0) {
    if (out.data.size() != H48K2Table::bytes(k)) return false;
  } else {
    out.data.clear();
    out.data.reserve(H48K2Table::bytes(k));
    for (std::uint64_t left = H48K2Table::bytes(k); left > 0;) {
      if (cancelled && cancelled()) return false;
      const std::uint64_t piece = std::min<std::uint64_t>(left, std::uint64_t(64) << 20);
      out.data.insert(out.data.end(), piece, 0xFF);
      left -= piece;
    }
  }
  std::uint8_t* const data = out.data.data();
  // A position's entries (all its symmetric variants, at most 48) and its canonical key (the
  // least of them).
  struct Entries {
    std::array<std::uint64_t, N_SYM> h11;
    int count = 0;
    std::uint64_t key = 0;
  };
  auto entries_of = [&](const H48Coords::EdgeState& x) {
    Entries e;
    e.key = h.for_each_h11_variant(x, [&](std::uint64_t i) { e.h11[e.count++] = i; });
    return e;
  };
  auto mark = [&](const Entries& e, int depth) {
    for (int j = 0; j < e.count; ++j) {
      mark_min(data, out.index_of_h11(e.h11[j]), std::max(depth - base, 0));
    }
  };
  // Step 2. The h11 coordinates within short_depth (canonical keys), each marked; the last
  // layer's keys are the depth-first search's starts.
  std::unordered_set<std::uint64_t> near;
  const Entries goal = entries_of(h.state_of(KCube{}));
  mark(goal, 0);
  std::vector<std::uint64_t> layer{goal.key};
  near.insert(goal.key);
  for (int d = 0; d < short_depth; ++d) {
    std::vector<std::uint64_t> next;
    for (const std::uint64_t key : layer) {
      if (cancelled && cancelled()) return false;
      const H48Coords::EdgeState x = h.state_of(h.cube_of_h11(key));
      for (int m = 0; m < N_MOVES; ++m) {
        const Entries e = entries_of(h.after(t, x, m));
        if (near.insert(e.key).second) {
          mark(e, d + 1);
          next.push_back(e.key);
        }
      }
    }
    layer = std::move(next);
  }
  const KeySet near_keys(near);
  std::unordered_set<std::uint64_t>().swap(near);
  // Step 3. Depth-first from each start, threads taking starts in turn; the threads stop for a
  // checkpoint when one is due, then go on.
  const int max_depth = base + 2;
  const unsigned n_threads = std::max(1u, threads);
  std::uint64_t first_start = std::min<std::uint64_t>(resume.first_start, layer.size());
  std::atomic<std::uint64_t> next_start{first_start}, done{first_start};
  std::atomic<bool> stop{false}, pause{false};
  // The start each thread took last (not done if it stopped in it): after the threads stop, every
  // start below the least of these is done (a thread takes starts in increasing order and takes
  // the next only after finishing the last).
  std::vector<std::uint64_t> taken(n_threads, 0);
  auto work = [&](unsigned thread) {
    const bool main_thread = thread == 0;
    std::uint64_t polls = 0;
    // Moves below a start, as an explicit stack: the position's h11 state, its depth, the move
    // that led to it and the next move to try.
    struct Frame {
      H48Coords::EdgeState state;
      int depth;
      int last;
      int next;
    };
    std::vector<Frame> stack;
    // The last level's entries, two batches: one being prefetched, the previous one marked.
    std::array<std::array<std::uint64_t, N_MOVES * N_SYM>, 2> batch;
    int current = 0, pending = 0;
    auto flush_pending = [&] {
      const auto& prev = batch[current ^ 1];
      for (int j = 0; j < pending; ++j) mark_min(data, prev[j], std::max(max_depth - base, 0));
      pending = 0;
    };
    auto halted = [&] {
      if (main_thread) {
        if (cancelled && cancelled()) stop = true;
        if (resume.due && resume.due()) pause = true;
      }
      return stop.load(std::memory_order_relaxed) || pause.load(std::memory_order_relaxed);
    };
    for (;;) {
      const std::uint64_t i = next_start.fetch_add(1);
      taken[thread] = i;
      if (i >= layer.size() || halted()) break;
      if (short_depth < max_depth) {
        stack.push_back({h.state_of(h.cube_of_h11(layer[i])), short_depth, -1, 0});
      }
      while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.next == N_MOVES) {
          stack.pop_back();
          continue;
        }
        if (f.depth == max_depth - 1) {
          // The last level, all children at once: their entries prefetched before any is
          // marked (the table is far larger than the caches), and no look-up in the first
          // step's keys (a position met there already holds its least depth; marking it again
          // with more changes nothing).
          // Software-pipelined: this batch's entries are prefetched, then the previous batch's
          // are marked (marks are minima: their order does not matter).
          auto& entries = batch[current];
          int n = 0;
          for (int m = 0; m < N_MOVES; ++m) {
            if (!allowed_after(f.last, m)) continue;
            h.for_each_h11_variant(h.after(t, f.state, m), [&](std::uint64_t v) {
              entries[n] = out.index_of_h11(v);
              __builtin_prefetch(data + (entries[n] >> 2));
              ++n;
            });
          }
          flush_pending();
          pending = n;
          current ^= 1;
          stack.pop_back();
          polls += static_cast<std::uint64_t>(n);
          if (polls >= 4096) {
            polls = 0;
            if (halted()) break;
          }
          continue;
        }
        const int m = f.next++;
        if (!allowed_after(f.last, m)) continue;
        if (++polls >= 4096) {
          polls = 0;
          if (halted()) break;
        }
        const H48Coords::EdgeState y = h.after(t, f.state, m);
        const int depth = f.depth + 1;
        // Marked unless the first step met it.
        const Entries e = entries_of(y);
        if (near_keys.contains(e.key)) continue;
        mark(e, depth);
        if (depth < max_depth) stack.push_back({y, depth, m, 0});
      }
      if (!stack.empty()) break;  // stopped within start i: it is done again after the halt
      flush_pending();            // the start's last batch
      const std::uint64_t n = ++done;
      if (main_thread && progress) progress(n, layer.size());
    }
    stack.clear();
  };
  for (;;) {
    {
      std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
      for (unsigned j = 1; j < n_threads; ++j) pool.emplace_back(work, j);
      work(0);
    }
    if (stop) return false;
    if (!pause) break;
    // A checkpoint: every start below the least taken is done and marked.
    first_start =
        std::min<std::uint64_t>(*std::min_element(taken.begin(), taken.end()), layer.size());
    if (resume.save) resume.save(first_start);
    next_start = first_start;
    done = first_start;
    pause = false;
  }
  if (progress) progress(layer.size(), layer.size());
  return true;
}

}  // namespace permuzzle::cube::detail
