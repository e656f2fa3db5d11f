// Backtrack search over a base and strong generating set (see backtrack.hpp).
#include "permuzzle/group/backtrack.hpp"

#include "permuzzle/group/conjugate_test.hpp"
#include "permuzzle/group/operations.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

#include "permuzzle/core/rng.hpp"

namespace permuzzle {

namespace {

// How often (in search nodes) the run context is polled.
constexpr std::uint64_t POLL_EVERY_NODES = 1024;

// Layout: one level per base point b_k of G^(k) = G_{b_0..b_{k-1}}.
// `orbit` is b_k's orbit under G^(k) (b_k first), `where[p]` its index in `orbit` or -1, and
// `trans` holds orbit.size() flat permutations of `n` points: trans[i*n + p] is the image of p
// under u_i, an element of G^(k) taking b_k to orbit[i]. Rows are filled on first use (`ready`),
// from the Schreier tree: most candidates are rejected from their image alone, and untouched
// rows cost no memory traffic. `determined` lists the points fixed by G^(k+1) but not by G^(k)
// (their images are known once b_k's is chosen).
struct SearchLevel {
  Point base = 0;
  std::vector<Point> orbit;
  std::vector<std::int32_t> where;
  std::unique_ptr<Point[]> trans;
  std::vector<char> ready;
  std::vector<Point> determined;
  // The Schreier tree: orbit[i] = generator parent[i].second applied to orbit[parent[i].first].
  std::vector<std::pair<std::uint32_t, std::uint32_t>> parent;
};

struct SearchChain {
  std::size_t n = 0;
  std::vector<Point> base;
  std::vector<SearchLevel> levels;
  std::vector<std::vector<Point>> strong;  // the strong generators (flat)
  std::vector<Point> root_determined;      // fixed by the whole group
  std::vector<std::uint32_t> depth_of;     // see SearchProperty
  std::vector<std::uint32_t> rank;         // search order of points: the base first, in order

