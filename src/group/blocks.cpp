// Block systems: Atkinson's union-find closure (see blocks.hpp).
#include "permuzzle/group/blocks.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace permuzzle {

namespace {

// Union-find over the points 0..degree-1 (path halving, union by size).
class PointPartition {
 public:
  explicit PointPartition(std::size_t degree) : parent_(degree), size_(degree, 1) {
    std::iota(parent_.begin(), parent_.end(), Point{0});
  }
  Point find(Point x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  // Joins the classes of x and y; false when they were one class already.
  bool join(Point x, Point y) {
    x = find(x);
    y = find(y);
    if (x == y) return false;
    if (size_[x] < size_[y]) std::swap(x, y);
    parent_[y] = x;
    size_[x] += size_[y];
    return true;
  }
  std::size_t class_size(Point x) { return size_[find(x)]; }

 private:
  std::vector<Point> parent_;
  std::vector<std::size_t> size_;
};

std::size_t degree_of(const std::vector<Perm>& generators, const std::vector<Point>& orbit) {
  std::size_t degree = 0;
  for (const Perm& g : generators) degree = std::max(degree, g.degree());
  for (Point p : orbit) degree = std::max<std::size_t>(degree, p + 1);
  return degree;
}

// Atkinson's closure from the pair (a, b): afterwards the classes of `partition` restricted to
// the orbit are the finest block system joining a and b.
void close_blocks(const std::vector<Perm>& generators, PointPartition& partition, Point a,
                  Point b) {
  // Step 1. Every pair whose classes were joined is queued once; its images under every
  // generator must lie in one class too. Pairs that were already in one class need no visit:
  // a chain of queued pairs joins them, and that chain's images are queued.
  std::vector<std::pair<Point, Point>> queue;
  if (partition.join(a, b)) queue.emplace_back(a, b);
  for (std::size_t next = 0; next < queue.size(); ++next) {
    const auto [x, y] = queue[next];
    for (const Perm& g : generators) {
      const Point gx = g.image(x), gy = g.image(y);
      if (partition.join(gx, gy)) queue.emplace_back(gx, gy);
    }
  }
}

BlockSystem collect_blocks(PointPartition& partition, const std::vector<Point>& orbit) {
  std::vector<Point> sorted = orbit;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::pair<Point, Point>> keyed;  // (class root, point)
  keyed.reserve(sorted.size());
  for (Point p : sorted) keyed.emplace_back(partition.find(p), p);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& l, const auto& r) { return l.first < r.first; });
  BlockSystem blocks;
  for (std::size_t i = 0; i < keyed.size(); ++i) {
    if (i == 0 || keyed[i].first != keyed[i - 1].first) blocks.emplace_back();
    blocks.back().push_back(keyed[i].second);
  }
  std::sort(blocks.begin(), blocks.end());
  return blocks;
}

}  // namespace

BlockSystem smallest_block_system(const std::vector<Perm>& generators,
                                  const std::vector<Point>& orbit, Point a, Point b) {
  PointPartition partition(degree_of(generators, orbit));
  close_blocks(generators, partition, a, b);
  return collect_blocks(partition, orbit);
}

Result<OrbitBlocks> minimal_block_systems(const std::vector<Perm>& generators,
                                          const std::vector<Point>& orbit, const RunContext* run) {
  OrbitBlocks result;
  result.orbit = orbit;
  std::sort(result.orbit.begin(), result.orbit.end());
  const std::size_t n = result.orbit.size();
  if (n < 3) return result;  // orbits of 1 or 2 points have no nontrivial blocks
  const std::size_t degree = degree_of(generators, orbit);
  const Point a = result.orbit[0];
  // Step 1. The block of a in the finest system joining a and b, for every other point b. Every
  // nontrivial block containing a contains one of these, so the minimal blocks are among them.
  std::vector<std::vector<Point>> candidates;  // blocks of a (sorted), nontrivial, distinct
  std::vector<char> in_candidate(degree, 0);
  for (std::size_t i = 1; i < n; ++i) {
    if (run && (i & 15) == 0 && run->should_stop()) return run->stop_error();
    PointPartition partition(degree);
    close_blocks(generators, partition, a, result.orbit[i]);
    if (partition.class_size(a) == n) continue;  // the whole orbit: trivial
    const Point root = partition.find(a);
    std::vector<Point> block;
    for (Point p : result.orbit) {
      if (partition.find(p) == root) block.push_back(p);
    }
    if (std::find(candidates.begin(), candidates.end(), block) == candidates.end()) {
      candidates.push_back(std::move(block));
    }
  }
  // Step 2. Keep the blocks that contain no other candidate (both contain a, so "contains" is
  // "is a strict superset of").
  std::sort(candidates.begin(), candidates.end(), [](const auto& l, const auto& r) {
    return l.size() != r.size() ? l.size() < r.size() : l < r;
  });
  std::vector<std::vector<Point>> minimal;
  for (const auto& block : candidates) {
    bool contains_other = false;
    for (const auto& smaller : minimal) {
      if (smaller.size() < block.size() &&
          std::includes(block.begin(), block.end(), smaller.begin(), smaller.end())) {
        contains_other = true;
        break;
      }
    }
    if (!contains_other) minimal.push_back(block);
  }
  // Step 3. Each minimal block of a gives its system (the finest one joining a with any other
  // point of the block).
  for (const auto& block : minimal) {
    if (run && run->should_stop()) return run->stop_error();
    result.minimal_systems.push_back(smallest_block_system(generators, orbit, a, block[1]));
  }
  return result;
}

Result<std::vector<OrbitBlocks>> minimal_block_systems(const PermGroup& g, const RunContext* run) {
  std::vector<OrbitBlocks> all;
  for (const auto& orbit : g.orbits()) {
    auto blocks = minimal_block_systems(g.generators(), orbit, run);
    if (!blocks) return blocks.error();
    all.push_back(std::move(*blocks));
  }
  return all;
}

bool is_block_system(const std::vector<Perm>& generators, const BlockSystem& system) {
  std::size_t degree = 0;
  for (const auto& block : system) {
    for (Point p : block) degree = std::max<std::size_t>(degree, p + 1);
  }
  for (const Perm& g : generators) degree = std::max(degree, g.degree());
  std::vector<std::int64_t> block_of(degree, -1);
  for (std::size_t i = 0; i < system.size(); ++i) {
    for (Point p : system[i]) {
      if (block_of[p] != -1) return false;  // blocks must be disjoint
      block_of[p] = static_cast<std::int64_t>(i);
    }
  }
  for (const Perm& g : generators) {
    for (const auto& block : system) {
      if (block.empty()) return false;
      const std::int64_t target = block_of[g.image(block[0])];
      if (target < 0 || system[target].size() != block.size()) return false;
      for (Point p : block) {
        if (block_of[g.image(p)] != target) return false;
      }
    }
  }
  return true;
}

}  // namespace permuzzle
