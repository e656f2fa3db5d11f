// Sylow subgroups (see sylow.hpp).
#include "permuzzle/group/sylow.hpp"

#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/backtrack.hpp"

namespace permuzzle {

namespace {

// Random elements tried per growth step before the step is given up (an Internal error: with
// p dividing |N : P| the chance of a miss is below (1 - 1/|N:P|_p')^tries).
constexpr int TRIES_PER_STEP = 20000;

// The p-part of x: x^(m) with m the p'-part of its order.
Perm p_part(const Perm& x, std::uint64_t p) {
  mpz_class order = x.order();
  mpz_class rest = order;
  while (mpz_divisible_ui_p(rest.get_mpz_t(), p)) rest /= p;
  return x.pow(rest);
}

Result<PermGroup> group_of(std::vector<Perm> generators, std::size_t degree,
                           const RunContext* run) {
  std::erase_if(generators, [](const Perm& x) { return x.is_identity(); });
  if (generators.empty()) generators.push_back(Perm(degree));
  SchreierSimsOptions options;
  options.randomized = degree > 64;
  options.run = run;
  return PermGroup::from_generators(std::move(generators), {}, options);
}

}  // namespace

Result<PermGroup> sylow_subgroup(const PermGroup& g, std::uint64_t p, const RunContext* run) {
  bool prime = p >= 2;
  for (std::uint64_t d = 2; d * d <= p && prime; ++d) prime = p % d != 0;
  if (!prime) return make_error("--prime " + std::to_string(p) + ": expected a prime number");
  // Step 1. The p-part of |G|.
  mpz_class target = 1;
  {
    mpz_class rest = g.order();
    while (mpz_divisible_ui_p(rest.get_mpz_t(), p)) {
      rest /= p;
      target *= p;
    }
  }
  const std::size_t degree = g.degree();
  auto one = group_of({}, degree, run);
  if (!one) return one.error();
  PermGroup sylow = *one;
  Rng rng(p * 7919 + 25);
  // Step 2. A cyclic start: the largest p-part among a few random elements.
  for (int i = 0; i < 64; ++i) {
    Perm y = p_part(g.random_element(rng), p);
    if (y.order() > sylow.order()) {
      auto cyclic = group_of({y}, degree, run);
      if (!cyclic) return cyclic.error();
      sylow = std::move(*cyclic);
    }
  }
  // Step 3. Grow P inside N_G(P).
  while (sylow.order() < target) {
    if (run && run->should_stop()) return run->stop_error();
    auto normaliser = normalizer(g, sylow, run);
    if (!normaliser) return normaliser.error();
    bool grown = false;
    for (int i = 0; i < TRIES_PER_STEP && !grown; ++i) {
      if (run && (i & 63) == 63 && run->should_stop()) return run->stop_error();
      Perm y = p_part(normaliser->random_element(rng), p);
      if (sylow.contains(y)) continue;
      std::vector<Perm> generators = sylow.generators();
      generators.push_back(y);
      auto larger = group_of(std::move(generators), degree, run);
      if (!larger) return larger.error();
      sylow = std::move(*larger);
      grown = true;
    }
    if (!grown) {
      return make_error("internal error: no p-element of the normaliser outside the p-subgroup", {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
  }
  return sylow;
}

}  // namespace permuzzle
