// Structure names in GAP's spelling (see naming.hpp).
#include "permuzzle/group/naming.hpp"

#include "permuzzle/core/ranking.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/blocks.hpp"
#include "permuzzle/group/classes.hpp"
#include "permuzzle/group/composition.hpp"
#include "permuzzle/group/operations.hpp"
#include "permuzzle/group/structure_description.hpp"

namespace permuzzle {

namespace {

// structure_name asks the composition series for a simple name up to this degree.
constexpr std::size_t COMPOSITION_NAME_DEGREE = 1024;

// Primes dividing |G| for an abelian G: |G| divides the product of the generators' orders, so
// they are the primes dividing the generators' cycle lengths.
std::vector<unsigned long> prime_divisors(const PermGroup& g) {
  std::vector<unsigned long> primes;
  for (const Perm& x : g.generators()) {
    for (std::size_t length : x.cycle_type()) {
      unsigned long rest = length;
      for (unsigned long p = 2; p * p <= rest; ++p) {
        if (rest % p != 0) continue;
        primes.push_back(p);
        while (rest % p == 0) rest /= p;
      }
      if (rest > 1) primes.push_back(rest);
    }
  }
  std::sort(primes.begin(), primes.end());
  primes.erase(std::unique(primes.begin(), primes.end()), primes.end());
  return primes;
}

// GAP's "C6 x C2": invariant factors of an abelian group, largest first. For each prime p,
// |{x : x^(p^j) = 1}| = |G| / |G^(p^j)| (the p^j-th power map is a homomorphism), and the
// number of cyclic p-factors of order at least p^j is the growth of its logarithm from j-1 to j.
std::optional<std::string> abelian_name(const PermGroup& g, const RunContext* run) {
  const mpz_class order = g.order();
  auto factors = invariant_factors(
      prime_divisors(g), [&](unsigned long, const mpz_class& q) -> std::optional<mpz_class> {
        std::vector<Perm> powers;
        for (const Perm& x : g.generators()) powers.push_back(x.pow(q));
        SchreierSimsOptions options;
        options.run = run;
        auto sub = PermGroup::from_generators(powers, {}, options);
        if (!sub) return std::nullopt;
        return mpz_class(order / sub->order());
      });
  if (!factors) return std::nullopt;
  std::string name;
  for (const auto& f : *factors) name += (name.empty() ? "C" : " x C") + f.get_str();
  return name;
}

// An element of order `m` among the generators, their pairwise products and random elements.
std::optional<Perm> element_of_order(const PermGroup& g, const mpz_class& m) {
  for (const Perm& x : g.generators()) {
    if (x.order() == m) return x;
  }
  for (const Perm& x : g.generators()) {
    for (const Perm& y : g.generators()) {
      if ((x * y).order() == m) return x * y;
    }
  }
  Rng rng(2024);
  for (int i = 0; i < 256; ++i) {
    Perm x = g.random_element(rng);
    if (x.order() == m) return x;
  }
  return std::nullopt;
}

std::optional<std::string> dihedral_name(const PermGroup& g) {
  const mpz_class order = g.order();
  if (order % 2 != 0 || order < 6) return std::nullopt;
  const mpz_class m = order / 2;
  auto r = element_of_order(g, m);
  if (!r) return std::nullopt;
  auto rotations = PermGroup::from_generators({*r});
  if (!rotations) return std::nullopt;
  const Perm r_inverse = r->inverse();
  for (const Perm& x : g.generators()) {
    if (rotations->contains(x)) continue;
    if (!(x * x).is_identity() || r->conjugate(x) != r_inverse) return std::nullopt;
  }
  if (order == 6) return "S3";  // GAP's name for D6
  return "D" + order.get_str();
}

bool is_perfect(const PermGroup& g, const RunContext* run) {
  auto derived = derived_subgroup(g, run);
  return derived && derived->order() == g.order();
}

std::optional<std::string> mathieu_name(const PermGroup& g, std::size_t moved, bool transitive,
                                        const RunContext* run) {
  static constexpr std::pair<std::size_t, const char*> DEGREES[] = {
      {11, "7920"}, {12, "95040"}, {22, "443520"}, {23, "10200960"}, {24, "244823040"}};
  for (const auto& [degree, order] : DEGREES) {
    if (moved == degree && transitive && g.order() == mpz_class(order) && is_perfect(g, run)) {
      return "M" + std::to_string(degree);
    }
  }
  return std::nullopt;
}

// q when n = q is a prime power (q >= 2), else 0.
unsigned long prime_power(unsigned long n) {
  if (n < 2) return 0;
  unsigned long p = 2;
  while (n % p != 0) ++p;
  unsigned long rest = n;
  while (rest % p == 0) rest /= p;
  return rest == 1 ? n : 0;
}

std::optional<std::string> psl2_name(const PermGroup& g, std::size_t moved, bool transitive,
                                     const RunContext* run) {
  if (!transitive || moved < 5) return std::nullopt;
  const unsigned long q = prime_power(moved - 1);
  if (q < 4) return std::nullopt;
  mpz_class order = mpz_class(q) * (mpz_class(q) * q - 1) / (q % 2 == 1 ? 2 : 1);
  if (g.order() != order || !is_perfect(g, run)) return std::nullopt;
  if (q == 4 || q == 5) return "A5";
  if (q == 7) return "PSL(3,2)";
  if (q == 9) return "A6";
  return "PSL(2," + std::to_string(q) + ")";
}

// Is every block map of every generator even under the labelling carried along a spanning tree
// from block 0's sorted order (then G lies in A_m wr S_k)?
bool block_maps_even(const std::vector<Perm>& generators, const BlockSystem& system) {
  const std::size_t m = system[0].size();
  std::map<Point, std::pair<std::size_t, std::size_t>> where;  // point -> (block, label)
  std::vector<char> labelled(system.size(), 0);
  for (std::size_t o = 0; o < m; ++o) where[system[0][o]] = {0, o};
  std::map<Point, std::size_t> block_of;
  for (std::size_t b = 0; b < system.size(); ++b) {
    for (Point p : system[b]) block_of[p] = b;
  }
  labelled[0] = 1;
  std::vector<std::size_t> queue = {0};
  std::vector<std::vector<Point>> labelled_points(system.size());
  labelled_points[0] = system[0];
  for (std::size_t next = 0; next < queue.size(); ++next) {
    const auto& points = labelled_points[queue[next]];
    for (const Perm& g : generators) {
      const std::size_t target = block_of.at(g.image(points[0]));
      if (labelled[target]) continue;
      labelled[target] = 1;
      for (Point p : points) labelled_points[target].push_back(g.image(p));
      queue.push_back(target);
    }
  }
  if (queue.size() != system.size()) return false;
  for (std::size_t b = 0; b < system.size(); ++b) {
    for (std::size_t o = 0; o < m; ++o) where[labelled_points[b][o]] = {b, o};
  }
  for (const Perm& g : generators) {
    for (std::size_t b = 0; b < system.size(); ++b) {
      std::vector<std::size_t> map(m);
      for (std::size_t o = 0; o < m; ++o) map[o] = where.at(g.image(labelled_points[b][o])).second;
      std::size_t inversions = 0;
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = i + 1; j < m; ++j) inversions += map[i] > map[j];
      }
      if (inversions % 2) return false;
    }
  }
  return true;
}

