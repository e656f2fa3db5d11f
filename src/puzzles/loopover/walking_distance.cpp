#include "permuzzle/puzzles/loopover/walking_distance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <system_error>
#include <thread>

#include "core/huge_pages.hpp"
#include "permuzzle/core/table_cache.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

namespace permuzzle::loopover {

// What the table store keeps (and shares between tables of one process): the direct table and
// what follows from it.
struct WalkingDistanceTable::Direct {
  std::vector<std::uint8_t> bytes;
  std::uint64_t states = 0;
  int max_distance = 0;
};

namespace {

// The breadth-first search of one walking-distance relaxation, self-contained (copies of the
// tables it reads) so that a table store may run it after the request that asked has returned.
// A state is one necklace class per line: sum over lines of class(line) * classes^line.
struct RelaxationSearch {
  BoardSize size;
  int lines = 0, width = 0;               // L lines of W cells; labels are line numbers 0..L-1
  std::uint64_t classes = 0;              // necklace classes of a line word
  std::uint64_t max_states = 0;           // refuse a relaxation with more reachable states
  std::uint64_t goal = 0;                 // line i holds only label i
  std::vector<std::uint32_t> pow_k;       // L^j
  std::vector<std::uint32_t> class_rep;   // class -> its minimal word
  std::vector<std::uint32_t> word_class;  // word -> class
  std::vector<std::uint64_t> radix;       // classes^line
  std::vector<int> amounts;               // rotations of the line word sequence per move

  struct Done {
    std::uint64_t states = 0;
    int max_distance = 0;
  };

