// Backtrack search in a permutation group: the subgroup of the elements with a property, or one
// element with a property, found over a base and strong generating set (Sims' method with
// Leon-style pruning; see "Permutation Group Algorithms", Seress, ch. 9).
//
// The search tree: a node at depth k is the coset G^(k)·h of the pointwise stabiliser
// G^(k) = G_{b_0..b_{k-1}} (b the base), written by any element h of it; its children are the
// cosets G^(k+1)·u·h, u running over the transversal of b_k in G^(k), i.e. the choices of the
// image b_k^g. Every point fixed by G^(k) has the same image under all elements of the node, so
// a property whose truth constrains the images of single points (centralizers, conjugacy, set
// stabilizers, orbit structure) prunes a node as soon as two such points disagree. The base is
// rebuilt (base change by a fresh Schreier–Sims with a chosen prefix) so the points the property
// constrains most come first.
//
// Subgroup searches run level by level from the bottom (Sims): when P^(k+1) = P ∩ G^(k+1) is
// known, an image γ of b_k is tried only when it is the least point of its orbit under the
// group K found so far in P^(k), and not in the orbit of b_k (its coset is already known); deeper
// down, an image is skipped when it cannot be the least image of b_j under P^(j)·g (fewer than
// |b_j^{P^(j)}| - 1 larger candidates remain). The found elements form a strong generating set
// of the answer relative to the base, so its order is known without another Schreier–Sims.
//
// Every search polls the run context (time limit, cancellation) and refuses transversal tables
// over its memory budget.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

// What a backtrack search looks for. Images are flat arrays: image[p] is the image of the
// 0-based point p under the node's element h (all `degree` points of the search, the largest
// moved point of the group and of everything the property mentions). depth_of[p] is the depth
// at which p's image becomes the same for every element of a node (0: fixed by the whole
// group; k + 1: fixed by G^(k+1) but not by G^(k)); `determined` lists the points of depth
// `depth` (at depth 0, the root).
class SearchProperty {
 public:
  virtual ~SearchProperty() = default;
  // Points to put first in the base, most constraining first (duplicates and points the group
  // does not move are ignored).
  virtual std::vector<Point> preferred_base() const { return {}; }
  // The largest point the property mentions, plus one (the search works on at least as many
  // points as the group moves).
  virtual std::size_t degree() const { return 0; }
  // Called once the base is known, before any other call (e.g. to rebuild a chain on it).
  virtual Status prepare(const std::vector<Point>& base, const std::vector<std::uint32_t>& depth_of,
                         const RunContext* run) {
    (void)base, (void)depth_of, (void)run;
    return Ok{};
  }
  // The search starts again below depth `depth`, with the identity at every depth up to it
  // (the first branch of a subgroup search's level, or the root).
  virtual void restart(std::size_t depth) { (void)depth; }
  // False when no element of the node can have the property; it must never reject a node that
  // holds a good element. Only `determined` points and points of smaller depth may be read
  // from `image`. Calls along one path come in increasing depth, so a property may keep
  // per-depth state (see restart).
  virtual bool consistent(std::size_t depth, const std::vector<Point>& determined,
                          const std::vector<Point>& image,
                          const std::vector<std::uint32_t>& depth_of) {
    (void)depth, (void)determined, (void)image, (void)depth_of;
    return true;
  }
  // A quick test of one candidate before its node is built: could b_k (= `point`, the base
  // point of depth - 1) go to `point_image`? Only images of points of depth < `depth` may be
  // read. False rejects the candidate (same rule as consistent).
  virtual bool admissible(std::size_t depth, Point point, Point point_image,
                          const std::vector<Point>& image,
                          const std::vector<std::uint32_t>& depth_of) {
    (void)depth, (void)point, (void)point_image, (void)image, (void)depth_of;
    return true;
  }
  // A few points among `determined` (the points of depth `depth`) whose images alone can
  // reject most nodes of that depth, asked once per depth when the search starts. When the
  // list is not empty, every candidate node has these images computed first and
  // probe_consistent decides before the node's other points are computed (a large saving when a
  // depth determines many points: the last levels of a chain, where one point of the node's
  // element is all the property needs to reject it). Default: none.
  virtual std::vector<Point> probe_points(std::size_t depth, const std::vector<Point>& determined,
                                          const std::vector<std::uint32_t>& depth_of) {
    (void)depth, (void)determined, (void)depth_of;
    return {};
  }
  // The test on the probes: only images of `probes` and of points of depth < `depth` may be
  // read; false must mean no element of the node has the property (same rule as consistent).
  // Must keep no state (consistent still follows for the nodes that pass).
  virtual bool probe_consistent(std::size_t depth, const std::vector<Point>& probes,
                                const std::vector<Point>& image,
                                const std::vector<std::uint32_t>& depth_of) {
    (void)depth, (void)probes, (void)image, (void)depth_of;
    return true;
  }
  // The full test of one element (a leaf).
  virtual bool accept(const std::vector<Point>& image) = 0;
};

