// A pruning test for normaliser searches: if g normalises H, then for every h in H the
// conjugate k = h^g lies in H, and k maps x^g to (x^h)^g for every point x. In a search node
// where g is known on some points, and g fixes the first F base points b_1..b_F of a chain of H
// (as it does below the identity prefix of every Sims level search), k's images of b_1..b_J are
// known for the J <= F base points with b_l^h known: k(b_l) = (b_l^h)^g. Sifting them through
// H's chain writes k = k''·w with k'' in H^(J) = H_{b_1..b_J} (or proves there is no such k),
// and every other known pair then needs y^(k'') = z^(w^-1), i.e. y and z^(w^-1) in one orbit of
// H^(J); with J the whole base, k is determined and the pairs must agree exactly. The elements
// h tried are transversal elements of H's chain, the deepest levels first (they fix the most
// base points, so J is large soon after the base is fixed).
#pragma once

#include <cstdint>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

class ConjugateInSubgroupTest {
 public:
  // H's chain is built with `search_base` first (the base of the search, so that its identity
  // prefixes fix H's first base points); `n` is the search degree. Inactive (every node passes)
  // when the tables would exceed `max_bytes`.
  Status prepare(const PermGroup& h, const std::vector<Point>& search_base, std::size_t n,
                 std::size_t max_bytes, const RunContext* run);
  bool active() const { return !tests_.empty(); }
  // False when no element of the node can normalise H: image[p] is known for the points with
  // depth_of[p] <= depth.
  bool consistent(std::size_t depth, const std::vector<Point>& image,
                  const std::vector<std::uint32_t>& depth_of);

 private:
  struct Level {
    Point base = 0;
    std::vector<std::int32_t> where;  // index in the orbit, or -1 (n entries)
    std::vector<Point> inverse;       // orbit.size() flat inverses u^-1 of n points
  };
  std::size_t n_ = 0;
  std::vector<Level> levels_;
  // orbit_id_[j * n + p]: the orbit of p under H^(j) (j = 0..levels), as its least point.
  std::vector<Point> orbit_id_;
  // Test elements h (flat, n points each).
  std::vector<std::vector<Point>> tests_;
  std::vector<Point> w_inverse_, scratch_;
};

}  // namespace permuzzle
