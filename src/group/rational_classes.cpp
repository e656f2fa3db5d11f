// Conjugacy classes by rational classes (see rational_classes.hpp).
#include "permuzzle/group/rational_classes.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/action.hpp"
#include "permuzzle/group/backtrack.hpp"

namespace permuzzle {

namespace {

// Element orders above this are not split into rational classes (their units are not listed).
constexpr std::uint64_t MAX_RATIONAL_ORDER = 1u << 20;

// x^g in <y>: x^g = y^k for one k prime to m. g maps every cycle of x onto a cycle of y^k, which
// has the cycles of y (k prime to every cycle length), so for every point p with p^g = q and
// (p^x)^g = r known: q and r lie in one cycle of y, of the length of p's cycle in x, and
// k = pos(r) - pos(q) modulo that length; the residues of different lengths L1, L2 must agree
// modulo gcd(L1, L2) (one k for all).
class PowerOfProperty : public SearchProperty {
 public:
  PowerOfProperty(const Perm& x, const Perm& y)
      : n_(std::max(x.largest_moved_point(), y.largest_moved_point())) {
    x_.resize(n_);
    x_inverse_.resize(n_);
    x_length_.assign(n_, 1);
    cycle_.resize(n_);
    position_.assign(n_, 0);
    length_.assign(n_, 1);
    for (std::size_t p = 0; p < n_; ++p) {
      x_[p] = x.image(Point(p));
      x_inverse_[x_[p]] = static_cast<Point>(p);
      cycle_[p] = static_cast<std::uint32_t>(p);
    }
    for (const auto& c : x.cycles()) {
      for (Point p : c) x_length_[p] = static_cast<std::uint32_t>(c.size());
      x_cycles_.push_back(c);
    }
    for (const auto& c : y.cycles()) {
      for (std::size_t i = 0; i < c.size(); ++i) {
        cycle_[c[i]] = c[0];
        position_[c[i]] = static_cast<std::uint32_t>(i);
        length_[c[i]] = static_cast<std::uint32_t>(c.size());
      }
    }
    std::stable_sort(x_cycles_.begin(), x_cycles_.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
  }
  std::size_t degree() const override { return n_; }
  // The points of x's longest cycles first, each cycle in its order.
  std::vector<Point> preferred_base() const override {
    std::vector<Point> order;
    for (const auto& c : x_cycles_) order.insert(order.end(), c.begin(), c.end());
    return order;
  }
  bool consistent(std::size_t depth, const std::vector<Point>& determined,
                  const std::vector<Point>& image,
                  const std::vector<std::uint32_t>& depth_of) override {
    (void)determined;
    const bool ok = check(image, [&](Point p) { return depth_of[p] <= depth; });
    if (by_depth_.size() <= depth) by_depth_.resize(depth + 1);
    by_depth_[depth] = residues_;
    return ok;
  }
  // The pairs through `point` whose other end is known at the parent node, against the
  // parent's residues (kept by consistent, which runs on a node before its children's tests).
  bool admissible(std::size_t depth, Point point, Point point_image,
                  const std::vector<Point>& image,
                  const std::vector<std::uint32_t>& depth_of) override {
    if (point >= n_ || depth == 0 || by_depth_.size() < depth) return true;
    const auto& residues = by_depth_[depth - 1];
    const Point after = x_[point], before = x_inverse_[point];
    if (after == point) return point_image >= n_ || length_[point_image] == 1;
    if (depth_of[after] < depth && !pair_fits(point, point_image, image[after], residues)) {
      return false;
    }
    if (depth_of[before] < depth && !pair_fits(before, image[before], point_image, residues)) {
      return false;
    }
    return true;
  }
  bool accept(const std::vector<Point>& image) override {
    return check(image, [](Point) { return true; });
  }

 private:
  // Can p^g = q and (p^x)^g = r with the residues found so far (p moved by x)?
  bool pair_fits(Point p, Point q, Point r,
                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& residues) const {
    if (q >= n_ || r >= n_) return false;
    if (cycle_[q] != cycle_[r] || length_[q] != x_length_[p]) return false;
    const std::uint32_t l = length_[q];
    const std::uint32_t k = (position_[r] + l - position_[q]) % l;
    for (const auto& [length, residue] : residues) {
      const std::uint32_t d = std::gcd(length, l);
      if (residue % d != k % d) return false;
    }
    return true;
  }

  template <class Known>
  bool check(const std::vector<Point>& image, Known known) {
    residues_.clear();
    for (std::size_t p = 0; p < n_; ++p) {
      if (!known(Point(p)) || !known(x_[p])) continue;
      const Point q = image[p], r = image[x_[p]];
      if (q >= n_ || r >= n_) {
        if (q != r || x_[p] != p) return false;
        continue;
      }
      if (cycle_[q] != cycle_[r] || length_[q] != x_length_[p]) return false;
      const std::uint32_t l = length_[q];
      if (l == 1) continue;
      const std::uint32_t k = (position_[r] + l - position_[q]) % l;
      bool seen = false;
      for (const auto& [length, residue] : residues_) {
        const std::uint32_t d = std::gcd(length, l);
        if (residue % d != k % d) return false;
        seen = seen || length == l;
      }
      if (!seen) residues_.push_back({l, k});
    }
    return true;
  }

  std::size_t n_;
  std::vector<Point> x_, x_inverse_;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> by_depth_;
  std::vector<std::uint32_t> x_length_;
  std::vector<std::vector<Point>> x_cycles_;
  std::vector<std::uint32_t> cycle_, position_, length_;  // y's cycles
  std::vector<std::pair<std::uint32_t, std::uint32_t>> residues_;
};

// k with y^k = z (z a power of y of the same order), by the positions along y's cycles and
// the Chinese remainder theorem over the cycle lengths.
std::optional<std::uint64_t> exponent_of(const Perm& y, const Perm& z, std::uint64_t m) {
  std::uint64_t k = 0, modulus = 1;
  for (const auto& c : y.cycles()) {
    const std::uint64_t l = c.size();
    std::uint64_t a = 0;
    const Point target = z.image(c[0]);
    while (a < l && c[a] != target) ++a;
    if (a == l) return std::nullopt;
    // Solve k' = k (mod modulus), k' = a (mod l).
    const std::uint64_t d = std::gcd(modulus, l);
    if (k % d != a % d) return std::nullopt;
    while (k % l != a) k += modulus;  // at most l / d steps
    modulus = std::lcm(modulus, l);
  }
  if (modulus != m) return std::nullopt;
  return k % m;
}

}  // namespace

Result<ConjugacyClasses> classes_by_rational_classes(const PermGroup& g, const RunContext* run) {
  ConjugacyClasses result;
  result.method = "random elements + rational classes (backtrack centralisers and normalisers)";
  const mpz_class order = g.order();
  mpz_class total = 1;
  result.classes.push_back({Perm(g.degree()), 1, 1});
  // Known rational classes by cycle type: a generator of each cyclic subgroup class; elements
  // of too large an order are kept as single classes (plain conjugacy tests).
  std::map<std::vector<std::size_t>, std::vector<Perm>> rational;
  std::map<std::vector<std::size_t>, std::vector<Perm>> single;
  // Step 1. Is y in a known class? Else add its rational class and then its powers'.
  auto consider = [&](auto&& self, const Perm& y) -> Status {
    if (y.is_identity()) return Ok{};
    if (run && run->should_stop()) return run->stop_error();
    const auto type = y.cycle_type();
    for (const Perm& x : rational[type]) {
      PowerOfProperty property(x, y);
      auto found = element_search(g, property, run);
      if (!found) return found.error();
      if (found->has_value()) return Ok{};
    }
    for (const Perm& x : single[type]) {
      auto found = find_conjugator(g, x, y, run);
      if (!found) return found.error();
      if (found->has_value()) return Ok{};
    }
    auto centraliser = centralizer(g, y, run);
    if (!centraliser) return centraliser.error();
    const mpz_class size = order / centraliser->order();
    const mpz_class m_big = y.order();
    if (m_big > MAX_RATIONAL_ORDER) {
      single[type].push_back(y);
      result.classes.push_back({y, size, m_big});
      total += size;
      return Ok{};
    }
    const std::uint64_t m = m_big.get_ui();
    // Step 2. R from N_G(<y>)'s generators, and one class per coset of R in the units. The
    // normaliser is one subgroup search (y^g in <y>) seeded with C_G(y), rather than one
    // conjugacy search per unit as normalizer() does for cyclic groups.
    PowerOfProperty normalises(y, y);
    std::vector<Perm> known = centraliser->generators();
    known.push_back(y);
    auto normaliser = subgroup_search(g, normalises, known, run);
    if (!normaliser) return normaliser.error();
    std::vector<char> in_r(m, 0);
    std::vector<std::uint64_t> r_elements{1 % m};
    in_r[1 % m] = 1;
    for (const Perm& s : normaliser->generators()) {
      auto k = exponent_of(y, y.conjugate(s), m);
      if (!k) return internal_error("a normaliser element does not map y to a power of y");
      for (std::size_t i = 0; i < r_elements.size(); ++i) {
        const std::uint64_t next = r_elements[i] * *k % m;
        if (!in_r[next]) in_r[next] = 1, r_elements.push_back(next);
      }
    }
    if (mpz_class(r_elements.size()) * centraliser->order() != normaliser->order()) {
      return internal_error("|N(<y>) : C(y)| differs from the exponents found");
    }
    std::vector<char> covered(m, 0);
    for (std::uint64_t k = 1; k < std::max<std::uint64_t>(m, 2); ++k) {
      if (std::gcd(k, m) != 1 || covered[k % m]) continue;
      for (std::uint64_t r : r_elements) covered[k * r % m] = 1;
      const Perm power = y.pow(static_cast<long long>(k));
      result.classes.push_back({power, size, m_big});
      total += size;
    }
    rational[type].push_back(y);
    if (total > order) return internal_error("the class sizes add up to more than |G|");
    // Step 3. The powers y^e, e a proper divisor of m.
    for (std::uint64_t e = 2; e < m; ++e) {
      if (m % e != 0) continue;
      if (auto st = self(self, y.pow(static_cast<long long>(e))); !st) return st;
    }
    return Ok{};
  };
  // Step 4. Random elements until the sizes add up to |G|.
  Rng rng(25);
  while (total < order) {
    if (run && run->should_stop()) return run->stop_error();
    if (auto st = consider(consider, g.random_element(rng)); !st) return st.error();
  }
  if (total != order) return internal_error("the class sizes add up to more than |G|");
  result.count = static_cast<unsigned long>(result.classes.size());
  return result;
}

}  // namespace permuzzle