  // u_i of level k (see SearchLevel), computed on first use.
  const Point* transversal(std::size_t k, std::size_t i) {
    SearchLevel& lv = levels[k];
    if (!lv.ready[i]) {
      // The path up the Schreier tree to a computed row, then down again.
      std::vector<std::size_t> path;
      for (std::size_t j = i; !lv.ready[j]; j = lv.parent[j].first) path.push_back(j);
      for (std::size_t step = path.size(); step-- > 0;) {
        const std::size_t j = path[step];
        const auto& s = strong[lv.parent[j].second];
        const Point* from = &lv.trans[std::size_t(lv.parent[j].first) * n];
        Point* to = &lv.trans[j * n];
        for (std::size_t p = 0; p < n; ++p) to[p] = s[from[p]];
        lv.ready[j] = 1;
      }
    }
    return &lv.trans[i * n];
  }
};

std::vector<Point> flat(const Perm& p, std::size_t n) {
  std::vector<Point> images(n);
  for (std::size_t i = 0; i < n; ++i) images[i] = p.image(static_cast<Point>(i));
  return images;
}

Perm to_perm(const std::vector<Point>& images) {
  return *Perm::from_images(images);
}

// Above this degree an answer gets Schreier vectors (filling explicit rows of that many points
// costs more than the search: PSL(2,1031)'s centraliser of an involution).
constexpr std::size_t EXPLICIT_ANSWER_DEGREE = 256;
// An answer whose explicit transversal tables take at most this many bytes gets them.
constexpr std::uint64_t SMALL_ANSWER_TABLE_BYTES = std::uint64_t{64} << 20;

// Seed of the random elements of the base change (any fixed seed: the chain is exact).
constexpr std::uint64_t BASE_CHANGE_SEED = 25;

// Lays out levels for `base` from strong generators `strong` (flat, n points): the generators
// fixing b_0..b_{k-1} generate level k's group. The explicit transversals (within the memory
// budget) only with `with_transversals`; the Schreier trees always.
Status lay_out_levels(SearchChain& c, const std::vector<std::vector<Point>>& strong,
                      bool with_transversals, const RunContext* run) {
  const std::size_t n = c.n;
  c.levels.clear();
  c.root_determined.clear();
  c.depth_of.assign(n, 0);
  std::vector<const std::vector<Point>*> gens;
  for (const auto& s : strong) gens.push_back(&s);
  std::vector<char> fixed_before(n, 1);
  for (const auto* s : gens) {
    for (std::size_t p = 0; p < n; ++p) {
      if ((*s)[p] != p) fixed_before[p] = 0;
    }
  }
  for (std::size_t p = 0; p < n; ++p) {
    if (fixed_before[p]) c.root_determined.push_back(static_cast<Point>(p));
  }
  std::uint64_t bytes = 0;
  for (std::size_t k = 0; k < c.base.size(); ++k) {
    if (run && run->should_stop()) return run->stop_error();
    const Point b = c.base[k];
    SearchLevel lv;
    lv.base = b;
    lv.where.assign(n, -1);
    lv.orbit.push_back(b);
    lv.where[b] = 0;
    // The orbit first (a Schreier tree: parent index and generator), then, within the memory
    // budget, every transversal element explicitly: u(q) = u(parent)·s.
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& parent = lv.parent;
    parent.assign(1, {0, 0});
    for (std::size_t i = 0; i < lv.orbit.size(); ++i) {
      for (std::size_t j = 0; j < gens.size(); ++j) {
        const Point q = (*gens[j])[lv.orbit[i]];
        if (lv.where[q] >= 0) continue;
        lv.where[q] = static_cast<std::int32_t>(lv.orbit.size());
        lv.orbit.push_back(q);
        // Generator indices count in `strong` (gens are pointers into it).
        parent.emplace_back(static_cast<std::uint32_t>(i),
                            static_cast<std::uint32_t>(gens[j] - strong.data()));
      }
    }
    bytes += std::uint64_t(lv.orbit.size()) * n * sizeof(Point) + n * 2 * sizeof(Point);
    if (with_transversals) {
      if (run) {
        if (auto st = run->check_memory(bytes, "the backtrack search's transversal tables"); !st) {
          return st.error();
        }
      }
      // Uninitialised: rows are written before they are read (see SearchChain::transversal).
      lv.trans.reset(new Point[lv.orbit.size() * n]);
      lv.ready.assign(lv.orbit.size(), 0);
      std::iota(&lv.trans[0], &lv.trans[n], Point{0});
      lv.ready[0] = 1;
    }
    // The next level's group: the generators fixing b_k too; its fixed points not fixed
    // before are determined at depth k + 1.
    std::vector<const std::vector<Point>*> next;
    for (const auto* s : gens) {
      if ((*s)[b] == b) next.push_back(s);
    }
    gens = std::move(next);
    std::vector<char> fixed(n, 1);
    for (const auto* s : gens) {
      for (std::size_t p = 0; p < n; ++p) {
        if ((*s)[p] != p) fixed[p] = 0;
      }
    }
    for (std::size_t p = 0; p < n; ++p) {
      if (fixed[p] && !fixed_before[p]) {
        lv.determined.push_back(static_cast<Point>(p));
        c.depth_of[p] = static_cast<std::uint32_t>(k + 1);
      }
    }
    fixed_before = std::move(fixed);
    c.levels.push_back(std::move(lv));
  }
  return Ok{};
}

// Base change: g's chain on a base starting with `prefix`, laid out for the search on
// n >= g.degree() points, within the run's memory budget. The order of g is known, so random
// Schreier–Sims needs no verification: uniform random elements of g are sifted through the
// chain being built, each residue becomes a strong generator (a new base point when it fixes
// every base point), until the basic orbits' lengths multiply to |g| (then the generators
// found generate g and are a strong generating set for the base).
//
// With `whole_prefix`, every prefix point is a base point, in order, even where its level is
// trivial (a chain aligned level by level with another group's base).
Result<SearchChain> build_search_chain(const PermGroup& g, std::size_t n,
                                       const std::vector<Point>& prefix, const RunContext* run,
                                       bool whole_prefix = false) {
  // Step 1. The prefix (points the group moves, without repeats), used in order as base points
  // are needed: a base point is only added for a residue that moves it, so no level is trivial.
  const std::size_t usable = whole_prefix ? n : g.degree();
  std::vector<Point> pending;
  SearchChain c;
  c.n = n;
  std::vector<char> seen(std::max<std::size_t>(usable, 1), 0);
  for (Point p : prefix) {
    if (p < usable && !seen[p]) {
      seen[p] = 1;
      pending.push_back(p);
    }
  }
  if (whole_prefix) c.base = std::move(pending), pending.clear();
  // Step 2. Random elements sifted until the orbits account for the whole order.
  const mpz_class order = g.order();
  std::vector<std::vector<Point>> strong;
  Rng rng(BASE_CHANGE_SEED);
  std::vector<Point> x(n);
  auto levels_order = [&] {
    mpz_class product = 1;
    for (const SearchLevel& lv : c.levels) product *= static_cast<unsigned long>(lv.orbit.size());
    return product;
  };
  std::vector<std::vector<Point>> inverses;  // of the strong generators
  if (auto st = lay_out_levels(c, strong, false, run); !st) return st.error();
  while (levels_order() != order) {
    if (run && run->should_stop()) return run->stop_error();
    const Perm r = g.random_element(rng);
    for (std::size_t p = 0; p < n; ++p) x[p] = r.image(static_cast<Point>(p));
    std::size_t k = 0;
    for (; k < c.levels.size(); ++k) {
      const SearchLevel& lv = c.levels[k];
      std::int32_t i = lv.where[x[lv.base]];
      if (i < 0) break;
      // x := x·u^-1 with u taking b_k to x(b_k), up the Schreier tree: x then fixes b_k.
      while (i != 0) {
        const auto [up, j] = lv.parent[static_cast<std::size_t>(i)];
        const std::vector<Point>& inverse = inverses[j];
        for (std::size_t p = 0; p < n; ++p) x[p] = inverse[x[p]];
        i = static_cast<std::int32_t>(up);
      }
    }
    std::size_t first_moved = 0;
    while (first_moved < n && x[first_moved] == first_moved) ++first_moved;
    if (first_moved == n) continue;  // sifted to the identity
    if (k == c.levels.size()) {
      auto next = std::find_if(pending.begin(), pending.end(), [&](Point p) { return x[p] != p; });
      if (next == pending.end()) {
        c.base.push_back(static_cast<Point>(first_moved));
      } else {
        c.base.push_back(*next);
        pending.erase(next);
      }
    }
    strong.push_back(x);
    inverses.emplace_back(n);
    for (std::size_t p = 0; p < n; ++p) inverses.back()[x[p]] = static_cast<Point>(p);
    if (auto st = lay_out_levels(c, strong, false, run); !st) return st.error();
  }
  if (auto st = lay_out_levels(c, strong, true, run); !st) return st.error();
  c.strong = std::move(strong);
  // Step 3. The order of points: base points first.
  c.rank.assign(n, 0);
  std::vector<char> in_base(n, 0);
  std::uint32_t r = 0;
  for (Point b : c.base) {
    c.rank[b] = r++;
    in_base[b] = 1;
  }
  for (std::size_t p = 0; p < n; ++p) {
    if (!in_base[p]) c.rank[p] = r++;
  }
  return c;
}

// The depth-first search below one node. `least_orbit[k]` (at least 1) is |b_k^{P^(k)}| for the
// levels whose part of the answer is complete: an image of b_k is only tried when at least
// least_orbit[k] - 1 candidates rank above it (the search looks for the element of least base
// image in its coset P^(k)·g).
class Search {
 public:
  Search(SearchChain& c, SearchProperty& property, const RunContext* run, BacktrackStats& stats)
      : c_(c),
        property_(property),
        run_(run),
        stats_(stats),
        images_(c.levels.size() + 1),
        least_orbit_(c.levels.size(), 1),
        probes_(c.levels.size()) {
    for (auto& image : images_) image.resize(c.n);
    for (std::size_t k = 0; k < c.levels.size(); ++k) {
      const auto& determined = c.levels[k].determined;
      probes_[k] = property.probe_points(k + 1, determined, c.depth_of);
      if (probes_[k].size() >= determined.size()) probes_[k].clear();  // nothing to save
    }
  }

  std::vector<std::size_t>& least_orbit() { return least_orbit_; }
  bool stopped() const { return stopped_; }
  const std::vector<Point>& found() const { return images_.back(); }

  // The node at depth `depth` whose element is the identity (the root, or the first branch of a
  // subgroup search); its image array is reset.
  std::vector<Point>& identity_at(std::size_t depth) {
    std::iota(images_[depth].begin(), images_[depth].end(), Point{0});
    return images_[depth];
  }

