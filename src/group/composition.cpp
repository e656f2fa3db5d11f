// Composition series (see composition.hpp).
#include "permuzzle/group/composition.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/action.hpp"
#include "permuzzle/group/backtrack.hpp"
#include "permuzzle/group/blocks.hpp"
#include "permuzzle/group/classes.hpp"
#include "permuzzle/group/naming.hpp"
#include "permuzzle/group/operations.hpp"

namespace permuzzle {

namespace {

Result<PermGroup> group_of(std::vector<Perm> generators, std::size_t degree,
                           const RunContext* run) {
  std::erase_if(generators, [](const Perm& p) { return p.is_identity(); });
  if (generators.empty()) generators.push_back(Perm(degree));
  SchreierSimsOptions options;
  options.randomized = degree > 64;
  options.run = run;
  return PermGroup::from_generators(std::move(generators), {}, options);
}

std::vector<unsigned long> prime_factors(unsigned long m) {
  std::vector<unsigned long> primes;
  for (unsigned long p = 2; p * p <= m; ++p) {
    while (m % p == 0) {
      primes.push_back(p);
      m /= p;
    }
  }
  if (m > 1) primes.push_back(m);
  return primes;
}

// Appends to `chain` (top first) the groups strictly between `top` and `bottom` plus `bottom`,
// for an abelian layer top / bottom; factor names C_p.
Status refine_abelian_layer(const PermGroup& top, const PermGroup& bottom,
                            std::vector<PermGroup>& chain, std::vector<std::string>& factors,
                            const RunContext* run) {
  std::vector<PermGroup> upward = {bottom};  // bottom first
  std::vector<std::string> names;
  const std::size_t degree = std::max(top.degree(), bottom.degree());
  for (const Perm& h : top.generators()) {
    if (run && run->should_stop()) return run->stop_error();
    if (upward.back().contains(h)) continue;
    const mpz_class order = h.order();
    if (!order.fits_ulong_p()) {
      return make_error("composition series: an element order beyond 64 bits", {},
                        Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    // m = the order of h modulo N: start from |h| and divide by each prime (from h's cycle
    // lengths) as long as the power stays in N.
    unsigned long m = order.get_ui();
    std::vector<unsigned long> primes;
    for (std::size_t length : h.cycle_type()) {
      for (unsigned long p : prime_factors(length)) primes.push_back(p);
    }
    std::sort(primes.begin(), primes.end());
    primes.erase(std::unique(primes.begin(), primes.end()), primes.end());
    for (unsigned long p : primes) {
      while (m % p == 0 && upward.back().contains(h.pow(mpz_class(m / p)))) m /= p;
    }
    unsigned long rest = m;
    for (unsigned long p : prime_factors(m)) {
      rest /= p;
      std::vector<Perm> generators = upward.back().generators();
      generators.push_back(h.pow(mpz_class(rest)));
      auto next = group_of(std::move(generators), degree, run);
      if (!next) return next.error();
      upward.push_back(std::move(*next));
      names.push_back("C" + std::to_string(p));
    }
  }
  if (upward.back().order() != top.order()) {
    return make_error("internal error: an abelian layer was not refined to its top", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  // upward = bottom, ..., top (the last equals `top`, already in the chain).
  for (std::size_t i = upward.size() - 1; i-- > 0;) {
    chain.push_back(upward[i]);
    factors.push_back(names[i]);
  }
  return Ok{};
}

bool simple_name(const std::string& name) {
  if (name.starts_with("PSL(") || name.starts_with("M")) return true;
  if (name.size() >= 2 && name[0] == 'A' &&
      std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::stoul(name.substr(1)) >= 5;
  }
  return false;
}

// |PSL(n,q)|, |PSU(n,q)| and the like as exact integers.
mpz_class power(unsigned long q, unsigned long e) {
  mpz_class r;
  mpz_ui_pow_ui(r.get_mpz_t(), q, e);
  return r;
}

mpz_class psl_order(unsigned long n, unsigned long q) {
  mpz_class o = power(q, n * (n - 1) / 2);
  for (unsigned long i = 2; i <= n; ++i) o *= power(q, i) - 1;
  return o / std::gcd(n, q - 1);
}

mpz_class psu_order(unsigned long n, unsigned long q) {
  mpz_class o = power(q, n * (n - 1) / 2);
  for (unsigned long i = 2; i <= n; ++i) o *= power(q, i) - (i % 2 ? -1 : 1);
  return o / std::gcd(n, q + 1);
}

mpz_class psp_order(unsigned long m, unsigned long q) {  // PSp(2m,q) = O(2m+1,q) in order
  mpz_class o = power(q, m * m);
  for (unsigned long i = 1; i <= m; ++i) o *= power(q, 2 * i) - 1;
  return o / (q % 2 ? 2 : 1);
}

// The name (GAP's spelling) of a simple group g, from its order and, where two simple groups
// share it (A8 and PSL(3,4)), the element orders of its classes (empty: not known); "simple group
// of order N" when the order leaves more than one choice or no family below matches.
std::string simple_group_name(const PermGroup& g, const std::vector<mpz_class>& element_orders) {
  const mpz_class order = g.order();
  std::vector<std::string> names;  // candidates, GAP's preferred spelling first
  {
    mpz_class f = 60;
    for (unsigned long n = 5; f <= order; f *= ++n) {
      if (f == order) names.push_back("A" + std::to_string(n));
    }
  }
  if (order == 20160) {
    // A8 has elements of order 6 and 15, PSL(3,4) none (its element orders: 1..5, 7).
    if (element_orders.empty()) return "simple group of order 20160";
    for (const auto& o : element_orders) {
      if (o == 6 || o == 15) return "A8";
    }
    return "PSL(3,4)";
  }
  if (names.empty()) {
    // PSL(n,q) (GAP's first parameters: smallest prime), PSU, O(2m+1,q), Sz, sporadic groups.
    for (unsigned long p = 2; p < 2000 && names.empty(); ++p) {
      if (order % p != 0) continue;
      bool prime = true;
      for (unsigned long d = 2; d * d <= p; ++d) prime = prime && p % d;
      if (!prime) continue;
      for (unsigned long q = p; q < 1000000 && names.empty(); q *= p) {
        for (unsigned long n = 2; n <= 10; ++n) {
          const mpz_class o = psl_order(n, q);
          if (o > order) break;
          if (o == order && !(n == 2 && q < 4)) {
            names.push_back("PSL(" + std::to_string(n) + "," + std::to_string(q) + ")");
          }
        }
      }
    }
    for (unsigned long q = 2; q < 1000; ++q) {
      unsigned long r = q, p = 2;
      while (r % p) ++p;
      while (r % p == 0) r /= p;
      if (r != 1) continue;  // q a prime power
      for (unsigned long n = 3; n <= 6; ++n) {
        if (psu_order(n, q) == order && !(n == 3 && q == 2) && !(n == 4 && q == 2)) {
          names.push_back("PSU(" + std::to_string(n) + "," + std::to_string(q) + ")");
        }
      }
      for (unsigned long m = 2; m <= 4; ++m) {
        if (psp_order(m, q) == order && !(m == 2 && q == 2)) {
          if (m >= 3 && q % 2) return "simple group of order " + order.get_str();
          names.push_back("O(" + std::to_string(2 * m + 1) + "," + std::to_string(q) + ")");
        }
      }
    }
    static constexpr std::pair<const char*, const char*> SPORADIC[] = {
        {"M11", "7920"},      {"M12", "95040"},      {"M22", "443520"},    {"M23", "10200960"},
        {"M24", "244823040"}, {"J1", "175560"},      {"J2", "604800"},     {"J3", "50232960"},
        {"HS", "44352000"},   {"McL", "898128000"},  {"He", "4030387200"}, {"Co3", "495766656000"},
        {"Sz(8)", "29120"},   {"Sz(32)", "32537600"}};
    for (const auto& [name, o] : SPORADIC) {
      if (order == mpz_class(o)) names.push_back(name);
    }
    // PSp(4,3) = PSU(4,2) = O(5,3): one group.
    if (order == 25920) names = {"O(5,3)"};
  }
  if (names.size() != 1) return "simple group of order " + order.get_str();
  return names[0];
}

// Appends the series below `top` (already the chain's last group) down to 1.
Status series_below(PermGroup top, std::vector<PermGroup>& chain, std::vector<std::string>& factors,
                    const RunContext* run);

// Appends the preimages of image_series' groups (after its first) under `hom`: the last one is
// the kernel.
Status lift_series(const ActionHomomorphism& hom, const CompositionSeries& image_series,
                   std::vector<PermGroup>& chain, std::vector<std::string>& factors,
                   const RunContext* run) {
  for (std::size_t j = 1; j < image_series.groups.size(); ++j) {
    auto pre = hom.preimage(image_series.groups[j], run);
    if (!pre) return pre.error();
    chain.push_back(std::move(*pre));
    factors.push_back(image_series.factors[j - 1]);
  }
  return Ok{};
}

// A perfect group that is neither simple and named nor a puzzle group: reduced by its action on
// an orbit or a block system (series of the image lifted, then the kernel's series); a
// primitive one is simple (the normal closures of its classes of elements of prime order are
// all of it) or has a regular normal subgroup N (then D = N : D_a, and the series of the point
// stabiliser D_a times N, then N's).
Status generic_perfect_part(const PermGroup& d, std::vector<PermGroup>& chain,
                            std::vector<std::string>& factors, const RunContext* run) {
  const std::size_t degree = d.degree();
  const auto orbits = d.orbits();
  std::optional<ActionHomomorphism> hom;
  if (orbits.size() > 1) {
    auto h = ActionHomomorphism::on_orbit(d, orbits[0], run);
    if (!h) return h.error();
    hom = std::move(*h);
  } else {
    auto blocks = minimal_block_systems(d.generators(), orbits[0], run);
    if (!blocks) return blocks.error();
    if (!blocks->primitive()) {
      auto h = ActionHomomorphism::on_sets(d, blocks->minimal_systems[0], run);
      if (!h) return h.error();
      hom = std::move(*h);
    }
  }
  if (hom) {
    auto image_series = composition_series(hom->image(), run);
    if (!image_series) return image_series.error();
    if (auto st = lift_series(*hom, *image_series, chain, factors, run); !st) return st;
    return series_below(chain.back(), chain, factors, run);
  }
  // Primitive. A nontrivial normal subgroup is transitive; a minimal one is elementary abelian
  // and regular (then the degree is a prime power) or a product of non-abelian simple groups,
  // and below degree 60 (O'Nan–Scott: the diagonal types need |T| points, the product types
  // with a perfect top group T^k on m^k points, k >= 5) the group is then almost simple, and
  // being perfect (Out(T) is solvable), simple.
  const std::size_t n = orbits[0].size();
  const auto degree_primes = prime_factors(n);  // with multiplicity
  const bool prime_power_degree = degree_primes.front() == degree_primes.back();
  std::optional<PermGroup> proper;
  if (prime_power_degree) {
    // The regular normal subgroup, if any: the normal closure of an element of prime order in
    // it. Random elements' prime-order powers first (cheap), then one per conjugacy class.
    const unsigned long p = degree_primes[0];
    Rng rng(n);
    for (int i = 0; i < 64 && !proper; ++i) {
      if (run && run->should_stop()) return run->stop_error();
      Perm x = d.random_element(rng);
      const mpz_class o = x.order();
      if (o % p != 0) continue;
      x = x.pow(o / p);
      auto h = group_of({x}, degree, run);
      if (!h) return h.error();
      auto closure = normal_closure(d, *h, run);
      if (!closure) return closure.error();
      if (closure->order() == n) proper = std::move(*closure);
    }
  }
  std::vector<mpz_class> element_orders;
  if (!proper && (prime_power_degree || n >= 60 || d.order() == 20160)) {
    // Every nontrivial normal subgroup contains the normal closure of an element of prime
    // order: one per conjugacy class; the smallest closure is a minimal normal subgroup.
    ClassOptions options;
    auto classes = conjugacy_classes(d, options, run);
    if (!classes) return classes.error();
    for (const auto& c : classes->classes) {
      if (run && run->should_stop()) return run->stop_error();
      element_orders.push_back(c.element_order);
      if (c.element_order == 1 || prime_factors(c.element_order.get_ui()).size() != 1) continue;
      auto h = group_of({c.representative}, degree, run);
      if (!h) return h.error();
      auto closure = normal_closure(d, *h, run);
      if (!closure) return closure.error();
      if (closure->order() != d.order() && (!proper || closure->order() < proper->order())) {
        proper = std::move(*closure);
      }
    }
  }
  if (!proper) {
    auto one = group_of({}, degree, run);
    if (!one) return one.error();
    chain.push_back(std::move(*one));
    factors.push_back(simple_group_name(d, element_orders));
    return Ok{};
  }
  if (proper->order() != n) {
    return make_error("composition series: the primitive perfect group of order " +
                          d.order().get_str() +
                          " has a minimal normal subgroup that is not regular; not supported",
                      {}, Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  auto stabiliser = pointwise_stabilizer(d, {orbits[0][0]}, run);
  if (!stabiliser) return stabiliser.error();
  auto top_series = composition_series(*stabiliser, run);
  if (!top_series) return top_series.error();
  for (std::size_t j = 1; j < top_series->groups.size(); ++j) {
    std::vector<Perm> gens = proper->generators();
    for (const Perm& x : top_series->groups[j].generators()) gens.push_back(x);
    auto next = group_of(std::move(gens), degree, run);
    if (!next) return next.error();
    chain.push_back(std::move(*next));
    factors.push_back(top_series->factors[j - 1]);
  }
  return series_below(chain.back(), chain, factors, run);
}

// The series below a perfect group d (d itself already in the chain).
Status perfect_part(const PermGroup& d, std::vector<PermGroup>& chain,
                    std::vector<std::string>& factors, const RunContext* run) {
  const std::size_t degree = d.degree();
  // Step 1. Simple and named.
  const auto name = named_structure(d, run);
  if (run && run->should_stop()) return run->stop_error();
  if (name && simple_name(*name)) {
    auto one = group_of({}, degree, run);
    if (!one) return one.error();
    chain.push_back(std::move(*one));
    factors.push_back(*name);
    return Ok{};
  }
  // Step 2. A puzzle group: K : (A_n1 x ... x A_nr), or a direct product of simple groups on
  // its orbits (no twists: K = 1).
  auto s = piece_structure(d, run);
  if (run && run->should_stop()) return run->stop_error();
  if (!s) return generic_perfect_part(d, chain, factors, run);
  // K's generators: in each orbit, piece 0 twisted by +1 and piece j by -1; then one twist of
  // piece 0 of each orbit per element of A with all signs even (the twist sums K allows).
  std::vector<Perm> kernel;
  auto twist_map = [&](std::size_t orbit, std::size_t a, std::int64_t ta, std::size_t b,
                       std::int64_t tb) {
    std::vector<Point> images(degree);
    for (Point p = 0; p < degree; ++p) images[p] = p;
    const auto& pieces = s->orbits[orbit].pieces;
    const auto k = static_cast<std::int64_t>(s->orbits[orbit].twists());
    for (std::int64_t o = 0; o < k; ++o) {
      images[pieces[a][o]] = pieces[a][((o + ta) % k + k) % k];
      if (b != a) images[pieces[b][o]] = pieces[b][((o + tb) % k + k) % k];
    }
    return *Perm::from_images(std::move(images));
  };
  for (std::size_t i = 0; i < s->orbits.size(); ++i) {
    if (s->orbits[i].twists() < 2) continue;
    for (std::size_t j = 1; j < s->orbits[i].pieces.size(); ++j) {
      kernel.push_back(twist_map(i, 0, 1, j, -1));
    }
  }
  for (const auto& a : s->image) {
    bool even = true;
    for (std::size_t c = 0; c < a.size(); ++c) even = even && (!s->component_is_sign[c] || !a[c]);
    if (!even) continue;
    Perm x(degree);
    for (std::size_t c = 0; c < a.size(); ++c) {
      if (!s->component_is_sign[c] && a[c]) {
        x = x * twist_map(s->component_orbit[c], 0, a[c], 0, 0);
      }
    }
    kernel.push_back(x);
  }
  // The alternating groups on the pieces of each orbit, with zero twists: 3-cycles of pieces
  // (0, 1, j).
  auto piece_cycle = [&](std::size_t orbit, std::size_t a, std::size_t b, std::size_t c) {
    std::vector<Point> images(degree);
    for (Point p = 0; p < degree; ++p) images[p] = p;
    const auto& pieces = s->orbits[orbit].pieces;
    for (std::size_t o = 0; o < s->orbits[orbit].twists(); ++o) {
      images[pieces[a][o]] = pieces[b][o];
      images[pieces[b][o]] = pieces[c][o];
      images[pieces[c][o]] = pieces[a][o];
    }
    return *Perm::from_images(std::move(images));
  };
  std::vector<std::vector<Perm>> alternating(s->orbits.size());
  for (std::size_t i = 0; i < s->orbits.size(); ++i) {
    for (std::size_t j = 2; j < s->orbits[i].pieces.size(); ++j) {
      alternating[i].push_back(piece_cycle(i, 0, 1, j));
    }
  }
  for (const auto& list : alternating) {
    for (const Perm& x : list) {
      if (!d.contains(x)) {
        return make_error(
            "composition series: the perfect part does not contain its piece "
            "3-cycles; not supported",
            {}, Error::NO_POSITION, ErrorKind::Unsolvable);
      }
    }
  }
  // Step 3. D > K : (A_n2 x ...) > ... > K (A_n with n <= 4 is solvable: A4 > V4 > C2 > 1).
  {
    std::vector<Perm> all = kernel;
    for (const auto& list : alternating) all.insert(all.end(), list.begin(), list.end());
    for (const Perm& x : kernel) {
      if (!d.contains(x)) {
        return make_error(
            "composition series: the perfect part does not contain its twist "
            "kernel; not supported",
            {}, Error::NO_POSITION, ErrorKind::Unsolvable);
      }
    }
    auto whole = group_of(all, degree, run);
    if (!whole) return whole.error();
    if (whole->order() != d.order()) {
      return make_error(
          "composition series: the perfect part is not its twist kernel extended by "
          "alternating groups on the pieces; not supported",
          {}, Error::NO_POSITION, ErrorKind::Unsolvable);
    }
  }
  auto double_transpositions = [&](std::size_t orbit) {
    std::vector<Perm> out;
    const auto& pieces = s->orbits[orbit].pieces;
    for (const auto& [a, b, c, e] : {std::array<std::size_t, 4>{0, 1, 2, 3}, {0, 2, 1, 3}}) {
      std::vector<Point> images(degree);
      for (Point p = 0; p < degree; ++p) images[p] = p;
      for (std::size_t o = 0; o < s->orbits[orbit].twists(); ++o) {
        images[pieces[a][o]] = pieces[b][o];
        images[pieces[b][o]] = pieces[a][o];
        images[pieces[c][o]] = pieces[e][o];
        images[pieces[e][o]] = pieces[c][o];
      }
      out.push_back(*Perm::from_images(std::move(images)));
    }
    return out;
  };
  std::vector<std::size_t> order_of_orbits;
  for (std::size_t i = 0; i < s->orbits.size(); ++i) {
    if (s->orbits[i].pieces.size() >= 3) order_of_orbits.push_back(i);
  }
  for (std::size_t step = 0; step < order_of_orbits.size(); ++step) {
    std::vector<Perm> generators = kernel;
    for (std::size_t later = step + 1; later < order_of_orbits.size(); ++later) {
      for (const Perm& x : alternating[order_of_orbits[later]]) generators.push_back(x);
    }
    auto next = group_of(generators, degree, run);
    if (!next) return next.error();
    const std::size_t n = s->orbits[order_of_orbits[step]].pieces.size();
    if (n >= 5) {
      chain.push_back(std::move(*next));
      factors.push_back("A" + std::to_string(n));
    } else {
      if (n == 4) {
        std::vector<Perm> middle = generators;
        for (const Perm& x : double_transpositions(order_of_orbits[step])) middle.push_back(x);
        auto v4 = group_of(std::move(middle), degree, run);
        if (!v4) return v4.error();
        const PermGroup top = chain.back();
        if (auto st = refine_abelian_layer(top, *v4, chain, factors, run); !st) return st;
      }
      const PermGroup top = chain.back();
      if (auto st = refine_abelian_layer(top, *next, chain, factors, run); !st) return st;
    }
  }
  // Step 4. K down to 1, one generator at a time (elementary abelian per prime).
  const PermGroup k_group = chain.back();
  auto one = group_of({}, degree, run);
  if (!one) return one.error();
  return refine_abelian_layer(k_group, *one, chain, factors, run);
}

Status series_below(PermGroup top, std::vector<PermGroup>& chain, std::vector<std::string>& factors,
                    const RunContext* run) {
  // The derived series, each abelian layer refined to prime steps.
  while (top.order() > 1) {
    if (run && run->should_stop()) return run->stop_error();
    // Normal closures and lifts bring many generators; the steps below (and the normality
    // check at the end) cost a sift per generator pair.
    if (top.generators().size() > 8) {
      auto fewer = with_fewer_generators(top, run);
      if (!fewer) return fewer.error();
      top = std::move(*fewer);
      chain.back() = top;
    }
    auto derived = derived_subgroup(top, run);
    if (!derived) return derived.error();
    if (derived->generators().size() > 8) {
      auto fewer = with_fewer_generators(*derived, run);
      if (!fewer) return fewer.error();
      derived = std::move(*fewer);
    }
    if (derived->order() == top.order()) return perfect_part(top, chain, factors, run);
    if (auto st = refine_abelian_layer(top, *derived, chain, factors, run); !st) return st;
    top = chain.back();
  }
  return Ok{};
}

}  // namespace

Result<CompositionSeries> composition_series(const PermGroup& g, const RunContext* run) {
  CompositionSeries result;
  result.groups.push_back(g);
  // Step 1. The series (derived series, then the perfect part).
  if (auto st = series_below(g, result.groups, result.factors, run); !st) return st.error();
  // Step 2. The factor orders multiply to |G| (the check every answer passes).
  mpz_class product = 1;
  for (std::size_t i = 0; i + 1 < result.groups.size(); ++i) {
    product *= result.groups[i].order() / result.groups[i + 1].order();
  }
  if (product != g.order() || result.groups.back().order() != 1 ||
      result.factors.size() + 1 != result.groups.size()) {
    return make_error("internal error: the composition factors do not multiply to |G|", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  // Step 3. Each group is normal in the one before (conjugates of its generators sift).
  for (std::size_t i = 0; i + 1 < result.groups.size(); ++i) {
    if (run && run->should_stop()) return run->stop_error();
    if (!is_normal(result.groups[i], result.groups[i + 1])) {
      return make_error(
          "internal error: a group of the composition series is not normal in the "
          "one before",
          {}, Error::NO_POSITION, ErrorKind::Internal);
    }
  }
  return result;
}

}  // namespace permuzzle
