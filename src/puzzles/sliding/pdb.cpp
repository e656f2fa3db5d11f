// Optimal 15- and 24-puzzle solving: IDA* over additive disjoint pattern databases.
//
// Frames. The caller's goal may put the blank anywhere. A board symmetry sigma first moves the
// goal blank to the smallest cell of its orbit (cell 0 for a corner). In that canonical frame
// every tile is labelled by its goal cell, so the goal is "label x on cell x" and the tables
// (keyed by goal-cell sets) are shared by all goals with the blank in a corner.
//
// Views. A partition splits the labels into groups; each group's table is stored once for the
// lexicographically smallest image of its cell set under the 8 board symmetries (tau). A view
// is (group, orientation): orientation 0 looks the position up directly, orientation 1 looks up
// its reflection about the main diagonal (cells and labels transposed), which is again a
// position of the same goal because the canonical goal blank lies on the diagonal. A view maps
// board cells into its table's frame with cell_map = F o tau o M (M = identity or transpose,
// F = the table's locality numbering, see pdb_internal.hpp) and keeps (mask, packed sequence) of
// its tiles incrementally, so a move touches one view per orientation.
#include "permuzzle/puzzles/sliding/pdb.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <climits>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "pdb_internal.hpp"
#include "permuzzle/puzzles/sliding/solver.hpp"

namespace permuzzle::sliding {

using namespace pdb_detail;

namespace {

constexpr std::uint8_t BLANK = 0xFF;
constexpr int MAX_VIEWS = 8;
constexpr int MAX_DEPTH = 255;
constexpr int SEARCH_STOPPED = -2;  // Search::run's answer when the run context said stop

struct NamedPartition {
  int width;
  const char* name;
  std::vector<std::vector<std::uint8_t>> groups;  // goal cells, blank goal at cell 0
};

const std::vector<NamedPartition>& named_partitions() {
  // Function-local constant data (no mutable global state).
  static const std::vector<NamedPartition> all = {
      {4, "7-8", {{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}},
      {4, "6-6-3", {{1, 2, 3, 5, 6, 7}, {9, 10, 11, 13, 14, 15}, {4, 8, 12}}},
      {4, "5-5-5", {{1, 2, 3, 6, 7}, {4, 5, 8, 9, 12}, {10, 11, 13, 14, 15}}},
      // Korf & Felner 2002, Figure 4.
      {5,
       "6-6-6-6",
       {{1, 2, 5, 6, 7, 12},
        {3, 4, 8, 9, 13, 14},
        {10, 11, 15, 16, 20, 21},
        {17, 18, 19, 22, 23, 24}}},
  };
  return all;
}

struct View {
  const PatternTable* table = nullptr;
  const PermTables* perms = nullptr;          // of the table's k (packed-sequence ranking)
  std::uint64_t stride = 1;                   // PatternTable::stride
  std::array<std::uint8_t, MAX_CELLS> map{};  // board cell (canonical frame) -> table frame
};

struct Config {
  int blank_goal = 0;                             // canonical frame
  std::vector<std::vector<std::uint8_t>> groups;  // labels (goal cells) per group
  int orientations = 1;
  std::vector<View> views;                                        // views[o * groups + g]
  std::array<std::array<std::uint8_t, MAX_CELLS>, 2> view_of{};   // [o][label]
  std::array<std::array<std::uint8_t, MAX_CELLS>, 2> index_of{};  // [o][label] tile index
  std::vector<std::shared_ptr<const PatternTable>> tables;
};

}  // namespace

struct PdbSolver::Impl {
  BoardSize size;
  PdbOptions options;
  std::string partition;
  std::vector<std::vector<std::uint8_t>> groups;  // of the named partition (blank goal 0)
  Geometry geo;
  CombRanker ranker;
  std::map<int, std::shared_ptr<PermTables>> perms;  // shared per process (TableStore)
  mutable std::mutex mutex;
  mutable std::map<int, std::shared_ptr<const Config>> configs;  // by canonical goal blank
  std::unique_ptr<TableStore> own_tables;  // without options.tables: memory only, this solver
  TableStore* tables = nullptr;            // options.tables or own_tables

  explicit Impl(BoardSize s) : size(s), geo(s.cols) {}