  // Is there an element with the property below the child u_i·h of the identity node at depth
  // k, u_i taking b_k to orbit point i (i = 0: the identity)? With `check_root`, the root's
  // determined points are tested first.
  bool below_identity(std::size_t k, std::size_t i) {
    auto& h = identity_at(k);
    property_.restart(k);
    ++stats_.nodes;
    // Step 1. The quick test of the image of b_k (no transversal row is needed for it).
    const SearchLevel& lv = c_.levels[k];
    if (!property_.admissible(k + 1, lv.base, lv.orbit[i], h, c_.depth_of)) return false;
    // Step 2. The child's points of depth <= k are fixed (u_i lies in G^(k)); its probes and
    // determined points next (cheap rejection), then the rest.
    auto& child = images_[k + 1];
    const std::size_t n = c_.n;
    for (Point p : c_.root_determined) child[p] = p;
    for (std::size_t d = 0; d < k; ++d) {
      for (Point p : c_.levels[d].determined) child[p] = p;
    }
    const Point* u = c_.transversal(k, i);
    if (!probes_[k].empty()) {
      for (Point p : probes_[k]) child[p] = u[p];
      if (!property_.probe_consistent(k + 1, probes_[k], child, c_.depth_of)) return false;
    }
    for (Point p : lv.determined) child[p] = u[p];
    if (!property_.consistent(k + 1, lv.determined, child, c_.depth_of)) return false;
    for (std::size_t p = 0; p < n; ++p) child[p] = h[u[p]];
    return descend(k + 1);
  }

  // Element search from the root.
  bool from_root() {
    auto& h = identity_at(0);
    property_.restart(0);
    ++stats_.nodes;
    if (!property_.consistent(0, c_.root_determined, h, c_.depth_of)) return false;
    return descend(0);
  }

 private:
  // The node at `depth` is images_[depth] (consistent so far); true when an element with the
  // property lies below it (it is then images_.back()).
  bool descend(std::size_t depth) {
    if (depth == c_.levels.size()) {
      ++stats_.leaves;
      return property_.accept(images_[depth]);
    }
    const SearchLevel& lv = c_.levels[depth];
    const std::vector<Point>& h = images_[depth];
    std::vector<Point>& child = images_[depth + 1];
    const std::size_t n = c_.n, size = lv.orbit.size();
    // Step 1. Candidates in the order of their images' ranks, the last least_orbit - 1 cut
    // (those of rank above the keep-th smallest); the quick test (admissible, which reads no
    // state of deeper nodes) runs before the sort, so only the survivors are sorted.
    const std::size_t keep = size + 1 - std::min(size, least_orbit_[depth]);
    std::uint32_t highest_rank = std::numeric_limits<std::uint32_t>::max();
    if (keep < size) {
      std::vector<std::uint32_t> ranks(size);
      for (std::size_t i = 0; i < size; ++i) ranks[i] = c_.rank[h[lv.orbit[i]]];
      std::nth_element(ranks.begin(), ranks.begin() + (keep - 1), ranks.end());
      highest_rank = ranks[keep - 1];
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> order;
    for (std::size_t i = 0; i < size; ++i) {
      const Point gamma = h[lv.orbit[i]];
      const std::uint32_t rank = c_.rank[gamma];
      if (rank > highest_rank) continue;
      if ((++stats_.nodes % POLL_EVERY_NODES) == 0 && run_ && run_->should_stop()) {
        stopped_ = true;
        return false;
      }
      if (!property_.admissible(depth + 1, lv.base, gamma, h, c_.depth_of)) continue;
      order.push_back({rank, static_cast<std::uint32_t>(i)});
    }
    std::sort(order.begin(), order.end());
    // Step 2. Each candidate: the determined points first (cheap rejection), then the rest.
    // Points of smaller depth have the same image in every child, so one copy serves all.
    const std::vector<Point>& probes = probes_[depth];
    child = h;
    for (std::size_t j = 0; j < order.size(); ++j) {
      const Point* u = c_.transversal(depth, order[j].second);
      if (!probes.empty()) {
        for (Point p : probes) child[p] = h[u[p]];
        if (!property_.probe_consistent(depth + 1, probes, child, c_.depth_of)) continue;
      }
      for (Point p : lv.determined) child[p] = h[u[p]];
      if (!property_.consistent(depth + 1, lv.determined, child, c_.depth_of)) continue;
      for (std::size_t p = 0; p < n; ++p) child[p] = h[u[p]];
      if (descend(depth + 1)) return true;
      if (stopped_) return false;
    }
    return false;
  }

  SearchChain& c_;
  SearchProperty& property_;
  const RunContext* run_;
  BacktrackStats& stats_;
  std::vector<std::vector<Point>> images_;  // the node at each depth of the current path
  std::vector<std::size_t> least_orbit_;
  // probes_[k]: the property's probe points among level k's determined points (empty: none).
  std::vector<std::vector<Point>> probes_;
  bool stopped_ = false;
};

// Union-find over points keeping the least-ranked point of each class as its root.
class PointClasses {
 public:
  PointClasses(std::size_t n, const std::vector<std::uint32_t>& rank) : parent_(n), rank_(rank) {
    std::iota(parent_.begin(), parent_.end(), Point{0});
  }
  Point find(Point p) {
    while (parent_[p] != p) p = parent_[p] = parent_[parent_[p]];
    return p;
  }
  void unite(Point a, Point b) {
    a = find(a), b = find(b);
    if (a == b) return;
    if (rank_[b] < rank_[a]) std::swap(a, b);
    parent_[b] = a;
  }
  void add_generator(const std::vector<Point>& s) {
    for (std::size_t p = 0; p < s.size(); ++p) unite(static_cast<Point>(p), s[p]);
  }

