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

}  // namespace permuzzle
