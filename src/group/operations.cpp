// Group operations on top of PermGroup (see operations.hpp for the bounds).
#include "permuzzle/group/operations.hpp"

#include "permuzzle/group/backtrack.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace permuzzle {

namespace {

// Builds <gens> as PermGroup does for the CLI: randomized (still exact) above degree 64.
// With a run context: its stop request and memory budget apply, and their errors are returned
// (without one, a group is always built: its generators come from an existing group).
Result<PermGroup> make_group_run(std::vector<Perm> gens, const RunContext* run) {
  std::vector<Perm> useful;
  for (Perm& p : gens) {
    if (!p.is_identity()) useful.push_back(std::move(p));
  }
  if (useful.empty()) return PermGroup();
  std::size_t n = 0;
  for (const Perm& p : useful) n = std::max(n, p.largest_moved_point());
  SchreierSimsOptions options;
  options.randomized = n > 64;
  options.run = run;
  auto g = PermGroup::from_generators(std::move(useful), {}, options);
  if (!g && run) return g.error();
  return g.ok() ? *g : PermGroup();
}

PermGroup make_group(std::vector<Perm> gens) {
  return *make_group_run(std::move(gens), nullptr);
}

std::vector<Point> moved_points(const PermGroup& g) {
  std::vector<Point> points;
  for (const auto& orbit : g.orbits()) points.insert(points.end(), orbit.begin(), orbit.end());
  std::sort(points.begin(), points.end());
  return points;
}

// 0: not the natural symmetric or alternating group on its moved points; 1: S_m; 2: A_m.
// (A_m is the only subgroup of index 2 in S_m, so the order decides.)
int natural_giant(const PermGroup& g, std::size_t m) {
  if (m < 2) return 0;
  mpz_class f;
  mpz_fac_ui(f.get_mpz_t(), static_cast<unsigned long>(m));
  if (g.order() == f) return 1;
  if (m >= 3 && g.order() * 2 == f) return 2;
  return 0;
}

Perm perm_of_cycle(const std::vector<Point>& c, std::size_t n) {
  std::vector<Point> images(n);
  std::iota(images.begin(), images.end(), Point{0});
  for (std::size_t i = 0; i < c.size(); ++i) images[c[i]] = c[(i + 1) % c.size()];
  return *Perm::from_images(std::move(images));
}

// Generators of S (or A) on `points`: a long cycle and a transposition; A_m = <(1,2,3),
// (1,...,m)> for m odd, <(1,2,3), (2,...,m)> for m even. The trivial group when too few points.
PermGroup giant_on(std::vector<Point> points, bool alternating, std::size_t n) {
  if (points.size() < (alternating ? 3u : 2u)) return PermGroup();
  if (!alternating) {
    return make_group({perm_of_cycle(points, n), perm_of_cycle({points[0], points[1]}, n)});
  }
  std::vector<Point> three = {points[0], points[1], points[2]};
  if (points.size() % 2 == 0) points.erase(points.begin());
  return make_group({perm_of_cycle(three, n), perm_of_cycle(points, n)});
}

// A permutation c with x^c = y when x and y have the same cycle type (on `points`, fixed
// points included): the cycles of x mapped onto those of y, longest first.
Perm align_cycles(const Perm& x, const Perm& y, const std::vector<Point>& points, std::size_t n) {
  auto cycles_with_fixed = [&](const Perm& p) {
    std::vector<std::vector<Point>> cycles;
    std::vector<char> seen(n, 0);
    for (Point s : points) {
      if (seen[s]) continue;
      std::vector<Point> c;
      for (Point q = s; !seen[q]; q = p.image(q)) {
        seen[q] = 1;
        c.push_back(q);
      }
      cycles.push_back(std::move(c));
    }
    std::stable_sort(cycles.begin(), cycles.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    return cycles;
  };
  auto cx = cycles_with_fixed(x), cy = cycles_with_fixed(y);
  std::vector<Point> images(n);
  std::iota(images.begin(), images.end(), Point{0});
  for (std::size_t i = 0; i < cx.size(); ++i) {
    for (std::size_t j = 0; j < cx[i].size(); ++j) images[cx[i][j]] = cy[i][j];
  }
  return *Perm::from_images(std::move(images));
}

// Checks a growing enumeration every 1024 steps: the stop request, and the memory of `items`
// entries of `per_item` bytes against the budget (so a list is refused when it reaches the
// budget, not after it filled the machine).
Status check_growth(const RunContext* run, std::uint64_t step, std::uint64_t items,
                    std::uint64_t per_item, const char* what) {
  if (!run || (step & 1023) != 0) return Ok{};
  if (run->should_stop()) return run->stop_error();
  const std::uint64_t bytes = items > UINT64_MAX / per_item ? UINT64_MAX : items * per_item;
  return run->check_memory(bytes, what);
}

}  // namespace

PermGroup pointwise_stabilizer(const PermGroup& g, const std::vector<Point>& points) {
  return *pointwise_stabilizer(g, points, nullptr);
}

Result<PermGroup> pointwise_stabilizer(const PermGroup& g, const std::vector<Point>& points,
                                       const RunContext* run) {
  const std::size_t n = g.degree();
  std::vector<Point> prefix;
  for (Point p : points) {
    if (p < n && std::find(prefix.begin(), prefix.end(), p) == prefix.end()) prefix.push_back(p);
  }
  if (prefix.empty() || g.order() == 1) return g;
  // S_m / A_m: the same on the remaining moved points.
  std::vector<Point> moved = moved_points(g);
  if (int kind = natural_giant(g, moved.size()); kind != 0) {
    std::vector<Point> rest;
    for (Point p : moved) {
      if (std::find(prefix.begin(), prefix.end(), p) == prefix.end()) rest.push_back(p);
    }
    return giant_on(rest, kind == 2, n);
  }
  // A chain whose base starts with the points: the strong generators fixing all of them
  // include those of the deeper levels, which generate the pointwise stabilizer.
  SchreierSimsOptions options;
  options.base_prefix = prefix;
  options.randomized = n > 64;
  options.run = run;
  auto rebased = PermGroup::from_generators(g.strong_generators(), {}, options);
  if (!rebased.ok() && run) return rebased.error();  // stopped, or over the run's budget
  if (!rebased.ok()) return g;                       // cannot happen: g's own chain fitted
  std::vector<Perm> gens;
  for (const Perm& s : rebased->strong_generators()) {
    if (std::all_of(prefix.begin(), prefix.end(), [&](Point p) { return s.image(p) == p; })) {
      gens.push_back(s);
    }
  }
  return make_group_run(std::move(gens), run);
}

bool is_subgroup(const PermGroup& h, const PermGroup& g) {
  return std::all_of(h.generators().begin(), h.generators().end(),
                     [&](const Perm& x) { return g.contains(x); });
}

Result<mpz_class> subgroup_index(const PermGroup& g, const PermGroup& h) {
  if (!is_subgroup(h, g)) {
    return make_error(
        "the second group is not a subgroup of the first (a generator of it is "
        "not in the group)");
  }
  return mpz_class(g.order() / h.order());
}

Result<std::vector<Perm>> right_coset_representatives(const PermGroup& g, const PermGroup& h,
                                                      std::uint64_t limit, const RunContext* run) {
  auto index = subgroup_index(g, h);
  if (!index) return index.error();
  if (*index > mpz_class(std::to_string(limit))) {
    return make_error(
        "the index is " + index->get_str() + ", more than the limit " + std::to_string(limit), {},
        Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  const std::size_t target = index->get_ui(), n = g.degree();
  // Two permutations per coset (representative and inverse), reserved below.
  const std::uint64_t per_coset = 2 * g.element_bytes();
  if (run) {
    const std::uint64_t bytes = target > UINT64_MAX / per_coset ? UINT64_MAX : target * per_coset;
    if (auto s = run->check_memory(bytes, "the " + index->get_str() + " coset representatives");
        !s) {
      return s.error();
    }
  }
  std::vector<Perm> reps = {Perm(n)}, inverses = {Perm(n)};
  std::uint64_t tests = 0;
  for (std::size_t q = 0; q < reps.size() && reps.size() < target; ++q) {
    for (const Perm& s : g.generators()) {
      Perm x = (reps[q] * s).extended(n);
      bool known = false;
      for (const Perm& inv : inverses) {
        // Quadratic in the index: poll the stop request inside the scan too.
        if (run && (++tests & 1023) == 0 && run->should_stop()) return run->stop_error();
        if (h.contains(x * inv)) {
          known = true;
          break;
        }
      }
      if (!known) {
        inverses.push_back(x.inverse());
        reps.push_back(std::move(x));
        if (reps.size() == target) break;
      }
    }
  }
  return reps;
}

Result<std::vector<std::vector<Point>>> set_orbit(const PermGroup& g, std::vector<Point> set,
                                                  std::uint64_t limit, const RunContext* run) {
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  std::vector<std::vector<Point>> orbit = {set};
  std::set<std::vector<Point>> seen = {set};
  // Each set is held twice (list and index), plus a tree node.
  const std::uint64_t per_set = 2 * (set.size() * sizeof(Point) + 40) + 48;
  for (std::size_t q = 0; q < orbit.size(); ++q) {
    if (auto s = check_growth(run, q, orbit.size(), per_set, "the orbit of the set"); !s) {
      return s.error();
    }
    for (const Perm& s : g.generators()) {
      std::vector<Point> image;
      for (Point p : orbit[q]) image.push_back(s.image(p));
      std::sort(image.begin(), image.end());
      if (seen.insert(image).second) {
        if (orbit.size() >= limit) {
          return make_error("the orbit of the set has more than " + std::to_string(limit) + " sets",
                            {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
        }
        orbit.push_back(std::move(image));
      }
    }
  }
  return orbit;
}

Result<std::optional<Perm>> conjugating_element(const PermGroup& g, const Perm& x, const Perm& y,
                                                const RunContext* run) {
  for (const Perm* p : {&x, &y}) {
    if (!g.contains(*p)) {
      return make_error("the element " + p->to_cycle_string() + " is not in the group");
    }
  }
  if (x.cycle_type() != y.cycle_type()) return std::optional<Perm>();
  const std::size_t n = std::max({g.degree(), x.degree(), y.degree()});
  // Step 1. S_m: align the cycles. A_m: the same, made even by an element centralizing y
  // when there is an obvious odd one (an even-length cycle of y, or two points it fixes).
  std::vector<Point> moved = moved_points(g);
  if (int kind = natural_giant(g, moved.size()); kind != 0) {
    Perm c = align_cycles(x, y, moved, n);
    if (kind == 1 || c.sign() == 1) return std::optional<Perm>(c);
    std::vector<Point> fixed;
    for (Point p : moved) {
      if (y.image(p) == p) fixed.push_back(p);
    }
    std::optional<Perm> odd;
    if (fixed.size() >= 2) odd = perm_of_cycle({fixed[0], fixed[1]}, n);
    for (const auto& cyc : y.cycles()) {
      if (!odd && cyc.size() % 2 == 0) odd = perm_of_cycle(cyc, n);
    }
    if (odd) return std::optional<Perm>(c * *odd);
    // Otherwise the search below decides (the class may split in A_m).
  }
  // Step 2. Backtrack search (backtrack.hpp).
  return find_conjugator(g, x, y, run);
}

Result<PermGroup> centre(const PermGroup& g, const RunContext* run) {
  if (is_abelian(g)) return g;
  std::vector<Point> moved = moved_points(g);
  if (natural_giant(g, moved.size()) != 0) return PermGroup();  // non-abelian S_m, A_m
  return center(g, run);
}

PermGroup derived_subgroup(const PermGroup& g) {
  return *derived_subgroup(g, nullptr);
}

Result<PermGroup> derived_subgroup(const PermGroup& g, const RunContext* run) {
  std::vector<Point> moved = moved_points(g);
  const std::size_t n = g.degree();
  if (natural_giant(g, moved.size()) != 0 && moved.size() >= 5) {
    return giant_on(moved, true, n);  // [S_m, S_m] = [A_m, A_m] = A_m for m >= 5
  }
  // Step 1. The commutators of the generators ...
  const auto& gens = g.generators();
  std::vector<Perm> hgens;
  for (std::size_t i = 0; i < gens.size(); ++i) {
    for (std::size_t j = i + 1; j < gens.size(); ++j) {
      // Thousands of generators make millions of pairs: the run's stop is checked among them.
      if (run && (j & 63) == 0 && run->should_stop()) return run->stop_error();
      Perm c = commutator(gens[i], gens[j]);
      if (!c.is_identity()) hgens.push_back(c.extended(n));
    }
  }
  auto first = make_group_run(hgens, run);
  if (!first) return first.error();
  PermGroup h = std::move(*first);
  // Step 2. ... and their normal closure: conjugates by the generators until closed.
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < hgens.size() && !changed; ++i) {
      for (const Perm& s : gens) {
        Perm c = hgens[i].conjugate(s).extended(n);
        if (!h.contains(c)) {
          hgens.push_back(c);
          auto bigger = make_group_run(hgens, run);
          if (!bigger) return bigger.error();
          h = std::move(*bigger);
          changed = true;
          break;
        }
      }
    }
  }
  return h;
}

bool is_abelian(const PermGroup& g) {
  // Each pair is compared on the union of its two supports only (elsewhere both products fix
  // the point): thousands of disjoint generators cost their supports, not pairs x degree.
  const auto& gens = g.generators();
  std::vector<std::vector<Point>> supports;
  supports.reserve(gens.size());
  for (const Perm& g : gens) supports.push_back(g.support());
  for (std::size_t i = 0; i < gens.size(); ++i) {
    for (std::size_t j = i + 1; j < gens.size(); ++j) {
      for (const auto* support : {&supports[i], &supports[j]}) {
        for (Point x : *support) {
          if (gens[j].image(gens[i].image(x)) != gens[i].image(gens[j].image(x))) return false;
        }
      }
    }
  }
  return true;
}

bool is_solvable(const PermGroup& g) {
  return *is_solvable(g, nullptr);
}

Result<bool> is_solvable(const PermGroup& g, const RunContext* run) {
  PermGroup current = g;
  while (current.order() > 1) {
    if (is_abelian(current)) return true;
    auto next = derived_subgroup(current, run);
    if (!next) return next.error();
    if (next->order() == current.order()) return false;  // a perfect group: the series stops
    current = std::move(*next);
  }
  return true;
}

}  // namespace permuzzle