 private:
  std::vector<Point> parent_;
  const std::vector<std::uint32_t>& rank_;
};

// A subgroup's strong generators relative to the search's base, found level by level.
struct FoundSubgroup {
  std::vector<std::vector<Point>> generators;
  std::vector<std::size_t> orbit_sizes;  // |b_k^{P^(k)}| per level
  mpz_class order = 1;
};

// A single known element of at most this order seeds the search with a strong generating set of
// its cyclic group read off its powers (seeds need not be one: the search finds whatever they
// miss; they only prune).
constexpr std::uint64_t MAX_POWERS_AS_SEEDS = 64;

// Sims' level-by-level subgroup search on a prepared chain (see the header's comment).
Result<FoundSubgroup> run_subgroup_search(SearchChain& c, SearchProperty& property,
                                          const std::vector<Perm>& known, const RunContext* run,
                                          BacktrackStats& stats) {
  const std::size_t levels = c.levels.size(), n = c.n;
  // Step 1. The known elements' strong generators on the same base, by level (the first base
  // point each moves).
  std::vector<std::vector<std::vector<Point>>> seeds(levels);
  std::vector<Perm> useful;
  for (const Perm& k : known) {
    if (!k.is_identity() && k.largest_moved_point() <= n) useful.push_back(k);
  }
  // The level of s: the first base point it moves (levels when it fixes the base).
  auto level_of = [&](const std::vector<Point>& images) {
    std::size_t level = 0;
    while (level < levels && images[c.base[level]] == c.base[level]) ++level;
    return level;
  };
  auto seed = [&](const Perm& s) {
    auto images = flat(s, n);
    const std::size_t level = level_of(images);
    if (level < levels) seeds[level].push_back(std::move(images));
  };
  if (useful.size() == 1 && levels > 0 && useful[0].order() <= MAX_POWERS_AS_SEEDS) {
    // One element x, no chain to build: <x> ∩ G^(l) = <x^d> for the least d with x^d in G^(l),
    // so the powers of x whose level exceeds every earlier power's form a strong generating set
    // of <x> on this base.
    std::size_t deepest = 0;
    bool any = false;
    for (Perm power = useful[0]; !power.is_identity(); power = power * useful[0]) {
      auto images = flat(power, n);
      const std::size_t level = level_of(images);
      if (level >= levels || (any && level <= deepest)) continue;
      deepest = level, any = true;
      seeds[level].push_back(std::move(images));
    }
  } else if (!useful.empty() && levels > 0) {
    SchreierSimsOptions options;
    options.base_prefix = c.base;
    std::size_t moved = 0;
    for (const Perm& k : useful) moved = std::max(moved, k.largest_moved_point());
    options.base_prefix.erase(std::remove_if(options.base_prefix.begin(), options.base_prefix.end(),
                                             [&](Point p) { return p >= moved; }),
                              options.base_prefix.end());
    options.randomized = moved > 64;
    options.run = run;
    auto k = PermGroup::from_generators(useful, {}, options);
    if (!k) return k.error();
    for (const Perm& s : k->strong_generators()) seed(s);
  }
  // Step 2. Bottom-up: P^(k) from P^(k+1), one search per orbit of the found group on b_k's
  // orbit that may still be reached.
  Search search(c, property, run, stats);
  PointClasses classes(n, c.rank);
  FoundSubgroup result;
  result.orbit_sizes.assign(levels, 1);
  for (std::size_t k = levels; k-- > 0;) {
    const SearchLevel& lv = c.levels[k];
    for (auto& s : seeds[k]) {
      classes.add_generator(s);
      result.generators.push_back(std::move(s));
    }
    std::vector<Point> candidates = lv.orbit;
    std::sort(candidates.begin(), candidates.end(),
              [&](Point a, Point b) { return c.rank[a] < c.rank[b]; });
    for (Point gamma : candidates) {
      if (classes.find(gamma) != gamma || classes.find(gamma) == classes.find(lv.base)) continue;
      if (search.below_identity(k, static_cast<std::size_t>(lv.where[gamma]))) {
        classes.add_generator(search.found());
        result.generators.push_back(search.found());
      } else if (search.stopped()) {
        return run->stop_error();
      }
    }
    std::size_t size = 0;
    const Point root = classes.find(lv.base);
    for (Point p : lv.orbit) size += classes.find(p) == root;
    result.orbit_sizes[k] = size;
    search.least_orbit()[k] = size;
    result.order *= static_cast<unsigned long>(size);
  }
  return result;
}

// The group generated by the found generators, checked against the order the search proved.
Result<PermGroup> found_group(const FoundSubgroup& found, const SearchChain& c,
                              const RunContext* run) {
  if (found.generators.empty()) return PermGroup();
  // Distinct generators (the seeds may repeat each other and the identity).
  std::set<Perm> distinct;
  for (const auto& s : found.generators) {
    Perm p = to_perm(s);
    if (!p.is_identity()) distinct.insert(std::move(p));
  }
  if (distinct.empty()) return PermGroup();
  std::vector<Perm> gens(distinct.begin(), distinct.end());
  std::size_t moved = 0;
  for (const Perm& p : gens) moved = std::max(moved, p.largest_moved_point());
  SchreierSimsOptions options;
  for (Point b : c.base) {
    if (b < moved) options.base_prefix.push_back(b);
  }
  // The answer's order is proven by the search's levels: randomized Schreier–Sims stops when it
  // reaches it (no certificate), with explicit transversals when they are small.
  std::uint64_t table_bytes = 0;
  for (std::size_t size : found.orbit_sizes) table_bytes += 2 * std::uint64_t(size) * moved * 4;
  if (table_bytes <= SMALL_ANSWER_TABLE_BYTES && moved <= EXPLICIT_ANSWER_DEGREE) {
    options.transversals = SchreierSimsOptions::Transversals::Explicit;
  } else if (moved > EXPLICIT_ANSWER_DEGREE) {
    options.transversals = SchreierSimsOptions::Transversals::SchreierVectors;
  }
  options.randomized = true;
  options.known_order = found.order;
  options.run = run;
  auto g = PermGroup::from_generators(std::move(gens), {}, options);
  if (!g) return g.error();
  if (g->order() != found.order) {
    return make_error("internal error: the backtrack search's subgroup has order " +
                          g->order().get_str() + ", its levels say " + found.order.get_str(),
                      {}, Error::NO_POSITION, ErrorKind::Internal);
  }
  return g;
}

std::size_t search_degree(const PermGroup& g, const SearchProperty& property) {
  return std::max(g.degree(), property.degree());
}

Result<SearchChain> prepared_chain(const PermGroup& g, SearchProperty& property,
                                   const RunContext* run) {
  auto c = build_search_chain(g, search_degree(g, property), property.preferred_base(), run);
  if (!c) return c.error();
  if (auto st = property.prepare(c->base, c->depth_of, run); !st) return st.error();
  return c;
}

// k^-1 mod m for k prime to m.
unsigned long inverse_mod(unsigned long k, unsigned long m) {
  long long a = static_cast<long long>(k), b = static_cast<long long>(m), x = 1, y = 0;
  while (b != 0) {
    const long long q = a / b;
    a -= q * b, x -= q * y;
    std::swap(a, b), std::swap(x, y);
  }
  x %= static_cast<long long>(m);
  return static_cast<unsigned long>(x < 0 ? x + static_cast<long long>(m) : x);
}

// ---- Properties ----

// x_i^g = y_i for every pair (x_i, y_i): x_i·g = g·y_i, so image[x_i[p]] = y_i[image[p]].
// Centralizers have y_i = x_i.
class ConjugatesProperty : public SearchProperty {
 public:
  ConjugatesProperty(const std::vector<Perm>& xs, const std::vector<Perm>& ys) {
    for (const Perm& p : xs) n_ = std::max(n_, p.largest_moved_point());
    for (const Perm& p : ys) n_ = std::max(n_, p.largest_moved_point());
    xs_ = xs;
    ys_ = ys;
  }
  std::size_t degree() const override { return n_; }
  // Breadth-first along the x's from each point, largest orbits of <x_i> first: once one point
  // of an orbit has its image, the images of the rest follow.
  std::vector<Point> preferred_base() const override {
    auto all = orbits(xs_, n_);
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    std::vector<Point> order;
    std::vector<char> seen(n_, 0);
    for (const auto& orbit : all) {
      if (orbit.size() < 2) break;
      std::size_t start = order.size();
      order.push_back(orbit[0]);
      seen[orbit[0]] = 1;
      for (std::size_t i = start; i < order.size(); ++i) {
        for (const Perm& x : xs_) {
          Point q = x.image(order[i]);
          if (!seen[q]) {
            seen[q] = 1;
            order.push_back(q);
          }
        }
      }
    }
    return order;
  }
  Status prepare(const std::vector<Point>&, const std::vector<std::uint32_t>& depth_of,
                 const RunContext*) override {
    const std::size_t n = depth_of.size();
    x_.clear(), x_inverse_.clear(), y_.clear();
    for (std::size_t i = 0; i < xs_.size(); ++i) {
      x_.push_back(flat(xs_[i], n));
      x_inverse_.push_back(flat(xs_[i].inverse(), n));
      y_.push_back(flat(ys_[i], n));
    }
    return Ok{};
  }
  bool consistent(std::size_t, const std::vector<Point>& determined,
                  const std::vector<Point>& image,
                  const std::vector<std::uint32_t>& depth_of) override {
    for (Point p : determined) {
      const std::uint32_t d = depth_of[p];
      for (std::size_t i = 0; i < x_.size(); ++i) {
        const Point after = x_[i][p], before = x_inverse_[i][p];
        if (depth_of[after] <= d && image[after] != y_[i][image[p]]) return false;
        if (depth_of[before] <= d && image[p] != y_[i][image[before]]) return false;
      }
    }
    return true;
  }
  bool admissible(std::size_t depth, Point point, Point point_image,
                  const std::vector<Point>& image,
                  const std::vector<std::uint32_t>& depth_of) override {
    for (std::size_t i = 0; i < x_.size(); ++i) {
      const Point after = x_[i][point], before = x_inverse_[i][point];
      if (depth_of[after] < depth && image[after] != y_[i][point_image]) return false;
      if (depth_of[before] < depth && point_image != y_[i][image[before]]) return false;
    }
    return true;
  }
  // Points of this depth whose images can be checked alone (an x_i-neighbour has a smaller
  // depth) first; failing those, pairs p, x_1(p) of this depth.
  std::vector<Point> probe_points(std::size_t depth, const std::vector<Point>& determined,
                                  const std::vector<std::uint32_t>& depth_of) override {
    std::vector<Point> probes;
    for (Point p : determined) {
      if (probes.size() >= MAX_PROBES) break;
      for (std::size_t i = 0; i < x_.size(); ++i) {
        if (depth_of[x_[i][p]] < depth || depth_of[x_inverse_[i][p]] < depth) {
          probes.push_back(p);
          break;
        }
      }
    }
    if (!probes.empty() || x_.empty()) return probes;
    for (Point p : determined) {
      if (probes.size() + 2 > MAX_PROBES) break;
      const Point q = x_[0][p];
      if (q == p || depth_of[q] != depth || is_probe(probes, p) || is_probe(probes, q)) continue;
      probes.push_back(p);
      probes.push_back(q);
    }
    return probes;
  }
  bool probe_consistent(std::size_t depth, const std::vector<Point>& probes,
                        const std::vector<Point>& image,
                        const std::vector<std::uint32_t>& depth_of) override {
    auto known = [&](Point q) { return depth_of[q] < depth || is_probe(probes, q); };
    for (Point p : probes) {
      for (std::size_t i = 0; i < x_.size(); ++i) {
        const Point after = x_[i][p], before = x_inverse_[i][p];
        if (known(after) && image[after] != y_[i][image[p]]) return false;
        if (known(before) && image[p] != y_[i][image[before]]) return false;
      }
    }
    return true;
  }
  bool accept(const std::vector<Point>& image) override {
    for (std::size_t i = 0; i < x_.size(); ++i) {
      for (std::size_t p = 0; p < image.size(); ++p) {
        if (image[x_[i][p]] != y_[i][image[p]]) return false;
      }
    }
    return true;
  }