struct BacktrackStats {
  std::uint64_t nodes = 0;   // search tree nodes visited
  std::uint64_t leaves = 0;  // full tests
};

// The subgroup of the elements of g having the property (which must define a subgroup).
// `known` are elements already known to have it (they seed the pruning group).
Result<PermGroup> subgroup_search(const PermGroup& g, SearchProperty& property,
                                  const std::vector<Perm>& known, const RunContext* run = nullptr,
                                  BacktrackStats* stats = nullptr);

// One element of g with the property, or nullopt when there is none.
Result<std::optional<Perm>> element_search(const PermGroup& g, SearchProperty& property,
                                           const RunContext* run = nullptr,
                                           BacktrackStats* stats = nullptr);

// C_G(x) = {g in G : x^g = x} (GAP: Centralizer(G, x)); x need not lie in G.
Result<PermGroup> centralizer(const PermGroup& g, const Perm& x, const RunContext* run = nullptr);
// C_G(H): the elements of G commuting with every generator of h.
Result<PermGroup> centralizer(const PermGroup& g, const PermGroup& h,
                              const RunContext* run = nullptr);
// Z(G) = C_G(G) (GAP: Centre).
Result<PermGroup> center(const PermGroup& g, const RunContext* run = nullptr);
// N_G(H) = {g in G : H^g = H} (GAP: Normalizer(G, H)); h need not lie in G.
Result<PermGroup> normalizer(const PermGroup& g, const PermGroup& h,
                             const RunContext* run = nullptr);
// The stabiliser of a set of 0-based points (GAP: Stabilizer(G, set, OnSets)).
Result<PermGroup> set_stabilizer(const PermGroup& g, const std::vector<Point>& set,
                                 const RunContext* run = nullptr);
// G ∩ H (GAP: Intersection).
Result<PermGroup> intersection(const PermGroup& g, const PermGroup& h,
                               const RunContext* run = nullptr);
// An element c of G with x^c = c^-1·x·c = y, or nullopt when there is none (GAP:
// RepresentativeAction(G, x, y)); x and y need not lie in G.
Result<std::optional<Perm>> find_conjugator(const PermGroup& g, const Perm& x, const Perm& y,
                                            const RunContext* run = nullptr);

// Is H normal in G: is H^s = H for every generator s of G (and is H a subgroup of G)? No search:
// every generator of H conjugated by every generator of G is tested for membership.
bool is_normal(const PermGroup& g, const PermGroup& h);
// The normal closure of H in G: the smallest normal subgroup of G containing H (GAP:
// NormalClosure), by adding conjugates of generators until the group is closed under
// conjugation by G's generators. H must lie in G.
Result<PermGroup> normal_closure(const PermGroup& g, const PermGroup& h,
                                 const RunContext* run = nullptr);

}  // namespace permuzzle
