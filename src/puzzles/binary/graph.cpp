#include "permuzzle/puzzles/binary/graph.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "permuzzle/puzzles/binary/solver.hpp"

namespace permuzzle::binary {

namespace {

struct Ranker {
  std::uint64_t binom[MAX_BFS_CELLS + 1][MAX_BFS_CELLS + 2] = {};
  Ranker() {
    for (int n = 0; n <= MAX_BFS_CELLS; ++n) {
      binom[n][0] = 1;
      for (int k = 1; k <= n; ++k)
        binom[n][k] = binom[n - 1][k - 1] + (k <= n - 1 ? binom[n - 1][k] : 0);
    }
  }
  // Colex rank of a k-subset given as a bit mask.
  std::uint64_t rank(std::uint32_t mask) const {
    std::uint64_t r = 0;
    int j = 1;
    while (mask) {
      int pos = __builtin_ctz(mask);
      r += binom[pos][j];
      ++j;
      mask &= mask - 1;
    }
    return r;
  }
};

std::uint32_t to_mask(const Board& b) {
  std::uint32_t m = 0;
  for (std::size_t i = 0; i < b.size(); ++i) m |= static_cast<std::uint32_t>(b.cells[i]) << i;
  return m;
}

Board from_mask(std::uint32_t m, int rows, int cols) {
  Board b;
  b.rows = rows;
  b.cols = cols;
  b.cells.resize(static_cast<std::size_t>(rows * cols));
  for (int i = 0; i < rows * cols; ++i) b.cells[i] = (m >> i) & 1;
  return b;
}

// BFS over masks from `source`; `order` receives the masks in BFS order. Empty when the run
// asked to stop.
std::vector<std::uint8_t> bfs(std::uint32_t source, const std::vector<std::uint32_t>& pairs,
                              const Ranker& ranker, std::uint64_t count,
                              std::vector<std::uint32_t>& order, const RunContext* run) {
  std::vector<std::uint8_t> dist(count, 255);
  order.clear();
  order.reserve(count);
  dist[ranker.rank(source)] = 0;
  order.push_back(source);
  for (std::size_t head = 0; head < order.size(); ++head) {
    if (run && (head & 65535) == 65535 && run->should_stop()) return {};
    std::uint32_t u = order[head];
    std::uint8_t du = dist[ranker.rank(u)];
    for (std::uint32_t p : pairs) {
      std::uint32_t x = u & p;
      if (x == 0 || x == p) continue;  // both cells equal: not a useful swap
      std::uint32_t v = u ^ p;
      auto& dv = dist[ranker.rank(v)];
      if (dv == 255) {
        dv = static_cast<std::uint8_t>(du + 1);
        order.push_back(v);
      }
    }
  }
  return dist;
}

}  // namespace

Result<BinaryGraphSummary> summarize_graph(const Board& goal, const BinaryGraphOptions& options) {
  const int rows = goal.rows, cols = goal.cols, n = rows * cols;
  if (n > MAX_BFS_CELLS || n < 1) {
    return make_error(fmt::format("whole-graph analysis is limited to {} cells ({}x{} has {})",
                                  MAX_BFS_CELLS, rows, cols, n),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  const Ranker ranker;
  const std::size_t k = goal.ones();
  std::vector<std::uint32_t> pairs;  // masks of adjacent cell pairs
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int i = r * cols + c;
      if (c + 1 < cols) pairs.push_back((1u << i) | (1u << (i + 1)));
      if (r + 1 < rows) pairs.push_back((1u << i) | (1u << (i + cols)));
    }
  }
  BinaryGraphSummary s;
  s.rows = rows;
  s.cols = cols;
  s.ones = k;
  s.positions = ranker.binom[n][k];
  const RunContext* run = options.run;
  if (run) {
    // A distance byte and a mask (4 bytes) per position; twice that for the diameter's BFS.
    const std::uint64_t per = s.positions <= options.diameter_limit ? 10 : 5;
    if (auto st = run->check_memory(s.positions * per,
                                    fmt::format("a BFS over {} positions", s.positions));
        !st) {
      return st.error();
    }
  }
  // Step 1. BFS from the goal.
  std::vector<std::uint32_t> order;
  const std::uint32_t goal_mask = to_mask(goal);
  auto dist = bfs(goal_mask, pairs, ranker, s.positions, order, run);
  if (dist.empty()) return run->stop_error();
  if (order.size() != s.positions) {
    return make_error("internal: the swap graph is not connected", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  for (std::uint32_t m : order) {
    std::uint8_t d = dist[ranker.rank(m)];
    if (d >= s.per_distance.size()) s.per_distance.resize(d + 1);
    ++s.per_distance[d];
  }
  s.eccentricity = static_cast<int>(s.per_distance.size()) - 1;
  for (auto it = order.rbegin(); it != order.rend() && dist[ranker.rank(*it)] == s.eccentricity;
       ++it) {
    ++s.antipode_count;
    if (s.antipodes.size() < 32) s.antipodes.push_back(from_mask(*it, rows, cols));
  }
  // Step 2. Cross-check every position against the min-cost flow.
  if (options.cross_check_flow) {
    if (options.on_progress)
      options.on_progress(
          fmt::format("checking {} positions against min-cost flow...", s.positions));
    FlowOracle oracle(rows, cols);
    for (std::uint32_t m : order) {
      if (run && (s.flow_checked & 1023) == 1023 && run->should_stop()) return run->stop_error();
      std::uint64_t f = oracle.distance(m, goal_mask);
      ++s.flow_checked;
      if (f != dist[ranker.rank(m)]) ++s.flow_mismatches;
    }
  }
  // Step 3. Diameter by BFS from every position (small graphs only).
  if (s.positions <= options.diameter_limit) {
    if (options.on_progress) options.on_progress("diameter: BFS from every position...");
    int diameter = 0;
    std::vector<std::uint32_t> all = order, scratch;
    for (std::uint32_t m : all) {
      auto d = bfs(m, pairs, ranker, s.positions, scratch, run);
      if (d.empty()) return run->stop_error();
      diameter = std::max<int>(diameter, d[ranker.rank(scratch.back())]);
    }
    s.diameter = diameter;
  }
  return s;
}

}  // namespace permuzzle::binary
