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

std::vector<Perm> rubik_cube_generators() {
  return {*Perm::parse("(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)"),
          *Perm::parse("(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)"),
          *Perm::parse("(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)"),
          *Perm::parse("(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)"),
          *Perm::parse("(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)"),
          *Perm::parse("(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)")};
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
