#include "permuzzle/group/examples.hpp"

#include <cassert>

namespace permuzzle {

std::vector<Perm> psl2_generators(std::uint64_t p) {
  assert(p >= 3 && p % 2 == 1);
  std::vector<Point> shift(p + 1), invert(p + 1);
  for (std::uint64_t x = 0; x < p; ++x) {
    shift[x] = static_cast<Point>((x + 1) % p);
    // -1/x = -(x^(p-2)) mod p; 0 <-> oo.
    std::uint64_t inv = 1, b = x, e = p - 2;
    for (; e; e >>= 1, b = b * b % p) {
      if (e & 1) inv = inv * b % p;
    }
    invert[x] = x == 0 ? static_cast<Point>(p) : static_cast<Point>((p - inv) % p);
  }
  shift[p] = static_cast<Point>(p);
  invert[p] = 0;
  return {*Perm::from_images(shift), *Perm::from_images(invert)};
}

std::vector<Perm> m24_generators() {
  return {
      *Perm::parse("(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)"),
      *Perm::parse("(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)"),
      *Perm::parse("(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)")};
}

std::vector<Perm> s12_wr_s2_generators() {
  std::vector<std::vector<Point>> swap;
  for (Point i = 1; i <= 12; ++i) swap.push_back({i, i + 12});
  std::vector<Point> twelve(12);
  for (Point i = 0; i < 12; ++i) twelve[i] = i + 1;
  return {*Perm::parse("(1,2)"), *Perm::from_cycles({twelve}), *Perm::from_cycles(swap)};
}

}  // namespace permuzzle
