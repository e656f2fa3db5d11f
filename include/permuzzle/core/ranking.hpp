// Perfect ranking of permutations and arrangements, and the factorials that size them.
//
// Permutations of n values are ranked by their Lehmer code, so rank order is lexicographic order
// (the order of std::next_permutation) and ranks run over 0..n!-1. Arrangements (ordered
// selections of k distinct values out of n) are ranked the same way over 0..n!/(n-k)!-1. Values
// are bytes in first..first+n-1 (first = 0 usually; Loopover numbers its tiles from 1). These
// are the generic rankers; the pattern-database builders keep their own incremental ones.
#pragma once

#include <gmpxx.h>

#include <bit>
#include <cassert>
#include <cstdint>
#include <optional>

namespace permuzzle {

// n! when it fits in 64 bits (n <= 20), nothing otherwise.
constexpr std::optional<std::uint64_t> factorial(int n) {
  assert(n >= 0);
  std::uint64_t f = 1;
  for (int i = 2; i <= n; ++i) {
    if (f > UINT64_MAX / static_cast<std::uint64_t>(i)) return std::nullopt;
    f *= static_cast<std::uint64_t>(i);
  }
  return f;
}

// n (n-1) ... (n-k+1) = n!/(n-k)!, the number of arrangements of k out of n, when it fits.
constexpr std::optional<std::uint64_t> falling_factorial(int n, int k) {
  assert(0 <= k && k <= n);
  std::uint64_t f = 1;
  for (int i = n - k + 1; i <= n; ++i) {
    if (f > UINT64_MAX / static_cast<std::uint64_t>(i)) return std::nullopt;
    f *= static_cast<std::uint64_t>(i);
  }
  return f;
}

// n! exactly, for group orders (GMP's mpz_fac_ui).
inline mpz_class factorial_mpz(unsigned long n) {
  mpz_class f;
  mpz_fac_ui(f.get_mpz_t(), n);
  return f;
}

// Rank of the arrangement p[0..k) of distinct values out of first..first+n-1 (k <= n <= 32;
// n!/(n-k)! must fit in 64 bits): mixed-radix digits, digit i of radix n - i counting the values
// below p[i] that are still unused.
inline std::uint64_t rank_arrangement(const std::uint8_t* p, int k, int n, int first = 0) {
  assert(0 <= k && k <= n && n <= 32);
  std::uint64_t r = 0;
  std::uint32_t used = 0;
  for (int i = 0; i < k; ++i) {
    const auto v = static_cast<std::uint32_t>(p[i] - first);
    const std::uint32_t smaller_unused =
        v - static_cast<std::uint32_t>(std::popcount(used & ((1u << v) - 1u)));
    r = r * static_cast<std::uint64_t>(n - i) + smaller_unused;
    used |= 1u << v;
  }
  return r;
}

// The arrangement of k out of first..first+n-1 whose rank is `rank`, written to out[0..k).
inline void unrank_arrangement(std::uint64_t rank, int k, int n, std::uint8_t* out, int first = 0) {
  assert(0 <= k && k <= n && n <= 32);
  // Step 1. The digits, least significant last; 32-bit divisions while the rank fits (every
  // whole-board table does), they are the cheaper ones.
  std::uint32_t digits[32];
  if (rank <= UINT32_MAX) {
    auto r = static_cast<std::uint32_t>(rank);
    for (int i = k - 1; i >= 0; --i) {
      const auto radix = static_cast<std::uint32_t>(n - i);
      digits[i] = r % radix;
      r /= radix;
    }
  } else {
    for (int i = k - 1; i >= 0; --i) {
      const auto radix = static_cast<std::uint64_t>(n - i);
      digits[i] = static_cast<std::uint32_t>(rank % radix);
      rank /= radix;
    }
  }
  // Step 2. Digit i picks the digits[i]-th smallest unused value.
  std::uint32_t unused = n == 32 ? ~0u : (1u << n) - 1u;
  for (int i = 0; i < k; ++i) {
    std::uint32_t m = unused;
    for (std::uint32_t j = 0; j < digits[i]; ++j) m &= m - 1;  // drop the lowest set bits
    const int v = std::countr_zero(m);
    unused &= ~(1u << v);
    out[i] = static_cast<std::uint8_t>(v + first);
  }
}

// Lehmer rank of p[0..n), a permutation of first..first+n-1 (n <= 20).
inline std::uint64_t rank_permutation(const std::uint8_t* p, int n, int first = 0) {
  assert(n <= 20);
  return rank_arrangement(p, n, n, first);
}

// The permutation of first..first+n-1 whose rank is `rank` (< n!), written to out[0..n).
inline void unrank_permutation(std::uint64_t rank, int n, std::uint8_t* out, int first = 0) {
  assert(n <= 20);
  unrank_arrangement(rank, n, n, out, first);
}

}  // namespace permuzzle
