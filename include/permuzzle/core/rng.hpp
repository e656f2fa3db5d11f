// The library's seeded random numbers: one generator type whose draws are the same with every
// standard library.
//
// std::mt19937_64 and std::mt19937 are fully specified by the standard, but
// std::uniform_int_distribution and std::shuffle are not: libstdc++, libc++ and MSVC turn the same
// engine output into different numbers, so a seeded position printed on one system was not the
// one printed on another. BasicRng draws with our own copies of the algorithms that libstdc++ 12
// uses (bits/uniform_int_dist.h, bits/stl_algo.h): Lemire's nearly divisionless method with a
// double-width product for 32- and 64-bit engines, the two-division method otherwise, and
// std::shuffle's trick of drawing two swap positions from one number. Seeded outputs printed
// before this generator existed (built with libstdc++) therefore stay the same, and are now the
// same everywhere. tests/rng_test.cpp checks the equality against libstdc++ itself.
//
// BasicRng is also a UniformRandomBitGenerator (operator(), min, max), forwarding the raw engine
// output, so it can still be handed to standard algorithms where exact reproducibility does not
// matter.
//
// SplitMixRng is the sliding puzzles' generator (SplitMix64 with threshold rejection), kept
// because `permuzzle sliding random --seed N` has printed its positions since the first release.
#pragma once

#include <cassert>
#include <concepts>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>

namespace permuzzle {

namespace detail {

struct Wide {
  std::uint64_t hi, lo;
};

// The full 128-bit product of two 64-bit numbers, without a 128-bit integer type.
constexpr Wide mul_wide_portable(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
  const std::uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo;
  const std::uint64_t hi_lo = a_hi * b_lo;
  const std::uint64_t lo_hi = a_lo * b_hi;
  const std::uint64_t hi_hi = a_hi * b_hi;
  // The middle column fits: at most 2 (2^32 - 1) + (2^32 - 1)^2 = 2^64 - 1.
  const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
  return {hi_hi + (hi_lo >> 32) + (cross >> 32), (cross << 32) | (lo_lo & 0xFFFFFFFFu)};
}

constexpr Wide mul_wide(std::uint64_t a, std::uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ using U128 = unsigned __int128;
  const U128 p = static_cast<U128>(a) * b;
  return {static_cast<std::uint64_t>(p >> 64), static_cast<std::uint64_t>(p)};
#else
  return mul_wide_portable(a, b);
#endif
}

}  // namespace detail

// Seeded generator over a standard engine (std::mt19937_64 or std::mt19937).
template <class Engine>
class BasicRng {
 public:
  using engine_type = Engine;
  using result_type = typename Engine::result_type;

  // The engine seeded exactly as `Engine engine(seed)` would be (the engine reduces the seed
  // modulo 2^w itself, so narrowing to result_type first changes nothing).
  explicit BasicRng(std::uint64_t seed) : engine_(static_cast<result_type>(seed)) {}

  // UniformRandomBitGenerator: the raw engine output.
  static constexpr result_type min() { return Engine::min(); }
  static constexpr result_type max() { return Engine::max(); }
  result_type operator()() { return engine_(); }
  result_type next() { return engine_(); }

  // Uniform in [lo, hi] (both inclusive); the same numbers as
  // std::uniform_int_distribution<T>(lo, hi)(engine) with libstdc++.
  template <std::integral T>
  T uniform(T lo, T hi) {
    assert(lo <= hi);
    using U = std::common_type_t<result_type, std::make_unsigned_t<T>>;
    const U span = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
    return static_cast<T>(draw<U>(span) + static_cast<U>(lo));
  }
  // Uniform in [0, n), n >= 1.
  std::uint64_t below(std::uint64_t n) {
    assert(n >= 1);
    return uniform<std::uint64_t>(0, n - 1);
  }

