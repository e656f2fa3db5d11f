// Sylow subgroups (GAP: SylowSubgroup): a p-subgroup P grown inside its normaliser until its
// order is the p-part of |G|. While P is not a Sylow subgroup, p divides |N_G(P) : P| (a
// p-subgroup is Sylow exactly when it is Sylow in its normaliser), so the p-part y of a random
// element of N_G(P) lies outside P with positive probability; then y normalises P and P<y> is a
// larger p-group. The normaliser is the backtrack search of backtrack.hpp.
#pragma once

#include <cstdint>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

// A Sylow p-subgroup of g (the trivial group when p does not divide |G|); `p` must be prime
// (InvalidInput otherwise).
Result<PermGroup> sylow_subgroup(const PermGroup& g, std::uint64_t p,
                                 const RunContext* run = nullptr);

}  // namespace permuzzle
