// Names of permutation groups in the spelling of GAP's StructureDescription, for the groups
// puzzle users meet. Each name is proved, not guessed from the order alone:
// - groups of order <= 2000 (SMALL_GROUP_LIMIT): GAP's rules on the multiplication table
//   (structure_description.hpp); the rules below are for larger groups;
// - "1", abelian groups "C6 x C2" (invariant factors, largest first, from the orders of the
//   power subgroups G^(p^j)), cyclic "C12";
// - dihedral "D2m" (an element r of order m, every generator in <r> or an involution inverting
//   r, |G| = 2m);
// - S_n / A_n on the moved points (the order decides; GAP's "C2" for S2, "C3" for A3);
// - M11, M12, M22, M23, M24: transitive of that degree, that order, and perfect;
// - PSL(2,q) on the q+1 points of the projective line: transitive, order q(q^2-1)/gcd(2,q-1),
//   perfect (GAP's names for the exceptional isomorphisms: A5 for q = 4, 5, PSL(3,2) for q = 7,
//   A6 for q = 9);
// - wreath products "S12 wr S2", "A5 wr S3": a block system of k blocks of m points (m >= 3)
//   with |G| = (m!)^k k! (or (m!/2)^k k! with every block map even under one labelling);
//   GAP 4.12 writes S12 wr S2 as "(A12 x A12) : D8" and S3 wr S2 as "(S3 x S3) : C2";
// - direct products over the orbits "S10 x S6" (factors named recursively, sorted as GAP sorts
//   them: as strings), when the order is the product of the orbit factors' orders;
// - puzzle groups with a piece structure (classes.hpp): "(C3^7 x C2^11) : ((A8 x A12) : C2)".
// GAP writes the semidirect product N ⋊ H as "N : H"; we do the same.
#pragma once

#include <optional>
#include <string>

#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

// The name, or nullopt when none of the cases above applies (or the run asks to stop). A perfect
// group none of them names is named when its composition series (composition.hpp) shows it
// simple and names the factor (up to degree 1024): M11 on 12 points, PSL(3,3) on 13.
std::optional<std::string> structure_name(const PermGroup& g, const RunContext* run = nullptr);
// The same without the composition series (what composition_series itself asks).
std::optional<std::string> named_structure(const PermGroup& g, const RunContext* run = nullptr);
// "A8", "S3", with GAP's names for the small ones (S2 = C2, A3 = C3; S1, A1, A2 trivial: "").
std::string symmetric_group_name(std::size_t n, bool alternating);

}  // namespace permuzzle