std::optional<std::string> wreath_name(const PermGroup& g, const std::vector<Point>& orbit,
                                       const RunContext* run) {
  auto blocks = minimal_block_systems(g.generators(), orbit, run);
  if (!blocks) return std::nullopt;
  // Any nontrivial block system would do; the full wreath product's minimal blocks are the
  // wreath blocks (m >= 3: the base group's factors are primitive).
  for (const auto& system : blocks->minimal_systems) {
    const std::size_t m = system[0].size(), k = system.size();
    if (m < 3) continue;
    mpz_class base;
    mpz_pow_ui(base.get_mpz_t(), factorial_mpz(m).get_mpz_t(), k);
    const mpz_class top = factorial_mpz(k);
    if (g.order() == base * top) {
      return symmetric_group_name(m, false) + " wr S" + std::to_string(k);
    }
    mpz_class half = factorial_mpz(m) / 2, alternating_base;
    mpz_pow_ui(alternating_base.get_mpz_t(), half.get_mpz_t(), k);
    if (g.order() == alternating_base * top && block_maps_even(g.generators(), system)) {
      return symmetric_group_name(m, true) + " wr S" + std::to_string(k);
    }
  }
  return std::nullopt;
}

// The group induced on one orbit (points renumbered 0..|orbit|-1).
std::optional<PermGroup> projection(const PermGroup& g, const std::vector<Point>& orbit) {
  std::vector<Point> index(g.degree(), 0);
  for (std::size_t i = 0; i < orbit.size(); ++i) index[orbit[i]] = static_cast<Point>(i);
  std::vector<Perm> projected;
  for (const Perm& x : g.generators()) {
    std::vector<Point> images(orbit.size());
    for (std::size_t i = 0; i < orbit.size(); ++i) images[i] = index[x.image(orbit[i])];
    projected.push_back(*Perm::from_images(std::move(images)));
  }
  auto group = PermGroup::from_generators(std::move(projected));
  if (!group) return std::nullopt;
  return *group;
}