  int threads() const {
    if (options.threads > 0) return options.threads;
    // Every hardware thread (the caller decides whether to use fewer).
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  int search_threads() const {
    return options.search_threads > 0 ? options.search_threads : threads();
  }

  Result<std::shared_ptr<const Config>> config_for(int blank_goal) const;
};

Result<std::shared_ptr<const Config>> PdbSolver::Impl::config_for(int blank_goal) const {
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = configs.find(blank_goal); it != configs.end()) return it->second;
  auto cfg = std::make_shared<Config>();
  cfg->blank_goal = blank_goal;
  // Step 1. The partition for this goal blank: cell `blank_goal` is given up for cell 0.
  cfg->groups = groups;
  for (auto& g : cfg->groups) {
    for (auto& c : g)
      if (c == blank_goal) c = 0;
    std::sort(g.begin(), g.end());
  }
  cfg->orientations = geo.transpose(blank_goal) == blank_goal ? 2 : 1;
  const int n = geo.cells;
  const int ng = static_cast<int>(cfg->groups.size());
  for (auto& row : cfg->view_of) row.fill(NO_CELL);
  // Step 2. One table per group, in its canonical symmetric frame tau.
  std::vector<int> tau(ng);
  std::vector<std::vector<std::uint8_t>> canon(ng);
  for (int g = 0; g < ng; ++g) {
    for (int s = 0; s < 8; ++s) {
      std::vector<std::uint8_t> image;
      for (auto c : cfg->groups[g]) image.push_back(geo.symmetry[s][c]);
      std::sort(image.begin(), image.end());
      if (s == 0 || image < canon[g]) canon[g] = image, tau[g] = s;
    }
    std::shared_ptr<const PatternTable> table;
    for (auto& t : cfg->tables)
      if (t->cells == canon[g]) table = t;
    if (!table) {
      auto got =
          obtain_pattern_table(geo, ranker, *perms.at(static_cast<int>(canon[g].size())), canon[g],
                               *tables, threads(), options.on_table_progress, options.run);
      if (!got) return got.error();
      table = *got;
      cfg->tables.push_back(table);
    }
    (void)table;
  }
  // Step 3. Views: group g seen through orientation o.
  for (int o = 0; o < cfg->orientations; ++o) {
    for (int g = 0; g < ng; ++g) {
      View v;
      for (auto& t : cfg->tables)
        if (t->cells == canon[g]) v.table = t.get();
      const PermTables& pt = *perms.at(static_cast<int>(canon[g].size()));
      v.perms = &pt;
      v.stride = v.table->stride;
      for (int x = 0; x < n; ++x) {
        int m = o ? geo.transpose(x) : x;
        v.map[x] = v.table->frame_of[geo.symmetry[tau[g]][m]];
      }
      for (int label = 0; label < n; ++label) {
        int m = o ? geo.transpose(label) : label;
        auto it = std::find(cfg->groups[g].begin(), cfg->groups[g].end(), m);
        if (it == cfg->groups[g].end()) continue;
        const auto image = v.table->frame_of[geo.symmetry[tau[g]][m]];
        const auto& fc = v.table->frame_cells;
        const auto pos = std::find(fc.begin(), fc.end(), image) - fc.begin();
        cfg->view_of[o][label] = static_cast<std::uint8_t>(o * ng + g);
        cfg->index_of[o][label] = static_cast<std::uint8_t>(pos);
      }
      cfg->views.push_back(v);
    }
    for (int label = 0; label < n; ++label) {
      if ((label == blank_goal) != (cfg->view_of[o][label] == NO_CELL))
        return internal_error("partition does not cover the tiles");
    }
  }
  configs[blank_goal] = cfg;
  return std::shared_ptr<const Config>(cfg);
}

namespace {

// A validated start/goal pair, in the canonical frame.
struct Prepared {
  std::array<std::uint8_t, MAX_CELLS> board{};  // labels, BLANK for the blank
  int blank = 0;
  int blank_goal = 0;
  std::array<std::uint8_t, MAX_CELLS> to_original{};  // canonical cell -> caller's cell
};

Result<Prepared> prepare(const Geometry& geo, BoardSize size, const Position& start,
                         const Position& goal) {
  const int n = size.cells();
  auto check = [&](const Position& p, const char* what) -> Status {
    if (static_cast<int>(p.size()) != n) {
      return make_error(fmt::format("{} has {} cells, expected {} for a {}x{} board", what,
                                    p.size(), n, size.rows, size.cols));
    }
    std::vector<bool> seen(n, false);
    for (auto t : p) {
      if (t >= n || seen[t]) {
        return make_error(
            fmt::format("{} must hold each of 0..{} exactly once (0 = blank); "
                        "tile {} is {}",
                        what, n - 1, int(t), t >= n ? "out of range" : "repeated"));
      }
      seen[t] = true;
    }
    return Ok{};
  };
  if (auto s = check(start, "start position"); !s) return s.error();
  if (auto s = check(goal, "goal position"); !s) return s.error();
  std::array<int, MAX_CELLS> goal_cell{};
  for (int x = 0; x < n; ++x) goal_cell[goal[x]] = x;
  // The one solvability check of a solve or a bound (with the parity rule's reason).
  if (auto s = check_solvable(size, start, goal); !s) return s.error();
  // The symmetry that brings the goal blank to the smallest cell of its orbit.
  int best = 0;
  for (int s = 1; s < 8; ++s)
    if (geo.symmetry[s][goal_cell[0]] < geo.symmetry[best][goal_cell[0]]) best = s;
  const auto& sigma = geo.symmetry[best];
  Prepared p;
  p.blank_goal = sigma[goal_cell[0]];
  for (int x = 0; x < n; ++x) {
    p.to_original[sigma[x]] = static_cast<std::uint8_t>(x);
    if (start[x] == 0) {
      p.board[sigma[x]] = BLANK;
      p.blank = sigma[x];
    } else {
      p.board[sigma[x]] = sigma[goal_cell[start[x]]];
    }
  }
  return p;
}

// IDA* over one configuration. N = cells, O = orientations (1 or 2).
template <int N, int O>
class Search {
 public:
  Search(const Config& cfg, const Geometry& geo, const CombRanker& ranker, const Prepared& p)
      : cfg_(cfg), geo_(geo), ranker_(ranker) {
    nviews_ = static_cast<int>(cfg.views.size());
    for (int v = 0; v < nviews_; ++v) views_[v] = cfg.views[v];
    for (int x = 0; x < N; ++x) board_[x] = p.board[x];
    blank_ = p.blank;
    md_ = 0;
    for (int x = 0; x < N; ++x)
      if (board_[x] != BLANK) md_ += geo.manhattan[board_[x]][x];
    // Full ranking of every view, once.
    sum_.fill(0);
    for (int v = 0; v < nviews_; ++v) {
      int o = v / (nviews_ / O);
      std::array<std::uint8_t, MAX_CELLS> index_at;
      index_at.fill(NO_CELL);
      std::uint32_t mask = 0;
      for (int x = 0; x < N; ++x) {
        if (board_[x] == BLANK || cfg.view_of[o][board_[x]] != v) continue;
        mask |= 1u << views_[v].map[x];
        index_at[views_[v].map[x]] = cfg.index_of[o][board_[x]];
      }
      std::array<std::uint8_t, MAX_PATTERN> seq{};
      int i = 0;
      for (int c = 0; c < N; ++c)
        if (index_at[c] != NO_CELL) seq[i++] = index_at[c];
      mask_[v] = mask;
      seq_[v] = pack_sequence(seq.data(), views_[v].perms->k);
      h_[v] = static_cast<std::uint8_t>(lookup(v, mask, views_[v].perms->packed_rank(seq_[v])));
      sum_[o] += h_[v];
    }
  }

