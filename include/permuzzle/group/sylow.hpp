// Sylow subgroups (GAP: SylowSubgroup, by its SylowSubgroupPermGroup method): an orbit or a
// block system whose action is not a p-group reduces G to the preimage of a Sylow subgroup of
// the image; a point stabiliser of index prime to p reduces G to it; otherwise the centraliser
// of a p-element central in a Sylow subgroup holds one, and its action on the cycles of that
// element has a p-group as kernel (Butler, "Fundamental Algorithms for Permutation Groups",
// LNCS 559, ch. 16; the centraliser is the backtrack search of backtrack.hpp). A small
// centraliser of a large degree (PSL(2,q)'s involution centraliser on q + 1 points) is listed
// instead and a Sylow subgroup grown in it by p-elements normalizing the p-group found so far.
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
