// Conjugacy classes of wreath products H wr S_k in their imprimitive action, from the classes
// of H (James–Kerber, "The Representation Theory of the Symmetric Group", 4.2).
//
// G is recognised as a full wreath product when it is transitive with a block system of k
// blocks B_0..B_{k-1} of m points, induces all of S_k on the blocks, and |G| = |H|^k · k!, H the
// group the stabiliser of B_0 induces on B_0. With g_i in G taking B_0 to B_i (g_0 = 1) and
// phi_i(j) = j^(g_i), every element of G is a pair (f; s), f_i in H, s in S_k, acting as
// phi_i(j) -> phi_{s(i)}(j^(f_i)) (G embeds into H wr S_k that way, and the orders agree).
//
// A class of H wr S_k is a multiset of cycle types (l, c): a cycle of s of l blocks whose
// cycle product (f along the cycle) lies in the class c of H; the lengths add up to k. Its
// representative puts the representative of c on the first block of each cycle and 1 on the
// others; its centraliser has order prod over types of (l · |C_H(c)|)^m · m!, m the type's
// multiplicity. The count is the coefficient of x^k in prod_(l, c) 1/(1 - x^l).
#pragma once

#include <optional>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/classes.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

// The classes of G when G is a full wreath product as above (nullopt when it is not one);
// the same options and checks as conjugacy_classes (class sizes add up to |G|, every listed
// representative lies in G).
std::optional<Result<ConjugacyClasses>> wreath_product_classes(const PermGroup& g,
                                                               const ClassOptions& options,
                                                               const RunContext* run = nullptr);

}  // namespace permuzzle