  int heuristic() const {
    int s = sum_[0];
    if (O == 2) s = std::max(s, sum_[1]);
    return md_ + 2 * s;
  }

  // Parts of the bound: per group of the orientation with the larger sum.
  std::vector<int> parts() const {
    int o = (O == 2 && sum_[1] > sum_[0]) ? 1 : 0;
    int ng = nviews_ / O;
    std::vector<int> out(ng, 0);
    for (int g = 0; g < ng; ++g) out[g] = 2 * h_[o * ng + g];
    for (int x = 0; x < N; ++x) {
      if (board_[x] == BLANK) continue;
      out[cfg_.view_of[o][board_[x]] - o * ng] += geo_.manhattan[board_[x]][x];
    }
    return out;
  }

  // Returns the solution length, -1 if no solution within MAX_DEPTH moves, STOPPED when `run`
  // said stop first (bound() is then the proven lower bound).
  // With threads > 1, iterations that are expected to be large run in parallel (see
  // parallel_iteration); the node count is the same as the sequential search's.
  static constexpr int STOPPED = SEARCH_STOPPED;
  int run(const ProgressCallback& on_progress, const std::string& note, int threads,
          const RunContext* run) {
    on_progress_ = &on_progress;
    note_ = &note;
    run_ = run;
    started_ = std::chrono::steady_clock::now();
    bound_ = heuristic();
    std::uint64_t last_iteration = 0;
    for (;;) {
      if (on_progress) on_progress({bound_, nodes_, seconds(), note});
      if (md_ == 0) return 0;
      const std::uint64_t before = nodes_;
      const bool parallel = threads > 1 && last_iteration >= PARALLEL_MIN_NODES;
      if (parallel ? parallel_iteration(threads) : dfs(0, 4)) return length_;
      if (stopped_) return STOPPED;
      last_iteration = nodes_ - before;
      bound_ += 2;  // g + h keeps its parity: every move changes g by 1 and Manhattan by 1
      if (bound_ > MAX_DEPTH) return -1;
    }
  }

  std::uint64_t nodes() const { return nodes_; }
  int bound() const { return bound_; }
  const std::array<std::uint8_t, MAX_DEPTH + 1>& path() const { return path_; }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