 private:
  // Probes per depth: a handful (each rejects a wrong node alone with high probability).
  static constexpr std::size_t MAX_PROBES = 4;
  static bool is_probe(const std::vector<Point>& probes, Point q) {
    return std::find(probes.begin(), probes.end(), q) != probes.end();
  }
  std::size_t n_ = 0;
  std::vector<Perm> xs_, ys_;
  std::vector<std::vector<Point>> x_, x_inverse_, y_;
};

// g maps the set onto itself.
class SetProperty : public SearchProperty {
 public:
  explicit SetProperty(const std::vector<Point>& set) : set_(set) {
    for (Point p : set) n_ = std::max<std::size_t>(n_, p + 1);
  }
  std::size_t degree() const override { return n_; }
  std::vector<Point> preferred_base() const override { return set_; }
  Status prepare(const std::vector<Point>&, const std::vector<std::uint32_t>& depth_of,
                 const RunContext*) override {
    in_set_.assign(depth_of.size(), 0);
    for (Point p : set_) in_set_[p] = 1;
    return Ok{};
  }
  bool consistent(std::size_t, const std::vector<Point>& determined,
                  const std::vector<Point>& image, const std::vector<std::uint32_t>&) override {
    for (Point p : determined) {
      if (in_set_[p] != in_set_[image[p]]) return false;
    }
    return true;
  }
  bool admissible(std::size_t, Point point, Point point_image, const std::vector<Point>&,
                  const std::vector<std::uint32_t>&) override {
    return in_set_[point] == in_set_[point_image];
  }
  bool accept(const std::vector<Point>& image) override {
    for (Point p : set_) {
      if (!in_set_[image[p]]) return false;
    }
    return true;
  }

