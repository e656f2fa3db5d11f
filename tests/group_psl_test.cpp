// Sylow 2-subgroups and involution normalizers of PSL(2,q) on the q + 1 points of the projective
// line, checked against GAP 4.12 (recorded outside the repository with the generators of
// psl2_generators: Size and StructureDescription of SylowSubgroup(G, 2) and of
// Normalizer(G, Group(-1/x))). These take the listed-centraliser route of sylow_subgroup (the
// centraliser of an involution has q ± 1 elements) and the probes of the centralizer search.
#include <gtest/gtest.h>

#include "permuzzle/group/backtrack.hpp"
#include "permuzzle/group/examples.hpp"
#include "permuzzle/group/naming.hpp"
#include "permuzzle/group/sylow.hpp"

namespace permuzzle {
namespace group_psl_test {

PermGroup psl2(std::uint64_t q) {
  SchreierSimsOptions options;
  options.randomized = true;
  auto g = PermGroup::from_generators(psl2_generators(q), {}, options);
  EXPECT_TRUE(g.ok());
  return g.ok() ? *g : PermGroup();
}

struct Psl2Fact {
  std::uint64_t q;
  unsigned long sylow_order;
  std::string sylow_name;
  unsigned long normalizer_order;
  std::string normalizer_name;
};

// GAP 4.12: q, |Sylow_2|, its StructureDescription, |N(<-1/x>)|, its StructureDescription.
const std::vector<Psl2Fact> FACTS = {{17, 16, "D16", 16, "D16"},
                                     {67, 4, "C2 x C2", 68, "D68"},
                                     {101, 4, "C2 x C2", 100, "D100"},
                                     {1031, 8, "D8", 1032, "D1032"}};

TEST(Psl2Sylow, DihedralOrKleinAsGapSays) {
  for (const Psl2Fact& fact : FACTS) {
    const PermGroup g = psl2(fact.q);
    auto sylow = sylow_subgroup(g, 2);
    ASSERT_TRUE(sylow.ok()) << sylow.error().message;
    EXPECT_EQ(sylow->order(), fact.sylow_order) << "q = " << fact.q;
    for (const Perm& x : sylow->generators()) EXPECT_TRUE(g.contains(x)) << "q = " << fact.q;
    EXPECT_EQ(structure_name(*sylow).value_or("?"), fact.sylow_name) << "q = " << fact.q;
  }
}

TEST(Psl2Sylow, NormalizerOfAnInvolutionAsGapSays) {
  for (const Psl2Fact& fact : FACTS) {
    const PermGroup g = psl2(fact.q);
    const Perm involution = psl2_generators(fact.q)[1];
    auto h = PermGroup::from_generators({involution});
    ASSERT_TRUE(h.ok());
    auto n = normalizer(g, *h);
    ASSERT_TRUE(n.ok()) << n.error().message;
    EXPECT_EQ(n->order(), fact.normalizer_order) << "q = " << fact.q;
    // In G, and normalizing <x>: every generator conjugates x into <x>.
    for (const Perm& s : n->generators()) {
      EXPECT_TRUE(g.contains(s));
      EXPECT_TRUE(h->contains(involution.conjugate(s))) << "q = " << fact.q;
    }
    EXPECT_EQ(structure_name(*n).value_or("?"), fact.normalizer_name) << "q = " << fact.q;
    // The centralizer is the same group (x has order 2), found by the same search.
    auto c = centralizer(g, involution);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->order(), fact.normalizer_order);
  }
}

}  // namespace group_psl_test
}  // namespace permuzzle