  // One IDA* iteration on `threads` threads.
  // Step 1 runs the sequential search down to a split depth D and records, in depth-first order,
  // every node at depth D that the sequential search would enter (its path and last direction),
  // with the node count at that moment. Step 2 lets the workers take these subtrees in order
  // from a shared counter, each on its own copy of the root state. A worker that finds a
  // solution in subtree i lowers `best` to i; subtrees after `best` are skipped or abandoned,
  // subtrees before it always run to completion. So the solution returned is the one the
  // sequential search finds first, and the node count (count at entering subtree `best` +
  // nodes of subtrees 0..best) is exactly the sequential count, whatever the timing.
  bool parallel_iteration(int threads) {
    // Step 1. Frontier, at the first even depth that gives enough subtrees.
    const std::uint64_t nodes_before = nodes_;
    std::vector<std::uint8_t> frontier;   // per node: D path cells, then the last direction
    std::vector<std::uint64_t> count_at;  // nodes_ when the node was recorded
    int depth = FIRST_SPLIT_DEPTH;
    for (;; depth += 2) {
      nodes_ = nodes_before;
      frontier.clear();
      count_at.clear();
      split_depth_ = depth;
      frontier_ = &frontier;
      count_at_ = &count_at;
      const bool found = dfs(0, 4);
      split_depth_ = -1;
      frontier_ = nullptr;
      count_at_ = nullptr;
      if (found) return true;
      if (stopped_) return false;
      if (count_at.size() >= static_cast<std::size_t>(SUBTREES_PER_THREAD * threads) ||
          depth + 2 >= bound_ / 2)
        break;
    }
    const std::uint64_t frontier_nodes = nodes_;
    const int stride = depth + 1;
    const int count = static_cast<int>(count_at.size());
    // Step 2. Workers.
    std::vector<std::uint64_t> subtree_nodes(count, 0);
    std::atomic<int> next{0};
    std::atomic<int> best{INT_MAX};
    std::atomic<std::uint64_t> progress_nodes{frontier_nodes};
    std::mutex found_mutex;
    std::array<std::uint8_t, MAX_DEPTH + 1> found_path{};
    int found_length = 0;
    auto work = [&](int worker) {
      for (;;) {
        const int i = next.fetch_add(1, std::memory_order_relaxed);
        if (i >= count || i > best.load(std::memory_order_relaxed)) return;
        if (run_ && run_->should_stop()) return;
        Search s(*this);
        s.best_subtree_ = &best;
        s.subtree_ = i;
        s.nodes_ = 0;
        s.progress_nodes_ = &progress_nodes;
        s.reporter_ = worker == 0;
        const std::uint8_t* rec = &frontier[static_cast<std::size_t>(i) * stride];
        for (int d = 0; d < depth; ++d) s.apply_move(d, rec[d]);
        const bool found = s.dfs(depth, rec[depth]);
        subtree_nodes[i] = s.nodes_;
        if (found) {
          std::lock_guard<std::mutex> lock(found_mutex);
          if (i < best.load(std::memory_order_relaxed)) {
            best.store(i, std::memory_order_relaxed);
            found_path = s.path_;
            found_length = s.length_;
          }
        }
      }
    };
    std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
    if (run_ && run_->should_stop()) {
      stopped_ = true;  // subtrees were abandoned: neither the answer nor the count is whole
      return false;
    }
    const int b = best.load();
    if (b == INT_MAX) {
      nodes_ = frontier_nodes;
      for (auto n : subtree_nodes) nodes_ += n;
      return false;
    }
    nodes_ = count_at[b];
    for (int i = 0; i <= b; ++i) nodes_ += subtree_nodes[i];
    path_ = found_path;
    length_ = found_length;
    return true;
  }

  // Moves the blank to cell a (a neighbour), updating every incremental quantity; path_[g] = a.
  void apply_move(int g, int a) {
    const int b = blank_;
    const int t = board_[a];
    md_ += geo_.manhattan[t][b] - geo_.manhattan[t][a];
    for (int o = 0; o < O; ++o) {
      const int v = cfg_.view_of[o][t];
      const Pending p = update(v, a, b);
      const int h = views_[v].table->get(p.index);
      sum_[o] += h - h_[v];
      mask_[v] = p.mask, seq_[v] = p.seq, h_[v] = static_cast<std::uint8_t>(h);
    }
    board_[b] = static_cast<std::uint8_t>(t);
    board_[a] = BLANK;
    blank_ = a;
    path_[g] = static_cast<std::uint8_t>(a);
  }

 private:
  struct Update {
    std::uint32_t mask, seq;
    int h;
  };
  // A child's view state before its table entry is read.
  struct Pending {
    std::uint32_t mask, seq;  // seq: packed sequence (see PermTables)
    std::uint64_t index;
  };

  int lookup(int v, std::uint32_t mask, std::uint64_t perm) const {
    const std::uint64_t index = perm * views_[v].stride + ranker_.rank(mask);
    return views_[v].table->get(index);
  }

  // The view's state after its tile slides from cell a to cell b; the table byte is prefetched.
  [[gnu::always_inline]] Pending update(int v, int a, int b) const {
    const View& vw = views_[v];
    std::uint32_t ma = vw.map[a], mb = vw.map[b];
    std::uint32_t m = mask_[v];
    int i = std::popcount(m & ((1u << ma) - 1));
    std::uint32_t m2 = m ^ (1u << ma) ^ (1u << mb);
    int j = std::popcount(m2 & ((1u << mb) - 1));
    const std::uint32_t s2 = i == j ? seq_[v] : move_packed(seq_[v], i, j);
    const std::uint64_t index = vw.perms->packed_rank(s2) * vw.stride + ranker_.rank(m2);
    __builtin_prefetch(vw.table->nibbles.data() + (index >> 1));
    return {m2, s2, index};
  }