 private:
  std::vector<Point> set_;
  std::size_t n_ = 0;
  std::vector<char> in_set_;
};

// g lies in H: the base images must be those of an element of H (sifted through H's chain on
// the same base, one level per depth).
class MemberProperty : public SearchProperty {
 public:
  explicit MemberProperty(const PermGroup& h) : h_(h) {}
  std::size_t degree() const override { return h_.degree(); }
  std::vector<Point> preferred_base() const override { return h_.base(); }
  Status prepare(const std::vector<Point>& base, const std::vector<std::uint32_t>& depth_of,
                 const RunContext* run) override {
    const std::size_t n = depth_of.size();
    base_ = base;
    auto c = build_search_chain(h_, n, base, run, /*whole_prefix=*/true);
    if (!c) return c.error();
    h_chain_ = std::move(*c);
    // The prune needs H's levels on G's base points, in order.
    aligned_ = true;
    for (std::size_t k = 0; k < h_chain_.base.size() && k < base.size(); ++k) {
      aligned_ = aligned_ && h_chain_.base[k] == base[k];
    }
    // inverse_[k] = t_k^-1 for the element t_k of H with the path's first k base images.
    inverse_.assign(base.size() + 1, std::vector<Point>(n));
    std::iota(inverse_[0].begin(), inverse_[0].end(), Point{0});
    return Ok{};
  }
  void restart(std::size_t depth) override {
    if (depth < inverse_.size())
      std::iota(inverse_[depth].begin(), inverse_[depth].end(), Point{0});
  }
  bool consistent(std::size_t depth, const std::vector<Point>&, const std::vector<Point>& image,
                  const std::vector<std::uint32_t>&) override {
    if (!aligned_ || depth == 0) return true;
    const std::size_t k = depth - 1;
    const std::vector<Point>& before = inverse_[k];
    const Point target = before[image[base_[k]]];
    std::vector<Point>& after = inverse_[depth];
    if (k >= h_chain_.levels.size()) {
      if (target != base_[k]) return false;
      after = before;
      return true;
    }
    const SearchLevel& lv = h_chain_.levels[k];
    const std::int32_t i = lv.where[target];
    if (i < 0) return false;
    // t_{k+1} = u·t_k, so t_{k+1}^-1 = t_k^-1·u^-1.
    const Point* u = h_chain_.transversal(k, static_cast<std::size_t>(i));
    scratch_.resize(h_chain_.n);
    for (std::size_t p = 0; p < h_chain_.n; ++p) scratch_[u[p]] = static_cast<Point>(p);
    for (std::size_t p = 0; p < after.size(); ++p) after[p] = scratch_[before[p]];
    return true;
  }
  bool accept(const std::vector<Point>& image) override { return h_.contains(to_perm(image)); }

 private:
  const PermGroup& h_;
  SearchChain h_chain_;
  std::vector<Point> base_;
  std::vector<std::vector<Point>> inverse_;
  std::vector<Point> scratch_;
  bool aligned_ = false;
};

// H^g = H: g maps H's orbits onto orbits of the same size (pruning), and conjugates every
// generator of H into H (the test). A small H (at most SMALL_SUBGROUP_ELEMENTS elements) prunes
// much harder: s^g, for each generator s, is an element of H of s's cycle type, and only those
// candidates c with c(image[p]) = image[s(p)] on every determined p survive; a node where some
// generator has none left is cut. The survivors are kept per depth.
constexpr std::uint64_t SMALL_SUBGROUP_ELEMENTS = 5000;
// A larger H keeps, per point, the sizes of its point stabilizers' orbits (n * n points at most
// this many bytes), checked from the first ANCHORS base points.
constexpr std::uint64_t SUBORBIT_TABLE_BYTES = std::uint64_t{64} << 20;
constexpr std::size_t ANCHORS = 4;

class NormalizesProperty : public SearchProperty {
 public:
  explicit NormalizesProperty(const PermGroup& h) : h_(h) {}
  std::size_t degree() const override { return h_.degree(); }
  // H's orbits, smallest first (the fewest choices for their first image).
  std::vector<Point> preferred_base() const override {
    auto all = h_.orbits();
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& a, const auto& b) { return a.size() < b.size(); });
    std::vector<Point> order;
    for (const auto& orbit : all) order.insert(order.end(), orbit.begin(), orbit.end());
    return order;
  }
  Status prepare(const std::vector<Point>& base, const std::vector<std::uint32_t>& depth_of,
                 const RunContext* run) override {
    const std::size_t n = depth_of.size();
    depth_of_ = depth_of;  // a copy: the chain may move after prepare
    orbit_of_.assign(n, 0);
    orbit_size_.clear();
    first_.clear();
    auto all = orbits(h_.generators(), n);
    for (std::size_t o = 0; o < all.size(); ++o) {
      Point first = all[o][0];
      for (Point p : all[o]) {
        orbit_of_[p] = static_cast<std::uint32_t>(o);
        if (depth_of[p] < depth_of[first]) first = p;
      }
      orbit_size_.push_back(all[o].size());
      first_.push_back(first);
    }
    generators_.clear();
    inverses_.clear();
    for (const Perm& s : h_.generators()) {
      generators_.push_back(flat(s, n));
      inverses_.push_back(flat(s.inverse(), n));
    }
    conjugate_.resize(n);
    // The candidates for each s^g (small H only).
    candidates_.clear();
    if (h_.order() <= SMALL_SUBGROUP_ELEMENTS) {
      auto elements = h_.elements(SMALL_SUBGROUP_ELEMENTS, run);
      if (!elements) return elements.error();
      for (const Perm& s : h_.generators()) {
        std::vector<std::vector<Point>> same_type;
        for (const Perm& e : *elements) {
          if (e.cycle_type() == s.cycle_type()) same_type.push_back(flat(e, n));
        }
        candidates_.push_back(std::move(same_type));
      }
      alive_.assign(base.size() + 1, std::vector<std::vector<std::uint32_t>>(generators_.size()));
    } else if (std::uint64_t(n) * n * sizeof(Point) <= SUBORBIT_TABLE_BYTES) {
      // A large H: the sizes of the orbits of H_p on the points (see suborbits_agree), from
      // H_r for one r per orbit and t_p in H taking r to p: the H_p-orbit of q is t_p applied
      // to the H_r-orbit of t_p^-1(q).
      suborbit_size_.assign(all.size(), {});
      to_representative_.assign(n * n, 0);
      for (std::size_t p = 0; p < n; ++p) to_representative_[p * n + p] = static_cast<Point>(p);
      for (std::size_t o = 0; o < all.size(); ++o) {
        if (run && run->should_stop()) return run->stop_error();
        const Point r = all[o][0];
        const PermGroup stabilizer = h_.stabilizer(r);
        auto& sizes = suborbit_size_[o];
        sizes.assign(n, 1);
        for (const auto& sub : orbits(stabilizer.generators(), n)) {
          for (Point q : sub) sizes[q] = static_cast<std::uint32_t>(sub.size());
        }
        // t_r^-1 = 1; t_{s(p)}^-1 = t_p^-1 · s^-1 (breadth-first over the orbit).
        std::vector<char> reached(n, 0);
        std::vector<Point> queue = {r};
        reached[r] = 1;
        std::iota(&to_representative_[r * n], &to_representative_[r * n + n], Point{0});
        for (std::size_t i = 0; i < queue.size(); ++i) {
          const Point p = queue[i];
          for (std::size_t j = 0; j < generators_.size(); ++j) {
            const Point q = generators_[j][p];
            if (reached[q]) continue;
            reached[q] = 1;
            queue.push_back(q);
            for (std::size_t x = 0; x < n; ++x) {
              to_representative_[q * n + x] = to_representative_[p * n + inverses_[j][x]];
            }
          }
        }
      }
      anchors_.assign(base.begin(), base.begin() + std::min<std::size_t>(base.size(), ANCHORS));
    }
    if (candidates_.empty()) {
      if (auto st = conjugates_.prepare(h_, base, n, SUBORBIT_TABLE_BYTES, run); !st) return st;
    }
    return Ok{};
  }
  void restart(std::size_t depth) override { restart_depth_ = depth; }
  bool consistent(std::size_t depth, const std::vector<Point>& determined,
                  const std::vector<Point>& image,
                  const std::vector<std::uint32_t>& depth_of) override {
    for (Point p : determined) {
      const std::uint32_t o = orbit_of_[p];
      if (orbit_size_[orbit_of_[image[p]]] != orbit_size_[o]) return false;
      if (orbit_of_[image[p]] != orbit_of_[image[first_[o]]]) return false;
    }
    if (!suborbit_size_.empty() && !suborbits_agree(depth, determined, image, depth_of)) {
      return false;
    }
    if (conjugates_.active() && !conjugates_.consistent(depth, image, depth_of)) return false;
    if (candidates_.empty()) return true;
    // Below the restart depth the path is the identity: the survivors there are the
    // candidates agreeing with s on every point of depth <= the restart depth.
    if (depth <= restart_depth_ + 1) refilter_identity();
    const std::size_t from = depth == 0 ? 0 : depth - 1;
    for (std::size_t i = 0; i < generators_.size(); ++i) {
      const auto& s = generators_[i];
      const auto& s_inverse = inverses_[i];
      auto& survivors = alive_[depth][i];
      survivors.clear();
      for (std::uint32_t j : depth == 0 ? all_indices(i) : alive_[from][i]) {
        const auto& c = candidates_[i][j];
        bool ok = true;
        for (Point p : determined) {
          const Point after = s[p], before = s_inverse[p];
          if (depth_of[after] <= depth && c[image[p]] != image[after]) ok = false;
          if (depth_of[before] <= depth && c[image[before]] != image[p]) ok = false;
          if (!ok) break;
        }
        if (ok) survivors.push_back(j);
      }
      if (survivors.empty()) return false;
    }
    return true;
  }
  bool accept(const std::vector<Point>& image) override {
    for (const auto& s : generators_) {
      // s^g maps image[p] to image[s[p]].
      for (std::size_t p = 0; p < image.size(); ++p) conjugate_[image[p]] = image[s[p]];
      if (!h_.contains(to_perm(conjugate_))) return false;
    }
    return true;
  }