  // A uniformly random permutation of [first, last); the same order as std::shuffle with
  // libstdc++.
  template <std::random_access_iterator It>
  void shuffle(It first, It last) {
    if (first == last) return;
    using D = std::iter_difference_t<It>;
    using UD = std::make_unsigned_t<D>;
    using UC = std::common_type_t<result_type, UD>;
    const UC engine_span = static_cast<UC>(max()) - static_cast<UC>(min());
    const UC n = static_cast<UC>(last - first);
    if (engine_span / n >= n) {
      // Step 1. One draw in [0, r(r+1)) gives the swap positions of two successive elements
      // (r+1 and r+2 candidates); an even length first swaps the second element alone.
      It i = first + 1;
      if (n % 2 == 0) {
        std::iter_swap(i, first + static_cast<D>(uniform<UD>(0, 1)));
        ++i;
      }
      while (i != last) {
        const UC r = static_cast<UC>(i - first) + 1;
        const UC x = uniform<UC>(0, r * (r + 1) - 1);
        std::iter_swap(i, first + static_cast<D>(x / (r + 1)));
        ++i;
        std::iter_swap(i, first + static_cast<D>(x % (r + 1)));
        ++i;
      }
      return;
    }
    // Step 2. Long ranges: one draw per element.
    for (It i = first + 1; i != last; ++i) {
      std::iter_swap(i, first + static_cast<D>(uniform<UD>(0, static_cast<UD>(i - first))));
    }
  }

  Engine& engine() { return engine_; }

 private:
  // Uniform in [0, span] as libstdc++'s uniform_int_distribution::operator() computes it.
  template <class U>
  U draw(U span) {
    constexpr U engine_min = static_cast<U>(Engine::min());
    constexpr U engine_span = static_cast<U>(Engine::max()) - engine_min;
    if (engine_span > span) {
      // Downscaling.
      const U count = span + 1;
      if constexpr (engine_span == std::numeric_limits<std::uint64_t>::max()) {
        return static_cast<U>(lemire64(static_cast<std::uint64_t>(count)));
      } else if constexpr (engine_span == std::numeric_limits<std::uint32_t>::max()) {
        return static_cast<U>(lemire32(static_cast<std::uint32_t>(count)));
      } else {
        // Two divisions: reject the incomplete last bucket.
        const U scaling = engine_span / count;
        const U past = count * scaling;
        U x;
        do x = static_cast<U>(engine_()) - engine_min;
        while (x >= past);
        return x / scaling;
      }
    } else if (engine_span < span) {
      // Upscaling: high part drawn recursively, low part from one engine call; reject values
      // past `span` and wrapped sums.
      U high, x;
      do {
        // Never 0 here (engine_span < span); spelled so that no compiler sees a constant 0 divisor
        // for engines whose span is the whole type (the branch is dead for them).
        const U engine_count =
            engine_span == std::numeric_limits<U>::max() ? U{1} : engine_span + 1;
        high = engine_count * draw<U>(span / engine_count);
        x = high + (static_cast<U>(engine_()) - engine_min);
      } while (x > span || x < high);
      return x;
    } else {
      return static_cast<U>(engine_()) - engine_min;
    }
  }

  // Lemire, "Fast Random Integer Generation in an Interval" (ACM TOMACS 29(1), 2019): the high
  // half of engine() * count, rejecting the few low halves below 2^w mod count.
  std::uint64_t lemire64(std::uint64_t count) {
    detail::Wide p = detail::mul_wide(static_cast<std::uint64_t>(engine_()), count);
    if (p.lo < count) {
      const std::uint64_t threshold = (0 - count) % count;
      while (p.lo < threshold) p = detail::mul_wide(static_cast<std::uint64_t>(engine_()), count);
    }
    return p.hi;
  }
  std::uint32_t lemire32(std::uint32_t count) {
    std::uint64_t p = static_cast<std::uint64_t>(engine_()) * count;
    if (static_cast<std::uint32_t>(p) < count) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(0u - count) % count;
      while (static_cast<std::uint32_t>(p) < threshold) {
        p = static_cast<std::uint64_t>(engine_()) * count;
      }
    }
    return static_cast<std::uint32_t>(p >> 32);
  }

  Engine engine_;
};

// The library's generator.
using Rng = BasicRng<std::mt19937_64>;
// Over the 32-bit Mersenne Twister, for code seeded that way.
using Rng32 = BasicRng<std::mt19937>;

// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", 2014) with
// threshold rejection: the sliding puzzles' generator, whose seeded positions are published.
class SplitMixRng {
 public:
  using result_type = std::uint64_t;
  explicit SplitMixRng(std::uint64_t seed) : state_(seed) {}

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<std::uint64_t>::max(); }
  result_type operator()() { return next(); }
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n >= 1: reject the incomplete last block of 2^64 - 1 values, then reduce.
  std::uint64_t below(std::uint64_t n) {
    assert(n >= 1);
    const std::uint64_t limit = max() - (max() % n);
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    return x % n;
  }

 private:
  std::uint64_t state_;
};

}  // namespace permuzzle