  // Depth-first search below the current node at depth g; `prev` is the last blank direction
  // (4 = none). Directions 0..3 = Up, Down, Left, Right, so dir ^ 1 undoes dir.
  // Step 1 computes every child's table indices and prefetches them, so the (up to 6) cache
  // misses overlap; step 2 reads the entries, prunes and recurses.
  bool dfs(int g, int prev) {
    if (g == split_depth_) {
      frontier_->insert(frontier_->end(), path_.begin(), path_.begin() + g);
      frontier_->push_back(static_cast<std::uint8_t>(prev));
      count_at_->push_back(nodes_);
      return false;
    }
    if (best_subtree_ && best_subtree_->load(std::memory_order_relaxed) < subtree_) return false;
    if (run_ && --poll_ == 0) {
      poll_ = POLL_EVERY;
      if (run_->should_stop()) stopped_ = true;
    }
    if (stopped_) return false;
    struct Child {
      int a, t, md2, v0, v1, h0, h1;
      Pending p0, p1;
    };
    std::array<Child, 4> children;
    int count = 0;
    const int b = blank_;
    // Step 1.
    for (int dir = 0; dir < 4; ++dir) {
      if (dir == (prev ^ 1)) continue;
      const int a = geo_.neighbor[b][dir];
      if (a == NO_CELL) continue;
      ++nodes_;
      if (*on_progress_ && (nodes_ & (PROGRESS_EVERY - 1)) == 0) report_progress();
      Child& c = children[count];
      c.a = a;
      c.t = board_[a];
      c.md2 = md_ + geo_.manhattan[c.t][b] - geo_.manhattan[c.t][a];
      c.v0 = dir;  // remembered direction; the view index is set below
      if (g + 1 + c.md2 > bound_) continue;
      ++count;
    }
    for (int x = 0; x < count; ++x) {
      Child& c = children[x];
      int dir = c.v0;
      c.v0 = cfg_.view_of[0][c.t];
      c.p0 = update(c.v0, c.a, b);
      if constexpr (O == 2) {
        c.v1 = cfg_.view_of[1][c.t];
        c.p1 = update(c.v1, c.a, b);
      }
      c.t |= dir << 8;
    }
    // Step 2. Read the entries; keep the children within the bound, smallest bound first and,
    // among equal bounds, the one whose tables see more of the work (larger sum of both
    // orientations' entries) first. The order only matters in the last iteration, where it
    // finds a solution sooner: on Korf's 100 it saves 9% of the nodes over U D L R order.
    std::array<int, 4> order;
    std::array<int, 4> key;
    int kept = 0;
    for (int x = 0; x < count; ++x) {
      Child& c = children[x];
      c.h0 = views_[c.v0].table->get(c.p0.index);
      const int s0 = sum_[0] - h_[c.v0] + c.h0;
      int fx = g + 1 + c.md2 + 2 * s0;
      if (fx > bound_) continue;
      int s1 = s0;
      if constexpr (O == 2) {
        c.h1 = views_[c.v1].table->get(c.p1.index);
        s1 = sum_[1] - h_[c.v1] + c.h1;
        fx = std::max(fx, g + 1 + c.md2 + 2 * s1);
        if (fx > bound_) continue;
      }
      const int kx = fx * 1024 - (s0 + s1);  // entries are 4-bit: s0 + s1 < 1024
      int y = kept++;
      for (; y > 0 && key[y - 1] > kx; --y) order[y] = order[y - 1], key[y] = key[y - 1];
      order[y] = x, key[y] = kx;
    }
    // Step 3. Recurse.
    for (int y = 0; y < kept; ++y) {
      const Child& c = children[order[y]];
      const int a = c.a, t = c.t & 255, dir = c.t >> 8, md2 = c.md2, v0 = c.v0;
      const int h0 = c.h0;
      const int s0 = sum_[0] - h_[v0] + h0;
      int v1 = 0, s1 = 0, h1 = 0;
      if constexpr (O == 2) {
        v1 = c.v1;
        h1 = c.h1;
        s1 = sum_[1] - h_[v1] + h1;
      }
      // Step into the child.
      const Update old0{mask_[v0], seq_[v0], h_[v0]};
      const int old_sum0 = sum_[0];
      mask_[v0] = c.p0.mask, seq_[v0] = c.p0.seq, h_[v0] = static_cast<std::uint8_t>(h0);
      sum_[0] = s0;
      Update old1{};
      int old_sum1 = 0;
      if constexpr (O == 2) {
        old1 = {mask_[v1], seq_[v1], h_[v1]};
        old_sum1 = sum_[1];
        mask_[v1] = c.p1.mask, seq_[v1] = c.p1.seq, h_[v1] = static_cast<std::uint8_t>(h1);
        sum_[1] = s1;
      }
      board_[b] = static_cast<std::uint8_t>(t);
      board_[a] = BLANK;
      blank_ = a;
      const int old_md = md_;
      md_ = md2;
      path_[g] = static_cast<std::uint8_t>(a);
      if (md2 == 0) {
        length_ = g + 1;
        return true;
      }
      if (dfs(g + 1, dir)) return true;
      // Step back.
      md_ = old_md;
      blank_ = b;
      board_[a] = static_cast<std::uint8_t>(t);
      board_[b] = BLANK;
      mask_[v0] = old0.mask, seq_[v0] = old0.seq, h_[v0] = static_cast<std::uint8_t>(old0.h);
      sum_[0] = old_sum0;
      if constexpr (O == 2) {
        mask_[v1] = old1.mask, seq_[v1] = old1.seq, h_[v1] = static_cast<std::uint8_t>(old1.h);
        sum_[1] = old_sum1;
      }
    }
    return false;
  }

