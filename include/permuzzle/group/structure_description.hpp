// GAP's StructureDescription for small groups, worked out on the multiplication table.
//
// The group's elements are listed (at most SMALL_GROUP_LIMIT of them), the table is filled from
// the Cayley graph of the generators (one lookup per element and generator, then x*y by walking
// y's spanning-tree word from x), and the name is built by the rules of GAP's manual
// (?StructureDescription; lib/grpnames.gi), in their order:
//  1. "1"; abelian groups by invariant factors, largest first ("C6 x C2");
//  2. A_n (A4: order 12 with derived subgroup of order 4; A_n, n >= 5: simple of order n!/2),
//     S_n (|G| = n!, G' = A_n of index 2 with trivial centraliser; S6 has elements of order 6,
//     PGL(2,9) and M10 do not), D_2n (n > 3), Q_2^k (a non-cyclic 2-group with one
//     involution), QD_2^k, PSL(n,q) (simple; order and simplicity decide below 20160), SL(2,q)
//     (|G| = |SL(2,q)|, perfect, centre of order 2 with a simple quotient; SL(2,3): order 24,
//     derived subgroup Q8), GL(2,q) (GL(2,3): order 48, G' = SL(2,3), |Z| = 2, more than one
//     involution; GL(2,4) = C3 x A5; GL(2,5): G' = SL(2,5) of index 4, Z cyclic of order 4,
//     G/Z = S5);
//  3. direct products: the indecomposable direct factors (the smallest normal subgroup with a
//     normal complement, then its complement in turn; when there are too many normal subgroups
//     to list, central cyclic <z> of prime-power order with <z> ∩ G' = 1 whose image in G/G'
//     has a complement there are split off first); cyclic factors merged into elementary
//     divisors ("C2 x C6 x S3"), the others in GAP's order of subgroups (their sorted element
//     lists compared lexicographically);
//  4. semidirect products N : G/N. For orders up to 100 (but 64 and 96) GAP reads the name from
//     its table of small groups, whose choice of N follows its "nice" preferences: G/N abelian,
//     then N abelian with the most abelian invariants, then N with the most direct factors,
//     then G/N acting faithfully on N. For other orders: a normal Hall subgroup found from the
//     normal closures of the Sylow subgroups (Schur–Zassenhaus: it has a complement), else the
//     first normal subgroup with a complement in GAP's order of normal subgroups, modelled as
//     blocks along a chief series from the bottom (GAP's chief series depends on the
//     representation; the choice is a proved decomposition either way). Complements are found
//     by search over coset representatives whose orders are those of the quotient's
//     generators;
//  5. non-split extensions "Z(G) . G/Z(G)" and "G' . G/G'" (both, joined by " = ", when they
//     differ).
// Each step is a proof (normality, trivial intersection, orders); a group none of them settles,
// or a search over its budget, gets no name (nullopt), never a guess.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

// Groups up to this order are named from their multiplication table.
inline constexpr std::size_t SMALL_GROUP_LIMIT = 2000;

// GAP's StructureDescription of g (|g| <= SMALL_GROUP_LIMIT), or nullopt (larger, not decided,
// or the run asks to stop).
std::optional<std::string> small_structure_description(const PermGroup& g,
                                                       const RunContext* run = nullptr);

// Invariant factors of an abelian group, largest first (GAP's "C6 x C2"), from
// omega(p, q) = |{x : x^q = 1}| for the powers q = p, p^2, ... of each prime p dividing the order
// (nullopt from omega: none). The number of cyclic p-factors of order at least p^j is the growth
// of log_p omega from p^(j-1) to p^j.
std::optional<std::vector<mpz_class>> invariant_factors(
    const std::vector<unsigned long>& primes,
    const std::function<std::optional<mpz_class>(unsigned long p, const mpz_class& q)>& omega);

}  // namespace permuzzle
