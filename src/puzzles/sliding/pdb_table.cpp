// Pattern databases for the sliding puzzles: ranking tables, breadth-first construction, cache.
// Layouts are documented in pdb_internal.hpp.
#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "core/huge_pages.hpp"
#include "pdb_internal.hpp"
#include "permuzzle/core/table_store.hpp"

namespace permuzzle::sliding::pdb_detail {

Geometry::Geometry(int w) : width(w), cells(w * w) {
  for (int s = 0; s < 8; ++s) {
    for (int cell = 0; cell < cells; ++cell) {
      int r = cell / w, c = cell % w, m = w - 1;
      int rr = r, cc = c;
      switch (s) {
        case 0:
          rr = r, cc = c;
          break;
        case 1:
          rr = c, cc = r;
          break;  // main diagonal (the reflected lookup)
        case 2:
          rr = r, cc = m - c;
          break;
        case 3:
          rr = m - r, cc = c;
          break;
        case 4:
          rr = m - r, cc = m - c;
          break;
        case 5:
          rr = c, cc = m - r;
          break;
        case 6:
          rr = m - c, cc = r;
          break;
        default:
          rr = m - c, cc = m - r;
          break;
      }
      symmetry[s][cell] = static_cast<std::uint8_t>(rr * w + cc);
    }
  }
  for (int a = 0; a < cells; ++a) {
    for (int b = 0; b < cells; ++b) {
      manhattan[a][b] =
          static_cast<std::uint8_t>(std::abs(a / w - b / w) + std::abs(a % w - b % w));
    }
    int r = a / w, c = a % w;
    neighbor[a][0] = r > 0 ? a - w : NO_CELL;
    neighbor[a][1] = r < w - 1 ? a + w : NO_CELL;
    neighbor[a][2] = c > 0 ? a - 1 : NO_CELL;
    neighbor[a][3] = c < w - 1 ? a + 1 : NO_CELL;
  }
}

std::array<std::uint8_t, MAX_CELLS> table_frame(int width) {
  std::array<std::uint8_t, MAX_CELLS> frame_of{};
  if (width == 4) {
    // Hilbert curve: the board cells in the order the curve visits them.
    constexpr std::array<std::uint8_t, 16> CURVE = {0,  1,  5,  4,  8, 12, 13, 9,
                                                    10, 14, 15, 11, 7, 6,  2,  3};
    for (int i = 0; i < 16; ++i) frame_of[CURVE[i]] = static_cast<std::uint8_t>(i);
    return frame_of;
  }
  for (int r = 0; r < width; ++r) {
    for (int c = 0; c < width; ++c) {
      const int along = r % 2 == 0 ? c : width - 1 - c;  // snake: odd rows right to left
      frame_of[r * width + c] = static_cast<std::uint8_t>(r * width + along);
    }
  }
  return frame_of;
}

Geometry renumbered(const Geometry& geometry, const std::array<std::uint8_t, MAX_CELLS>& frame_of) {
  Geometry out = geometry;
  const int n = geometry.cells;
  for (int a = 0; a < n; ++a) {
    for (int s = 0; s < 8; ++s) out.symmetry[s][frame_of[a]] = frame_of[geometry.symmetry[s][a]];
    for (int b = 0; b < n; ++b) out.manhattan[frame_of[a]][frame_of[b]] = geometry.manhattan[a][b];
    for (int d = 0; d < 4; ++d) {
      const std::uint8_t y = geometry.neighbor[a][d];
      out.neighbor[frame_of[a]][d] = y == NO_CELL ? NO_CELL : frame_of[y];
    }
  }
  return out;
}

std::uint64_t binomial(int n, int k) {
  if (k < 0 || n < k) return 0;
  std::uint64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * static_cast<std::uint64_t>(n - k + i) / i;
  return r;
}

CombRanker::CombRanker() : low(8192), high(14 * 4096) {
  // Pascal's triangle up to C(24, 26) (0 where k > n): the loops below look binomials up 700,000
  // times, and computing each by its product took ~25 ms at every solver start (the web server
  // starts one per request).
  std::array<std::array<std::uint32_t, 27>, 25> choose{};
  for (int n = 0; n < 25; ++n) {
    choose[n][0] = 1;
    for (int k = 1; k <= n; ++k)
      choose[n][k] = choose[n - 1][k - 1] + (k < n ? choose[n - 1][k] : 0);
  }
  auto binomial = [&choose](int n, int k) { return choose[n][k]; };
  for (std::uint32_t m = 0; m < 8192; ++m) {
    std::uint32_t sum = 0;
    int index = 0;
    for (int c = 0; c < 13; ++c) {
      if (m >> c & 1) sum += static_cast<std::uint32_t>(binomial(c, ++index));
    }
    low[m] = sum;
  }
  for (int j = 0; j < 14; ++j) {
    for (std::uint32_t h = 0; h < 4096; ++h) {
      std::uint32_t sum = 0;
      int index = j;
      for (int c = 0; c < 12; ++c) {
        if (h >> c & 1) sum += static_cast<std::uint32_t>(binomial(13 + c, ++index));
      }
      high[j * 4096 + h] = sum;
    }
  }
}

std::uint32_t perm_rank(const std::uint8_t* seq, int k) {
  std::uint32_t rank = 0;
  for (int i = 0; i < k; ++i) {
    std::uint32_t smaller = 0;
    for (int j = i + 1; j < k; ++j) smaller += seq[j] < seq[i];
    rank = rank * static_cast<std::uint32_t>(k - i) + smaller;
  }
  return rank;
}

std::uint32_t pack_sequence(const std::uint8_t* seq, int k) {
  std::uint32_t packed = 0;
  for (int i = 0; i < k; ++i) packed |= static_cast<std::uint32_t>(seq[i]) << (3 * i);
  return packed;
}

PermTables::PermTables(int k_) : k(k_) {
  for (int i = 2; i <= k; ++i) count *= static_cast<std::uint32_t>(i);
  // Split ranking tables (see the header). Entries for bit patterns that are not a valid prefix
  // or suffix are never read.
  {
    const int m = std::min(k, 4);
    const int f = k - m;
    split_shift = 3 * f;
    first_rank.assign(4096, 0);
    last_rank.assign(4096, 0);
    for (std::uint32_t bits = 0; bits < (1u << (3 * f)); ++bits) {
      std::uint32_t used = 0, value = 0, weight = count;
      bool valid = true;
      for (int i = 0; i < f; ++i) {
        const std::uint32_t x = (bits >> (3 * i)) & 7u;
        if (x >= static_cast<std::uint32_t>(k) || (used >> x & 1u)) valid = false;
        weight /= static_cast<std::uint32_t>(k - i);  // (k-1-i)!
        if (valid)
          value += static_cast<std::uint32_t>(std::popcount(~used & ((1u << x) - 1))) * weight;
        used |= 1u << x;
      }
      if (valid) first_rank[bits] = static_cast<std::uint16_t>(value);
    }
    for (std::uint32_t bits = 0; bits < (1u << (3 * m)); ++bits) {
      std::uint32_t rank = 0;
      for (int i = 0; i < m; ++i) {
        std::uint32_t smaller = 0;
        const std::uint32_t x = (bits >> (3 * i)) & 7u;
        for (int j = i + 1; j < m; ++j) smaller += ((bits >> (3 * j)) & 7u) < x;
        rank = rank * static_cast<std::uint32_t>(m - i) + smaller;
      }
      last_rank[bits] = static_cast<std::uint8_t>(rank);
    }
  }
  sequences.resize(static_cast<std::size_t>(count) * k);
  std::array<std::uint8_t, MAX_PATTERN> seq{};
  for (int i = 0; i < k; ++i) seq[i] = static_cast<std::uint8_t>(i);
  do {
    std::uint32_t r = perm_rank(seq.data(), k);
    std::copy_n(seq.begin(), k, sequences.begin() + static_cast<std::size_t>(r) * k);
  } while (std::next_permutation(seq.begin(), seq.begin() + k));
}

std::vector<std::uint16_t> perm_move_table(const PermTables& perms) {
  const int k = perms.k;
  const std::uint32_t count = perms.count;
  const auto& sequences = perms.sequences;
  std::vector<std::uint16_t> moves(static_cast<std::size_t>(k) * k * count);
  for (std::uint32_t r = 0; r < count; ++r) {
    const std::uint8_t* s = &sequences[static_cast<std::size_t>(r) * k];
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < k; ++j) {
        std::array<std::uint8_t, MAX_PATTERN> t{};
        // Remove element i, insert it at j.
        int n = 0;
        for (int x = 0; x < k; ++x)
          if (x != i) t[n++] = s[x];
        std::copy_backward(t.begin() + j, t.begin() + k - 1, t.begin() + k);
        t[j] = s[i];
        moves[(static_cast<std::size_t>(i) * k + j) * count + r] =
            static_cast<std::uint16_t>(perm_rank(t.data(), k));
      }
    }
  }
  return moves;
}