  void report_progress() {
    if (!progress_nodes_) {
      (*on_progress_)({bound_, nodes_, seconds(), *note_});
      return;
    }
    // A parallel worker: the shared count grows by every worker; one of them reports it.
    const std::uint64_t total =
        progress_nodes_->fetch_add(PROGRESS_EVERY, std::memory_order_relaxed) + PROGRESS_EVERY;
    if (reporter_) (*on_progress_)({bound_, total, seconds(), *note_});
  }

  static constexpr std::uint64_t PROGRESS_EVERY = std::uint64_t{1} << 24;
  // The run context is asked every POLL_EVERY expansions (a few milliseconds at most).
  static constexpr int POLL_EVERY = 1 << 14;
  // Iterations after one of fewer nodes stay sequential (thread start-up would dominate).
  static constexpr std::uint64_t PARALLEL_MIN_NODES = 20'000;
  static constexpr int FIRST_SPLIT_DEPTH = 6;
  static constexpr int SUBTREES_PER_THREAD = 64;

  const Config& cfg_;
  const Geometry& geo_;
  const CombRanker& ranker_;
  int nviews_ = 0;
  std::array<View, MAX_VIEWS> views_{};
  std::array<std::uint8_t, N> board_{};
  int blank_ = 0;
  int md_ = 0;
  std::array<std::uint32_t, MAX_VIEWS> mask_{}, seq_{};  // seq_: packed sequences
  std::array<std::uint8_t, MAX_VIEWS> h_{};
  std::array<int, 2> sum_{};
  int bound_ = 0;
  int length_ = 0;
  std::uint64_t nodes_ = 0;
  std::array<std::uint8_t, MAX_DEPTH + 1> path_{};
  const ProgressCallback* on_progress_ = nullptr;
  const std::string* note_ = nullptr;
  std::chrono::steady_clock::time_point started_;
  // Parallel iterations (all unset in a sequential search).
  int split_depth_ = -1;                           // record nodes at this depth, do not expand
  std::vector<std::uint8_t>* frontier_ = nullptr;  // where they are recorded
  std::vector<std::uint64_t>* count_at_ = nullptr;
  const std::atomic<int>* best_subtree_ = nullptr;  // a worker: give up when below subtree_
  int subtree_ = 0;
  std::atomic<std::uint64_t>* progress_nodes_ = nullptr;
  bool reporter_ = false;
  const RunContext* run_ = nullptr;
  int poll_ = POLL_EVERY;
  bool stopped_ = false;  // the run context said stop
};

// Calls f(search) with the Search type matching the board and the orientations.
template <class F>
auto with_search(int cells, const Config& cfg, const Geometry& geo, const CombRanker& ranker,
                 const Prepared& p, F&& f) {
  if (cells == 16) {
    if (cfg.orientations == 2) {
      auto s = std::make_unique<Search<16, 2>>(cfg, geo, ranker, p);
      return f(*s);
    }
    auto s = std::make_unique<Search<16, 1>>(cfg, geo, ranker, p);
    return f(*s);
  }
  if (cfg.orientations == 2) {
    auto s = std::make_unique<Search<25, 2>>(cfg, geo, ranker, p);
    return f(*s);
  }
  auto s = std::make_unique<Search<25, 1>>(cfg, geo, ranker, p);
  return f(*s);
}

}  // namespace

std::vector<std::string> pdb_partitions(BoardSize size) {
  std::vector<std::string> out;
  if (size.rows != size.cols) return out;
  for (const auto& p : named_partitions())
    if (p.width == size.rows) out.push_back(p.name);
  return out;
}

Result<PdbTableCost> pdb_table_cost(BoardSize size, const std::string& partition) {
  const auto names = pdb_partitions(size);
  if (names.empty()) {
    return make_error(
        fmt::format("pattern databases exist for the 4x4 and 5x5 boards only, not "
                    "{}x{}",
                    size.rows, size.cols));
  }
  PdbTableCost cost;
  cost.partition = partition.empty() ? names.front() : partition;
  const NamedPartition* chosen = nullptr;
  for (const auto& p : named_partitions())
    if (p.width == size.rows && cost.partition == p.name) chosen = &p;
  if (!chosen) return make_error("unknown partition for the board", partition, 0);
  const Geometry geo(size.cols);
  const int n = geo.cells;
  // Step 1. The distinct tables: groups equal up to a board symmetry share one (as in
  // config_for).
  std::vector<std::vector<std::uint8_t>> tables;
  for (const auto& g : chosen->groups) {
    std::vector<std::uint8_t> canon;
    for (int s = 0; s < 8; ++s) {
      std::vector<std::uint8_t> image;
      for (auto c : g) image.push_back(geo.symmetry[s][c]);
      std::sort(image.begin(), image.end());
      if (s == 0 || image < canon) canon = image;
    }
    if (std::find(tables.begin(), tables.end(), canon) == tables.end()) tables.push_back(canon);
  }
  // Step 2. Bytes of each table (4-bit entries, see pdb_internal.hpp) and the builder's search
  // array: one byte per (placement, region of the empty cells) of k tiles.
  std::uint64_t largest_search = 0;
  for (const auto& t : tables) {
    const int k = static_cast<int>(t.size());
    std::uint64_t perms = 1;
    for (int i = 2; i <= k; ++i) perms *= static_cast<std::uint64_t>(i);
    const std::uint64_t combs = binomial(n, k);
    cost.pattern_sizes.push_back(k);
    cost.table_bytes += (combs + (combs & 1)) * perms / 2;
    std::uint64_t blocks = 0;
    for (std::uint32_t m = (1u << k) - 1; m < (1u << n);) {
      std::uint32_t seen = m;  // occupied or already in a region
      for (int c = 0; c < n; ++c) {
        if (seen >> c & 1) continue;
        ++blocks;
        std::array<std::uint8_t, MAX_CELLS> stack{};
        int top = 0;
        stack[top++] = static_cast<std::uint8_t>(c);
        seen |= 1u << c;
        while (top) {
          const int x = stack[--top];
          for (int d = 0; d < 4; ++d) {
            const int y = geo.neighbor[x][d];
            if (y == NO_CELL || (seen >> y & 1)) continue;
            seen |= 1u << y;
            stack[top++] = static_cast<std::uint8_t>(y);
          }
        }
      }
      const std::uint32_t t = m | (m - 1);  // next mask with the same popcount (Gosper)
      m = (t + 1) | (((~t & -~t) - 1) >> (std::countr_zero(m) + 1));
    }
    largest_search = std::max(largest_search, blocks * perms);
  }
  cost.build_peak_bytes = cost.table_bytes + largest_search;
  return cost;
}

Result<PdbSolver> PdbSolver::create(BoardSize size, const PdbOptions& options) {
  if (!(size.rows == size.cols && (size.rows == 4 || size.rows == 5))) {
    return make_error(
        fmt::format("pattern databases exist for the 4x4 and 5x5 boards only, not "
                    "{}x{}",
                    size.rows, size.cols));
  }
  auto impl = std::make_unique<Impl>(size);
  impl->options = options;
  if (options.tables == nullptr) impl->own_tables = std::make_unique<TableStore>();
  impl->tables = options.tables ? options.tables : impl->own_tables.get();
  auto names = pdb_partitions(size);
  impl->partition = options.partition.empty() ? names.front() : options.partition;
  const NamedPartition* chosen = nullptr;
  for (const auto& p : named_partitions())
    if (p.width == size.rows && impl->partition == p.name) chosen = &p;
  if (!chosen) {
    std::string list;
    for (auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return make_error(fmt::format("unknown partition for the {}x{} board; expected one of {}",
                                  size.rows, size.cols, list),
                      options.partition, 0);
  }
  impl->groups = chosen->groups;
  for (const auto& g : impl->groups) {
    int k = static_cast<int>(g.size());
    if (impl->perms.count(k)) continue;
    // Shared per process through the table store: building the k = 8 ranking tables takes a few
    // milliseconds, which a server starting one solver per request would pay every time.
    auto shared = impl->tables->shared<PermTables>(
        "sliding-perm-tables-" + std::to_string(k),
        [k]() -> Result<std::shared_ptr<PermTables>> { return std::make_shared<PermTables>(k); });
    if (!shared) return shared.error();
    impl->perms[k] = *shared;
  }
  auto cfg = impl->config_for(0);
  if (!cfg) return cfg.error();
  return PdbSolver(std::move(impl));
}

PdbSolver::PdbSolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PdbSolver::PdbSolver(PdbSolver&&) noexcept = default;
PdbSolver& PdbSolver::operator=(PdbSolver&&) noexcept = default;
PdbSolver::~PdbSolver() = default;

BoardSize PdbSolver::size() const {
  return impl_->size;
}
const std::string& PdbSolver::partition() const {
  return impl_->partition;
}
int PdbSolver::search_threads() const {
  return impl_->search_threads();
}

namespace {

// A bound and a solve of an already prepared (validated, solvable) pair: solve_with_pdb and
// pdb_bound prepare once, before any table is built, and do not check again.
Result<PdbBound> bound_prepared(const PdbSolver::Impl& impl, const Prepared& prepared) {
  auto cfg = impl.config_for(prepared.blank_goal);
  if (!cfg) return cfg.error();
  return with_search(impl.size.cells(), **cfg, impl.geo, impl.ranker, prepared,
                     [&](auto& search) -> Result<PdbBound> {
                       PdbBound b;
                       b.total = search.heuristic();
                       b.parts = search.parts();
                       b.partition = impl.partition;
                       return b;
                     });
}

Result<SolveResult> solve_prepared(const PdbSolver::Impl& impl, const Prepared& prepared,
                                   const Position& start, const Position& goal,
                                   const ProgressCallback& on_progress) {
  auto cfg = impl.config_for(prepared.blank_goal);
  if (!cfg) return cfg.error();
  const ProgressCallback& progress = on_progress ? on_progress : impl.options.on_progress;
  const std::string note = "pdb " + impl.partition;
  const auto t0 = std::chrono::steady_clock::now();
  SolveResult result;
  std::vector<std::uint8_t> path;  // canonical blank cells
  int length =
      with_search(impl.size.cells(), **cfg, impl.geo, impl.ranker, prepared, [&](auto& search) {
        int len = search.run(progress, note, impl.search_threads(), impl.options.run);
        result.nodes = search.nodes();
        for (int i = 0; i < len; ++i) path.push_back(search.path()[i]);
        return len;
      });
  if (length == SEARCH_STOPPED) return impl.options.run->stop_error();
  if (length < 0) return internal_error("no solution within 255 moves");
  // Replay from the caller's start, in the caller's frame, before returning anything: the one
  // check of the solution (callers do not replay again).
  const int w = impl.size.cols;
  Position board = start;
  int blank = static_cast<int>(std::find(board.begin(), board.end(), 0) - board.begin());
  for (auto canonical : path) {
    int to = prepared.to_original[canonical];
    Direction d;
    if (to == blank - w)
      d = Direction::Up;
    else if (to == blank + w)
      d = Direction::Down;
    else if (to == blank - 1 && blank % w != 0)
      d = Direction::Left;
    else if (to == blank + 1 && to % w != 0)
      d = Direction::Right;
    else
      return internal_error("solution contains an illegal move");
    result.moves.push_back(d);
    result.tiles.push_back(board[to]);
    std::swap(board[to], board[blank]);
    blank = to;
  }
  if (board != goal) return internal_error("solution does not reach the goal on replay");
  result.optimal = true;
  result.nodes_forward = result.nodes;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.method = "ida*+pdb " + impl.partition;
  result.heuristic =
      fmt::format("pdb {}{}", impl.partition, (*cfg)->orientations == 2 ? " + reflection" : "");
  return result;
}

}  // namespace

Result<PdbBound> PdbSolver::bound(const Position& start, const Position& goal) const {
  auto prepared = prepare(impl_->geo, impl_->size, start, goal);
  if (!prepared) return prepared.error();
  return bound_prepared(*impl_, *prepared);
}

Result<SolveResult> PdbSolver::solve(const Position& start, const Position& goal,
                                     const ProgressCallback& on_progress) const {
  auto prepared = prepare(impl_->geo, impl_->size, start, goal);
  if (!prepared) return prepared.error();
  return solve_prepared(*impl_, *prepared, start, goal, on_progress);
}

namespace {
// Validates the pair (and its solvability) before any table is built or loaded; boards without
// pattern databases are left to create(), which says why.
Result<std::optional<Prepared>> precheck(BoardSize size, const Position& start,
                                         const Position& goal) {
  if (!(size.rows == size.cols && (size.rows == 4 || size.rows == 5))) {
    return std::optional<Prepared>();
  }
  auto p = prepare(Geometry(size.cols), size, start, goal);
  if (!p) return p.error();
  return std::optional<Prepared>(*p);
}
}  // namespace

Result<SolveResult> solve_with_pdb(BoardSize size, const Position& start, const Position& goal,
                                   const PdbOptions& options) {
  auto prepared = precheck(size, start, goal);
  if (!prepared) return prepared.error();
  auto solver = PdbSolver::create(size, options);
  if (!solver) return solver.error();
  return solve_prepared(*solver->impl_, **prepared, start, goal, {});
}

Result<PdbBound> pdb_bound(BoardSize size, const Position& start, const Position& goal,
                           const PdbOptions& options) {
  auto prepared = precheck(size, start, goal);
  if (!prepared) return prepared.error();
  auto solver = PdbSolver::create(size, options);
  if (!solver) return solver.error();
  return bound_prepared(*solver->impl_, **prepared);
}

}  // namespace permuzzle::sliding
