// Optimal solutions: IDA* over the whole cube (see two_phase.hpp for the method), with one of three
// searches: OptimalSearch (the phase-1 table only), BigSearch (the big tables of
// optimal_table.hpp, nxopt's method; described above the class) or H48Search (the H48 tables of
// h48.hpp, Tronto's kind). The last two go in lanes (LaneDriver). This file also obtains the big
// and H48 tables through the table store and checks the big ones.
//
// OptimalSearch: a node carries the phase-1 coordinates of the cube seen along each of the three
// axes (twist, flip, slice of S^-1 X S for the symmetries 0, 16, 32; a move m of X is the move
// conj_move[m][s] of the conjugate) and the inverse cube in full (X^-1 is premultiplied by the
// inverse move). The bound is the largest of the four phase-1 distances: the distance to H of a
// conjugate or of the inverse is at most the distance to solved, which both preserve.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"
#include "solver_tables.hpp"

namespace permuzzle::cube {

using namespace detail;

namespace {

static_assert(sizeof(KCube) == 40 && offsetof(KCube, co) == 8 && offsetof(KCube, ep) == 16 &&
                  offsetof(KCube, eo) == 28,
              "the byte layout BigSearch's shuffles read");

struct P1Node {
  std::array<std::uint16_t, 3> twist, flip, slice;
  KCube inverse;
};

// A move's cost in the metric (a half turn is two quarter turns in QTM) and its inverse.
int move_cost(Metric metric, int m) {
  return metric == Metric::Qtm && m % 3 == 1 ? 2 : 1;
}
int inverse_move(int m) {
  return 3 * (m / 3) + 2 - m % 3;
}

// out = m * z (both unmirrored; corner twists below 3): the inverse's update with m a move, the
// cube's with z one.
void multiply(const KCube& m, const KCube& z, KCube& out) {
#if defined(__SSE4_1__)
  // Byte shuffles: corners [cp | co] in one register; edges in two overlapping ones,
  // [ep0..11 eo0..3] at byte 16 and [ep8..11 eo0..11] at byte 24.
  const auto* zb = reinterpret_cast<const std::uint8_t*>(&z);
  const auto* mb = reinterpret_cast<const std::uint8_t*>(&m);
  auto* ob = reinterpret_cast<std::uint8_t*>(&out);
  auto load = [](const std::uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  };
  const __m128i zc = load(zb), mc = load(mb);
  const __m128i hi = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8);
  const __m128i lo_twice = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);
  // [m.cp[cp_i] | m.co[cp_i] + co_i], the orientations reduced mod 3.
  const __m128i picked = _mm_shuffle_epi8(mc, _mm_add_epi8(_mm_shuffle_epi8(zc, lo_twice), hi));
  __m128i c = _mm_add_epi8(picked, _mm_and_si128(zc, _mm_cmpeq_epi8(hi, _mm_set1_epi8(8))));
  const __m128i over =
      _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8(2)), _mm_cmpeq_epi8(hi, _mm_set1_epi8(8)));
  c = _mm_sub_epi8(c, _mm_and_si128(over, _mm_set1_epi8(3)));
  const __m128i za = load(zb + 16), zo = load(zb + 24);
  const __m128i ma = load(mb + 16), mo = load(mb + 24);
  // out.ep[i] = m.ep[ep_i] (lanes 0..11); out.eo[i] = m.eo[ep_i] ^ eo_i (lanes 4..15 of the
  // second register, where m.eo[k] is lane 4 + k).
  const __m128i ep = _mm_shuffle_epi8(ma, za);
  const __m128i idx = _mm_add_epi8(_mm_slli_si128(za, 4), _mm_set1_epi8(4));
  __m128i eo = _mm_xor_si128(_mm_shuffle_epi8(mo, idx), zo);
  eo = _mm_blend_epi16(eo, _mm_srli_si128(ep, 8), 0x03);  // lanes 0..3: ep8..11
  _mm_storeu_si128(reinterpret_cast<__m128i*>(ob), c);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(ob + 16), ep);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(ob + 24), eo);
#else
  for (int i = 0; i < 8; ++i) {
    const int c = z.cp[i];
    out.cp[i] = m.cp[c];
    const int o = m.co[c] + z.co[i];
    out.co[i] = static_cast<std::uint8_t>(o >= 3 ? o - 3 : o);
  }
  for (int i = 0; i < 12; ++i) {
    const int e = z.ep[i];
    out.ep[i] = m.ep[e];
    out.eo[i] = static_cast<std::uint8_t>(m.eo[e] ^ z.eo[i]);
  }
#endif
}

// The depth of the subtrees an iteration shares among the threads (see iterate).
constexpr int SUBTREE_DEPTH = 3;

// A subtree of one iteration (see iterate): its root, the moves to it and the budget left.
template <class Node>
struct SearchPrefix {
  Node node;
  std::vector<int> moves;
  int budget;
};

// The subtrees of one iteration shared by the threads (see iterate): they are taken in order; the
// answer is the first subtree in that order with a solution, so answer and node count are the
// one-thread ones whatever the threads and the order in which they finish.
template <class Node>
class SubtreeQueue {
 public:
  static constexpr std::size_t NONE = ~std::size_t(0);
  SubtreeQueue(const std::vector<SearchPrefix<Node>>& subtrees, const RunContext& run)
      : subtrees_(subtrees),
        run_(run),
        first_found_(subtrees.size()),
        nodes_(subtrees.size(), 0),
        paths_(subtrees.size()) {}

  const SearchPrefix<Node>& subtree(std::size_t i) const { return subtrees_[i]; }
  // The next subtree worth searching, or NONE.
  std::size_t take() {
    const std::size_t i = next_.fetch_add(1);
    if (i >= subtrees_.size() || i > first_found_.load() || stopped_.load()) return NONE;
    return i;
  }
  // Whether the search of subtree i should stop (cancelled, or an earlier subtree has the answer).
  bool abandon(std::size_t i) {
    if (run_.should_stop()) stopped_ = true;
    return stopped_.load() || first_found_.load() < i;
  }
  // Subtree i is done: its nodes and, when it has a solution, the moves below its root.
  void finish(std::size_t i, std::uint64_t nodes, const std::vector<int>* path) {
    nodes_[i] = nodes;
    if (!path) return;
    paths_[i] = subtrees_[i].moves;
    paths_[i].insert(paths_[i].end(), path->begin(), path->end());
    std::size_t cur = first_found_.load();
    while (i < cur && !first_found_.compare_exchange_weak(cur, i)) {
    }
  }
  bool stopped() const { return stopped_.load(); }
  // The nodes of subtree i (all of them once the iteration is over without a solution).
  std::uint64_t nodes_of(std::size_t i) const { return nodes_[i]; }
  // Nodes as one thread counts them: every subtree up to the first with a solution.
  std::uint64_t nodes() const {
    const std::size_t last = std::min(first_found_.load() + 1, subtrees_.size());
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < last; ++i) sum += nodes_[i];
    return sum;
  }
  const std::vector<int>* answer() const {
    const std::size_t f = first_found_.load();
    return f < subtrees_.size() ? &paths_[f] : nullptr;
  }

 private:
  const std::vector<SearchPrefix<Node>>& subtrees_;
  const RunContext& run_;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> first_found_;
  std::vector<std::uint64_t> nodes_;
  std::vector<std::vector<int>> paths_;
  std::atomic<bool> stopped_{false};
};

// The recursive depth-first search of OptimalSearch (a CRTP base), over Derived's child(n, m) (the
// cube's own coordinates), with_inverse(n, m, c) (the inverse cube, premultiplied by the inverse
// move), bound(n, limit), and the table reads of a bound in two groups, the cube's and then the
// inverse's: prepare(node, reads) computes the cube's entries and prefetches them, exceeds(node,
// reads, limit) reads them; prepare_inverse and inverse_exceeds the same for the inverse (which a
// child pruned by its own entries never computes).
template <class Derived, class NodeT, int READS>
class PlainSearch {
 public:
  using Node = NodeT;
  using Reads = std::array<std::uint64_t, READS>;
  PlainSearch(const CubeBasics& basics, Metric metric) : basics_(basics), metric_(metric) {}

  int cost(int m) const { return move_cost(metric_, m); }
  static bool solved(const Node& n) { return n.inverse == KCube{}; }
  // (X M)^-1 = M^-1 X^-1.
  void inverse_after(const KCube& inverse, int m, KCube& out) const {
    multiply(basics_.moves[inverse_move(m)], inverse, out);
  }

  // Depth-first search below `n` with `budget` cost left. `abort` is polled with the node
  // count; true when it says stop. Moves found are appended to `path` (kept on success).
  struct Worker {
    std::uint64_t nodes = 0;
    std::vector<int> path;
    bool aborted = false;
  };
  bool dfs(const Node& n, int budget, int last, Worker& w,
           const std::function<bool()>& abort) const {
    if (budget == 0) return solved(n);
    // Step 1. Every child and its own table entries, prefetched (memory-level parallelism).
    struct Kid {
      Node node;
      Reads reads;
      int move;
      bool alive;
    };
    std::array<Kid, N_MOVES> kids;
    int count = 0;
    for (int m = 0; m < N_MOVES; ++m) {
      if (!allowed_after(last, m) || cost(m) > budget) continue;
      Kid& k = kids[count++];
      k.move = m;
      k.node = d().child(n, m);
      d().prepare(k.node, k.reads);
    }
    // Step 2. The children those entries do not prune get their inverse, its entries
    // prefetched.
    for (int i = 0; i < count; ++i) {
      Kid& k = kids[i];
      k.alive = !d().exceeds(k.node, k.reads, budget - cost(k.move));
      if (!k.alive) continue;
      d().with_inverse(n, k.move, k.node);
      d().prepare_inverse(k.node, k.reads);
    }
    // Step 3. Bound and descend, in move order; every child counts as a node.
    for (int i = 0; i < count; ++i) {
      Kid& k = kids[i];
      const int limit = budget - cost(k.move);
      if ((++w.nodes & 4095) == 0 && abort()) {
        w.aborted = true;
        return false;
      }
      if (!k.alive || d().inverse_exceeds(k.node, k.reads, limit)) continue;
      if (limit == 0 && !solved(k.node)) continue;
      w.path.push_back(k.move);
      if (dfs(k.node, limit, k.move, w, abort)) return true;
      w.path.pop_back();
      if (w.aborted) return false;
    }
    return false;
  }

  // One thread's share of an iteration: subtrees one after the other.
  void search_subtrees(SubtreeQueue<Node>& q) const {
    for (std::size_t i; (i = q.take()) != SubtreeQueue<Node>::NONE;) {
      const auto& p = q.subtree(i);
      Worker w;
      auto abort = [&] { return q.abandon(i); };
      const bool ok = p.budget == 0
                          ? solved(p.node)
                          : dfs(p.node, p.budget, p.moves.empty() ? -1 : p.moves.back(), w, abort);
      q.finish(i, w.nodes, ok ? &w.path : nullptr);
    }
  }

  // The subtrees of one iteration: the nodes at depth `depth` that the one-thread search would
  // enter, in its order, with the nodes it counts above them.
  using Prefix = SearchPrefix<Node>;
  void prefixes(const Node& n, int budget, int depth, std::vector<int>& moves,
                std::vector<Prefix>& out, std::uint64_t& nodes) const {
    if (depth == 0 || budget == 0) {
      out.push_back({n, moves, budget});
      return;
    }
    const int last = moves.empty() ? -1 : moves.back();
    for (int m = 0; m < N_MOVES; ++m) {
      if (!allowed_after(last, m)) continue;
      const int c = cost(m);
      if (c > budget) continue;
      Node ch = d().child(n, m);
      d().with_inverse(n, m, ch);
      ++nodes;
      if (d().bound(ch, budget - c) > budget - c) continue;
      if (budget - c == 0 && !solved(ch)) continue;
      moves.push_back(m);
      prefixes(ch, budget - c, depth - 1, moves, out, nodes);
      moves.pop_back();
    }
  }

