// Sylow subgroups (see sylow.hpp).
#include "permuzzle/group/sylow.hpp"

#include <algorithm>

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

Error internal(const std::string& what) {
  return make_error("internal error: " + what, {}, Error::NO_POSITION, ErrorKind::Internal);
}

// A nontrivial p-element of G (p divides |G|): the p-part of a random element of order
// divisible by p, raised to order p when `of_order_p`.
Result<Perm> random_p_element(const PermGroup& g, std::uint64_t p, Rng& rng,
                              const RunContext* run) {
  for (int i = 0; i < TRIES_FOR_P_ELEMENT; ++i) {
    if (run && (i & 63) == 63 && run->should_stop()) return run->stop_error();
    Perm y = p_part(g.random_element(rng), p);
    if (!y.is_identity()) return y;
  }
  return internal("no element of order divisible by p found");
}

// The orbits of G on its moved points.
std::vector<std::vector<Point>> moved_orbits(const PermGroup& g) {
  return g.orbits();
}

Result<PermGroup> sylow_in(PermGroup g, std::uint64_t p, Rng& rng, const RunContext* run);

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
                                Rng& rng, const RunContext* run) {
  auto image_sylow = sylow_in(hom.image(), p, rng, run);
  if (!image_sylow) return image_sylow.error();
  auto pre = hom.preimage(*image_sylow, run);
  if (!pre) return pre.error();
  if (pre->order() >= g.order()) return internal("the preimage is not a proper subgroup");
  return sylow_in(std::move(*pre), p, rng, run);
}

// GAP's SylowSubgroupPermGroup (lib/grpperm.gi), step by step.
Result<PermGroup> sylow_in(PermGroup g, std::uint64_t p, Rng& rng, const RunContext* run) {
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
      return through_image(g, *hom, p, rng, run);
    }
    return internal("every orbit action is a p-group but the group is not");
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
      return through_image(g, *hom, p, rng, run);
    }
  }
  // Step 6. A p-element y whose centraliser holds a whole Sylow subgroup (y central in one):
  // random p-elements, keeping the one with the largest p-part of its centraliser.
  auto y = random_p_element(g, p, rng, run);
  if (!y) return y.error();
  auto c = centralizer(g, *y, run);
  if (!c) return c.error();
  while (p_part_of(c->order(), p) < q) {
    auto z = random_p_element(*c, p, rng, run);
    if (!z) return z.error();
    auto cz = centralizer(g, *z, run);
    if (!cz) return cz.error();
    if (p_part_of(cz->order(), p) > p_part_of(c->order(), p)) {
      y = std::move(z);
      c = std::move(cz);
    }
  }
  // Step 7. C_G(y) permutes the cycles of y (fixed points included); its kernel there acts on
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
  if (result->order() != q) return internal("the Sylow subgroup has the wrong order");
  return result;
}

}  // namespace

Result<PermGroup> sylow_subgroup(const PermGroup& g, std::uint64_t p, const RunContext* run) {
  bool prime = p >= 2;
  for (std::uint64_t d = 2; d * d <= p && prime; ++d) prime = p % d != 0;
  if (!prime) return make_error("--prime " + std::to_string(p) + ": expected a prime number");
  Rng rng(p * 7919 + 25);
  auto sylow = sylow_in(g, p, rng, run);
  if (!sylow) return sylow.error();
  if (sylow->order() != p_part_of(g.order(), p)) {
    return internal("the Sylow subgroup has the wrong order");
  }
  return with_fewer_generators(*sylow, run);
}

}  // namespace permuzzle
