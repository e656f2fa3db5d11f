// Ranking: ranks must follow std::next_permutation's (lexicographic) order, the independent
// enumeration, and the factorials must match the published values and refuse overflow.
#include "permuzzle/core/ranking.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

namespace permuzzle {
namespace ranking_test {

TEST(Ranking, Factorials) {
  EXPECT_EQ(factorial(0), 1u);
  EXPECT_EQ(factorial(1), 1u);
  EXPECT_EQ(factorial(12), 479001600u);
  EXPECT_EQ(factorial(20), 2432902008176640000ULL);  // the largest that fits 64 bits
  EXPECT_FALSE(factorial(21).has_value());
  EXPECT_FALSE(factorial(100).has_value());
  EXPECT_EQ(falling_factorial(16, 0), 1u);
  EXPECT_EQ(falling_factorial(16, 3), 16u * 15 * 14);
  EXPECT_EQ(falling_factorial(20, 20), factorial(20));
  EXPECT_EQ(falling_factorial(32, 12),
            32ULL * 31 * 30 * 29 * 28 * 27 * 26 * 25 * 24 * 23 * 22 * 21);
  EXPECT_FALSE(falling_factorial(32, 14).has_value());  // 32!/18! > 2^64
  EXPECT_TRUE(falling_factorial(32, 13).has_value());
  EXPECT_EQ(factorial_mpz(25), mpz_class("15511210043330985984000000"));
}

// Every permutation of 0..n-1 (n <= 8) in std::next_permutation order has rank 0, 1, 2, ...
TEST(Ranking, PermutationRanksFollowLexicographicOrder) {
  for (int n = 0; n <= 8; ++n) {
    for (int first : {0, 1}) {
      std::vector<std::uint8_t> p(n), back(n);
      std::iota(p.begin(), p.end(), static_cast<std::uint8_t>(first));
      std::uint64_t expected = 0;
      do {
        ASSERT_EQ(rank_permutation(p.data(), n, first), expected) << n;
        unrank_permutation(expected, n, back.data(), first);
        ASSERT_EQ(back, p) << n << " rank " << expected;
        ++expected;
      } while (std::next_permutation(p.begin(), p.end()));
      EXPECT_EQ(expected, *factorial(n));
    }
  }
}

TEST(Ranking, LargePermutations) {
  // n = 20: the last rank is 20! - 1 (the reversed order), past 32 bits.
  std::vector<std::uint8_t> p(20), back(20);
  std::iota(p.rbegin(), p.rend(), std::uint8_t{0});
  EXPECT_EQ(rank_permutation(p.data(), 20), *factorial(20) - 1);
  unrank_permutation(*factorial(20) - 1, 20, back.data());
  EXPECT_EQ(back, p);
  // A middle rank: swap the first two of the identity -> rank 19!.
  std::iota(p.begin(), p.end(), std::uint8_t{0});
  std::swap(p[0], p[1]);
  EXPECT_EQ(rank_permutation(p.data(), 20), *factorial(19));
  unrank_permutation(*factorial(19), 20, back.data());
  EXPECT_EQ(back, p);
}

// Arrangements of k out of n in lexicographic order, enumerated independently: sorted
// k-prefixes of every permutation, deduplicated.
TEST(Ranking, ArrangementRanksFollowLexicographicOrder) {
  for (int n = 0; n <= 7; ++n) {
    for (int k = 0; k <= n; ++k) {
      std::set<std::vector<std::uint8_t>> all;
      std::vector<std::uint8_t> p(n);
      std::iota(p.begin(), p.end(), std::uint8_t{0});
      do all.insert(std::vector<std::uint8_t>(p.begin(), p.begin() + k));
      while (std::next_permutation(p.begin(), p.end()));
      ASSERT_EQ(all.size(), *falling_factorial(n, k));
      std::uint64_t expected = 0;
      std::vector<std::uint8_t> back(k);
      for (const auto& a : all) {
        ASSERT_EQ(rank_arrangement(a.data(), k, n), expected) << n << " " << k;
        unrank_arrangement(expected, k, n, back.data());
        ASSERT_EQ(back, a) << n << " " << k;
        ++expected;
      }
    }
  }
}

TEST(Ranking, ArrangementsOnThirtyTwoValues) {
  // Values up to 31 and ranks past 32 bits: 5 of 32 ranked and back.
  const std::uint8_t a[] = {31, 0, 17, 30, 5};
  std::uint8_t back[5];
  const std::uint64_t r = rank_arrangement(a, 5, 32);
  // Digits 31, 0, 16, 28, 4 of radices 32, 31, 30, 29, 28 (unused values below each).
  EXPECT_EQ(r, (((31ULL * 31 + 0) * 30 + 16) * 29 + 28) * 28 + 4);
  unrank_arrangement(r, 5, 32, back);
  EXPECT_TRUE(std::equal(a, a + 5, back));
  const std::uint8_t last[] = {31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19};
  std::uint8_t back13[13];
  EXPECT_EQ(rank_arrangement(last, 13, 32), *falling_factorial(32, 13) - 1);
  unrank_arrangement(*falling_factorial(32, 13) - 1, 13, 32, back13);
  EXPECT_TRUE(std::equal(last, last + 13, back13));
}

}  // namespace ranking_test
}  // namespace permuzzle