 private:
  const Derived& d() const { return static_cast<const Derived&>(*this); }
  const CubeBasics& basics_;
  Metric metric_;
};

class OptimalSearch : public PlainSearch<OptimalSearch, P1Node, 4> {
 public:
  OptimalSearch(const SolverTables& tables, Metric metric)
      : PlainSearch(tables.coords->basics, metric), t_(*tables.coords), p1_(*tables.phase1) {}

  Node root(const KCube& cube) const {
    Node n;
    for (int a = 0; a < 3; ++a) {
      const KCube c = t_.basics.conj(cube, 16 * a);
      n.twist[a] = static_cast<std::uint16_t>(c.twist());
      n.flip[a] = static_cast<std::uint16_t>(c.flip());
      n.slice[a] = static_cast<std::uint16_t>(c.slice());
    }
    n.inverse = cube.inverse();
    return n;
  }

  // The largest of the four bounds, stopping early once one exceeds `limit`.
  int bound(const Node& n, int limit) const {
    int h = 0;
    for (int a = 0; a < 3; ++a) {
      h = std::max(h, phase1_distance(t_, p1_, n.twist[a], n.flip[a], n.slice[a]));
      if (h > limit) return h;
    }
    const KCube& v = n.inverse;
    return std::max(h, phase1_distance(t_, p1_, v.twist(), v.flip(), v.slice()));
  }

  Node child(const Node& n, int m) const {
    Node c;
    for (int a = 0; a < 3; ++a) {
      const int ma = t_.basics.conj_move[m * N_SYM + 16 * a];
      c.twist[a] = t_.twist_move[n.twist[a] * N_MOVES + ma];
      c.flip[a] = t_.flip_move[n.flip[a] * N_MOVES + ma];
      c.slice[a] = t_.slice_move[n.slice[a] * N_MOVES + ma];
    }
    return c;
  }
  void with_inverse(const Node& n, int m, Node& c) const { inverse_after(n.inverse, m, c.inverse); }

  // The phase-1 entries of the three axes, then of the inverse, prefetched.
  void prepare(const Node& n, Reads& reads) const {
    for (int a = 0; a < 3; ++a) {
      reads[a] = phase1_index(t_, n.twist[a], n.flip[a], n.slice[a]);
      prefetch_phase1(p1_, reads[a]);
    }
  }
  bool exceeds(const Node&, const Reads& reads, int limit) const {
    return p1_.get(reads[0]) > limit || p1_.get(reads[1]) > limit || p1_.get(reads[2]) > limit;
  }
  void prepare_inverse(const Node& n, Reads& reads) const {
    const KCube& v = n.inverse;
    reads[3] = phase1_index(t_, v.twist(), v.flip(), v.slice());
    prefetch_phase1(p1_, reads[3]);
  }
  bool inverse_exceeds(const Node&, const Reads& reads, int limit) const {
    return p1_.get(reads[3]) > limit;
  }

 private:
  const CoordTables& t_;
  const Phase1Table& p1_;
};

}  // namespace

namespace {
// Entries a build fills per second per thread, measured on the project's machine (2 cores):
// the 13.8 GiB table's 59.2e9 entries in 826 s on 2 threads.
constexpr double OPTIMAL_BUILD_ENTRIES_PER_THREAD_SECOND = 36e6;
}  // namespace

std::uint64_t optimal_table_bytes(int order) {
  return Mod3Table::shape(N_CCOMB * order).bytes() + OptimalTable::TRAILER;
}

std::uint64_t optimal_table_entries(int order) {
  return std::uint64_t(N_FLIPSLICE_CLASS) * N_TWIST * N_CCOMB * static_cast<std::uint64_t>(order);
}

std::string optimal_table_name(int order) {
  const std::string size =
      fmt::format("{:.1f} GiB", double(optimal_table_bytes(order)) / (1 << 30));
  switch (order) {
    case 1:
      return size + " table (flip-slice, twist, U corners)";
    case 2:
      return size + " table (flip-slice, twist, U corners, slice edges' parity)";
    case 3:
      return size + " table (flip-slice, twist, U corners, slice edges' order mod D4)";
    default:
      return size + " table (flip-slice, twist, U corners, slice edges' order mod V4)";
  }
}

int optimal_table_order(const OptimalTable& table) {
  return table.order ? table.order->size : 1;
}

int optimal_table_order_for(std::uint64_t bytes) {
  int best = 0;
  for (int order : OPTIMAL_TABLE_ORDERS) {
    if (optimal_table_bytes(order) <= bytes) best = order;
  }
  return best;
}