 private:
  std::vector<std::uint32_t> all_indices(std::size_t i) const {
    std::vector<std::uint32_t> all(candidates_[i].size());
    std::iota(all.begin(), all.end(), 0u);
    return all;
  }
  // |orbit of q under H_p|.
  std::uint32_t suborbit(Point p, Point q) const {
    const std::size_t n = depth_of_.size();
    return suborbit_size_[orbit_of_[p]][to_representative_[p * n + q]];
  }
  // H_p^g = H_{p^g} when g normalizes H, so the H_p-orbit of q and the H_{p^g}-orbit of q^g
  // have the same size: checked for the first base points p (anchors) against every point
  // whose image is known.
  bool suborbits_agree(std::size_t depth, const std::vector<Point>& determined,
                       const std::vector<Point>& image,
                       const std::vector<std::uint32_t>& depth_of) const {
    for (Point a : anchors_) {
      if (depth_of[a] > depth) continue;
      for (Point x : determined) {
        if (suborbit(a, x) != suborbit(image[a], image[x])) return false;
      }
      if (depth_of[a] != depth) continue;
      for (std::size_t q = 0; q < depth_of.size(); ++q) {
        if (depth_of[q] < depth &&
            suborbit(a, static_cast<Point>(q)) != suborbit(image[a], image[q])) {
          return false;
        }
      }
    }
    return true;
  }
  // alive_[restart_depth_] for the identity path: candidates equal to s on the points of depth
  // <= restart_depth_ whose images under s also have such depth.
  void refilter_identity() {
    const auto& depth_of = depth_of_;
    const std::size_t d = restart_depth_;
    for (std::size_t i = 0; i < generators_.size(); ++i) {
      auto& survivors = alive_[d][i];
      survivors.clear();
      for (std::uint32_t j = 0; j < candidates_[i].size(); ++j) {
        const auto& c = candidates_[i][j];
        bool ok = true;
        for (std::size_t p = 0; p < c.size() && ok; ++p) {
          const Point q = generators_[i][p];
          if (depth_of[p] <= d && depth_of[q] <= d) ok = c[p] == q;
        }
        if (ok) survivors.push_back(j);
      }
    }
  }

  const PermGroup& h_;
  // Large H: h^g in H for the transversal elements h of H's chain (conjugate_test.hpp).
  ConjugateInSubgroupTest conjugates_;
  std::vector<std::uint32_t> depth_of_;
  std::vector<std::uint32_t> orbit_of_;
  std::vector<std::size_t> orbit_size_;
  std::vector<Point> first_;  // the point of each orbit whose image is determined first
  std::vector<std::vector<Point>> generators_, inverses_;
  std::vector<Point> conjugate_;
  // candidates_[i]: the elements of H of generator i's cycle type; alive_[depth][i]: indices of
  // those still possible at the node of that depth on the current path.
  std::vector<std::vector<std::vector<Point>>> candidates_;
  std::vector<std::vector<std::vector<std::uint32_t>>> alive_;
  std::size_t restart_depth_ = 0;
  // Large H: suborbit_size_[o][q] = |orbit of q under H_r| for the first point r of orbit o;
  // to_representative_[p * n + q] = t_p^-1(q); anchors_: the base points checked.
  std::vector<std::vector<std::uint32_t>> suborbit_size_;
  std::vector<Point> to_representative_;
  std::vector<Point> anchors_;
};

Result<std::optional<Perm>> element_search_on(SearchChain& c, SearchProperty& property,
                                              const std::vector<std::size_t>& least_orbit,
                                              const RunContext* run, BacktrackStats& stats) {
  Search search(c, property, run, stats);
  if (!least_orbit.empty()) search.least_orbit() = least_orbit;
  if (search.from_root()) return std::optional<Perm>(to_perm(search.found()));
  if (search.stopped()) return run->stop_error();
  return std::optional<Perm>();
}

std::vector<Perm> members_of(const PermGroup& g, const std::vector<Perm>& candidates) {
  std::vector<Perm> in;
  for (const Perm& p : candidates) {
    if (g.contains(p)) in.push_back(p);
  }
  return in;
}

}  // namespace

