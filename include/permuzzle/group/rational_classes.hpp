// Conjugacy classes of large permutation groups by rational classes: random elements, each
// tested only against the known classes of cyclic subgroups of its cycle type.
//
// The rational class of x is the union of the classes of the generators x^k of <x> (k prime to
// m = |x|). x^g = x^k exactly for k in R = {k : some g in N_G(<x>) has x^g = x^k}, a subgroup of
// (Z/m)^*, read off the generators of N_G(<x>) (backtrack.hpp). So the rational class is the
// |(Z/m)^* : R| classes of x^k, k over representatives of the cosets of R, all of size
// |G : C_G(x)|, found at once. A random element y lies in a known class exactly when <y> is
// conjugate to a known <x>, i.e. some g has x^g in <y>: one backtrack search per known cyclic
// subgroup class of y's cycle type (not one per class, as a plain conjugacy test needs). When
// a new rational class is found, the rational classes of its powers are looked for at once, so
// a random element whose rational class is known has known powers too. The search ends when the
// class sizes add up to |G| (exact; only the time is random).
#pragma once

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/classes.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

Result<ConjugacyClasses> classes_by_rational_classes(const PermGroup& g,
                                                     const RunContext* run = nullptr);

}  // namespace permuzzle
