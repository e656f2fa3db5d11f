// The conjugate-in-subgroup pruning test of normaliser searches (see conjugate_test.hpp).
#include "permuzzle/group/conjugate_test.hpp"

#include <algorithm>
#include <numeric>

namespace permuzzle {

namespace {

// Test elements kept at most (each costs about (J + 1)·n per node).
constexpr std::size_t MAX_TESTS = 64;

}  // namespace

Status ConjugateInSubgroupTest::prepare(const PermGroup& h, const std::vector<Point>& search_base,
                                        std::size_t n, std::size_t max_bytes,
                                        const RunContext* run) {
  tests_.clear();
  levels_.clear();
  n_ = n;
  if (h.order() == 1 || h.degree() > n) return Ok{};
  // Step 1. H's chain, the search base first.
  SchreierSimsOptions options;
  options.randomized = h.degree() > 64;
  options.run = run;
  for (Point b : search_base) {
    if (b < h.degree()) options.base_prefix.push_back(b);
  }
  auto chain = PermGroup::from_generators(h.generators(), {}, options);
  if (!chain) return chain.error();
  const std::vector<Point> base = chain->base();
  const std::vector<Perm> strong = chain->strong_generators();
  // Step 2. The tables' size: per level its orbit's inverses, and the orbit ids.
  std::uint64_t bytes = std::uint64_t(base.size() + 1) * n * sizeof(Point);
  std::vector<std::vector<const Perm*>> level_gens(base.size() + 1);
  for (std::size_t l = 0; l <= base.size(); ++l) {
    for (const Perm& s : strong) {
      bool fixes = true;
      for (std::size_t i = 0; i < l && fixes; ++i) fixes = s.image(base[i]) == base[i];
      if (fixes) level_gens[l].push_back(&s);
    }
  }
  // Step 3. Orbits of H^(j), j = 0..levels.
  orbit_id_.assign((base.size() + 1) * n, 0);
  for (std::size_t j = 0; j <= base.size(); ++j) {
    if (run && run->should_stop()) return run->stop_error();
    Point* id = &orbit_id_[j * n];
    std::vector<char> seen(n, 0);
    for (std::size_t p = 0; p < n; ++p) {
      if (seen[p]) continue;
      std::vector<Point> queue{static_cast<Point>(p)};
      seen[p] = 1;
      for (std::size_t q = 0; q < queue.size(); ++q) {
        id[queue[q]] = static_cast<Point>(p);
        for (const Perm* s : level_gens[j]) {
          const Point to = s->image(queue[q]);
          if (!seen[to]) seen[to] = 1, queue.push_back(to);
        }
      }
    }
  }
  // Step 4. Each level's transversal (as inverses) and the test elements, deepest level first.
  std::vector<std::vector<Perm>> transversals(base.size());
  for (std::size_t l = 0; l < base.size(); ++l) {
    std::vector<Point> orbit;
    for (std::size_t p = 0; p < n; ++p) {
      if (orbit_id_[l * n + p] == orbit_id_[l * n + base[l]]) orbit.push_back(Point(p));
    }
    bytes += std::uint64_t(orbit.size()) * n * sizeof(Point);
    if (bytes > max_bytes) return Ok{};
  }
  levels_.resize(base.size());
  for (std::size_t l = 0; l < base.size(); ++l) {
    if (run && run->should_stop()) return run->stop_error();
    Level& level = levels_[l];
    level.base = base[l];
    level.where.assign(n, -1);
    std::vector<Perm> elements{Perm(n)};
    std::vector<Point> orbit{base[l]};
    level.where[base[l]] = 0;
    for (std::size_t q = 0; q < orbit.size(); ++q) {
      for (const Perm* s : level_gens[l]) {
        const Point to = s->image(orbit[q]);
        if (level.where[to] >= 0) continue;
        level.where[to] = static_cast<std::int32_t>(orbit.size());
        orbit.push_back(to);
        elements.push_back(elements[q] * *s);
      }
    }
    level.inverse.resize(orbit.size() * n);
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      const Perm inv = elements[i].inverse();
      for (std::size_t p = 0; p < n; ++p) level.inverse[i * n + p] = inv.image(Point(p));
    }
    transversals[l] = std::move(elements);
  }
  for (std::size_t l = base.size(); l-- > 0 && tests_.size() < MAX_TESTS;) {
    for (std::size_t i = 1; i < transversals[l].size() && tests_.size() < MAX_TESTS; ++i) {
      std::vector<Point> flat(n);
      for (std::size_t p = 0; p < n; ++p) flat[p] = transversals[l][i].image(Point(p));
      tests_.push_back(std::move(flat));
    }
  }
  w_inverse_.resize(n);
  scratch_.resize(n);
  return Ok{};
}

bool ConjugateInSubgroupTest::consistent(std::size_t depth, const std::vector<Point>& image,
                                         const std::vector<std::uint32_t>& depth_of) {
  if (tests_.empty()) return true;
  const std::size_t n = n_;
  auto known = [&](Point p) { return depth_of[p] <= depth; };
  // F: the base prefix fixed by the node's elements.
  std::size_t fixed = 0;
  while (fixed < levels_.size() && known(levels_[fixed].base) &&
         image[levels_[fixed].base] == levels_[fixed].base) {
    ++fixed;
  }
  for (const auto& h : tests_) {
    std::size_t j = 0;
    while (j < fixed && known(h[levels_[j].base])) ++j;
    // Sift k's known base images: w^-1 accumulates u_1^-1 ... u_j^-1.
    std::iota(w_inverse_.begin(), w_inverse_.end(), Point{0});
    for (std::size_t l = 0; l < j; ++l) {
      const Point target = w_inverse_[image[h[levels_[l].base]]];
      const std::int32_t at = levels_[l].where[target];
      if (at < 0) return false;
      const Point* u_inverse = &levels_[l].inverse[std::size_t(at) * n];
      for (std::size_t p = 0; p < n; ++p) w_inverse_[p] = u_inverse[w_inverse_[p]];
    }
    // Every known pair (x^g, (x^h)^g) must lie in one orbit of H^(j) after w^-1.
    const Point* id = &orbit_id_[j * n];
    for (std::size_t x = 0; x < n; ++x) {
      if (!known(Point(x)) || !known(h[x])) continue;
      if (id[image[x]] != id[w_inverse_[image[h[x]]]]) return false;
    }
  }
  return true;
}

}  // namespace permuzzle