namespace {
// The extra coordinate of a table: the corner combination (or none, in the tests' tables of the
// phase-1 size) times the slice edges' order (or none).
constexpr std::array<std::uint8_t, N_MOVES> NO_EXTRA{};
ExtraCoord extra_coord(const CoordTables& t, const OptimalTable& o) {
  if (o.corners == 1) return {o.table.extra, NO_EXTRA.data(), NO_EXTRA.data(), o.order.get()};
  return {o.table.extra, t.ccomb_move.data(), t.ccomb_conj.data(), o.order.get()};
}
// The per-distance counts in the trailer.
void write_trailer(OptimalTable& o) {
  std::uint8_t* p = o.table.data.data() + o.table.bytes();
  std::fill(p, p + OptimalTable::TRAILER, 0);
  for (std::size_t d = 0; d < o.per_depth.size() && d < 32; ++d) {
    std::memcpy(p + 8 * d, &o.per_depth[d], 8);
  }
}
Status read_trailer(OptimalTable& o) {
  const std::uint8_t* p = o.table.data.data() + o.table.bytes();
  o.per_depth.clear();
  std::uint64_t sum = 0;
  for (int d = 0; d < 32; ++d) {
    std::uint64_t v;
    std::memcpy(&v, p + 8 * d, 8);
    o.per_depth.push_back(v);
    sum += v;
  }
  while (!o.per_depth.empty() && o.per_depth.back() == 0) o.per_depth.pop_back();
  if (sum != o.table.entries()) {
    return make_error(fmt::format("the distance counts sum to {}, not {}", sum, o.table.entries()));
  }
  return Ok{};
}
// An empty table of the order's shape, with its slice-order tables.
Result<std::shared_ptr<OptimalTable>> empty_optimal_table(const CoordTables& t, int order) {
  auto o = std::make_shared<OptimalTable>();
  o->table = Mod3Table::shape(N_CCOMB * order);
  if (order > 1) {
    auto so = std::make_shared<SliceOrder>(SliceOrder::make(t, order));
    if (so->size != order) {
      return make_error(fmt::format("internal: no slice-order coordinate of {} values", order), {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
    o->order = std::move(so);
  }
  return o;
}
}  // namespace

Result<std::shared_ptr<const OptimalTable>> optimal_table(TableStore& store,
                                                          const SolverTables& tables,
                                                          const RunContext& run,
                                                          TableReport* report, int order) {
  if (std::find(OPTIMAL_TABLE_ORDERS.begin(), OPTIMAL_TABLE_ORDERS.end(), order) ==
      OPTIMAL_TABLE_ORDERS.end()) {
    return make_error(fmt::format("no optimal table of slice order {}", order), {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  const std::uint64_t bytes = optimal_table_bytes(order), entries = optimal_table_entries(order);
  TableRecipe<OptimalTable> recipe;
  recipe.key =
      TableKey{"cube-3x3x3",
               order == 1 ? std::string("optimal-flipslice-twist-ccomb-mod3")
                          : fmt::format("optimal-flipslice-twist-ccomb-sorder{}-mod3", order),
               1};
  recipe.bytes = bytes;
  // Said before a build starts: how long it takes (the rate measured on the project's 2-core
  // machine, docs/cube.md; a build is bound by memory, so more threads help less than this says).
  const unsigned threads = std::max(1u, run.threads());
  const double minutes =
      double(entries) / (OPTIMAL_BUILD_ENTRIES_PER_THREAD_SECOND * threads) / 60.0;
  recipe.build_note =
      fmt::format("the {} is built once: about {:.0f} minute{} on {} thread{}, {} of memory",
                  optimal_table_name(order), std::max(1.0, minutes), minutes < 1.5 ? "" : "s",
                  threads, threads == 1 ? "" : "s", memory_text(bytes));
  const auto coords = tables.coords;
  // (allocate cannot fail with a message: without its slice-order tables the loaded check
  // refuses the table.)
  recipe.allocate = [coords, order, bytes] {
    auto o = empty_optimal_table(*coords, order);
    auto table = o ? *o : std::make_shared<OptimalTable>();
    table->table.data.resize(bytes);
    return table;
  };
  recipe.payload = [](OptimalTable& o) { return std::span<std::uint8_t>(o.table.data); };
  recipe.loaded = [order](OptimalTable& o) -> Status {
    if (order > 1 && !o.order) return make_error("internal: no slice-order coordinate");
    return read_trailer(o);
  };
  // Background-safe (a server's build outlives the request): holds the coordinate tables.
  recipe.background = true;
  recipe.build = [coords, order, bytes,
                  entries](const RunContext& r) -> Result<std::shared_ptr<OptimalTable>> {
    const CoordTables& t = *coords;
    auto made = empty_optimal_table(t, order);
    if (!made) return made.error();
    auto o = *made;
    o->table.data.reserve(bytes);  // room for the trailer: no copy of gigabytes
    Stopwatch clock;
    const bool ok = build_mod3_table(
        t, extra_coord(t, *o), std::max(1u, r.threads()), o->table,
        [&r] { return r.should_stop(); },
        [&](int depth, std::uint64_t filled) {
          r.report({"building the cube optimal table", filled, entries,
                    fmt::format("depth {}: {} of {} entries, {:.0f} s", depth, filled, entries,
                                clock.seconds())});
        },
        &o->per_depth);
    if (!ok) {
      if (r.should_stop()) return r.stop_error();
      return make_error("internal: the optimal table did not fill", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    o->table.data.resize(bytes, 0);
    write_trailer(*o);
    return o;
  };
  return store.obtain(recipe, run, report);
}

namespace {
// The hK tables' bases (Tronto's choices: few entries at or below the base, which fall back to h0,
// and not too many at base + 3 or more) and the depth of the first step of their build.
// Base 9 from K = 4 (Tronto uses 10 from K = 8, but the depth-first build then goes one level
// deeper, about 13 times longer): every K within the same build time.
int h48_base(int k) {
  return k <= 3 ? 8 : 9;
}
constexpr int H48_SHORT_DEPTH = 8;
// Starts of the depth-first build a second per thread, measured on the project's machine (2
// cores): h9 (base 9) 6,235,366 starts in 1,443 s on 2 threads with two checkpoints (twenty-ninth
// session, after the first step's keys went into KeySet; 3,300-3,500 a second before), h7 about as
// fast.
constexpr double H48_STARTS_PER_THREAD_SECOND = 2100;
constexpr double H48_STARTS = 6'235'366;
// The coordinate tables' bytes (H48Coords; about 6 MB), counted with the tables.
constexpr std::uint64_t H48_COORDS_MAX_BYTES = 8'000'000;
// The depth-first build's first-step keys (a hash map of 6,235,366 + fewer keys) at their most.
constexpr std::uint64_t H48_NEAR_KEYS_BYTES = 600'000'000;
}  // namespace

std::uint64_t h48_tables_bytes(int k) {
  return H48K2Table::bytes(k) + H48H0Table::BYTES + H48_COORDS_MAX_BYTES;
}

int h48_table_k_for(std::uint64_t bytes) {
  int best = 0;
  for (int k : H48_TABLE_KS) {
    if (h48_tables_bytes(k) <= bytes) best = k;
  }
  return best;
}

std::string h48_table_name(int k) {
  return fmt::format(
      "{:.1f} GiB H48 table (h{}: corner tetrads and twist in 48-symmetry classes, "
      "edge slices, {} edge flips; 2 bits over base {})",
      double(H48K2Table::bytes(k)) / (1 << 30), k, k, h48_base(k));
}

Result<std::shared_ptr<const H48Tables>> h48_tables(TableStore& store, const SolverTables& tables,
                                                    const RunContext& run, TableReport* report,
                                                    int k) {
  if (std::find(H48_TABLE_KS.begin(), H48_TABLE_KS.end(), k) == H48_TABLE_KS.end()) {
    return make_error(fmt::format("no H48 table h{}", k), {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  const auto coords = tables.coords;
  auto h = std::make_shared<const H48Coords>(
      H48Coords::make(*coords, [&run] { return run.should_stop(); }));
  if (run.should_stop()) return run.stop_error();
  if (h->cocsep_rep.size() != N_COCSEP_CLASS) {
    return make_error("internal: the H48 corner classes are not Tronto's 3393", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  // Step 1. h0 (exact, 4 bits; seconds to build).
  TableRecipe<H48H0Table> r0;
  r0.key = TableKey{"cube-3x3x3", "h48-h0-cocsep-esep-4bit", 1};
  r0.bytes = H48H0Table::BYTES;
  r0.allocate = [] {
    auto t = std::make_shared<H48H0Table>();
    t->nibbles.resize(H48H0Table::BYTES);
    return t;
  };
  r0.payload = [](H48H0Table& t) { return std::span<std::uint8_t>(t.nibbles); };
  r0.background = true;  // holds the coordinate tables
  r0.build = [coords, h](const RunContext& r) -> Result<std::shared_ptr<H48H0Table>> {
    auto t = std::make_shared<H48H0Table>();
    if (!build_h48_h0(
            *coords, *h, std::max(1u, r.threads()), *t, [&r] { return r.should_stop(); },
            [&r](int depth, std::uint64_t filled) {
              r.report({"building the H48 h0 table", filled, H48_H0_ENTRIES,
                        fmt::format("depth {}: {} of {} entries", depth, filled, H48_H0_ENTRIES)});
            })) {
      if (r.should_stop()) return r.stop_error();
      return make_error("internal: the H48 h0 table did not fill", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    return t;
  };
  auto h0 = store.obtain(r0, run);
  if (!h0) return h0.error();
  // Step 2. hK (2 bits over its base; the long build).
  const int base = h48_base(k);
  TableRecipe<H48K2Table> rk;
  rk.key =
      TableKey{"cube-3x3x3", fmt::format("h48-h{}-k2-base{}-short{}", k, base, H48_SHORT_DEPTH), 1};
  rk.bytes = H48K2Table::bytes(k);
  // The build's peak: the table and the first step's keys (6.2 M in a hash map; 4.07 GB of RSS
  // measured for h7 in all).
  rk.estimated_bytes = H48K2Table::bytes(k) + H48_NEAR_KEYS_BYTES;
  const unsigned threads = std::max(1u, run.threads());
  const double minutes = H48_STARTS / (H48_STARTS_PER_THREAD_SECOND * threads) / 60.0;
  rk.build_note = fmt::format(
      "the {} is built once: about {:.0f} minutes on {} thread{}, {} of memory", h48_table_name(k),
      minutes, threads, threads == 1 ? "" : "s", memory_text(H48K2Table::bytes(k)));
  rk.allocate = [k, base] {
    auto t = std::make_shared<H48K2Table>();
    t->k = k;
    t->base = base;
    t->data.resize(H48K2Table::bytes(k));
    return t;
  };
  rk.payload = [](H48K2Table& t) { return std::span<std::uint8_t>(t.data); };
  rk.background = true;  // holds the coordinate tables
  // Resumable: the depth-first build saves its table and next start every few minutes (a stopped
  // build goes on from there).
  rk.resumable_build = [coords, h, k, base](
                           const RunContext& r,
                           TableCheckpoint& checkpoint) -> Result<std::shared_ptr<H48K2Table>> {
    auto t = std::make_shared<H48K2Table>();
    Stopwatch clock;
    // Step 1. The checkpoint of an earlier build, if any.
    H48BuildResume resume;
    if (checkpoint.saved_progress() > 0) {
      t->data.resize(H48K2Table::bytes(k));
      resume.first_start = checkpoint.resume(std::span<std::uint8_t>(t->data));
      if (resume.first_start > 0) {
        r.report({"", 0, 0,  // a lasting note
                  fmt::format("the H48 table's build goes on from its checkpoint at start {}",
                              resume.first_start)});
      }
    }
    // Step 2. The build, with a checkpoint whenever one is due.
    resume.due = [&checkpoint] { return checkpoint.due(); };
    resume.save = [&](std::uint64_t next_start) {
      r.report({"", 0, 0,  // a lasting note
                fmt::format("the H48 table's build: a checkpoint at start {}, {:.0f} s", next_start,
                            clock.seconds())});
      checkpoint.save(std::span<const std::uint8_t>(t->data), next_start);
    };
    if (!build_h48_k2(
            *coords, *h, k, base, H48_SHORT_DEPTH, std::max(1u, r.threads()), *t,
            [&r] { return r.should_stop(); },
            [&](std::uint64_t done, std::uint64_t total) {
              if (done % 1024 && done != total) return;  // a report every 1024 starts
              r.report({"building the H48 table", done, total,
                        fmt::format("{} of {} starts, {:.0f} s", done, total, clock.seconds())});
            },
            resume)) {
      if (r.should_stop()) return r.stop_error();
      return make_error("internal: the H48 table did not fill", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    return t;
  };
  auto k2 = store.obtain(rk, run, report);
  if (!k2) return k2.error();
  // Every page huge now, not as khugepaged gets to them during the first searches (measured: the
  // first cube of a bench up to 40% slower without).
  permuzzle::detail::collapse_huge_pages((*h0)->nibbles.data(), (*h0)->nibbles.size());
  permuzzle::detail::collapse_huge_pages((*k2)->data.data(), (*k2)->data.size());
  auto out = std::make_shared<H48Tables>();
  out->coords = h;
  out->h0 = *h0;
  out->k2 = *k2;
  return std::shared_ptr<const H48Tables>(out);
}

H48TableInfo h48_table_info(const H48Tables& tables) {
  const H48K2Table& t = *tables.k2;
  H48TableInfo info{t.k, t.base, {}};
  const std::uint64_t entries = H48K2Table::entries(t.k);
  // Bytes counted by value (a pass over GiB at memory speed), then their four entries.
  std::array<std::uint64_t, 256> per_byte{};
  for (std::uint64_t i = 0; i < entries / 4; ++i) ++per_byte[t.data[i]];
  for (int b = 0; b < 256; ++b) {
    for (int j = 0; j < 4; ++j) info.per_value[(b >> (2 * j)) & 3] += per_byte[b];
  }
  for (std::uint64_t i = entries / 4 * 4; i < entries; ++i) ++info.per_value[t.get(i)];
  return info;
}

namespace {
// The least number of moves taking a position (its h11 state) into K, or more than `max`
// (max + 1): IDA* over positions with h0 as the bound (exact on the h0 coordinate, which every
// position's h11 coordinate refines, so admissible). Independent of the depth-first build.
class H48Distance {
 public:
  H48Distance(const CoordTables& t, const H48Coords& h, const H48H0Table& h0)
      : t_(t), h_(h), h0_(h0), goal_(h.state_of(KCube{})) {}
  int operator()(const H48Coords::EdgeState& x, int max) const {
    for (int bound = h0(x); bound <= max; ++bound) {
      if (reach(x, bound, -1)) return bound;
    }
    return max + 1;
  }

 private:
  int h0(const H48Coords::EdgeState& x) const { return h0_.get(h_.h11_of(x) >> 11); }
  bool reach(const H48Coords::EdgeState& x, int budget, int last) const {
    if (x.cocsep == goal_.cocsep && x.esep == goal_.esep && x.flips == goal_.flips) return true;
    for (int m = 0; m < N_MOVES; ++m) {
      if (!allowed_after(last, m)) continue;
      const H48Coords::EdgeState y = h_.after(t_, x, m);
      if (1 + h0(y) <= budget && reach(y, budget - 1, m)) return true;
    }
    return false;
  }
  const CoordTables& t_;
  const H48Coords& h_;
  const H48H0Table& h0_;
  H48Coords::EdgeState goal_;
};
}  // namespace

Result<H48TableCheck> check_h48_table(const SolverTables& tables, const H48Tables& h48,
                                      std::uint64_t samples, std::uint64_t seed,
                                      const RunContext& run) {
  const H48K2Table& k2 = *h48.k2;
  const H48Coords& h = *h48.coords;
  const H48Distance distance(*tables.coords, h, *h48.h0);
  H48TableCheck out;
  Rng rng(seed);
  const std::uint64_t entries = H48K2Table::entries(k2.k);
  const int untracked = 11 - k2.k;
  // Random entries until each value has `samples` of them (the rare ones may run out of draws).
  const std::uint64_t max_draws = samples * 4 * 10'000;
  for (std::uint64_t draw = 0; draw < max_draws; ++draw) {
    if (out.per_value[0] >= samples && out.per_value[1] >= samples && out.per_value[2] >= samples &&
        out.per_value[3] >= samples) {
      break;
    }
    const std::uint64_t i = rng.below(entries);
    const int v = k2.get(i);
    if (out.per_value[v] >= samples) continue;
    if (run.should_stop()) return run.stop_error();
    // The entry's h11 coordinates: its h0 entry and K flips, with every value of the others.
    int least = k2.base + 3;
    const std::uint64_t prefix = (i >> k2.k) << 11 | (i & ((std::uint64_t(1) << k2.k) - 1))
                                                         << untracked;
    for (std::uint64_t u = 0; u < (std::uint64_t(1) << untracked); ++u) {
      const KCube x = h.cube_of_h11(prefix | u);
      least = std::min(least, distance(h.state_of(x), least - 1));
    }
    const int expected = least <= k2.base ? 0 : least - k2.base;
    if (expected != v) {
      return make_error(
          fmt::format("internal: H48 table check: entry {} holds {}, its coordinates' "
                      "least distance says {}",
                      i, v, expected),
          {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    ++out.per_value[v];
  }
  return out;
}

Result<OptimalTableCheck> check_optimal_table(const SolverTables& tables, const OptimalTable& table,
                                              std::uint64_t samples, std::uint64_t seed) {
  const CoordTables& t = *tables.coords;
  const ExtraCoord x = extra_coord(t, table);
  const Mod3Table& m3 = table.table;
  OptimalTableCheck out;
  out.per_depth = table.per_depth;
  for (auto v : out.per_depth) out.entries += v;
  auto fail = [](const std::string& what) {
    return make_error("internal: optimal table check: " + what, {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  };
  if (out.entries != m3.entries()) {
    return fail(fmt::format("{} entries counted, expected {}", out.entries, m3.entries()));
  }
  if (m3.get(0, 0) != 0) return fail("the goal entry is not 0");
  // Step 1. A breadth-first search of the raw coordinates (twist, flip, slice, extra; no
  // symmetry, no table) from the goal to depth BFS_DEPTH: every coordinate it reaches must have
  // its distance's residue in the table (a second, independent method).
  constexpr int BFS_DEPTH = 5;
  const auto layers = raw_coordinate_layers(t, x, BFS_DEPTH);
  for (int d = 0; d <= BFS_DEPTH; ++d) {
    for (const auto& n : layers[d]) {
      const Mod3Index i = mod3_index(t, x, n[0], n[1], n[2], n[3]);
      if (m3.get(i.row, i.entry) != d % 3) {
        return fail(fmt::format("coordinates ({}, {}, {}, {}) at distance {} have residue {}", n[0],
                                n[1], n[2], n[3], d, m3.get(i.row, i.entry)));
      }
      ++out.bfs_coordinates;
    }
  }
  out.bfs_depth = BFS_DEPTH;
  // Step 2. Random entries: their exact distances by descent.
  Rng rng(seed);
  for (std::uint64_t i = 0; i < samples; ++i) {
    const auto c = static_cast<std::uint32_t>(rng.below(N_FLIPSLICE_CLASS));
    const int tw = static_cast<int>(rng.below(N_TWIST)), cc = static_cast<int>(rng.below(x.size));
    const std::uint32_t fs = t.fs_rep[c];
    const int slice = static_cast<int>(fs / N_FLIP), flip = static_cast<int>(fs % N_FLIP);
    const int d = mod3_exact_distance(t, x, m3, tw, flip, slice, cc);
    if (d < 0) return fail(fmt::format("entry ({}, {}, {}) has no way down", c, tw, cc));
    if (d == 0 && !(c == 0 && tw == 0 && cc == 0)) {
      return fail(fmt::format("entry ({}, {}, {}) at distance 0", c, tw, cc));
    }
    if (d < phase1_distance(t, *tables.phase1, tw, flip, slice)) {
      return fail(fmt::format("entry ({}, {}, {}) below its phase-1 distance", c, tw, cc));
    }
    if (out.sample_depths.size() <= static_cast<std::size_t>(d)) out.sample_depths.resize(d + 1);
    ++out.sample_depths[d];
    ++out.samples;
    for (int m = 0; m < N_MOVES; ++m) {
      const int d2 = mod3_exact_distance(
          t, x, m3, t.twist_move[tw * N_MOVES + m], t.flip_move[flip * N_MOVES + m],
          t.slice_move[slice * N_MOVES + m], x.after_move(cc, slice, m));
      if (d2 < d - 1 || d2 > d + 1) {
        return fail(
            fmt::format("entry ({}, {}, {}) at {} has a neighbour at {}", c, tw, cc, d, d2));
      }
    }
  }
  return out;
}

namespace {

// The last move of the lane searches (budget 1): a child X m is solved iff X^-1 = m, so no table
// reads. The children count as nodes as an expansion would count them, up to the solving one (a
// solved child passes every bound). `banned`: bit m for move m. Returns the solving move or -1.
int solving_last_move(const CubeBasics& b, Metric metric, const KCube& inverse, int last,
                      std::uint32_t banned, std::uint64_t& nodes) {
  for (int m = 0; m < N_MOVES; ++m) {
    if (!allowed_after(last, m) || move_cost(metric, m) > 1 || ((banned >> m) & 1)) continue;
    ++nodes;
    if (inverse == b.moves[m]) return m;
  }
  return -1;
}
// The half turns as such a set (move 3f + 1 turns face f twice).
constexpr std::uint32_t HALF_TURNS = 0x12492;

// The lanes of a thread (BigSearch, H48Search): depth-first searches of several subtrees at
// once, each an explicit stack of expansions advanced one round of table reads at a time, so that
// one lane's reads arrive while the others work. The search gives Node, Kid (node, move, limit),
// Expansion (kids, alive[0, live) once complete), expand_begin(n, budget, last, e, nodes) (counts
// every child it makes), expand_round(n, e) (true once complete: the survivors of every bound,
// those of limit 0 solved), last_move(n, last, nodes) (budget 1 without reads: the solving move
// or -1) and solved(n).
template <class Search>
class LaneDriver {
 public:
  using Node = typename Search::Node;
  using Kid = typename Search::Kid;
  using Expansion = typename Search::Expansion;
  LaneDriver(const Search& s, int lanes) : s_(s), lanes_(std::max(1, lanes)) {}

  // A lane: the depth-first search of one subtree as an explicit stack of expansions, advanced
  // one table round at a time. stack[0, depth) are the open expansions; path[d] is the move of
  // the child entered from stack[d].
  struct Frame {
    const Node* node = nullptr;
    int next = 0;  // the next survivor to enter once the expansion is complete
    bool expanding = false;
    Expansion e;
  };
  struct Lane {
    std::size_t subtree = SubtreeQueue<Node>::NONE;
    std::vector<Frame> stack;
    int depth = 0;
    std::vector<int> path;
    std::uint64_t nodes = 0;
  };

  // One thread's share of an iteration: `lanes_` subtrees at a time, each advanced by one round in
  // turn. Each subtree is searched exactly as a recursive depth-first search would (same order,
  // same nodes), whatever the lanes.
  void run(SubtreeQueue<Node>& q) const {
    std::vector<Lane> lanes(lanes_);
    for (;;) {
      bool busy = false;
      for (Lane& lane : lanes) {
        if (lane.subtree == SubtreeQueue<Node>::NONE) {
          busy |= start(lane, q);  // its first round is in flight: step it next turn
        } else {
          busy = true;
          step(lane, q);
        }
      }
      if (!busy) return;
    }
  }

 private:
  // Takes subtrees until one needs an expansion (those of budget 0 or 1 are settled at once) and
  // begins it; false when the queue has none left.
  bool start(Lane& lane, SubtreeQueue<Node>& q) const {
    for (;;) {
      const std::size_t i = q.take();
      if (i == SubtreeQueue<Node>::NONE) return false;
      const auto& p = q.subtree(i);
      const int last = p.moves.empty() ? -1 : p.moves.back();
      lane.subtree = i;
      lane.nodes = 0;
      lane.path.clear();
      if (p.budget <= 1) {
        const int m = p.budget == 0 ? (Search::solved(p.node) ? N_MOVES : -1)
                                    : s_.last_move(p.node, last, lane.nodes);
        if (m >= 0 && m < N_MOVES) lane.path.push_back(m);
        finish(lane, q, m >= 0);
        continue;
      }
      if (lane.stack.size() < static_cast<std::size_t>(p.budget)) lane.stack.resize(p.budget);
      lane.depth = 1;
      Frame& f = lane.stack[0];
      f.node = &p.node;
      f.expanding = true;
      s_.expand_begin(p.node, p.budget, last, f.e, lane.nodes);
      return true;
    }
  }

  void finish(Lane& lane, SubtreeQueue<Node>& q, bool found) const {
    q.finish(lane.subtree, lane.nodes, found ? &lane.path : nullptr);
    lane.subtree = SubtreeQueue<Node>::NONE;
    lane.depth = 0;
  }

  // Advances a lane: the top expansion's next round; once complete, the next survivor that needs
  // table reads is entered (its first round prefetched) and exhausted expansions are left.
  void step(Lane& lane, SubtreeQueue<Node>& q) const {
    // Step 1. The pending round.
    {
      Frame& top = lane.stack[lane.depth - 1];
      if (top.expanding) {
        if (!s_.expand_round(*top.node, top.e)) return;
        top.expanding = false;
        top.next = 0;
      }
    }
    // Step 2. Enter the next survivor, settling those with budget 0 or 1 on the way.
    while (lane.depth > 0) {
      Frame& top = lane.stack[lane.depth - 1];
      if (top.next == top.e.live) {
        --lane.depth;
        continue;
      }
      const Kid& k = top.e.kids[top.e.alive[top.next++]];
      lane.path.resize(lane.depth - 1);
      lane.path.push_back(k.move);
      if (k.limit == 0) return finish(lane, q, true);  // survivors with no budget are solved
      if (k.limit == 1) {
        const int m = s_.last_move(k.node, k.move, lane.nodes);
        if (m < 0) continue;
        lane.path.push_back(m);
        return finish(lane, q, true);
      }
      Frame& child = lane.stack[lane.depth++];
      child.node = &k.node;
      child.expanding = true;
      const std::uint64_t before = lane.nodes;
      s_.expand_begin(k.node, k.limit, k.move, child.e, lane.nodes);
      if ((before >> 12) != (lane.nodes >> 12) && q.abandon(lane.subtree)) {
        finish(lane, q, false);
      }
      return;
    }
    // Step 3. The subtree is exhausted.
    finish(lane, q, false);
  }

  const Search& s_;
  int lanes_;
};

// The subtrees of one iteration for a lane search: the nodes at depth `depth` that the search
// enters, in its order, with the nodes it counts above them.
template <class Search>
void lane_prefixes(const Search& s, const typename Search::Node& n, int budget, int depth,
                   std::vector<int>& moves, std::vector<SearchPrefix<typename Search::Node>>& out,
                   std::uint64_t& nodes) {
  if (depth == 0 || budget == 0) {
    out.push_back({n, moves, budget});
    return;
  }
  typename Search::Expansion e;
  s.expand_begin(n, budget, moves.empty() ? -1 : moves.back(), e, nodes);
  while (!s.expand_round(n, e)) {
  }
  for (int j = 0; j < e.live; ++j) {
    const auto& k = e.kids[e.alive[j]];
    moves.push_back(k.move);
    lane_prefixes(s, k.node, k.limit, depth - 1, moves, out, nodes);
    moves.pop_back();
  }
}

// The search with the big table (nxopt's method). A node carries, per axis a (the conjugates
// Y_a = S^-1 X S for the symmetries 0, 16, 32: the cube seen with the U-D, R-L, F-B axis as its
// U-D axis), Y_a's coordinates and its exact big-table distance f(Y_a), tracked from the parent
// (neighbours differ by at most 1, so the child's residue mod 3 decides); and per axis the
// conjugate Z_a of the inverse cube in full, with a lower bound on f(Z_a).
//
// The inverse's distances cannot be tracked that way: (X m)^-1 = m^-1 X^-1 is not a neighbour
// of X^-1 in the graph of the table (which moves by right multiplication), so its residue alone
// says nothing. The phase-1 table gives the exact distance L of Z_a to H, a subgroup containing
// H', so f(Z_a) >= L; the smallest value >= L with f's residue is a lower bound on f(Z_a) (equal
// to it unless f(Z_a) >= L + 3).
//
// Bounds (D = the distance of X to solved, in either metric; a half turn costs 1 or 2):
//   D >= f(Y_a) and D >= f(Z_a): a solution w of X solves the conjugates with conj(w), and the
//     inverse X^-1 = w with w^-1; H' contains the solved cube.
//   Trick (a): D >= min_a f(Y_a) + 1 unless X is solved. The last move of an optimal w turns a
//     face of some axis a; seen along a that move is a U or D turn, which lies in H', so w
//     without it already takes Y_a into H': f(Y_a) <= D - 1. So when the three values are equal
//     (the case nxopt names) the bound is one more than each; likewise for the Z_a.
//   Trick (b): when f(Z_a) = B, the budget left, no solution of cost <= B starts with a turn of
//     an axis-a face. Such a solution w = m1 ... mk solves Z_a by conj(w)^-1, which ends with
//     conj(m1)^-1, a U or D turn along a, in H'; dropping it leaves a sequence taking Z_a into H'
//     of length k - 1 < B (k <= cost <= B), against f(Z_a) = B. A lower bound equal to B
//     implies f(Z_a) = B when such a solution exists (f <= k <= B), so the bound serves.
class BigSearch {
 public:
  struct Node {
    std::array<std::uint16_t, 3> twist;
    std::array<std::uint32_t, 3> fs;  // flip-slice class << 4 | s (see CoordTables::fs_class_move)
    std::array<std::uint16_t, 3> slice;  // the raw slice (the order's tables need it)
    std::array<std::uint8_t, 3> ccomb;
    std::array<std::uint8_t, 3> sorder;  // the slice edges' order (0 without one)
    std::array<std::int8_t, 3> dist;     // f(Y_a), exact
    std::array<std::int8_t, 3> inv_lb;   // lower bounds on f(Z_a)
    std::array<KCube, 3> inv;            // Z_a = conj(X^-1, 16 a)
  };

  BigSearch(const SolverTables& tables, const OptimalTable& big, Metric metric, int lanes)
      : lanes_(std::max(1, lanes)),
        t_(*tables.coords),
        p1_(*tables.phase1),
        m3_(big.table),
        x_(extra_coord(t_, big)),
        corners_(big.corners > 1),
        metric_(metric) {
    for (int a = 0; a < 3; ++a) {
      axis_moves_[a] = 0;
      for (int m = 0; m < N_MOVES; ++m) {
        const int c = t_.basics.conj_move[m * N_SYM + 16 * a];
        conj_[a][m] = static_cast<std::uint8_t>(c);
        inv_conj_[a][m] = static_cast<std::uint8_t>(3 * (c / 3) + 2 - c % 3);
        if (c / 3 == 0 || c / 3 == 3) axis_moves_[a] |= 1u << m;
      }
    }
    for (int v = 0; v < 2048; ++v) {
      for (int b = 0; b < 11; ++b)
        reverse11_[v] |= static_cast<std::uint16_t>(((v >> b) & 1) << (10 - b));
    }
  }

  int cost(int m) const { return move_cost(metric_, m); }
  static bool solved(const Node& n) { return n.inv[0] == KCube{}; }

  Node root(const KCube& cube) const {
    Node n;
    const KCube inverse = cube.inverse();
    for (int a = 0; a < 3; ++a) {
      const KCube c = t_.basics.conj(cube, 16 * a);
      n.twist[a] = static_cast<std::uint16_t>(c.twist());
      n.fs[a] = t_.fs_class_sym[static_cast<std::uint32_t>(c.slice()) * N_FLIP + c.flip()];
      n.slice[a] = static_cast<std::uint16_t>(c.slice());
      n.ccomb[a] = static_cast<std::uint8_t>(corners_ ? c.ccomb() : 0);
      n.sorder[a] = static_cast<std::uint8_t>(x_.order ? x_.order->of(c, n.slice[a]) : 0);
      n.dist[a] =
          static_cast<std::int8_t>(mod3_exact_distance(t_, x_, m3_, n.twist[a], c.flip(), c.slice(),
                                                       n.ccomb[a] * x_.order_size() + n.sorder[a]));
      n.inv[a] = t_.basics.conj(inverse, 16 * a);
      const std::uint8_t* at;
      std::uint8_t shift;
      std::uint64_t p1;
      const Coords z = coords_of(n.inv[a]);
      locate(z, t_.fs_class_sym[z.flipslice], at, shift, p1);
      n.inv_lb[a] = static_cast<std::int8_t>(inverse_bound(at, shift, p1));
    }
    return n;
  }

  // The bound of a node from its six values (tricks (a) on both sides).
  static int bound(const Node& n) { return std::max(side_bound(n.dist), side_bound(n.inv_lb)); }

  struct Kid {
    Node node;
    int move;
    int limit;
  };
  using Kids = std::array<Kid, N_MOVES>;
  using Alive = std::array<std::uint8_t, N_MOVES>;

  // An expansion of a node in progress: its children, the indices of those still alive (in move
  // order) and their pending table reads.
  //
  // A child's table reads (at most five: the inverse axis of its move's own axis is inherited)
  // are random reads of 2.3 GiB: the bottleneck (a read from DRAM takes about 300 ns on this
  // machine, while 16 independent ones take about 40 ns each). So they go in rounds, one read
  // per child still alive, prefetched together (a child pruned by one read costs no more); and a
  // thread advances several expansions (its lanes, see search_subtrees) one round each in turn,
  // so that a round's reads arrive while the other lanes work.
  // The coordinates of a read: flip-slice (the class << 4 | s for the axes, followed through
  // moves; slice * 2048 + flip for the inverse, computed from the cube), twist, extra coordinate.
  struct Coords {
    std::uint32_t flipslice;
    std::uint16_t twist;
    std::uint16_t slice;
    std::uint8_t ccomb;
    std::uint8_t sorder;
  };

  struct Expansion {
    Kids kids;
    Alive alive;
    std::array<const std::uint8_t*, N_MOVES> at;
    std::array<std::uint64_t, N_MOVES> p1;
    std::array<std::uint8_t, N_MOVES> shift;
    // The read in flight of each child: 0-2 the axes, 3-5 the inverse's axes (in the order of
    // `axis`), 6 none left (the child survives); the stage its move leaves unchanged (no read);
    // the coordinates of its next read, prepared a round ahead.
    std::array<std::uint8_t, N_MOVES> stage, inherited;
    std::array<Coords, N_MOVES> next;
    std::array<std::uint8_t, 6> axis;  // the axes in the order read (see expand_begin)
    int live = 0;                      // children alive
    int pending = 0;                   // of which with a read in flight
  };

  // Step 1 of an expansion: moves in canonical order within the budget, trick (b) from the
  // inverse bounds; the inverse axis each move leaves unchanged; the first read of each child in
  // flight and its second prepared. Every child generated counts as a node.
  void expand_begin(const Node& n, int budget, int last, Expansion& e, std::uint64_t& nodes) const {
    const std::uint32_t banned = banned_moves(n, budget);
    // The axes whose parent value is largest first: they prune most children (a child's value
    // is the parent's +-1 or equal), so fewer reads reach the others. The survivors do not
    // depend on the order.
    order_axes(n.dist, e.axis.data());
    order_axes(n.inv_lb, e.axis.data() + 3);
    int count = 0, live = 0;
    for (int m = 0; m < N_MOVES; ++m) {
      if (!allowed_after(last, m) || cost(m) > budget || ((banned >> m) & 1)) continue;
      const int i = count++;
      Kid& k = e.kids[i];
      k.move = m;
      k.limit = budget - cost(m);
      // The inverse axis a of the move's own axis needs no read: the move is a U or D turn seen
      // along a, which lies in H' and in H, so Z_a's bound is the parent's (the value a read
      // would give: both tables' distances are the same on Z and U Z).
      const int own = axis_of_move(m);
      multiply(t_.basics.moves[inv_conj_[own][m]], n.inv[own], k.node.inv[own]);
      k.node.inv_lb[own] = n.inv_lb[own];
      if (k.node.inv_lb[own] > k.limit) continue;
      e.inherited[i] = static_cast<std::uint8_t>(3 + (e.axis[3] == own   ? 0
                                                      : e.axis[4] == own ? 1
                                                                         : 2));
      e.stage[i] = 0;
      prepare(n, k, e, i, 0);
      e.alive[live++] = static_cast<std::uint8_t>(i);
    }
    nodes += static_cast<std::uint64_t>(count);
    for (int j = 0; j < live; ++j) {
      const int i = e.alive[j];
      issue(e, i, 0);
      prepare(n, e.kids[i], e, i, 1);
    }
    e.live = live;
    e.pending = live;
  }

  // The next round of an expansion: read each alive child's byte in flight, prune, put its next
  // read in flight and prepare the one after. True when the expansion is complete:
  // e.alive[0, e.live) are the children that survive every bound.
  bool expand_round(const Node& n, Expansion& e) const {
    if (e.pending == 0) return true;
    int kept = 0, pending = 0;
    for (int j = 0; j < e.live; ++j) {
      const int i = e.alive[j];
      Kid& k = e.kids[i];
      int stage = e.stage[i];
      if (stage < 6) {
        // Step 1. The read: an axis's exact distance (the parent's +-1 by the residue), or an
        // inverse axis's bound anchored on the phase-1 table; trick (a) after the third.
        const int a = e.axis[stage];
        if (stage < 3) {
          const int r = (*e.at[i] >> e.shift[i]) & 3;
          k.node.dist[a] = static_cast<std::int8_t>(mod3_step(n.dist[a], r));
          if (k.node.dist[a] > k.limit) continue;
          if (stage == 2 && side_bound(k.node.dist) > k.limit) continue;
        } else {
          k.node.inv_lb[a] = static_cast<std::int8_t>(inverse_bound(e.at[i], e.shift[i], e.p1[i]));
          if (k.node.inv_lb[a] > k.limit) continue;
        }
        // Step 2. The next read in flight (prepared last round), the one after prepared; once
        // none is left, the final checks of the inverse.
        stage = after(stage, e.inherited[i]);
        if (stage == 6) {
          if (!inverse_complete(k)) continue;
        } else {
          issue(e, i, stage);
          const int later = after(stage, e.inherited[i]);
          if (later < 6) prepare(n, k, e, i, later);
          ++pending;
        }
        e.stage[i] = static_cast<std::uint8_t>(stage);
      }
      e.alive[kept++] = static_cast<std::uint8_t>(i);
    }
    e.live = kept;
    e.pending = pending;
    if (pending > 0) return false;
    order_survivors(e);
    // The survivors to be expanded will read their flip-slice rows: fetched from now on.
    for (int j = 0; j < e.live; ++j) {
      const Kid& k = e.kids[e.alive[j]];
      if (k.limit < 2) continue;
      for (int a = 0; a < 3; ++a) __builtin_prefetch(&t_.fs_class_move[k.node.fs[a] >> 4]);
    }
    return true;
  }

  // The survivors, most promising first (smallest sum of the three exact axis values, then move
  // order): in the last iteration a solution tends to be met sooner. On 40 random cubes this
  // order left 4% fewer nodes than ordering by the bound then the sum of all six values (the
  // inverse's are lower bounds); per cube either wins. Deterministic, so threads and lanes
  // still give one answer.
  static void order_survivors(Expansion& e) {
    std::array<int, N_MOVES> key;
    for (int j = 0; j < e.live; ++j) {
      const Node& c = e.kids[e.alive[j]].node;
      key[j] = (c.dist[0] + c.dist[1] + c.dist[2]) * 32 + j;
    }
    for (int j = 1; j < e.live; ++j) {  // insertion sort: at most 15 survivors
      const int k = key[j];
      const std::uint8_t v = e.alive[j];
      int i = j - 1;
      for (; i >= 0 && key[i] > k; --i) {
        key[i + 1] = key[i];
        e.alive[i + 1] = e.alive[i];
      }
      key[i + 1] = k;
      e.alive[i + 1] = v;
    }
  }

  // Trick (b): the moves of the axes whose inverse bound equals the budget (bit m: move m).
  std::uint32_t banned_moves(const Node& n, int budget) const {
    std::uint32_t banned = 0;
    for (int a = 0; a < 3; ++a) {
      if (n.inv_lb[a] == budget) banned |= axis_moves_[a];
    }
    return banned;
  }

  // The stage after `stage`, skipping the inherited one.
  static int after(int stage, int inherited) {
    ++stage;
    return stage == inherited ? stage + 1 : stage;
  }

  // Prepares read `stage` of child i: its coordinates (from the parent's by the small move
  // tables and the flip-slice row, or from the inverse conjugate in full, with a prefetch of
  // its flip-slice word, which the read looks up a round later).
  void prepare(const Node& n, Kid& k, Expansion& e, int i, int stage) const {
    const int a = e.axis[stage];
    Coords& c = e.next[i];
    if (stage < 3) {
      advance(n, k, a);
      c = {k.node.fs[a], k.node.twist[a], k.node.slice[a], k.node.ccomb[a], k.node.sorder[a]};
    } else {
      multiply(t_.basics.moves[inv_conj_[a][k.move]], n.inv[a], k.node.inv[a]);
      c = coords_of(k.node.inv[a]);
      __builtin_prefetch(&t_.fs_class_sym[c.flipslice]);
    }
  }

  // Puts the prepared read of child i in flight: its table byte (and for an inverse axis its
  // phase-1 entry) located and prefetched.
  void issue(Expansion& e, int i, int stage) const {
    const Coords& c = e.next[i];
    locate(c, stage < 3 ? c.flipslice : t_.fs_class_sym[c.flipslice], e.at[i], e.shift[i], e.p1[i]);
    __builtin_prefetch(e.at[i]);
    if (stage >= 3) prefetch_phase1(p1_, e.p1[i]);
  }

  // The big table's byte and shift of coordinates whose flip-slice class << 4 | s is cs, and
  // their phase-1 index.
  void locate(const Coords& c, std::uint32_t cs, const std::uint8_t*& at, std::uint8_t& shift,
              std::uint64_t& p1) const {
    const int s = static_cast<int>(cs & 15);
    const std::uint32_t cls = cs >> 4;
    const int tc = t_.twist_conj[c.twist * N_SYM_D4H + s];
    const std::uint64_t x = std::uint64_t(tc) * x_.size + static_cast<std::uint64_t>(x_.conjugated(
                                                              c.ccomb, c.sorder, c.slice, s));
    at = m3_.data.data() + m3_.byte_index(cls, x);
    shift = static_cast<std::uint8_t>((x & 3) * 2);
    p1 = std::uint64_t(cls) * N_TWIST + tc;
  }

  // The checks once the three inverse bounds are known: trick (a), and a child with nothing
  // left must be solved.
  bool inverse_complete(const Kid& k) const {
    if (side_bound(k.node.inv_lb) > k.limit) return false;
    return k.limit > 0 || solved(k.node);
  }

  int last_move(const Node& n, int last, std::uint64_t& nodes) const {
    return solving_last_move(t_.basics, metric_, n.inv[0], last, banned_moves(n, 1), nodes);
  }

  // One thread's share of an iteration (see LaneDriver).
  void search_subtrees(SubtreeQueue<Node>& q) const { LaneDriver<BigSearch>(*this, lanes_).run(q); }
  using Prefix = SearchPrefix<Node>;
  void prefixes(const Node& n, int budget, int depth, std::vector<int>& moves,
                std::vector<Prefix>& out, std::uint64_t& nodes) const {
    lane_prefixes(*this, n, budget, depth, moves, out, nodes);
  }

 private:
  // A child's coordinates along axis a (computed only for children that reach that axis).
  void advance(const Node& n, Kid& k, int a) const {
    const int ma = conj_[a][k.move];
    k.node.twist[a] = t_.twist_move[n.twist[a] * N_MOVES + ma];
    k.node.fs[a] = fs_after(t_, n.fs[a], ma);
    k.node.ccomb[a] = static_cast<std::uint8_t>(x_.corner_after_move(n.ccomb[a], ma));
    if (x_.order) {
      const int sl = n.slice[a];
      k.node.sorder[a] = static_cast<std::uint8_t>(x_.order_after_move(n.sorder[a], sl, ma));
      k.node.slice[a] = t_.slice_move[sl * N_MOVES + ma];
    }
  }
  // The coordinates of a cube in full.
  Coords coords_of(const KCube& z) const {
#if defined(__SSE4_1__)
    // KCube's bytes: cp at 0, co at 8, ep at 16, eo at 28 (40 in all; checked below).
    const auto* base = reinterpret_cast<const std::uint8_t*>(&z);
    const __m128i corners = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base));
    const __m128i edges = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + 16));
    const __m128i flips = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + 24));
    // twist = (3 co0 + co1) 243 + (3 co2 + co3) 27 + (3 co4 + co5) 3 + co6.
    const __m128i pairs =
        _mm_maddubs_epi16(corners, _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 3, 1, 3, 1, 1, 0));
    const __m128i sums = _mm_madd_epi16(pairs, _mm_setr_epi16(0, 0, 0, 0, 243, 27, 3, 1));
    const int tw = _mm_extract_epi32(sums, 2) + _mm_extract_epi32(sums, 3);
    const int cm = _mm_movemask_epi8(_mm_cmplt_epi8(corners, _mm_set1_epi8(4))) & 0xFF;
    const int sm = _mm_movemask_epi8(_mm_cmpgt_epi8(edges, _mm_set1_epi8(7))) & 0xFFF;
    // flip: eo0 is the most significant of 11 bits; the mask has eo_i at bit 4 + i.
    const int fl =
        reverse11_[(_mm_movemask_epi8(_mm_cmpgt_epi8(flips, _mm_setzero_si128())) >> 4) & 0x7FF];
#else
    int tw = 0, fl = 0, sm = 0, cm = 0;
    for (int i = 0; i < 7; ++i) tw = 3 * tw + z.co[i];
    for (int i = 0; i < 11; ++i) fl = 2 * fl + z.eo[i];
    for (int i = 0; i < 12; ++i) sm |= (z.ep[i] >= 8) << i;
    for (int i = 0; i < 8; ++i) cm |= (z.cp[i] < 4) << i;
#endif
    const int sl = t_.slice_of_mask[sm], cc = corners_ ? t_.ccomb_of_mask[cm] : 0;
    return {static_cast<std::uint32_t>(sl) * N_FLIP + fl, static_cast<std::uint16_t>(tw),
            static_cast<std::uint16_t>(sl), static_cast<std::uint8_t>(cc),
            static_cast<std::uint8_t>(x_.order ? x_.order->of(z, sl) : 0)};
  }
  // The axis (0-2: U-D, R-L, F-B as conjugated) whose U or D turns a move becomes.
  int axis_of_move(int m) const {
    return (axis_moves_[0] >> m) & 1 ? 0 : (axis_moves_[1] >> m) & 1 ? 1 : 2;
  }
  // The smallest value >= the phase-1 distance with the big table's residue.
  int inverse_bound(const std::uint8_t* at, int shift, std::uint64_t p1) const {
    const int low = p1_.get(p1), r = (*at >> shift) & 3;
    return low + (r - low % 3 + 3) % 3;
  }
  // The axes 0-2 by decreasing value (ties in axis order).
  static void order_axes(const std::array<std::int8_t, 3>& v, std::uint8_t* out) {
    out[0] = 0, out[1] = 1, out[2] = 2;
    if (v[out[1]] > v[out[0]]) std::swap(out[0], out[1]);
    if (v[out[2]] > v[out[1]]) std::swap(out[1], out[2]);
    if (v[out[1]] > v[out[0]]) std::swap(out[0], out[1]);
  }
  template <class A>
  static int side_bound(const A& v) {
    const int lo = std::min({int(v[0]), int(v[1]), int(v[2])});
    const int hi = std::max({int(v[0]), int(v[1]), int(v[2])});
    return std::max(hi, lo > 0 ? lo + 1 : 0);
  }
  int lanes_;
  const CoordTables& t_;
  const Phase1Table& p1_;
  const Mod3Table& m3_;
  ExtraCoord x_;
  bool corners_;  // the corner part is ccomb (else the tests' trivial one)
  Metric metric_;
  std::array<std::array<std::uint8_t, N_MOVES>, 3> conj_{}, inv_conj_{};
  std::array<std::uint32_t, 3> axis_moves_{};
  std::array<std::uint16_t, 2048> reverse11_{};  // 11-bit reversal
};

// Lanes a thread for H48Search: two measured best with h7 (the first cube of seed 1, 2 threads:
// 1 lane 17.8 s, 2 12.3 s, 3 13.6 s, 4 13.8 s, 8 15.9 s; reads beyond two lanes' wait in the
// memory system's queues); with h9, 4 lanes were within the noise of 2.
constexpr int H48_LANES = 2;

// Whether move m may follow `last` among the premoves of H48Search (the moves on the inverse's
// side): canonical order read backwards (after U no D), since the premoves are the solution's
// last moves in reverse.
inline bool allowed_before(int last, int m) {
  return last < 0 || allowed_after(m, last);
}

// IDA* on the H48 tables, in lanes (LaneDriver), from both ends (nissy's "NISS" branching): a node
// keeps the position X and its inverse, X = P^-1 S N for the scramble S, the moves N made on the
// cube's side and the premoves P made on the inverse's side (a premove m takes X^-1 to X^-1 m); the
// solution is then N followed by P's moves inverted in reverse order. Each side keeps its h11
// coordinate (h11_of_cube, by shuffles), its bound and its last move. The bound of a side is its
// hK entry (base + 1..3) or, where that says "at most the base", its exact h0 distance; both sides
// have X's distance. A node is expanded on the side with fewer children (canonical order on each,
// no half turn when the other side's bound is the whole budget); the nodes above the shared
// subtrees (depth < SUBTREE_DEPTH) on the cube's side, so that subtrees are plain move prefixes.
//
// Complete: take a solution w of the last iteration in canonical order (allowed_after). Whatever
// side each node picks, the path that takes w's moves from its front (cube's side) or from its
// back (inverted, as premoves) is in the tree: moves taken from the front are consecutive in w
// and so in canonical order; two taken from the back are consecutive in w read backwards, as
// allowed_before wants; the bounds are admissible, and the half-turn rule holds for every
// solution (quarter_turns_only).
//
// A child's reads go in rounds, each prefetched a round ahead: its hK entry on the expanded side,
// its h0 entry when the hK entry is "at most the base" and the limit is below the base, then the
// same for the other side (computed only for the children their own entries do not prune). Before
// a side's hK entry, the corners' distance (cocsep_distance, a small table) bounds it.
class H48Search {
 public:
  // One side of a node: what its bound was read from (the h11 coordinate, the hK entry, -1 when
  // not read, and whether the h0 entry was read too), the bound, and the side's last move.
  struct Side {
    std::uint64_t h11 = 0;
    std::int8_t k = -1;
    bool h0_read = false;
    std::int8_t bound = 0;
    std::int8_t last = -1;
  };
  struct Node {
    std::array<KCube, 2> cube;  // [0] the position X, [1] its inverse
    std::array<Side, 2> side;
    std::uint8_t depth = 0;  // moves made on both sides
  };
  H48Search(const SolverTables& tables, const H48Tables& h48, Metric metric, int lanes,
            bool both_ends)
      : t_(*tables.coords),
        h_(*h48.coords),
        h0_(*h48.h0),
        k2_(*h48.k2),
        metric_(metric),
        lanes_(std::max(1, lanes)),
        first_inverse_depth_(both_ends ? SUBTREE_DEPTH : 255) {}

  int cost(int m) const { return move_cost(metric_, m); }
  static bool solved(const Node& n) { return n.cube[1] == KCube{}; }
  Node root(const KCube& cube) const {
    Node n;
    n.cube = {cube, cube.inverse()};
    for (int s = 0; s < 2; ++s) {
      Side& side = n.side[s];
      side.h11 = h_.h11_of_cube(n.cube[s]);
      side.k = static_cast<std::int8_t>(k2_.get(k2_.index_of_h11(side.h11)));
      side.h0_read = true;
      side.bound = static_cast<std::int8_t>(side.k ? k2_.base + side.k : h0_.get(side.h11 >> 11));
    }
    return n;
  }
  // The bound of an h11 coordinate: its hK entry, or where that says "at most the base", its
  // h0 distance.
  int value(std::uint64_t h11) const {
    const int v = k2_.get(k2_.index_of_h11(h11));
    return v ? k2_.base + v : h0_.get(h11 >> 11);
  }
  int bound(const Node& n) const { return std::max(n.side[0].bound, n.side[1].bound); }

  // A child: its move m (a premove: N_MOVES + m) and the budget left.
  struct Kid {
    Node node;
    int move;
    int limit;
  };
  // The read in flight of each child: the expanded side's hK entry, its h0 entry, the other
  // side's hK entry, its h0 entry; DONE once it survives all.
  enum Stage : std::uint8_t { OWN_K, OWN_H0, OTHER_K, OTHER_H0, DONE };
  struct Expansion {
    std::array<Kid, N_MOVES> kids;
    std::array<std::uint8_t, N_MOVES> alive;
    std::array<std::uint64_t, N_MOVES> h11;  // the coordinate of the read in flight
    std::array<Stage, N_MOVES> stage;
    int side = 0;  // the side expanded
    int live = 0;
    int pending = 0;
  };
  // Step 1 of an expansion: the side, the children in its canonical order within the budget, their
  // own hK entries in flight. (`last` is the node's: each side keeps its own.)
  void expand_begin(const Node& n, int budget, int /*last*/, Expansion& e,
                    std::uint64_t& nodes) const {
    std::uint32_t moves = children(n, 0, budget);
    int s = 0;
    if (n.depth >= first_inverse_depth_) {
      const std::uint32_t inverse_side = children(n, 1, budget);
      if (std::popcount(inverse_side) < std::popcount(moves)) {
        moves = inverse_side;
        s = 1;
      }
    }
    e.side = s;
    int count = 0, live = 0;
    for (int m = 0; m < N_MOVES; ++m) {
      if (!((moves >> m) & 1)) continue;
      const int i = count++;
      Kid& k = e.kids[i];
      k.move = s * N_MOVES + m;
      k.limit = budget - cost(m);
      multiply(n.cube[s], t_.basics.moves[m], k.node.cube[s]);
      k.node.depth = static_cast<std::uint8_t>(n.depth + 1);
      // The own side's hK entry is set by its read; the other side, last move included, by
      // to_other for the children that get that far.
      Side& own = k.node.side[s];
      own.last = static_cast<std::int8_t>(m);
      own.h0_read = false;
      // The corners' distance first (a small table): most children at small limits stop here.
      const int c = h_.cocsep_of_cube(k.node.cube[s]);
      own.bound = static_cast<std::int8_t>(h_.cocsep_distance[c]);
      if (own.bound > k.limit) continue;
      own.h11 = e.h11[i] = h_.h11_of_cube(k.node.cube[s], c);
      e.stage[i] = OWN_K;
      e.alive[live++] = static_cast<std::uint8_t>(i);
    }
    nodes += static_cast<std::uint64_t>(count);
    e.live = live;
    e.pending = live;
    prefetch_round(e);
  }
  // The next round: each child's read in flight settles it (pruned, or its next read in flight,
  // or done). True once complete.
  bool expand_round(const Node& n, Expansion& e) const {
    if (e.pending == 0) return true;
    int kept = 0, pending = 0;
    for (int j = 0; j < e.live; ++j) {
      const int i = e.alive[j];
      if (e.stage[i] != DONE && !advance(n, e, i)) continue;
      pending += e.stage[i] != DONE;
      e.alive[kept++] = static_cast<std::uint8_t>(i);
    }
    e.live = kept;
    e.pending = pending;
    prefetch_round(e);
    return pending == 0;
  }
  // Budget 1: the move on the cube's side that solves, or -1 (the one move left is both the
  // front and the back of the rest of a canonical solution: the cube's side's order admits it).
  int last_move(const Node& n, int /*last*/, std::uint64_t& nodes) const {
    return solving_last_move(t_.basics, metric_, n.cube[1], n.side[0].last,
                             quarter_turns_only(n, 0, 1) ? HALF_TURNS : 0, nodes);
  }
  // The solution from a path of moves and premoves (N_MOVES + m): the moves, then the premoves
  // inverted in reverse order.
  static std::vector<int> unfold(const std::vector<int>& path) {
    std::vector<int> out, premoves;
    for (int m : path) (m < N_MOVES ? out : premoves).push_back(m % N_MOVES);
    for (auto it = premoves.rbegin(); it != premoves.rend(); ++it) out.push_back(inverse_move(*it));
    return out;
  }

  void search_subtrees(SubtreeQueue<Node>& q) const { LaneDriver<H48Search>(*this, lanes_).run(q); }
  using Prefix = SearchPrefix<Node>;
  void prefixes(const Node& n, int budget, int depth, std::vector<int>& moves,
                std::vector<Prefix>& out, std::uint64_t& nodes) const {
    lane_prefixes(*this, n, budget, depth, moves, out, nodes);
  }

 private:
  // The moves of side s that a child may take (bit m): in the side's canonical order, within the
  // budget, no half turn when the other side's bound is the whole budget.
  std::uint32_t children(const Node& n, int s, int budget) const {
    const int last = n.side[s].last;
    const bool quarter_turns = quarter_turns_only(n, s, budget);
    std::uint32_t out = 0;
    for (int m = 0; m < N_MOVES; ++m) {
      if (cost(m) > budget || (quarter_turns && m % 3 == 1)) continue;
      if (s == 0 ? allowed_after(last, m) : allowed_before(last, m)) out |= 1u << m;
    }
    return out;
  }
  // The reads of the next round, prefetched together once every child's coordinate is known:
  // a prefetch that misses the TLB holds its place in the core until its page walk is done, so
  // prefetches spread among the coordinates' arithmetic walk one or two at a time, and issued
  // back to back they walk together (a 12 GB table on 2 MiB pages, 15 reads a batch with 50 ns of
  // arithmetic each: 2.3 times as fast in a small program; h9 is 15 GB).
  void prefetch_round(const Expansion& e) const {
    for (int j = 0; j < e.live; ++j) {
      const int i = e.alive[j];
      switch (e.stage[i]) {
        case OWN_K:
        case OTHER_K:
          __builtin_prefetch(k2_.data.data() + (k2_.index_of_h11(e.h11[i]) >> 2));
          break;
        case OWN_H0:
        case OTHER_H0:
          __builtin_prefetch(h0_.nibbles.data() + ((e.h11[i] >> 11) >> 1));
          break;
        case DONE:
          break;
      }
    }
  }
  // Settles child i's read in flight; false when it prunes the child. An hK entry "at most the
  // base" prunes nothing within a limit of at least the base, so h0 is read only below it (for
  // the other side also at the base: quarter_turns_only needs its exact bound there).
  bool advance(const Node& n, Expansion& e, int i) const {
    Kid& k = e.kids[i];
    Side& own = k.node.side[e.side];
    Side& other = k.node.side[1 - e.side];
    const std::uint64_t h11 = e.h11[i];
    switch (e.stage[i]) {
      case OWN_K: {
        const int v = k2_.get(k2_.index_of_h11(h11));
        own.k = static_cast<std::int8_t>(v);
        if (v) {
          own.bound = static_cast<std::int8_t>(k2_.base + v);
          if (own.bound > k.limit) return false;
        } else if (k.limit < k2_.base) {
          e.stage[i] = OWN_H0;
          return true;
        }
        return to_other(n, e, i);
      }
      case OWN_H0:
        own.bound = std::max(own.bound, static_cast<std::int8_t>(h0_.get(h11 >> 11)));
        own.h0_read = true;
        if (own.bound > k.limit) return false;
        return to_other(n, e, i);
      case OTHER_K: {
        const int v = k2_.get(k2_.index_of_h11(h11));
        other.h11 = h11;
        other.k = static_cast<std::int8_t>(v);
        if (v) {
          other.bound = static_cast<std::int8_t>(k2_.base + v);
          if (other.bound > k.limit) return false;
        } else if (k.limit <= k2_.base) {
          e.stage[i] = OTHER_H0;
          return true;
        }
        return finish(e, i);
      }
      case OTHER_H0:
        other.bound = std::max(other.bound, static_cast<std::int8_t>(h0_.get(h11 >> 11)));
        other.h0_read = true;
        if (other.bound > k.limit) return false;
        return finish(e, i);
      case DONE:
        break;
    }
    return true;
  }
  // The child's other side (the parent's premultiplied by the move's inverse) and its hK entry
  // in flight.
  bool to_other(const Node& n, Expansion& e, int i) const {
    Kid& k = e.kids[i];
    const int s = e.side, o = 1 - s, m = k.move % N_MOVES;
    multiply(t_.basics.moves[inverse_move(m)], n.cube[o], k.node.cube[o]);
    Side& other = k.node.side[o];
    const Side& parent = n.side[o];
    if (m % 3 == 1 && parent.k >= 0) {
      // A half turn h: the child's other side is h Y for the parent's Y, in the same coset of K
      // (h is in K): the same coordinate, entries and bound, nothing to read (Tronto's trick,
      // doc/h48.md), unless its h0 entry is needed and the parent did not read it.
      other = parent;
      if (other.bound > k.limit) return false;
      if (parent.k == 0 && k.limit <= k2_.base && !parent.h0_read) {
        e.h11[i] = parent.h11;
        e.stage[i] = OTHER_H0;
        return true;
      }
      return finish(e, i);
    }
    // The other side's corners first, as the own side's; their distance is also a bound for
    // quarter_turns_only (its argument holds for K's corner part, which has the half turns).
    const int c = h_.cocsep_of_cube(k.node.cube[o]);
    other.bound = static_cast<std::int8_t>(h_.cocsep_distance[c]);
    other.k = -1;
    other.h0_read = false;
    other.last = parent.last;
    if (other.bound > k.limit) return false;
    e.h11[i] = h_.h11_of_cube(k.node.cube[o], c);
    e.stage[i] = OTHER_K;
    return true;
  }
  // Past every bound: a child with nothing left must be solved.
  bool finish(Expansion& e, int i) const {
    e.stage[i] = DONE;
    return e.kids[i].limit > 0 || solved(e.kids[i].node);
  }
  // Tronto's H48 trick (after Rokicki's nxopt): a move on side s is the last of the other side's
  // solution. When the other side's bound (a lower bound on its coordinate's distance) is the
  // whole budget, that last move is no half turn: the half turns are in the coordinate's
  // subgroup, so the position before it would have the coordinate of the goal, one move sooner.
  // It holds for every solution, whatever its order.
  static bool quarter_turns_only(const Node& n, int s, int budget) {
    return n.side[1 - s].bound == budget;
  }

  const CoordTables& t_;
  const H48Coords& h_;
  const H48H0Table& h0_;
  const H48K2Table& k2_;
  Metric metric_;
  int lanes_;
  int first_inverse_depth_;  // the least depth whose nodes may take the inverse's side
};

// The symmetries s (of the 48, besides the identity) with conj(x, s) = x: a subgroup.
std::vector<int> stabilizer(const CubeBasics& b, const KCube& x) {
  std::vector<int> out;
  for (int s = 1; s < N_SYM; ++s) {
    if (b.conj(x, s) == x) out.push_back(s);
  }
  return out;
}

// A symmetric root (as nissy's H48 uses it): for s in its stabiliser, X p and X conj(p, s) =
// conj(X p, s) are conjugate positions of equal distance. Two subtrees are taken as one when a
// symmetry s maps the first's position to the second's AND the moves allowed after the first's
// last move (canonical order) to those allowed after the second's; only the first of each class
// (in order) is searched. Complete: an iteration below the distance has no solution in any
// subtree; in the last one (every solution optimal), if p w is a canonical solution then
// p' conj(w, s) solves X too, and with conj(w, s) in canonical order it is a canonical sequence of
// the subtree p' (its first move is conj of w's first, allowed after p' by the second condition,
// or, when canonical order swaps conj(w)'s first two moves (opposite faces), the other one, which
// can neither repeat nor precede p''s last face without making a shorter solution: two turns of
// a face merge into one move, shorter in the half-turn metric, the only one this is used in).
template <class Prefix>
void drop_conjugate_subtrees(const CubeBasics& b, const KCube& root, const std::vector<int>& stab,
                             std::vector<Prefix>& subtrees) {
  auto bytes = [](const KCube& c) {
    return std::string(reinterpret_cast<const char*>(&c), sizeof c);
  };
  std::set<std::tuple<std::string, std::uint32_t, int>> seen;
  std::vector<Prefix> kept;
  for (auto& p : subtrees) {
    KCube y = root;
    for (int m : p.moves) y = y * b.moves[m];
    const int last = p.moves.empty() ? -1 : p.moves.back();
    // The smallest (position, allowed moves) over the stabiliser and the identity, both carried
    // by the same symmetry.
    std::pair<std::string, std::uint32_t> least;
    for (std::size_t k = 0; k <= stab.size(); ++k) {
      const int s = k == 0 ? 0 : stab[k - 1];
      std::uint32_t allowed = 0;
      for (int m = 0; m < N_MOVES; ++m) {
        if (allowed_after(last, m)) allowed |= 1u << b.conj_move[m * N_SYM + s];
      }
      auto candidate = std::make_pair(bytes(k == 0 ? y : b.conj(y, s)), allowed);
      if (k == 0 || candidate < least) least = std::move(candidate);
    }
    if (seen.emplace(std::move(least.first), least.second, p.budget).second) {
      kept.push_back(std::move(p));
    }
  }
  subtrees = std::move(kept);
}

// The order of an iteration's subtrees (vcube's, suggested by Chen Shuang; nissy's H48 does it
// too): the most nodes in the iteration before first, a subtree whose last face is D, L or B
// (after which 12 moves follow, not 15) counted sqrt(3/2) times, so that in the last iteration
// the solution, likelier where the bound let more nodes through, is met sooner. Stable: ties keep
// the depth-first order, and the order is a function of the position alone (every earlier
// iteration is exhaustive), so answer and nodes stay the one-thread ones.
template <class Prefix>
void order_subtrees(std::vector<Prefix>& subtrees,
                    const std::map<std::vector<int>, std::uint64_t>& previous) {
  if (previous.empty()) return;
  std::vector<std::pair<double, std::size_t>> rank(subtrees.size());
  for (std::size_t i = 0; i < subtrees.size(); ++i) {
    const auto& moves = subtrees[i].moves;
    const auto it = previous.find(moves);
    const double nodes = it == previous.end() ? 0.0 : static_cast<double>(it->second);
    const bool few_after = !moves.empty() && moves.back() / 3 >= 3;
    rank[i] = {few_after ? nodes * std::sqrt(1.5) : nodes, i};
  }
  std::stable_sort(rank.begin(), rank.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<Prefix> sorted;
  sorted.reserve(subtrees.size());
  for (const auto& r : rank) sorted.push_back(std::move(subtrees[r.second]));
  subtrees = std::move(sorted);
}

// Iterative deepening over any search: each iteration's subtrees below SUBTREE_DEPTH (for a
// symmetric root, one of each class of conjugate ones; from the second iteration on in
// order_subtrees's order) are shared among the threads; the answer is the first subtree in that
// order with a solution, so answer and node count are one thread's.
template <class Search>
Result<std::vector<int>> iterate(const Search& search, const typename Search::Node& root, int h0,
                                 int max_length, const RunContext& run, std::uint64_t& total_nodes,
                                 int& proven, const CubeBasics& basics, const KCube& cube,
                                 const std::vector<int>& stab) {
  using Node = typename Search::Node;
  const unsigned threads = std::max(1u, run.threads());
  if (Search::solved(root)) return std::vector<int>{};
  Stopwatch clock;
  std::map<std::vector<int>, std::uint64_t> previous;  // each subtree's nodes, last iteration
  for (int bound = std::max(1, h0);; ++bound) {
    proven = bound;  // every shorter bound searched: no solution below it
    if (bound > max_length) {
      return make_error(fmt::format("no solution of at most {} moves exists: every solution is "
                                    "at least {} moves ({} nodes, {:.2f} s); raise --max-length",
                                    max_length, bound, total_nodes, clock.seconds()),
                        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    run.report({"cube optimal search", total_nodes, 0,
                fmt::format("bound {}, {} nodes so far", bound, total_nodes)});
    // Step 1. The subtrees below SUBTREE_DEPTH (or fewer when the bound is small), in DFS order.
    std::vector<typename Search::Prefix> subtrees;
    std::vector<int> moves;
    search.prefixes(root, bound, std::min(SUBTREE_DEPTH, bound), moves, subtrees, total_nodes);
    if (!stab.empty()) drop_conjugate_subtrees(basics, cube, stab, subtrees);
    order_subtrees(subtrees, previous);
    // Step 2. The threads take subtrees in order (see SubtreeQueue).
    SubtreeQueue<Node> queue(subtrees, run);
    std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
    for (unsigned k = 1; k < threads; ++k) {
      pool.emplace_back([&] { search.search_subtrees(queue); });
    }
    search.search_subtrees(queue);
    for (auto& th : pool) th.join();
    if (queue.stopped()) return run.stop_error();
    total_nodes += queue.nodes();
    if (const auto* answer = queue.answer()) return *answer;
    previous.clear();
    for (std::size_t i = 0; i < subtrees.size(); ++i) {
      previous[subtrees[i].moves] = queue.nodes_of(i);
    }
  }
}

}  // namespace

Result<CubeSolution> solve_optimal(const SolverTables& tables, const CubieState& state,
                                   const OptimalOptions& options, const RunContext& run,
                                   CubeSolution* partial) {
  Stopwatch clock;
  auto theorem = check_theorem(state);
  if (!theorem.solvable()) {
    return make_error("unsolvable: " + theorem.failures().front(), {}, Error::NO_POSITION,
                      ErrorKind::Unsolvable);
  }
  const unsigned threads = std::max(1u, run.threads());
  std::uint64_t total_nodes = 0;
  int h0 = 0, proven = 0;
  Result<std::vector<int>> found = make_error("unreached");
  std::string method;
  const CubeBasics& basics = tables.coords->basics;
  const KCube cube = from_cubie(state);
  // Half-turn metric only: the completeness argument (drop_conjugate_subtrees) merges two turns
  // of a face into one shorter move, which in quarter turns costs as much.
  const std::vector<int> stab = options.reduce_by_symmetry && options.metric == Metric::Htm
                                    ? stabilizer(basics, cube)
                                    : std::vector<int>{};
  if (options.h48) {
    H48Search search(tables, *options.h48, options.metric, H48_LANES, options.both_ends);
    const auto root = search.root(cube);
    h0 = search.bound(root);
    found =
        iterate(search, root, h0, options.max_length, run, total_nodes, proven, basics, cube, stab);
    if (found) found = H48Search::unfold(*found);
    method =
        fmt::format("IDA* with the H48 h{} table (base {}) and h0 on the cube and its inverse{}",
                    options.h48->k2->k, options.h48->k2->base,
                    options.both_ends ? ", from both ends (each node on the side with fewer "
                                        "children)"
                                      : "");
  } else if (options.table) {
    BigSearch search(tables, *options.table, options.metric, options.lanes);
    const auto root = search.root(cube);
    h0 = BigSearch::bound(root);
    found =
        iterate(search, root, h0, options.max_length, run, total_nodes, proven, basics, cube, stab);
    method = fmt::format("IDA* with the {} (mod 3) on 3 axes and the inverse, nxopt's tricks",
                         optimal_table_name(optimal_table_order(*options.table)));
  } else {
    OptimalSearch search(tables, options.metric);
    const auto root = search.root(cube);
    h0 = search.bound(root, 99);
    found =
        iterate(search, root, h0, options.max_length, run, total_nodes, proven, basics, cube, stab);
    method = "IDA* with the phase-1 table on 3 axes and the inverse";
  }
  if (!stab.empty()) {
    method += fmt::format(", one subtree of each class under the position's {} symmetries",
                          stab.size() + 1);
  }
  if (!found) {
    if (partial && run.should_stop()) {
      CubeSolution known;  // no moves: IDA* has none before the end
      known.lower_bound = std::max(h0, proven);
      known.nodes = total_nodes;
      known.seconds = clock.seconds();
      known.method = fmt::format("{}, {} thread{}", method, threads, threads == 1 ? "" : "s");
      *partial = std::move(known);
    }
    return found.error();
  }
  auto solution = finish_solution(tables.coords->basics, state, *found, options.metric);
  if (!solution) return solution.error();
  solution->optimal = true;
  solution->lower_bound = h0;
  solution->nodes = total_nodes;
  solution->seconds = clock.seconds();
  solution->method = fmt::format("{}, {} thread{}", method, threads, threads == 1 ? "" : "s");
  return solution;
}

Result<std::vector<ScrambleCheck>> check_scramble_lengths(const SolverTables& tables,
                                                          const OptimalOptions& options,
                                                          int min_moves, int max_moves,
                                                          int per_length, std::uint64_t seed,
                                                          const RunContext& run) {
  const CubeBasics& b = tables.coords->basics;
  OptimalOptions reference;  // the phase-1 table alone
  reference.metric = options.metric;
  std::vector<ScrambleCheck> out;
  Rng rng(seed);
  auto fail = [](const std::string& what) {
    return make_error("internal: scramble check: " + what, {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  };
  for (int length = min_moves; length <= max_moves; ++length) {
    for (int i = 0; i < per_length; ++i) {
      // Step 1. A canonical random sequence of `length` moves.
      KCube x;
      std::vector<CubeMove> scramble;
      for (int j = 0, last = -1; j < length; ++j) {
        int m;
        do {
          m = static_cast<int>(rng.below(N_MOVES));
        } while (!allowed_after(last, m));
        x = x * b.moves[m];
        last = m;
        scramble.push_back({std::string(1, FACE_NAMES[m / 3]), m % 3 + 1});
      }
      const std::string text = format_moves(scramble);
      const CubieState state = to_cubie(x);
      // Step 2. Both searches (solve_optimal replays each answer on the stickers before it
      // returns: `verified`); the same length, at most the scramble's.
      auto one = solve_optimal(tables, state, options, run);
      if (!one) return one.error();
      auto two = solve_optimal(tables, state, reference, run);
      if (!two) return two.error();
      for (const auto* s : {&*one, &*two}) {
        if (!s->verified || !s->optimal) {
          return fail(
              fmt::format("{}: a solution not proven or not replayed ({})", text, s->method));
        }
      }
      if (one->length != two->length || one->length > length) {
        return fail(fmt::format("{}: {} moves with {}, {} with the phase-1 table alone", text,
                                one->length, one->method, two->length));
      }
      out.push_back(
          {text, length, one->length, one->nodes, two->nodes, one->seconds, two->seconds});
    }
  }
  return out;
}

}  // namespace permuzzle::cube
