// Sylow subgroups, normalisers and conjugacy classes of imprimitive groups (wreath products
// S_m wr S_k in GAP's WreathProduct(SymmetricGroup(m), SymmetricGroup(k)) action on m·k
// points), checked against GAP 4.12's answers for the same groups (recorded by running GAP
// outside the repository: Size(SylowSubgroup(G, p)), Length(ConjugacyClasses(G))) and against
// facts checked independently here: a Sylow subgroup's generators lie in G and generate (by a
// fresh Schreier–Sims) a group whose order is the p-part of |G|, so it is a p-group.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "permuzzle/group/action.hpp"
#include "permuzzle/group/backtrack.hpp"
#include "permuzzle/group/examples.hpp"
#include "permuzzle/group/rational_classes.hpp"
#include "permuzzle/group/sylow.hpp"
#include "permuzzle/group/wreath_classes.hpp"

namespace permuzzle {
namespace group_wreath_test {

// S_m wr S_k on points 1..m·k, block i = {i·m + 1, ..., i·m + m}: per block an m-cycle and a
// transposition, on top the k-cycle of the blocks and the exchange of the first two.
PermGroup wreath_of_symmetric(std::size_t m, std::size_t k) {
  std::vector<Perm> gens;
  const std::size_t n = m * k;
  auto make = [n](auto image_of) {
    std::vector<Point> images(n);
    for (Point p = 0; p < n; ++p) images[p] = image_of(p);
    return *Perm::from_images(std::move(images));
  };
  for (std::size_t b = 0; b < k; ++b) {
    const Point lo = static_cast<Point>(b * m);
    gens.push_back(make([&](Point p) {
      return p >= lo && p < lo + m ? lo + (p - lo + 1) % static_cast<Point>(m) : p;
    }));
    gens.push_back(make([&](Point p) { return p == lo ? lo + 1 : p == lo + 1 ? lo : p; }));
  }
  gens.push_back(make([&](Point p) { return static_cast<Point>((p + m) % n); }));
  gens.push_back(make([&](Point p) {
    return p < m ? p + static_cast<Point>(m) : p < 2 * m ? p - static_cast<Point>(m) : p;
  }));
  return *PermGroup::from_generators(std::move(gens));
}

mpz_class p_part(mpz_class n, unsigned long p) {
  mpz_class part = 1;
  while (mpz_divisible_ui_p(n.get_mpz_t(), p)) n /= p, part *= p;
  return part;
}

void expect_sylow(const PermGroup& g, unsigned long p, const mpz_class& gap_order,
                  const std::string& name) {
  auto sylow = sylow_subgroup(g, p);
  ASSERT_TRUE(sylow.ok()) << name << " p = " << p << ": " << sylow.error().message;
  EXPECT_EQ(sylow->order(), gap_order) << name << " p = " << p;
  EXPECT_EQ(p_part(g.order(), p), gap_order) << name << " p = " << p;
  for (const Perm& x : sylow->generators()) EXPECT_TRUE(g.contains(x)) << name << " p = " << p;
  auto again = PermGroup::from_generators(sylow->generators());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->order(), gap_order) << name << " p = " << p;
}

TEST(WreathSylow, OrdersMatchGap) {
  // GAP 4.12: Size(SylowSubgroup(WreathProduct(SymmetricGroup(m), SymmetricGroup(k)), p)).
  struct Case {
    std::size_t m, k;
    std::vector<std::pair<unsigned long, long>> sylows;
  };
  const std::vector<Case> cases = {
      {4, 3, {{2, 1024}, {3, 81}, {5, 1}}},        {3, 4, {{2, 128}, {3, 243}}},
      {5, 3, {{2, 1024}, {3, 81}, {5, 125}}},      {3, 5, {{2, 256}, {3, 729}, {5, 5}}},
      {6, 4, {{2, 524288}, {3, 19683}, {5, 625}}}, {4, 4, {{2, 32768}, {3, 243}}}};
  for (const Case& c : cases) {
    const std::string name = "S" + std::to_string(c.m) + " wr S" + std::to_string(c.k);
    PermGroup g = wreath_of_symmetric(c.m, c.k);
    for (const auto& [p, order] : c.sylows) expect_sylow(g, p, mpz_class(order), name);
  }
}

TEST(WreathSylow, S12WrS2MatchesGap) {
  // GAP 4.12 on the same generators: Sylow 2, 3, 5, 11 of orders 2^21, 3^10, 5^4, 11^2.
  PermGroup g = *PermGroup::from_generators(s12_wr_s2_generators());
  expect_sylow(g, 2, mpz_class(2097152), "S12 wr S2");
  expect_sylow(g, 3, mpz_class(59049), "S12 wr S2");
  expect_sylow(g, 5, mpz_class(625), "S12 wr S2");
  expect_sylow(g, 11, mpz_class(121), "S12 wr S2");
}

TEST(ActionHomomorphism, BlockActionKernelAndLifts) {
  // S4 wr S3 on its 3 blocks: image S3, kernel S4^3 (order 13824 = 82944 / 6); every lift maps
  // to its element, and the preimage of the image's Sylow 2 has order 13824 · 2.
  PermGroup g = wreath_of_symmetric(4, 3);
  auto hom = ActionHomomorphism::on_sets(g, {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}});
  ASSERT_TRUE(hom.ok()) << hom.error().message;
  EXPECT_EQ(hom->image().order(), 6);
  auto kernel = PermGroup::from_generators(hom->kernel_generators());
  ASSERT_TRUE(kernel.ok());
  EXPECT_EQ(kernel->order(), 13824);
  auto t = Perm::parse("(1,3,2)");
  auto lifted = hom->lift(*t);
  ASSERT_TRUE(lifted.ok());
  EXPECT_TRUE(g.contains(*lifted));
  EXPECT_EQ(lifted->image(0) / 4, 2u);  // block 0 goes to block 2
  auto two = PermGroup::from_generators({*Perm::parse("(1,2)")});
  auto pre = hom->preimage(*two);
  ASSERT_TRUE(pre.ok()) << pre.error().message;
  EXPECT_EQ(pre->order(), 27648);
}

