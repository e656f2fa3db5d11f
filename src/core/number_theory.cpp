#include "permuzzle/core/number_theory.hpp"

namespace permuzzle {

namespace {

__extension__ typedef unsigned __int128 Wide;  // GCC's and Clang's 128-bit integer

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t m) {
  return static_cast<std::uint64_t>(Wide(a) * b % m);
}

std::uint64_t pow_mod(std::uint64_t base, std::uint64_t exponent, std::uint64_t m) {
  std::uint64_t result = 1 % m;
  base %= m;
  while (exponent > 0) {
    if (exponent & 1) result = mul_mod(result, base, m);
    base = mul_mod(base, base, m);
    exponent >>= 1;
  }
  return result;
}

}  // namespace

bool is_prime(std::uint64_t n) {
  // The bases 2..37 decide every n < 3,317,044,064,679,887,385,961,981 (Sorenson and Webster,
  // 2015): a strong probable prime to all of them is prime.
  constexpr std::uint64_t BASES[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  if (n < 2) return false;
  for (std::uint64_t p : BASES) {
    if (n % p == 0) return n == p;
  }
  // n - 1 = d * 2^s with d odd.
  std::uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) {
    d >>= 1;
    ++s;
  }
  for (std::uint64_t a : BASES) {
    std::uint64_t x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int r = 1; r < s && composite; ++r) {
      x = mul_mod(x, x, n);
      composite = x != n - 1;
    }
    if (composite) return false;
  }
  return true;
}

}  // namespace permuzzle