std::optional<std::string> name_of(const PermGroup& g, const RunContext* run, int depth);

std::optional<std::string> direct_product_name(const PermGroup& g,
                                               const std::vector<std::vector<Point>>& orbits,
                                               const RunContext* run, int depth) {
  mpz_class product = 1;
  std::vector<std::string> names;
  for (const auto& orbit : orbits) {
    auto factor = projection(g, orbit);
    if (!factor) return std::nullopt;
    product *= factor->order();
    auto name = name_of(*factor, run, depth + 1);
    if (!name) return std::nullopt;
    names.push_back(*name);
  }
  if (product != g.order()) return std::nullopt;
  // Abelian factors are whole abelian groups of their own; "C2 x C2" factors of a product of
  // abelian groups are caught before (the product is abelian then).
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) {
    const bool compound = n.find(" : ") != std::string::npos || n.find(" wr ") != std::string::npos;
    out += (out.empty() ? "" : " x ") + (compound ? "(" + n + ")" : n);
  }
  return out;
}

std::optional<std::string> name_of(const PermGroup& g, const RunContext* run, int depth) {
  if (run && run->should_stop()) return std::nullopt;
  const mpz_class order = g.order();
  if (order == 1) return "1";
  // Step 0. Small groups: GAP's rules on the multiplication table (structure_description.hpp).
  if (order <= SMALL_GROUP_LIMIT) return small_structure_description(g, run);
  // Step 1. Abelian groups (and so cyclic ones).
  if (is_abelian(g)) return abelian_name(g, run);
  const auto orbits = g.orbits();
  std::size_t moved = 0;
  for (const auto& o : orbits) moved += o.size();
  const bool transitive = orbits.size() == 1;
  // Step 2. S_n and A_n on the moved points.
  if (order == factorial_mpz(moved)) return symmetric_group_name(moved, false);
  if (moved >= 3 && order * 2 == factorial_mpz(moved)) return symmetric_group_name(moved, true);
  // Step 3. Dihedral groups.
  if (auto d = dihedral_name(g)) return d;
  if (transitive) {
    // Step 4. Mathieu groups, PSL(2,q), wreath products.
    if (auto m = mathieu_name(g, moved, transitive, run)) return m;
    if (auto p = psl2_name(g, moved, transitive, run)) return p;
    if (auto w = wreath_name(g, orbits[0], run)) return w;
  } else if (depth < 2) {
    // Step 5. Direct products over the orbits.
    if (auto p = direct_product_name(g, orbits, run, depth)) return p;
  }
  // Step 6. Puzzle groups with a piece structure.
  if (auto s = piece_structure(g, run)) {
    if (auto name = piece_structure_name(*s)) return name;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> named_structure(const PermGroup& g, const RunContext* run) {
  auto name = name_of(g, run, 0);
  if (run && run->should_stop()) return std::nullopt;
  return name;
}

std::optional<std::string> structure_name(const PermGroup& g, const RunContext* run) {
  if (auto name = named_structure(g, run)) return name;
  if (run && run->should_stop()) return std::nullopt;
  // A simple group in any action: a perfect group whose composition series has one factor,
  // named (not "simple group of order N"). Up to degree COMPOSITION_NAME_DEGREE (beyond, the
  // derived subgroup alone can take long for what is rarely a simple group unnamed above).
  if (g.degree() > COMPOSITION_NAME_DEGREE) return std::nullopt;
  auto derived = derived_subgroup(g, run);
  if (!derived || derived->order() != g.order() || g.order() == 1) return std::nullopt;
  auto series = composition_series(g, run);
  if (!series || series->factors.size() != 1 || series->factors[0].starts_with("simple group")) {
    return std::nullopt;
  }
  return series->factors[0];
}

std::string symmetric_group_name(std::size_t n, bool alternating) {
  if (alternating) {
    if (n <= 2) return "";
    if (n == 3) return "C3";
    return "A" + std::to_string(n);
  }
  if (n <= 1) return "";
  if (n == 2) return "C2";
  return "S" + std::to_string(n);
}

}  // namespace permuzzle