TEST(WreathClasses, CountsMatchGap) {
  // GAP 4.12: Length(ConjugacyClasses(WreathProduct(SymmetricGroup(m), SymmetricGroup(k)))).
  const std::vector<std::tuple<std::size_t, std::size_t, long>> cases = {
      {4, 3, 65}, {3, 4, 51}, {5, 3, 140}, {4, 4, 190}, {6, 2, 77}};
  for (const auto& [m, k, gap_count] : cases) {
    PermGroup g = wreath_of_symmetric(m, k);
    auto classes = wreath_product_classes(g, {});
    ASSERT_TRUE(classes.has_value()) << m << " wr " << k;
    ASSERT_TRUE(classes->ok()) << classes->error().message;
    EXPECT_EQ((*classes)->count, gap_count) << "S" << m << " wr S" << k;
    mpz_class total = 0;
    for (const auto& c : (*classes)->classes) total += c.size;
    EXPECT_EQ(total, g.order());
  }
}

TEST(WreathClasses, AgreeWithEnumeration) {
  // S3 wr S3 (1296 elements): every class by enumeration, sizes and orders compared as sorted
  // lists (a second method that knows nothing of wreath products).
  PermGroup g = wreath_of_symmetric(3, 3);
  auto wreath = wreath_product_classes(g, {});
  ASSERT_TRUE(wreath.has_value() && wreath->ok());
  ClassOptions by_enumeration;
  by_enumeration.by_enumeration = true;
  auto enumerated = conjugacy_classes(g, by_enumeration);
  ASSERT_TRUE(enumerated.ok());
  auto summary = [](const ConjugacyClasses& c) {
    std::vector<std::pair<mpz_class, mpz_class>> s;
    for (const auto& x : c.classes) s.push_back({x.element_order, x.size});
    std::sort(s.begin(), s.end());
    return s;
  };
  EXPECT_EQ(summary(**wreath), summary(*enumerated));
  EXPECT_EQ((*wreath)->count, enumerated->count);
}

TEST(WreathClasses, S12WrS2MatchesGap) {
  // GAP 4.12 (same generators): 3080 classes, 28 of involutions, 565 of elements of order 12,
  // the largest of 20858412072960000 elements. Also: S12 itself is not a wreath product.
  PermGroup g = *PermGroup::from_generators(s12_wr_s2_generators());
  auto classes = conjugacy_classes(g);
  ASSERT_TRUE(classes.ok()) << classes.error().message;
  EXPECT_EQ(classes->count, 3080);
  ASSERT_EQ(classes->classes.size(), 3080u);
  std::map<mpz_class, int> by_order;
  mpz_class largest = 0;
  for (const auto& c : classes->classes) {
    ++by_order[c.element_order];
    largest = std::max(largest, c.size);
    EXPECT_EQ(c.representative.order(), c.element_order);
  }
  EXPECT_EQ(by_order[2], 28);
  EXPECT_EQ(by_order[12], 565);
  EXPECT_EQ(largest, mpz_class("20858412072960000"));
  PermGroup s12 = *PermGroup::from_generators(
      {*Perm::parse("(1,2)"), *Perm::parse("(1,2,3,4,5,6,7,8,9,10,11,12)")});
  EXPECT_FALSE(wreath_product_classes(s12, {}).has_value());
}