Result<PermGroup> subgroup_search(const PermGroup& g, SearchProperty& property,
                                  const std::vector<Perm>& known, const RunContext* run,
                                  BacktrackStats* stats) {
  BacktrackStats local;
  auto c = prepared_chain(g, property, run);
  if (!c) return c.error();
  auto found = run_subgroup_search(*c, property, known, run, stats ? *stats : local);
  if (!found) return found.error();
  return found_group(*found, *c, run);
}

Result<std::optional<Perm>> element_search(const PermGroup& g, SearchProperty& property,
                                           const RunContext* run, BacktrackStats* stats) {
  BacktrackStats local;
  auto c = prepared_chain(g, property, run);
  if (!c) return c.error();
  return element_search_on(*c, property, {}, run, stats ? *stats : local);
}

Result<PermGroup> centralizer(const PermGroup& g, const Perm& x, const RunContext* run) {
  ConjugatesProperty property({x}, {x});
  std::vector<Perm> known;
  if (g.contains(x)) known.push_back(x);
  return subgroup_search(g, property, known, run);
}

Result<PermGroup> centralizer(const PermGroup& g, const PermGroup& h, const RunContext* run) {
  ConjugatesProperty property(h.generators(), h.generators());
  return subgroup_search(g, property, {}, run);
}

Result<PermGroup> center(const PermGroup& g, const RunContext* run) {
  if (is_abelian(g)) return g;
  return centralizer(g, g, run);
}

Result<std::optional<Perm>> find_conjugator(const PermGroup& g, const Perm& x, const Perm& y,
                                            const RunContext* run) {
  if (x.cycle_type() != y.cycle_type()) return std::optional<Perm>();
  ConjugatesProperty property({x}, {y});
  return element_search(g, property, run);
}

Result<PermGroup> normalizer(const PermGroup& g, const PermGroup& h, const RunContext* run) {
  // Step 1. A cyclic H = <x>: N(<x>) is C(x) with one element per power x^k (k prime to the
  // order of x) that x is conjugate to; the conjugator searches share C(x)'s chain and prune by
  // it (only the least element of each coset C(x)·c is looked for).
  const std::vector<Perm> in_g = members_of(g, h.generators());
  if (h.order() == 1) return g;
  if (h.generators().size() == 1 && h.order() < (1u << 20)) {
    const Perm& x = h.generators()[0];
    const unsigned long m = h.order().get_ui();
    ConjugatesProperty central({x}, {x});
    auto c = prepared_chain(g, central, run);
    if (!c) return c.error();
    BacktrackStats stats;
    auto found = run_subgroup_search(*c, central, in_g, run, stats);
    if (!found) return found.error();
    // Step 2. The units k mod m with x conjugate to x^k form a subgroup R of (Z/m)^*; a k
    // found unreachable makes its whole coset k·R unreachable (x^g = x^(k·r) and x^h = x^r
    // give x^(g·h^-1) = x^k).
    std::vector<char> in_r(m, 0);
    in_r[1] = 1;
    std::vector<unsigned long> reached = {1};
    std::vector<unsigned long> unreachable_inverses;  // k^-1 for one k of each coset found
    for (unsigned long k = 2; k < m; ++k) {
      if (in_r[k] || std::gcd(k, m) != 1) continue;
      if (std::any_of(unreachable_inverses.begin(), unreachable_inverses.end(),
                      [&](unsigned long f) { return in_r[k * f % m]; })) {
        continue;
      }
      ConjugatesProperty to_power({x}, {x.pow(static_cast<long long>(k))});
      if (auto st = to_power.prepare(c->base, c->depth_of, run); !st) return st.error();
      auto conjugator = element_search_on(*c, to_power, found->orbit_sizes, run, stats);
      if (!conjugator) return conjugator.error();
      if (!*conjugator) {
        unreachable_inverses.push_back(inverse_mod(k, m));
        continue;
      }
      found->generators.push_back(flat(**conjugator, c->n));
      // R grows to the closure of R and k.
      for (std::size_t i = 0; i < reached.size(); ++i) {
        const unsigned long next = reached[i] * k % m;
        if (!in_r[next]) {
          in_r[next] = 1;
          reached.push_back(next);
        }
      }
    }
    found->order *= static_cast<unsigned long>(reached.size());
    // The order check of found_group does not apply to the extended generators' levels; it
    // compares against |C(x)|·(units reached), which is |N(<x>)|.
    return found_group(*found, *c, run);
  }
  // Step 2. The general search, seeded with H ∩ G's generators and C_G(H) (both normalize H;
  // the larger the known part, the fewer cosets are searched).
  auto central = centralizer(g, h, run);
  if (!central) return central.error();
  std::vector<Perm> known = in_g;
  known.insert(known.end(), central->generators().begin(), central->generators().end());
  NormalizesProperty property(h);
  return subgroup_search(g, property, known, run);
}

Result<PermGroup> set_stabilizer(const PermGroup& g, const std::vector<Point>& set,
                                 const RunContext* run) {
  SetProperty property(set);
  return subgroup_search(g, property, {}, run);
}

Result<PermGroup> intersection(const PermGroup& g, const PermGroup& h, const RunContext* run) {
  MemberProperty property(h);
  return subgroup_search(g, property, members_of(g, h.generators()), run);
}

bool is_normal(const PermGroup& g, const PermGroup& h) {
  for (const Perm& x : h.generators()) {
    if (!g.contains(x)) return false;
    for (const Perm& s : g.generators()) {
      if (!h.contains(x.conjugate(s))) return false;
    }
  }
  return true;
}

Result<PermGroup> normal_closure(const PermGroup& g, const PermGroup& h, const RunContext* run) {
  std::vector<Perm> gens;
  for (const Perm& x : h.generators()) {
    if (!g.contains(x)) {
      return make_error("the subgroup's generator " + x.to_cycle_string() + " is not in the group");
    }
    if (!x.is_identity()) gens.push_back(x);
  }
  if (gens.empty()) return PermGroup();
  auto build = [&](std::vector<Perm> list) -> Result<PermGroup> {
    std::size_t moved = 0;
    for (const Perm& p : list) moved = std::max(moved, p.largest_moved_point());
    SchreierSimsOptions options;
    options.randomized = moved > 64;
    options.run = run;
    return PermGroup::from_generators(std::move(list), {}, options);
  };
  auto n = build(gens);
  if (!n) return n.error();
  // Conjugate every generator of the closure so far by every generator of G; a conjugate
  // outside is added (and conjugated in turn). Each addition grows the group, so this ends.
  for (std::size_t i = 0; i < gens.size(); ++i) {
    for (const Perm& s : g.generators()) {
      if (run && run->should_stop()) return run->stop_error();
      Perm c = gens[i].conjugate(s);
      if (n->contains(c)) continue;
      gens.push_back(c);
      n = build(gens);
      if (!n) return n.error();
    }
  }
  return n;
}

}  // namespace permuzzle