  // `visit(state, depth)` marks a state and says whether it was new; `stop` (if given) is asked
  // every 1024 expanded states.
  template <class Visit>
  Result<Done> run(Visit&& visit, const RunContext* stop) const {
    const int L = lines, W = width;
    auto digit = [&](std::uint32_t w, int j) {
      return (w / pow_k[j]) % static_cast<std::uint32_t>(L);
    };
    std::uint64_t reached = 0;
    if (visit(goal, 0)) ++reached;
    std::vector<std::uint64_t> frontier{goal}, next;
    std::vector<std::uint32_t> rep(static_cast<std::size_t>(L));
    std::vector<int> p(static_cast<std::size_t>(L));
    std::vector<std::uint32_t> label(static_cast<std::size_t>(L * W)), removed(label.size());
    int depth = 0;
    while (!frontier.empty()) {
      next.clear();
      std::uint64_t expanded = 0;
      for (std::uint64_t s : frontier) {
        if (stop && (++expanded & 1023) == 0 && stop->should_stop()) return stop->stop_error();
        std::uint64_t rest = s;
        for (int i = 0; i < L; ++i) {
          rep[i] = class_rep[rest % classes];
          rest /= classes;
        }
        // Per line and position: the word without that digit, and the digit itself.
        for (int i = 0; i < L; ++i) {
          for (int j = 0; j < W; ++j) {
            const std::uint32_t dg = digit(rep[i], j);
            label[i * W + j] = dg;
            removed[i * W + j] = rep[i] - dg * pow_k[j];
          }
        }
        std::fill(p.begin(), p.end(), 0);
        while (true) {
          for (int k : amounts) {
            std::uint64_t idx = 0;
            for (int i = 0; i < L; ++i) {
              const int from = i >= k ? i - k : i - k + L;
              const std::uint32_t w =
                  removed[i * W + p[i]] + label[from * W + p[from]] * pow_k[p[i]];
              idx += word_class[w] * radix[i];
            }
            if (visit(idx, depth + 1)) {
              ++reached;
              next.push_back(idx);
            }
          }
          int i = 0;
          while (i < L && ++p[i] == W) p[i++] = 0;
          if (i == L) break;
        }
        if (reached > max_states) {
          return make_error(fmt::format("the walking-distance relaxation of {} has more than {} "
                                        "states",
                                        format_size(size), max_states),
                            {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
        }
      }
      if (!next.empty()) ++depth;
      frontier.swap(next);
    }
    return Done{reached, depth};
  }
};

}  // namespace

// The sparse table's payload (Step 5 of build): n, the n sorted states, the n distances.
std::vector<std::uint8_t> WalkingDistanceTable::write_sparse(const WalkingDistanceTable& t) {
  const std::uint64_t n = t.sparse_keys_.size();
  std::vector<std::uint8_t> out(8 + 9 * n);
  auto put = [&](std::size_t at, std::uint64_t v) {
    for (int b = 0; b < 8; ++b) out[at + b] = static_cast<std::uint8_t>(v >> (8 * b));
  };
  put(0, n);
  for (std::uint64_t i = 0; i < n; ++i) put(8 + 8 * i, t.sparse_keys_[i]);
  std::copy(t.sparse_dist_.begin(), t.sparse_dist_.end(), out.begin() + 8 + 8 * n);
  return out;
}

// Reads a payload written by write_sparse into `t`; false (t unchanged) when it is not one: a
// wrong size, states out of order, or distances that do not start at the goal's 0.
bool WalkingDistanceTable::read_sparse(const std::vector<std::uint8_t>& payload,
                                       WalkingDistanceTable& t) {
  auto get = [&](std::size_t at) {
    std::uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= static_cast<std::uint64_t>(payload[at + b]) << (8 * b);
    return v;
  };
  if (payload.size() < 8) return false;
  const std::uint64_t n = get(0);
  if (n == 0 || n > (payload.size() - 8) / 9 || payload.size() != 8 + 9 * n) return false;
  std::vector<std::uint64_t> keys(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    keys[i] = get(8 + 8 * i);
    if (i > 0 && keys[i] <= keys[i - 1]) return false;
  }
  std::vector<std::uint8_t> dist(payload.begin() + static_cast<std::ptrdiff_t>(8 + 8 * n),
                                 payload.end());
  int max_distance = 0;
  bool goal = false;
  for (std::uint8_t d : dist) {
    max_distance = std::max<int>(max_distance, d);
    goal = goal || d == 0;
  }
  if (!goal) return false;
  t.sparse_keys_ = std::move(keys);
  t.sparse_dist_ = std::move(dist);
  t.states_ = n;
  t.max_distance_ = max_distance;
  return true;
}

Result<WalkingDistanceTable> WalkingDistanceTable::build(BoardSize size, Axis moving, Metric metric,
                                                         std::uint64_t max_states,
                                                         TableStore* tables,
                                                         const RunContext* run) {
  if (auto ok = validate_size(size); !ok) return ok.error();
  WalkingDistanceTable t;
  t.size_ = size;
  t.moving_ = moving;
  t.metric_ = metric;
  const bool vertical = moving == Axis::Column;
  const int L = vertical ? size.rows : size.cols;  // lines rotated for free == labels
  const int W = vertical ? size.cols : size.rows;  // cells per line
  t.lines_ = L;
  t.width_ = W;

  // Step 1. Refuse relaxations that are too large (estimated orbit count and work).
  const double log_states = std::lgamma(L * W + 1.0) - L * std::lgamma(W + 1.0) - L * std::log(W);
  const double log_work = log_states + L * std::log(W) + std::log(metric == Metric::Mtm ? L : 2);
  const double word_count = std::pow(static_cast<double>(L), W);
  if (log_states > std::log(static_cast<double>(max_states)) || log_work > std::log(4e9) ||
      word_count > (1 << 22)) {
    return make_error(
        fmt::format("the {} walking-distance relaxation of {} is too large "
                    "(about {:.3g} states)",
                    vertical ? "vertical" : "horizontal", format_size(size), std::exp(log_states)),
        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }

  // Step 2. Cells of each line and the digit each tile contributes at each position.
  std::vector<std::uint32_t> pow_k(static_cast<std::size_t>(W) + 1, 1);
  for (int j = 1; j <= W; ++j) pow_k[j] = pow_k[j - 1] * static_cast<std::uint32_t>(L);
  t.line_cells_.resize(static_cast<std::size_t>(L * W));
  t.contrib_.assign(static_cast<std::size_t>(L * W) * 256, 0);
  for (int line = 0; line < L; ++line) {
    for (int j = 0; j < W; ++j) {
      int cell = vertical ? line * size.cols + j : j * size.cols + line;
      t.line_cells_[static_cast<std::size_t>(line * W + j)] = cell;
      for (int tile = 1; tile <= size.cells(); ++tile) {
        int label = vertical ? (tile - 1) / size.cols : (tile - 1) % size.cols;
        t.contrib_[static_cast<std::size_t>((line * W + j) * 256 + tile)] =
            static_cast<std::uint32_t>(label) * pow_k[j];
      }
    }
  }

  // Step 3. Necklace classes of line words (class = minimal rotation).
  const std::uint32_t words = pow_k[W];
  t.word_class_.assign(words, 0);
  std::vector<std::uint32_t> class_rep;
  {
    std::vector<std::uint32_t> canon_to_class(words, UINT32_MAX);
    for (std::uint32_t w = 0; w < words; ++w) {
      std::uint32_t best = w, r = w;
      for (int s = 1; s < W; ++s) {
        // rotate by one position: digit j -> j+1
        r = (r % pow_k[W - 1]) * static_cast<std::uint32_t>(L) + r / pow_k[W - 1];
        best = std::min(best, r);
      }
      if (canon_to_class[best] == UINT32_MAX) {
        canon_to_class[best] = static_cast<std::uint32_t>(class_rep.size());
        class_rep.push_back(best);
      }
      t.word_class_[w] = canon_to_class[best];
    }
  }
  const std::uint64_t nc = class_rep.size();
  t.radix_.assign(static_cast<std::size_t>(L), 1);
  for (int i = 1; i < L; ++i) t.radix_[i] = t.radix_[i - 1] * nc;
  const double total_index = std::pow(static_cast<double>(nc), L);

  // Step 4. Breadth-first search from the goal (line i holds only label i).
  auto relaxation = std::make_shared<RelaxationSearch>();
  RelaxationSearch& rs = *relaxation;
  rs.size = size;
  rs.lines = L;
  rs.width = W;
  rs.classes = nc;
  rs.max_states = max_states;
  rs.pow_k = pow_k;
  rs.class_rep = std::move(class_rep);
  rs.word_class = t.word_class_;
  rs.radix = t.radix_;
  for (int i = 0; i < L; ++i) {
    std::uint32_t w = 0;
    for (int j = 0; j < W; ++j) w += static_cast<std::uint32_t>(i) * pow_k[j];
    rs.goal += t.word_class_[w] * t.radix_[i];
  }
  if (metric == Metric::Mtm) {
    for (int k = 1; k < L; ++k) rs.amounts.push_back(k);
  } else {
    rs.amounts.push_back(1);
    if (L > 2) rs.amounts.push_back(L - 1);
  }
  // Visited set: a direct byte array when the index space is small, else a hash map.
  const bool direct = total_index <= static_cast<double>(MAX_DIRECT_ENTRIES);
  const TableKey key{"loopover-" + format_size(size),
                     fmt::format("walking-distance-{}-{}", vertical ? "vertical" : "horizontal",
                                 metric == Metric::Stm ? "stm" : "mtm"),
                     1};
  if (direct) {
    // Through the table store: shared in memory, loaded (verified) or searched and saved.
    TableRecipe<Direct> recipe;
    recipe.key = key;
    recipe.bytes = static_cast<std::uint64_t>(total_index);
    // Background-safe (a server's build outlives the request): the callbacks hold the search
    // (shared) and copies of the sizes.
    recipe.background = true;
    recipe.allocate = [bytes = static_cast<std::size_t>(total_index)] {
      auto d = std::make_shared<Direct>();
      d->bytes.resize(bytes);
      return d;
    };
    recipe.payload = [](Direct& d) { return std::span<std::uint8_t>(d.bytes); };
    recipe.loaded = [](Direct& d) -> Status {
      for (std::uint8_t v : d.bytes) {
        if (v == 0xFF) continue;
        ++d.states;
        d.max_distance = std::max<int>(d.max_distance, v);
      }
      return Ok{};
    };
    recipe.build = [relaxation, bytes = static_cast<std::size_t>(total_index)](
                       const RunContext& r) -> Result<std::shared_ptr<Direct>> {
      auto d = std::make_shared<Direct>();
      d->bytes.assign(bytes, 0xFF);
      std::uint8_t* visited = d->bytes.data();
      auto visit = [visited](std::uint64_t idx, int depth) {
        if (visited[idx] != 0xFF) return false;
        visited[idx] = static_cast<std::uint8_t>(depth);
        return true;
      };
      auto done = relaxation->run(visit, &r);
      if (!done) return done.error();
      d->states = done->states;
      d->max_distance = done->max_distance;
      return d;
    };
    std::unique_ptr<TableStore> own_tables;
    if (tables == nullptr) own_tables = std::make_unique<TableStore>();
    TableReport report;
    auto got = (tables ? *tables : *own_tables).obtain(recipe, run ? *run : RunContext{}, &report);
    if (!got) return got.error();
    t.direct_table_ = *got;
    t.direct_ = (*got)->bytes.data();
    t.direct_size_ = (*got)->bytes.size();
    t.states_ = (*got)->states;
    t.max_distance_ = (*got)->max_distance;
    t.loaded_from_cache_ = report.source != TableReport::Source::Built;
    return t;
  }
  // Step 5. Large tables: sorted (state, distance) pairs for binary search, loaded from the
  // table store's folder when an earlier run saved them (the search takes tens of seconds: 3x5's
  // horizontal relaxation expands 486 successors of each state), else searched and saved.
  // Payload: the state count n (uint64), n states ascending (uint64), n distances (one byte).
  const TableKey sparse_key{key.puzzle, key.pattern + "-sparse", 1};
  // Saved beside the direct tables of the same key (a board has at most two of each, so a
  // server's disk holds them as it holds those); their size is known only after the search,
  // which TableRecipe does not support, so they are read and written here with table_cache.
  const bool cached = tables != nullptr && tables->persistent();
  if (cached) {
    std::vector<std::uint8_t> payload;
    if (load_table(tables->dir(), sparse_key, payload).status == TableLoadStatus::Loaded &&
        read_sparse(payload, t)) {
      t.loaded_from_cache_ = true;
      return t;
    }
  }
  {
    // Open addressing (key + 1, 0 = empty) at most half full: one memory access per visit
    // where a node-based map needed two or three.
    // Sized for the estimate (at most 4 M slots at first: the estimate can be far too high),
    // grown by doubling.
    std::vector<std::uint64_t> slots(std::bit_ceil(
        static_cast<std::size_t>(std::min(std::exp(log_states) * 2.5 + 1024, double(1 << 22)))));
    std::vector<std::uint8_t> depths(slots.size());
    std::size_t used = 0;
    auto slot_of = [&](std::uint64_t idx) {
      std::size_t h = static_cast<std::size_t>((idx * 0x9E3779B97F4A7C15ULL) >> 20);
      const std::size_t mask = slots.size() - 1;
      for (h &= mask; slots[h] != 0 && slots[h] != idx + 1; h = (h + 1) & mask) {
      }
      return h;
    };
    auto visit = [&](std::uint64_t idx, int depth) {
      std::size_t h = slot_of(idx);
      if (slots[h] != 0) return false;
      if (2 * (used + 1) > slots.size()) {
        // Grow: twice the slots, every key placed again.
        std::vector<std::uint64_t> old_slots(slots.size() * 2);
        std::vector<std::uint8_t> old_depths(slots.size() * 2);
        old_slots.swap(slots);
        old_depths.swap(depths);
        for (std::size_t i = 0; i < old_slots.size(); ++i) {
          if (old_slots[i] == 0) continue;
          const std::size_t j = slot_of(old_slots[i] - 1);
          slots[j] = old_slots[i];
          depths[j] = old_depths[i];
        }
        h = slot_of(idx);
      }
      slots[h] = idx + 1;
      depths[h] = static_cast<std::uint8_t>(depth);
      ++used;
      return true;
    };
    auto done = rs.run(visit, run);
    if (!done) return done.error();
    t.states_ = done->states;
    t.max_distance_ = done->max_distance;
    std::vector<std::pair<std::uint64_t, std::uint8_t>> pairs;
    pairs.reserve(used);
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (slots[i] != 0) pairs.emplace_back(slots[i] - 1, depths[i]);
    }
    std::sort(pairs.begin(), pairs.end());
    t.sparse_keys_.reserve(pairs.size());
    t.sparse_dist_.reserve(pairs.size());
    for (const auto& [k, d] : pairs) {
      t.sparse_keys_.push_back(k);
      t.sparse_dist_.push_back(d);
    }
  }
  if (cached && !(run && run->should_stop())) {
    // A table that cannot be saved is still answered with (the next run searches again).
    (void)save_table(tables->dir(), sparse_key, write_sparse(t));
  }
  return t;
}

Result<WalkingDistanceTable::Pair> WalkingDistanceTable::build_pair(BoardSize size, Metric metric,
                                                                    std::uint64_t max_states,
                                                                    TableStore* tables,
                                                                    const RunContext* run) {
  std::optional<Result<WalkingDistanceTable>> horizontal;
  std::thread helper;
  if (run == nullptr || run->threads() >= 2) {
    try {
      helper = std::thread(
          [&] { horizontal = build(size, Axis::Row, metric, max_states, tables, run); });
    } catch (const std::system_error&) {
      // No thread to spare: the horizontal table is built after the vertical one.
    }
  }
  auto vertical = build(size, Axis::Column, metric, max_states, tables, run);
  if (helper.joinable()) helper.join();
  if (!horizontal) horizontal = build(size, Axis::Row, metric, max_states, tables, run);
  if (!vertical) return vertical.error();
  if (!*horizontal) return horizontal->error();
  return Pair{std::move(*vertical), std::move(**horizontal)};
}

void WalkingDistanceTable::advise_huge_pages() const {
  // The table is already filled: collapse it now.
  if (direct_) permuzzle::detail::collapse_huge_pages(direct_, direct_size_);
}

int WalkingDistanceTable::sparse_distance(std::uint64_t idx) const {
  auto it = std::lower_bound(sparse_keys_.begin(), sparse_keys_.end(), idx);
  if (it == sparse_keys_.end() || *it != idx) return 0;  // unreachable: cannot happen
  return sparse_dist_[static_cast<std::size_t>(it - sparse_keys_.begin())];
}

}  // namespace permuzzle::loopover
