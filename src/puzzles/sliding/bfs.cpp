#include "permuzzle/puzzles/sliding/bfs.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <chrono>

#include "permuzzle/core/ranking.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"

namespace permuzzle::sliding {

namespace {

constexpr std::uint8_t DONE = 0, UNSEEN = 3;

// 2-bit entries, 4 per byte; entry i in bits 2*(i%4).
class TwoBitArray {
 public:
  explicit TwoBitArray(std::uint64_t n) : bytes_((n + 3) / 4, 0xFF) {}
  std::uint8_t get(std::uint64_t i) const { return (bytes_[i >> 2] >> ((i & 3) * 2)) & 3; }
  void set(std::uint64_t i, std::uint8_t v) {
    std::uint8_t& b = bytes_[i >> 2];
    int s = static_cast<int>(i & 3) * 2;
    b = static_cast<std::uint8_t>((b & ~(3 << s)) | (v << s));
  }
  std::uint8_t byte(std::uint64_t j) const { return bytes_[j]; }
  std::uint64_t bytes() const { return bytes_.size(); }

 private:
  std::vector<std::uint8_t> bytes_;
};

struct Component {
  std::vector<std::uint64_t> histogram;
  std::vector<Position> last_layer_first;  // first K positions of the last layer
};

// Breadth-first search of the component of `root` (marked UNSEEN on entry).
// Sets `stopped` (and returns the layers finished so far) when the run context says stop.
Component explore(BoardSize size, std::uint64_t root, TwoBitArray& a, std::uint64_t total, int keep,
                  const BfsOptions& options, bool report, bool& stopped) {
  const int n = size.cells(), cols = size.cols;
  Component comp;
  a.set(root, 1);
  std::uint64_t sum = 1;
  comp.histogram.push_back(1);
  if (report && options.on_layer) options.on_layer(0, 1, 1);
  std::array<std::uint8_t, BFS_MAX_CELLS> p{};
  std::vector<Position> first;
  for (int d = 0;; ++d) {
    const std::uint8_t cur = static_cast<std::uint8_t>(1 + (d & 1));
    const std::uint8_t nxt = static_cast<std::uint8_t>(1 + ((d + 1) & 1));
    std::uint64_t count = 0;
    first.clear();
    // Byte patterns: skip bytes holding no entry equal to `cur`.
    for (std::uint64_t j = 0; j < a.bytes(); ++j) {
      if ((j & 4095) == 0 && options.run && options.run->should_stop()) {
        stopped = true;
        return comp;
      }
      std::uint8_t byte = a.byte(j);
      if (byte == 0xFF || byte == 0) continue;
      for (int s = 0; s < 4; ++s) {
        if (((byte >> (2 * s)) & 3) != cur) continue;
        std::uint64_t i = j * 4 + static_cast<std::uint64_t>(s);
        if (i >= total) break;
        unrank_permutation(i, n, p.data());
        if (static_cast<int>(first.size()) < keep) first.emplace_back(p.begin(), p.begin() + n);
        int blank = 0;
        while (p[blank] != 0) ++blank;
        int r = blank / cols, c = blank % cols;
        int targets[4];
        int m = 0;
        if (r > 0) targets[m++] = blank - cols;
        if (r + 1 < size.rows) targets[m++] = blank + cols;
        if (c > 0) targets[m++] = blank - 1;
        if (c + 1 < cols) targets[m++] = blank + 1;
        for (int k = 0; k < m; ++k) {
          std::swap(p[blank], p[targets[k]]);
          std::uint64_t q = rank_permutation(p.data(), n);
          std::swap(p[blank], p[targets[k]]);
          if (a.get(q) == UNSEEN) {
            a.set(q, nxt);
            ++count;
          }
        }
        a.set(i, DONE);
      }
    }
    comp.last_layer_first = first;
    if (count == 0) break;
    comp.histogram.push_back(count);
    sum += count;
    if (report && options.on_layer) options.on_layer(d + 1, count, sum);
  }
  return comp;
}

}  // namespace

Result<BfsResult> bfs(BoardSize size, const Position& goal, const BfsOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  if (auto s = check_board_size(size); !s) return s.error();
  if (size.cells() > BFS_MAX_CELLS) {
    return make_error(fmt::format("whole-graph search is limited to {} cells (3x4, 2x6); {} has "
                                  "{}! arrangements",
                                  BFS_MAX_CELLS, to_string(size), size.cells()),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  if (auto s = check_position(size, goal, "goal"); !s) return s.error();
  const int n = size.cells();
  BfsResult res;
  res.arrangements = *factorial(n);  // n <= BFS_MAX_CELLS
  if (options.run) {
    auto ok = options.run->check_memory((res.arrangements + 3) / 4,
                                        fmt::format("a breadth-first search of the {} board "
                                                    "(2 bits for each of {} arrangements)",
                                                    to_string(size), res.arrangements));
    if (!ok) return ok.error();
  }
  TwoBitArray a(res.arrangements);
  res.memory_bytes = a.bytes();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };

  // Step 1. The goal's component, layer by layer.
  bool stopped = false;
  Component c = explore(size, rank_permutation(goal.data(), n), a, res.arrangements,
                        options.antipodes_limit, options, true, stopped);
  res.histogram = c.histogram;
  if (stopped) {
    res.complete = false;
    for (auto h : res.histogram) res.states += h;
    res.seconds = elapsed();
    return res;
  }
  res.max_distance = static_cast<int>(res.histogram.size()) - 1;
  res.antipodes_count = res.histogram.back();
  res.antipodes = c.last_layer_first;
  long double weighted = 0;
  for (std::size_t d = 0; d < res.histogram.size(); ++d) {
    res.states += res.histogram[d];
    weighted += static_cast<long double>(d) * static_cast<long double>(res.histogram[d]);
  }
  res.mean_distance = static_cast<double>(weighted / static_cast<long double>(res.states));
  res.component_sizes.push_back(res.states);

  // Step 2. The other components: restart from the first arrangement not reached.
  if (options.count_all_components) {
    std::uint64_t covered = res.states;
    std::uint64_t next = 0;
    while (covered < res.arrangements) {
      while (a.get(next) != UNSEEN) ++next;
      Component other = explore(size, next, a, res.arrangements, 0, options, false, stopped);
      if (stopped) {
        // The goal's component is whole; the count of components is not.
        res.complete = false;
        res.seconds = elapsed();
        return res;
      }
      std::uint64_t sz = 0;
      for (auto h : other.histogram) sz += h;
      res.component_sizes.push_back(sz);
      covered += sz;
    }
    res.components = static_cast<int>(res.component_sizes.size());
    res.components_method = "breadth-first search of every component";
  } else {
    // Relabelling two tiles maps the graph onto itself and the goal's component onto a
    // component of the other parity of the same size; if the two fill the space there are 2.
    if (2 * res.states == res.arrangements) {
      res.components = 2;
      res.component_sizes.push_back(res.states);
      res.components_method =
          "goal component searched; the other half is its image under swapping two tile labels";
    }
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace permuzzle::sliding
