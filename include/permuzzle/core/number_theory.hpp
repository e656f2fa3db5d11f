// Number theory on machine integers that every layer shares: primality of any 64-bit number.
#pragma once

#include <cstdint>

namespace permuzzle {

// True when n is prime. Deterministic Miller–Rabin with the first twelve primes as bases,
// which is exact for every n < 3.3 * 10^24 (so for every 64-bit n): at most a few thousand
// multiplications, never a trial division up to sqrt(n).
bool is_prime(std::uint64_t n);

}  // namespace permuzzle
