// Everyday operations on permutation groups, built on PermGroup's stabilizer chains (names as
// in GAP / SymPy): stabilizers, subgroup tests, cosets, orbits of sets, conjugacy, centre,
// derived subgroup, abelian and solvable tests.
//
// Bounds: the functions with a `limit` enumerate elements or cosets and refuse
// (ErrorKind::LimitExceeded) beyond it; the others work from the chain and scale with it (S_n / A_n
// of any degree are recognised, see perm_group.hpp). Given a run context, the enumerations also
// refuse what would not fit in its memory budget (LimitExceeded, checked as their lists grow,
// before they pass it) and end with run->stop_error() when it asks to stop.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

// The subgroup fixing every point of `points` (0-based; GAP: Stabilizer(G, points, OnTuples)).
PermGroup pointwise_stabilizer(const PermGroup& g, const std::vector<Point>& points);
// The same within the run's time limit and memory budget (the chain is rebuilt on a new base).
Result<PermGroup> pointwise_stabilizer(const PermGroup& g, const std::vector<Point>& points,
                                       const RunContext* run);

// Is every generator of h in g? (GAP: IsSubgroup(g, h)).
bool is_subgroup(const PermGroup& h, const PermGroup& g);

// |G : H|, or an error when h is not a subgroup of g.
Result<mpz_class> subgroup_index(const PermGroup& g, const PermGroup& h);

// Representatives of the right cosets H*x of h in g, the identity first (GAP:
// RightTransversal). Breadth-first over the cosets (x ~ y iff x*y^-1 in H); refuses an index
// above `limit` (quadratic in the index: meant for indices up to a few thousand).
Result<std::vector<Perm>> right_coset_representatives(const PermGroup& g, const PermGroup& h,
                                                      std::uint64_t limit = 2000,
                                                      const RunContext* run = nullptr);

// The orbit of a set of points under G acting on sets (GAP: Orbit(G, set, OnSets)), each set
// sorted, the given set first; refuses orbits longer than `limit`.
Result<std::vector<std::vector<Point>>> set_orbit(const PermGroup& g, std::vector<Point> set,
                                                  std::uint64_t limit = 100000,
                                                  const RunContext* run = nullptr);

// An element c of G with x^c = c^-1 * x * c = y, or nullopt when x and y are not conjugate in G
// (GAP: RepresentativeAction(G, x, y)). x and y must be in G. Different cycle types are
// answered at once, S_m and A_m by aligning cycles; otherwise by backtrack search
// (find_conjugator in backtrack.hpp).
Result<std::optional<Perm>> conjugating_element(const PermGroup& g, const Perm& x, const Perm& y,
                                                const RunContext* run = nullptr);

// The centre Z(G): S_n and A_n (n >= 4) answered directly (trivial), abelian groups are their
// own centre, otherwise by backtrack search (center in backtrack.hpp).
Result<PermGroup> centre(const PermGroup& g, const RunContext* run = nullptr);

// The commutator (derived) subgroup [G, G]: the normal closure of the commutators of the
// generators (GAP: DerivedSubgroup).
PermGroup derived_subgroup(const PermGroup& g);
// The same within the run's time limit and memory budget (the normal closure rebuilds a chain
// per new generator).
Result<PermGroup> derived_subgroup(const PermGroup& g, const RunContext* run);

bool is_abelian(const PermGroup& g);  // the generators commute pairwise
// The derived series reaches the trivial group (GAP: IsSolvableGroup).
bool is_solvable(const PermGroup& g);
Result<bool> is_solvable(const PermGroup& g, const RunContext* run);

}  // namespace permuzzle