TEST(NormalizerInSymmetric, OrdersMatchGap) {
  // GAP 4.12: Size(Normalizer(SymmetricGroup(n), H)) for the same generators of H.
  struct Case {
    std::string name;
    std::size_t n;
    std::vector<std::string> h;
    long gap_order;
  };
  const std::vector<Case> cases = {
      {"M11", 11, {"(1,2,3,4,5,6,7,8,9,10,11)", "(3,7,11,8)(4,10,5,6)"}, 7920},
      {"M12",
       12,
       {"(1,2,3,4,5,6,7,8,9,10,11)", "(3,7,11,8)(4,10,5,6)", "(1,12)(2,11)(3,6)(4,8)(5,9)(7,10)"},
       95040},
      {"PSL(2,7) on 7", 7, {"(1,2,3,4,5,6,7)", "(2,3,5)(4,7,6)", "(2,3)(4,7)"}, 168},
      {"PSL(2,7) on 8", 8, {"(1,2,3,4,5,6,7)", "(1,8)(2,7)(3,4)(5,6)"}, 336},
      {"A5 on 6", 6, {"(1,2,3,4,5)", "(1,6)(2,5)"}, 120},
      {"C8", 8, {"(1,2,3,4,5,6,7,8)"}, 32},
      {"C3 x C3", 6, {"(1,2,3)", "(4,5,6)"}, 72},
      {"S4 wr S2", 8, {"(1,2)", "(1,2,3,4)", "(1,5)(2,6)(3,7)(4,8)"}, 1152},
      {"M24", 24, {}, 244823040}};
  for (const Case& c : cases) {
    std::vector<Perm> h_gens;
    for (const auto& text : c.h) h_gens.push_back(*Perm::parse(text));
    if (c.h.empty()) h_gens = m24_generators();
    PermGroup h = *PermGroup::from_generators(h_gens);
    std::string cycle = "(";
    for (std::size_t i = 1; i <= c.n; ++i) cycle += (i > 1 ? "," : "") + std::to_string(i);
    PermGroup s_n = *PermGroup::from_generators({*Perm::parse("(1,2)"), *Perm::parse(cycle + ")")});
    auto n = normalizer(s_n, h);
    ASSERT_TRUE(n.ok()) << c.name << ": " << n.error().message;
    EXPECT_EQ(n->order(), c.gap_order) << c.name;
    for (const Perm& x : n->generators()) {
      for (const Perm& y : h.generators()) EXPECT_TRUE(h.contains(y.conjugate(x))) << c.name;
    }
  }
}

TEST(RationalClasses, Psl2CountsAndEnumeration) {
  // PSL(2,p) on p + 1 points has (p + 5) / 2 classes (Dornhoff, "Group Representation Theory",
  // §38; GAP 4.12 agrees: 36 for p = 67, 53 for 101, 128 for 251). PSL(2,67) (150,348 elements)
  // is also enumerated: the sorted (order, size) lists must agree.
  for (unsigned long p : {67ul, 101ul, 251ul}) {
    PermGroup g = *PermGroup::from_generators(psl2_generators(p));
    auto classes = classes_by_rational_classes(g);
    ASSERT_TRUE(classes.ok()) << classes.error().message;
    EXPECT_EQ(classes->count, (p + 5) / 2) << "PSL(2," << p << ")";
    mpz_class total = 0;
    for (const auto& c : classes->classes) {
      total += c.size;
      EXPECT_TRUE(g.contains(c.representative));
      EXPECT_EQ(c.representative.order(), c.element_order);
    }
    EXPECT_EQ(total, g.order());
    if (p != 67) continue;
    ClassOptions by_enumeration;
    by_enumeration.by_enumeration = true;
    by_enumeration.enumerate_limit = 200000;
    auto enumerated = conjugacy_classes(g, by_enumeration);
    ASSERT_TRUE(enumerated.ok()) << enumerated.error().message;
    auto summary = [](const ConjugacyClasses& c) {
      std::vector<std::pair<mpz_class, mpz_class>> s;
      for (const auto& x : c.classes) s.push_back({x.element_order, x.size});
      std::sort(s.begin(), s.end());
      return s;
    };
    EXPECT_EQ(summary(*classes), summary(*enumerated));
  }
}

}  // namespace group_wreath_test
}  // namespace permuzzle
