// Sylow subgroups (see sylow.hpp).
#include "permuzzle/group/sylow.hpp"

#include <algorithm>
#include <numeric>
#include <set>

#include "permuzzle/core/number_theory.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/action.hpp"
#include "permuzzle/group/backtrack.hpp"
#include "permuzzle/group/blocks.hpp"

namespace permuzzle {

namespace {

// Random elements tried for an element of order divisible by p before giving up (an Internal
// error: at least one element in |G| has that order when p divides |G|, and in practice far
// more; the bound only keeps a bug from looping forever).
constexpr int TRIES_FOR_P_ELEMENT = 200000;
// A centraliser with at most this many points in the list of its elements (|C| · degree) is
// listed (4 bytes a point: 8 MiB) and its Sylow subgroup grown by p-elements; a larger one is
// reduced through its action on the cycles of the p-element.
constexpr std::uint64_t SMALL_GROUP_POINTS = std::uint64_t{1} << 21;
// ... and at most this many elements (the passes over its p-elements cost up to |C| tests each:
// beyond this, the action on the cycles is faster; M24's involution centraliser, 21,504
// elements, takes that route).
constexpr std::uint64_t SMALL_GROUP_ELEMENTS = 5000;
// ... and at most this many elements per point: the list costs |C| · degree, the route through
// the action on cycles a few chains of about degree^2 each, so the list only pays on a large
// degree (PSL(2,q)'s involution centraliser: q ± 1 elements on q + 1 points; on S12 wr S2's 12
// or 24 points the action is cheaper).
constexpr std::uint64_t LISTED_ELEMENTS_PER_POINT = 8;

// The p-part of x: x^(m) with m the p'-part of its order.
Perm p_part(const Perm& x, std::uint64_t p) {
  mpz_class order = x.order();
  mpz_class rest = order;
  while (mpz_divisible_ui_p(rest.get_mpz_t(), p)) rest /= p;
  return x.pow(rest);
}

mpz_class p_part_of(mpz_class n, std::uint64_t p) {
  mpz_class part = 1;
  while (mpz_divisible_ui_p(n.get_mpz_t(), p)) {
    n /= p;
    part *= p;
  }
  return part;
}

bool is_p_power(const mpz_class& n, std::uint64_t p) {
  return p_part_of(n, p) == n;
}

// A nontrivial p-element of G (p divides |G|): the p-part of a random element of order
// divisible by p, raised to order p when `of_order_p` (GAP's choice for the centraliser step:
// C(y) only grows when y is replaced by a power, so an element of order p has the largest).
Result<Perm> random_p_element(const PermGroup& g, std::uint64_t p, Rng& rng, const RunContext* run,
                              bool of_order_p = false) {
  for (int i = 0; i < TRIES_FOR_P_ELEMENT; ++i) {
    if (run && (i & 63) == 63 && run->should_stop()) return run->stop_error();
    Perm y = p_part(g.random_element(rng), p);
    if (y.is_identity()) continue;
    if (of_order_p) y = y.pow(mpz_class(y.order() / p));
    return y;
  }
  return internal_error("no element of order divisible by p found");
}

// Is x (flat images) a p-element: is every cycle length a power of p?
bool is_p_element(const std::vector<Point>& x, std::uint64_t p, std::vector<char>& seen) {
  std::fill(seen.begin(), seen.end(), 0);
  for (std::size_t start = 0; start < x.size(); ++start) {
    if (seen[start]) continue;
    std::uint64_t length = 0;
    for (Point q = static_cast<Point>(start); !seen[q]; q = x[q]) seen[q] = 1, ++length;
    while (length % p == 0) length /= p;
    if (length != 1) return false;
  }
  return true;
}

// A Sylow p-subgroup (of order q) of a group C small enough to list (|C| · degree at most
// SMALL_GROUP_POINTS), grown from <y> (y a p-element of C): a p-group P that is not a Sylow
// subgroup is a proper subgroup of one, S, and N_S(P) > P, so some p-element of C outside P
// normalizes P, and P<z> is then a larger p-group. Each pass over C's p-elements grows P at
// least once until |P| = q. Elements of C are told apart by their images of C's base (only the
// identity fixes a base), so sets of elements hold those short keys.
Result<PermGroup> grown_sylow(const PermGroup& c, const Perm& y, const mpz_class& q,
                              std::uint64_t p, std::size_t degree, const RunContext* run) {
  const std::size_t n = std::max(degree, c.degree());
  const std::vector<Point> base = c.base();
  const std::size_t count = c.order().get_ui();
  if (run) {
    const std::uint64_t bytes = std::uint64_t(count) * n * sizeof(Point);
    if (auto st = run->check_memory(bytes, "the centraliser's list of elements"); !st) {
      return st.error();
    }
  }
  auto flat = [n](const Perm& x) {
    std::vector<Point> images(n);
    for (std::size_t i = 0; i < n; ++i) images[i] = x.image(static_cast<Point>(i));
    return images;
  };
  auto key_of = [&](const std::vector<Point>& x) {
    std::vector<Point> key(base.size());
    for (std::size_t j = 0; j < base.size(); ++j) key[j] = x[base[j]];
    return key;
  };
  // Step 1. C's elements by closure under its generators (breadth first, each new element
  // composed in full once), keeping the p-elements.
  std::vector<std::vector<Point>> gens;
  for (const Perm& s : c.generators()) gens.push_back(flat(s));
  std::vector<std::vector<Point>> all = {flat(Perm(n))};
  std::set<std::vector<Point>> reached = {key_of(all[0])};
  std::vector<Point> key(base.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (run && (i & 255) == 255 && run->should_stop()) return run->stop_error();
    for (const auto& s : gens) {
      // (all[i] then s) on the base first: the whole product only for a new element.
      for (std::size_t j = 0; j < base.size(); ++j) key[j] = s[all[i][base[j]]];
      if (!reached.insert(key).second) continue;
      std::vector<Point> product(n);
      for (std::size_t x = 0; x < n; ++x) product[x] = s[all[i][x]];
      all.push_back(std::move(product));
    }
  }
  if (all.size() != count)
    return internal_error("the centraliser's elements do not match its order");
  // z is a p-element when z^q = 1 (the p-elements of C have orders dividing q), i.e. when z^q
  // fixes the base: q steps from each base point (with q · |base| <= n; else by its cycles).
  std::vector<char> seen(n);
  const std::uint64_t steps = q.get_ui();
  const bool by_base = q.fits_ulong_p() && steps * base.size() <= n;
  std::vector<std::vector<Point>> p_elements;
  for (std::size_t i = 1; i < all.size(); ++i) {
    bool p_element = true;
    if (by_base) {
      for (Point b : base) {
        Point x = b;
        for (std::uint64_t step = 0; step < steps; ++step) x = all[i][x];
        p_element = p_element && x == b;
      }
    } else {
      p_element = is_p_element(all[i], p, seen);
    }
    if (p_element) p_elements.push_back(std::move(all[i]));
  }
  all.clear();
  // Step 2. P as the keys of its elements, and its generators.
  std::set<std::vector<Point>> members = {key_of(flat(Perm(n)))};
  std::vector<std::vector<Point>> generators;
  // P := P<z> for z normalizing P: the union of the cosets P·z^i (a·z^i maps b to z^i(a(b))).
  auto extend = [&](const std::vector<Point>& z) {
    const std::vector<std::vector<Point>> before(members.begin(), members.end());
    std::vector<Point> power = z, next(n), product(base.size());
    while (!members.count(key_of(power))) {
      for (const auto& a : before) {
        for (std::size_t j = 0; j < base.size(); ++j) product[j] = power[a[j]];
        members.insert(product);
      }
      for (std::size_t x = 0; x < n; ++x) next[x] = z[power[x]];
      power.swap(next);
    }
    generators.push_back(z);
  };
  std::vector<Point> before_base(base.size());
  auto normalizes = [&](const std::vector<Point>& z) {
    // z^-1(b): the point before b on its cycle (cycles of a p-element are at most q long).
    for (std::size_t j = 0; j < base.size(); ++j) {
      Point x = base[j];
      while (z[x] != base[j]) x = z[x];
      before_base[j] = x;
    }
    for (const auto& a : generators) {
      // a^z = z^-1·a·z maps b to z(a(z^-1(b))).
      for (std::size_t j = 0; j < base.size(); ++j) key[j] = z[a[before_base[j]]];
      if (!members.count(key)) return false;
    }
    return true;
  };
  extend(flat(y));
  // Step 3. Passes over the p-elements until |P| = q.
  while (members.size() < q) {
    bool grew = false;
    for (const auto& z : p_elements) {
      if (run && run->should_stop()) return run->stop_error();
      if (members.count(key_of(z)) || !normalizes(z)) continue;
      extend(z);
      grew = true;
      if (members.size() >= q) break;
    }
    if (!grew) return internal_error("no p-element normalizes the p-subgroup");
  }
  if (members.size() != q) return internal_error("the grown p-subgroup has the wrong order");
  std::vector<Perm> result;
  for (auto& z : generators) result.push_back(*Perm::from_images(std::move(z)));
  return group_from(std::move(result), degree, run, q);
}

// The orbits of G on its moved points.
std::vector<std::vector<Point>> moved_orbits(const PermGroup& g) {
  return g.orbits();
}

Result<PermGroup> sylow_in(PermGroup g, std::uint64_t p, Rng& rng, const RunContext* run,
                           bool* grown = nullptr);

// Is the transitive G 2-transitive on `orbit`: does G_b (b the first base point) have one orbit
// on the other points?
bool two_transitive(const PermGroup& g, const std::vector<Point>& orbit) {
  const std::vector<Point> base = g.base();
  if (base.empty() || orbit.size() < 3) return false;
  std::vector<Perm> fixing;
  for (const Perm& s : g.strong_generators()) {
    if (s.image(base[0]) == base[0]) fixing.push_back(s);
  }
  const Point start = orbit[0] == base[0] ? orbit[1] : orbit[0];
  std::vector<char> seen(g.degree(), 0);
  std::vector<Point> queue{start};
  seen[start] = 1;
  for (std::size_t q = 0; q < queue.size(); ++q) {
    for (const Perm& s : fixing) {
      const Point to = s.image(queue[q]);
      if (!seen[to]) seen[to] = 1, queue.push_back(to);
    }
  }
  return queue.size() == orbit.size() - 1;
}

// phi^-1(Sylow_p(phi(G))) and then a Sylow subgroup of it (phi(G) must not be a p-group, so the
// preimage is a proper subgroup and the recursion ends).
Result<PermGroup> through_image(const PermGroup& g, const ActionHomomorphism& hom, std::uint64_t p,
                                Rng& rng, const RunContext* run, bool* grown) {
  auto image_sylow = sylow_in(hom.image(), p, rng, run);
  if (!image_sylow) return image_sylow.error();
  auto pre = hom.preimage(*image_sylow, run);
  if (!pre) return pre.error();
  if (pre->order() >= g.order()) return internal_error("the preimage is not a proper subgroup");
  return sylow_in(std::move(*pre), p, rng, run, grown);
}

// GAP's SylowSubgroupPermGroup (lib/grpperm.gi), step by step. *grown (when given) is set when
// the answer comes from grown_sylow (its generators are then independent: none lies in the group
// of the ones before).
Result<PermGroup> sylow_in(PermGroup g, std::uint64_t p, Rng& rng, const RunContext* run,
                           bool* grown) {
  if (run && run->should_stop()) return run->stop_error();
  const std::size_t degree = g.degree();
  // Step 1. The trivial and the whole group.
  mpz_class q = p_part_of(g.order(), p);
  if (q == 1) return group_from({}, degree, run);
  // Step 2. A point stabiliser of index prime to p holds a Sylow subgroup of G: go down while
  // some orbit has length prime to p.
  for (bool again = true; again;) {
    if (q == g.order()) return g;
    again = false;
    for (const auto& orbit : moved_orbits(g)) {
      if (orbit.size() % p != 0) {
        g = g.stabilizer(orbit.front());
        again = true;
        break;
      }
    }
    if (run && run->should_stop()) return run->stop_error();
  }
  // Step 3. Order p: one element.
  if (q == p) {
    auto y = random_p_element(g, p, rng, run);
    if (!y) return y.error();
    return group_from({y->pow(mpz_class(y->order() / p))}, degree, run);
  }
  // Step 4. Intransitive: through the action on an orbit whose image is not a p-group (there is
  // one, G not being a p-group; G embeds in the product of its orbit actions).
  const auto orbits = moved_orbits(g);
  if (orbits.size() > 1) {
    for (const auto& orbit : orbits) {
      auto hom = ActionHomomorphism::on_orbit(g, orbit, run);
      if (!hom) return hom.error();
      if (is_p_power(hom->image().order(), p)) continue;
      return through_image(g, *hom, p, rng, run, grown);
    }
    return internal_error("every orbit action is a p-group but the group is not");
  }
  // Step 5. Imprimitive: through the action on a block system whose image is not a p-group
  // (the largest minimal blocks first: the fewest blocks). A 2-transitive group is primitive
  // (checked cheaply: the strong generators fixing the first base point have one orbit on the
  // other points), so its blocks are not looked for.
  if (!two_transitive(g, orbits.front())) {
    auto systems = minimal_block_systems(g.generators(), orbits.front(), run);
    if (!systems) return systems.error();
    auto& list = systems->minimal_systems;
    std::stable_sort(list.begin(), list.end(), [](const BlockSystem& a, const BlockSystem& b) {
      return a.size() < b.size();
    });
    for (const BlockSystem& system : list) {
      auto hom = ActionHomomorphism::on_sets(g, system, run);
      if (!hom) return hom.error();
      if (is_p_power(hom->image().order(), p)) continue;
      return through_image(g, *hom, p, rng, run, grown);
    }
  }
  // Step 6. A p-element y whose centraliser holds a whole Sylow subgroup (y central in one):
  // random p-elements, keeping the one with the largest p-part of its centraliser.
  auto y = random_p_element(g, p, rng, run, /*of_order_p=*/true);
  if (!y) return y.error();
  auto c = centralizer(g, *y, run);
  if (!c) return c.error();
  while (p_part_of(c->order(), p) < q) {
    auto z = random_p_element(*c, p, rng, run, /*of_order_p=*/true);
    if (!z) return z.error();
    auto cz = centralizer(g, *z, run);
    if (!cz) return cz.error();
    if (p_part_of(cz->order(), p) > p_part_of(c->order(), p)) {
      y = std::move(z);
      c = std::move(cz);
    }
  }
  // Step 7. A small C: its elements listed, a Sylow subgroup grown inside it.
  if (c->order() <= SMALL_GROUP_ELEMENTS && c->order() <= LISTED_ELEMENTS_PER_POINT * degree &&
      c->order() * degree <= SMALL_GROUP_POINTS) {
    if (grown) *grown = true;
    return grown_sylow(*c, *y, q, p, degree, run);
  }
  // Step 8. C_G(y) permutes the cycles of y (fixed points included); its kernel there acts on
  // each cycle as a power of that cycle of y, a p-group. So the preimage of a Sylow subgroup
  // of the image is a p-group of order |C|_p = q.
  std::vector<std::vector<Point>> cycles = y->cycles();
  for (Point f : y->fixed_points()) cycles.push_back({f});
  for (std::size_t point = y->degree(); point < degree; ++point) {
    cycles.push_back({static_cast<Point>(point)});
  }
  auto hom = ActionHomomorphism::on_sets(*c, cycles, run);
  if (!hom) return hom.error();
  auto image_sylow = sylow_in(hom->image(), p, rng, run);
  if (!image_sylow) return image_sylow.error();
  auto result = hom->preimage(*image_sylow, run);
  if (!result) return result.error();
  if (result->order() != q) return internal_error("the Sylow subgroup has the wrong order");
  return result;
}

}  // namespace

Result<PermGroup> sylow_subgroup(const PermGroup& g, std::uint64_t p, const RunContext* run) {
  if (!is_prime(p)) return make_error("--prime " + std::to_string(p) + ": expected a prime number");
  Rng rng(p * 7919 + 25);
  bool grown = false;
  auto sylow = sylow_in(g, p, rng, run, &grown);
  if (!sylow) return sylow.error();
  if (sylow->order() != p_part_of(g.order(), p)) {
    return internal_error("the Sylow subgroup has the wrong order");
  }
  // A grown subgroup's generators are already as few as with_fewer_generators leaves.
  if (grown) return sylow;
  return with_fewer_generators(*sylow, run);
}

}  // namespace permuzzle