std::string PatternTable::name() const {
  std::string s = "cells ";
  for (std::size_t i = 0; i < cells.size(); ++i) s += (i ? "," : "") + std::to_string(cells[i]);
  return s;
}

namespace {

constexpr std::uint8_t UNSEEN = 0xFF;

// A zero-filled byte vector whose pages the kernel may back with 2 MiB pages (the advice is
// given before the zero fill touches them).
std::vector<std::uint8_t> table_storage(std::uint64_t bytes) {
  std::vector<std::uint8_t> v;
  v.reserve(bytes);
  permuzzle::detail::advise_huge_pages(v.data(), bytes);
  v.resize(bytes, 0);
  return v;
}

// Runs body(worker) on `threads` threads and waits.
template <class F>
void run_parallel(int threads, F&& body) {
  if (threads <= 1) {
    body(0);
    return;
  }
  std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
  for (int t = 0; t < threads; ++t) pool.emplace_back([&body, t] { body(t); });
  for (auto& th : pool) th.join();
}

// Fills the table fields that follow from the board and the cells (not the nibbles).
void describe_table(PatternTable& table, int width, const std::vector<std::uint8_t>& cells,
                    std::uint32_t perm_count) {
  table.board_width = width;
  table.cells = cells;
  table.frame_of = table_frame(width);
  table.frame_cells.clear();
  for (auto c : cells) table.frame_cells.push_back(table.frame_of[c]);
  std::sort(table.frame_cells.begin(), table.frame_cells.end());
  const std::uint64_t combs = binomial(width * width, static_cast<int>(cells.size()));
  table.perm_count = perm_count;
  table.stride = combs + (combs & 1);
  table.entries = table.stride * perm_count;
}

}  // namespace

