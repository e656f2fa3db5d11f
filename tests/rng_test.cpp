// The seeded generator: engines against the values the C++ standard and SplitMix64's authors
// publish, our draws against libstdc++'s std::uniform_int_distribution and std::shuffle (the
// algorithms they copy; only with libstdc++), and fixed outputs for a few seeds (checked with
// every standard library, since they were obtained with libstdc++'s algorithms).
#include "permuzzle/core/rng.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace permuzzle {
namespace rng_test {

// [rand.predef]: the 10000th output of a default-constructed engine (default seed 5489).
TEST(Rng, EnginesMatchTheStandard) {
  Rng r(5489);
  Rng32 r32(5489);
  std::uint64_t x = 0, y = 0;
  for (int i = 0; i < 10000; ++i) x = r(), y = r32();
  EXPECT_EQ(x, 9981545732273789042ULL);
  EXPECT_EQ(y, 4123659995u);
}

// Reference outputs of SplitMix64 (Vigna's splitmix64.c), seeds 0 and 1234567.
TEST(Rng, SplitMixMatchesTheReference) {
  EXPECT_EQ(SplitMixRng(0).next(), 16294208416658607535ULL);
  SplitMixRng s(1234567);
  const std::uint64_t expected[] = {6457827717110365317ULL, 3203168211198807973ULL,
                                    9817491932198370423ULL, 4593380528125082431ULL,
                                    16408922859458223821ULL};
  for (std::uint64_t e : expected) EXPECT_EQ(s.next(), e);
}

TEST(Rng, PortableWideProductIsExact) {
  const std::uint64_t edge[] = {0,
                                1,
                                2,
                                0xFFFFFFFFULL,
                                0x100000000ULL,
                                0x8000000000000000ULL,
                                std::numeric_limits<std::uint64_t>::max()};
  std::mt19937_64 e(1);
  std::vector<std::uint64_t> values(std::begin(edge), std::end(edge));
  for (int i = 0; i < 200; ++i) values.push_back(e());
  for (std::uint64_t a : values) {
    for (std::uint64_t b : values) {
      const detail::Wide w = detail::mul_wide_portable(a, b);
      // Check against the schoolbook identity a * b = hi * 2^64 + lo through its low half and
      // its value modulo 2^32 - 1 (2^64 = 1 there), independent of a 128-bit type.
      EXPECT_EQ(w.lo, a * b);
      const std::uint64_t m = 0xFFFFFFFFULL;
      EXPECT_EQ((w.hi % m + w.lo % m) % m, (a % m) * (b % m) % m);
#if defined(__SIZEOF_INT128__)
      __extension__ using U128 = unsigned __int128;
      EXPECT_EQ(w.hi, static_cast<std::uint64_t>((static_cast<U128>(a) * b) >> 64));
#endif
    }
  }
}

// Fixed outputs (obtained with libstdc++ 12's std::uniform_int_distribution and std::shuffle),
// so that other standard libraries are held to the same numbers.
TEST(Rng, GoldenValues) {
  auto draws = [](auto rng, auto draw, int count) {
    std::vector<long long> v;
    for (int i = 0; i < count; ++i) v.push_back(static_cast<long long>(draw(rng)));
    return v;
  };
  EXPECT_EQ(draws(
                Rng(1), [](Rng& r) { return r.below(10); }, 8),
            (std::vector<long long>{1, 1, 4, 0, 3, 9, 4, 0}));
  EXPECT_EQ(draws(
                Rng(2), [](Rng& r) { return r.uniform(-5, 5); }, 8),
            (std::vector<long long>{4, 4, 3, 5, -3, -4, -3, -4}));
  EXPECT_EQ(draws(
                Rng(3), [](Rng& r) { return r.below(1000000007ULL); }, 4),
            (std::vector<long long>{558765993, 195763756, 590241275, 346368911}));
  EXPECT_EQ(draws(
                Rng32(6), [](Rng32& r) { return r.below(6); }, 8),
            (std::vector<long long>{5, 5, 1, 1, 4, 0, 0, 2}));
  // A 32-bit engine and a 41-bit range: the upscaling path.
  EXPECT_EQ(draws(
                Rng32(7), [](Rng32& r) { return r.uniform<std::uint64_t>(0, 1ULL << 40); }, 3),
            (std::vector<long long>{82580792516LL, 860363434486LL, 485237772499LL}));
  EXPECT_EQ(draws(
                SplitMixRng(9), [](SplitMixRng& r) { return r.below(7); }, 8),
            (std::vector<long long>{2, 2, 6, 0, 5, 1, 6, 3}));

  auto shuffled = [](auto rng, int n) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    rng.shuffle(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(shuffled(Rng(4), 12), (std::vector<int>{10, 3, 4, 7, 8, 5, 0, 11, 1, 9, 6, 2}));
  EXPECT_EQ(shuffled(Rng(5), 13), (std::vector<int>{9, 11, 12, 8, 3, 7, 1, 2, 0, 10, 4, 5, 6}));
  EXPECT_EQ(shuffled(Rng32(8), 10), (std::vector<int>{3, 6, 0, 2, 4, 7, 1, 8, 9, 5}));
}

TEST(Rng, ShuffleGivesEveryPermutationEvenly) {
  // 4! = 24 orders, 24,000 shuffles: each order about 1,000 times (a 6-sigma band).
  Rng rng(31);
  std::vector<int> count(24, 0);
  for (int t = 0; t < 24000; ++t) {
    std::vector<int> v{0, 1, 2, 3};
    rng.shuffle(v.begin(), v.end());
    int index = 0;
    while (std::prev_permutation(v.begin(), v.end())) ++index;
    ++count[index];
  }
  for (int c : count) EXPECT_NEAR(c, 1000, 190);
}

#if defined(__GLIBCXX__)

// Our draws against libstdc++'s own distribution on a second engine with the same seed.
template <class R, class T>
void expect_same_draws(std::uint64_t seed, T lo, T hi, int count) {
  R ours(seed);
  typename R::engine_type theirs(static_cast<typename R::result_type>(seed));
  std::uniform_int_distribution<T> dist(lo, hi);
  for (int i = 0; i < count; ++i) {
    ASSERT_EQ(ours.uniform(lo, hi), dist(theirs)) << seed << " [" << lo << ", " << hi << "] " << i;
  }
  ASSERT_EQ(ours.next(), theirs()) << "engines out of step";
}

template <class R>
void expect_same_draws_all_ranges(std::uint64_t seed) {
  using u64 = std::uint64_t;
  using i64 = std::int64_t;
  constexpr u64 U64_MAX = std::numeric_limits<u64>::max();
  constexpr i64 I64_MIN = std::numeric_limits<i64>::min();
  constexpr i64 I64_MAX = std::numeric_limits<i64>::max();
  for (u64 hi : {u64{0}, u64{1}, u64{2}, u64{5}, u64{6}, u64{15}, u64{16}, u64{99}, u64{1000},
                 u64{0xFFFFFFFE}, u64{0xFFFFFFFF}, u64{0x100000000}, u64{0x123456789AB},
                 U64_MAX / 3, U64_MAX / 2, U64_MAX / 2 + 1, U64_MAX - 1, U64_MAX}) {
    expect_same_draws<R, u64>(seed, 0, hi, 100);
  }
  expect_same_draws<R, i64>(seed, -5, 5, 100);
  expect_same_draws<R, i64>(seed, I64_MIN, I64_MAX, 100);
  expect_same_draws<R, i64>(seed, I64_MIN, 0, 100);
  expect_same_draws<R, int>(seed, -1000, 1000, 100);
  expect_same_draws<R, int>(seed, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(),
                            100);
  expect_same_draws<R, std::uint32_t>(seed, 3, 0xFFFFFFFF, 100);
  expect_same_draws<R, std::size_t>(seed, 0, 23, 100);
  expect_same_draws<R, unsigned char>(seed, 0, 255, 100);
  expect_same_draws<R, short>(seed, -300, 77, 100);
}

TEST(Rng, UniformMatchesLibstdcxx) {
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    expect_same_draws_all_ranges<Rng>(seed);
    expect_same_draws_all_ranges<Rng32>(seed);
  }
}

template <class R>
void expect_same_shuffle(std::uint64_t seed, int n) {
  std::vector<int> a(n);
  std::iota(a.begin(), a.end(), 0);
  std::vector<int> b = a;
  R ours(seed);
  typename R::engine_type theirs(static_cast<typename R::result_type>(seed));
  ours.shuffle(a.begin(), a.end());
  std::shuffle(b.begin(), b.end(), theirs);
  ASSERT_EQ(a, b) << seed << " " << n;
  ASSERT_EQ(ours.next(), theirs()) << "engines out of step";
}

TEST(Rng, ShuffleMatchesLibstdcxx) {
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    for (int n = 0; n <= 80; ++n) {
      expect_same_shuffle<Rng>(seed, n);
      expect_same_shuffle<Rng32>(seed, n);
    }
    expect_same_shuffle<Rng>(seed, 1000);
    expect_same_shuffle<Rng32>(seed, 1001);
  }
  // Past 65,535 elements a 32-bit engine cannot pair the draws: one draw per element.
  expect_same_shuffle<Rng32>(3, 70000);
  expect_same_shuffle<Rng32>(4, 65535);
  expect_same_shuffle<Rng32>(4, 65536);
  // Bytes and a deque-free random-access container of another element type.
  std::vector<std::uint8_t> a(16), b(16);
  std::iota(a.begin(), a.end(), std::uint8_t{1});
  b = a;
  Rng ours(77);
  std::mt19937_64 theirs(77);
  ours.shuffle(a.begin(), a.end());
  std::shuffle(b.begin(), b.end(), theirs);
  EXPECT_EQ(a, b);
}

#endif  // __GLIBCXX__

}  // namespace rng_test
}  // namespace permuzzle