Result<std::shared_ptr<PatternTable>> build_pattern_table(
    const Geometry& board_geo, const CombRanker& ranker, const PermTables& perms,
    const std::vector<std::uint8_t>& board_cells, int threads, const TableProgress& progress,
    const RunContext& run) {
  auto table = std::make_shared<PatternTable>();
  describe_table(*table, board_geo.width, board_cells, perms.count);
  // The search below runs in the table frame: cells renamed along the locality curve.
  const Geometry geo = renumbered(board_geo, table->frame_of);
  const std::vector<std::uint8_t>& cells = table->frame_cells;
  const int n = geo.cells;
  const int k = static_cast<int>(cells.size());
  const std::uint32_t pc = perms.count;
  const std::uint64_t combs = binomial(n, k);
  const std::uint64_t stride = table->stride;
  const std::vector<std::uint16_t> perm_moves = perm_move_table(perms);
  const std::string what = fmt::format("sliding-{0}x{0} pattern {1}", geo.width, table->name());
  // Said before anything is allocated: the 8-tile search array alone is 1.4 GB.
  if (progress) progress(fmt::format("building {}", what), 0.0);

  // Step 1. Enumerate the masks (Gosper's hack yields them in colex rank order) and split the
  // empty cells of each into connected regions; block = (mask, region).
  std::vector<std::uint32_t> masks(combs);
  std::vector<std::uint8_t> region_of(combs * n, NO_CELL);  // [comb*n + cell]
  std::vector<std::uint32_t> block_start(combs + 1);
  std::vector<std::uint32_t> block_comb;
  std::vector<std::uint8_t> block_region;
  {
    std::uint32_t m = (1u << k) - 1;
    for (std::uint64_t c = 0; c < combs; ++c) {
      masks[c] = m;
      if (ranker.rank(m) != c)
        return make_error("internal: colex rank mismatch", {}, Error::NO_POSITION,
                          ErrorKind::Internal);
      std::uint8_t* reg = &region_of[c * n];
      int regions = 0;
      std::array<std::uint8_t, MAX_CELLS> stack{};
      for (int s = 0; s < n; ++s) {
        if ((m >> s & 1) || reg[s] != NO_CELL) continue;
        int top = 0;
        stack[top++] = static_cast<std::uint8_t>(s);
        reg[s] = static_cast<std::uint8_t>(regions);
        while (top) {
          int x = stack[--top];
          for (int d = 0; d < 4; ++d) {
            int y = geo.neighbor[x][d];
            if (y == NO_CELL || (m >> y & 1) || reg[y] != NO_CELL) continue;
            reg[y] = static_cast<std::uint8_t>(regions);
            stack[top++] = static_cast<std::uint8_t>(y);
          }
        }
        ++regions;
      }
      block_start[c] = static_cast<std::uint32_t>(block_comb.size());
      for (int r = 0; r < regions; ++r) {
        block_comb.push_back(static_cast<std::uint32_t>(c));
        block_region.push_back(static_cast<std::uint8_t>(r));
      }
      std::uint32_t t = m | (m - 1);  // next mask with the same popcount
      m = (t + 1) | (((~t & -~t) - 1) >> (std::countr_zero(m) + 1));
    }
    block_start[combs] = static_cast<std::uint32_t>(block_comb.size());
  }
  const std::size_t blocks = block_comb.size();
  // The search array and the table, checked against the run's memory budget before either is
  // allocated (the 8-tile search array alone is 1.4 GB).
  if (auto ok = run.check_memory(static_cast<std::uint64_t>(blocks) * pc + table->entries / 2,
                                 "building " + what);
      !ok) {
    return ok.error();
  }
  // Cancellation and the deadline, checked by every worker before each block and chunk.
  std::atomic<bool> stopped{false};
  auto should_stop = [&] {
    if (stopped.load(std::memory_order_relaxed)) return true;
    if (!run.should_stop()) return false;
    stopped = true;
    return true;
  };

  // Step 2. Breadth-first search, level by level. dist holds one byte per (block, perm);
  // a block is expanded at level d only when it received entries at level d.
  std::vector<std::uint8_t> dist(blocks * pc, UNSEEN);
  std::vector<std::uint8_t> active(blocks, 0), next_active(blocks, 0);
  std::uint32_t goal_mask = 0;
  for (auto c : cells) goal_mask |= 1u << c;
  {
    std::uint32_t gc = ranker.rank(goal_mask);
    for (std::uint32_t b = block_start[gc]; b < block_start[gc + 1]; ++b) {
      dist[b * pc + 0] = 0;  // rank 0 = identity sequence: every tile on its own goal cell
      active[b] = 1;
    }
  }
  const std::uint64_t total_states = static_cast<std::uint64_t>(blocks) * pc;
  std::uint64_t reached =
      block_start[ranker.rank(goal_mask) + 1] - block_start[ranker.rank(goal_mask)];
  threads = std::max(1, threads);
  for (int level = 0;; ++level) {
    std::atomic<std::size_t> next_block{0};
    std::atomic<std::uint64_t> found{0};
    const auto d = static_cast<std::uint8_t>(level);
    run_parallel(threads, [&](int) {
      std::vector<std::uint16_t> frontier(pc);
      std::uint64_t local_found = 0;
      struct Move {
        std::uint32_t target;
        const std::uint16_t* map;  // nullptr: sequence unchanged
      };
      std::vector<Move> moves;
      for (;;) {
        std::size_t b = next_block.fetch_add(1, std::memory_order_relaxed);
        if (b >= blocks) break;
        if (!active[b]) continue;
        if (should_stop()) break;
        // Collect this level's entries of the block.
        std::uint8_t* src = &dist[b * pc];
        std::size_t count = 0;
        for (std::uint32_t p = 0; p < pc; ++p) {
          if (std::atomic_ref<std::uint8_t>(src[p]).load(std::memory_order_relaxed) == d)
            frontier[count++] = static_cast<std::uint16_t>(p);
        }
        if (count == 0) continue;
        // Moves of a pattern tile into the blank's region.
        const std::uint32_t c = block_comb[b];
        const std::uint32_t m = masks[c];
        const std::uint8_t* reg = &region_of[static_cast<std::size_t>(c) * n];
        moves.clear();
        for (int to = 0; to < n; ++to) {
          if (reg[to] != block_region[b]) continue;
          for (int dir = 0; dir < 4; ++dir) {
            int from = geo.neighbor[to][dir];
            if (from == NO_CELL || !(m >> from & 1)) continue;
            std::uint32_t m2 = m ^ (1u << from) ^ (1u << to);
            std::uint32_t c2 = ranker.rank(m2);
            int r2 = region_of[static_cast<std::size_t>(c2) * n + from];
            int i = std::popcount(m & ((1u << from) - 1));
            int j = std::popcount(m2 & ((1u << to) - 1));
            moves.push_back(
                {block_start[c2] + r2,
                 i == j ? nullptr : &perm_moves[(static_cast<std::size_t>(i) * k + j) * pc]});
          }
        }
        for (const Move& mv : moves) {
          std::uint8_t* dst = &dist[static_cast<std::size_t>(mv.target) * pc];
          bool any = false;
          for (std::size_t x = 0; x < count; ++x) {
            std::uint32_t q = mv.map ? mv.map[frontier[x]] : frontier[x];
            std::atomic_ref<std::uint8_t> slot(dst[q]);
            if (slot.load(std::memory_order_relaxed) == UNSEEN) {
              slot.store(static_cast<std::uint8_t>(d + 1), std::memory_order_relaxed);
              ++local_found;
              any = true;
            }
          }
          if (any)
            std::atomic_ref<std::uint8_t>(next_active[mv.target])
                .store(1, std::memory_order_relaxed);
        }
      }
      found.fetch_add(local_found);
    });
    if (stopped) return run.stop_error();
    // Two threads may both claim the same slot; recount is not needed for correctness, only
    // the progress fraction can overshoot slightly, so clamp it.
    reached += found.load();
    if (progress) {
      progress(
          fmt::format("building {}: depth {}", what, level + 1),
          std::min(0.95, 0.95 * static_cast<double>(reached) / static_cast<double>(total_states)));
    }
    if (found.load() == 0) break;
    active.swap(next_active);
    std::fill(next_active.begin(), next_active.end(), 0);
    if (level + 1 >= 250)
      return make_error("internal: pattern search too deep", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
  }

  // Step 3. Least distance over the regions, minus the Manhattan distance, halved, packed in
  // the perm-major layout. A task takes CHUNK consecutive combs (an even number, so the two
  // nibbles of a byte always belong to the same task) and writes CHUNK/2 contiguous bytes of
  // every perm row.
  table->nibbles = table_storage(table->entries / 2);
  constexpr std::uint64_t CHUNK = 128;
  std::atomic<std::uint64_t> next_chunk{0};
  std::atomic<bool> broken{false};
  run_parallel(threads, [&](int) {
    std::vector<std::uint8_t> best(pc);
    std::vector<std::uint8_t> values(static_cast<std::size_t>(pc) * CHUNK);  // [perm][c - c0]
    for (;;) {
      const std::uint64_t c0 = next_chunk.fetch_add(CHUNK, std::memory_order_relaxed);
      if (c0 >= combs || should_stop()) break;
      const std::uint64_t c1 = std::min(combs, c0 + CHUNK);
      std::fill(values.begin(), values.end(), 0);
      for (std::uint64_t c = c0; c < c1; ++c) {
        std::fill(best.begin(), best.end(), UNSEEN);
        for (std::uint32_t b = block_start[c]; b < block_start[c + 1]; ++b) {
          const std::uint8_t* src = &dist[static_cast<std::size_t>(b) * pc];
          for (std::uint32_t p = 0; p < pc; ++p) best[p] = std::min(best[p], src[p]);
        }
        // md(p) = sum over order positions i of the distance from cell_i to the goal of seq[i].
        std::array<std::array<std::uint8_t, MAX_PATTERN>, MAX_PATTERN> md{};
        {
          int i = 0;
          for (int cell = 0; cell < n; ++cell) {
            if (!(masks[c] >> cell & 1)) continue;
            for (int t = 0; t < k; ++t) md[i][t] = geo.manhattan[cell][cells[t]];
            ++i;
          }
        }
        for (std::uint32_t p = 0; p < pc; ++p) {
          const std::uint8_t* s = &perms.sequences[static_cast<std::size_t>(p) * k];
          int manhattan = 0;
          for (int i = 0; i < k; ++i) manhattan += md[i][s[i]];
          int v = best[p];
          if (v == UNSEEN || v < manhattan || ((v - manhattan) & 1)) {
            broken = true;
            return;
          }
          values[static_cast<std::size_t>(p) * CHUNK + (c - c0)] =
              static_cast<std::uint8_t>(std::min(15, (v - manhattan) / 2));
        }
      }
      for (std::uint32_t p = 0; p < pc; ++p) {
        const std::uint8_t* in = &values[static_cast<std::size_t>(p) * CHUNK];
        std::uint8_t* out = &table->nibbles[(p * stride + c0) / 2];
        for (std::uint64_t x = 0; x < c1 - c0; x += 2)
          out[x / 2] = static_cast<std::uint8_t>(in[x] | in[x + 1] << 4);
      }
    }
  });
  if (stopped) return run.stop_error();
  if (broken) {
    return make_error("internal: pattern database " + what + " is inconsistent", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  if (progress) progress(fmt::format("built {}", what), 1.0);
  return table;
}

Result<std::shared_ptr<const PatternTable>> obtain_pattern_table(
    const Geometry& geo, const CombRanker& ranker, const PermTables& perms,
    const std::vector<std::uint8_t>& cells, TableStore& store, int threads,
    const TableProgress& progress, const RunContext* caller) {
  PatternTable shape;
  describe_table(shape, geo.width, cells, perms.count);
  TableRecipe<PatternTable> recipe;
  recipe.key = TableKey{fmt::format("sliding-{0}x{0}", geo.width), "pdb-additive " + shape.name(),
                        TABLE_FORMAT_VERSION};
  recipe.bytes = shape.entries / 2;
  recipe.allocate = [shape] {
    // Loaded straight into the table's own (huge-page) storage: no second copy of 260 MB.
    auto table = std::make_shared<PatternTable>(shape);
    table->nibbles = table_storage(table->entries / 2);
    return table;
  };
  // The build owns copies of what it reads (a few hundred KB) and reports through the run it is
  // given, so a store that allows it (the server's) can finish it after the request has gone.
  struct Inputs {
    Geometry geo;
    CombRanker ranker;
    PermTables perms;
    std::vector<std::uint8_t> cells;
  };
  auto inputs = std::make_shared<const Inputs>(Inputs{geo, ranker, perms, cells});
  recipe.background = true;
  recipe.build = [inputs, threads](const RunContext& r) {
    const TableProgress report = [&r](const std::string& what, double fraction) {
      r.report({what, static_cast<std::uint64_t>(fraction * 1000), 1000, ""});
    };
    return build_pattern_table(inputs->geo, inputs->ranker, inputs->perms, inputs->cells, threads,
                               report, r);
  };
  recipe.payload = [](PatternTable& t) { return std::span<std::uint8_t>(t.nibbles); };
  // The caller's run (cancellation, deadline, memory budget), with the store's progress in this
  // module's (what, fraction) shape.
  RunContext run = caller ? *caller : RunContext{};
  if (progress) {
    run.with_progress([&](const Progress& p) {
      progress(p.message.empty() ? p.phase : fmt::format("{} ({})", p.phase, p.message),
               p.total ? static_cast<double>(p.done) / static_cast<double>(p.total) : 0.0);
    });
  }
  return store.obtain(recipe, run);
}

}  // namespace permuzzle::sliding::pdb_detail
