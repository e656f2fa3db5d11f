// Composition series G = G_0 > G_1 > ... > G_r = 1 (each G_{i+1} normal in G_i with a simple
// factor G_i / G_{i+1}), factors named (GAP: CompositionSeries and its factors' names).
//
// Method: the derived series G > G' > G'' > ... down to a perfect group D. Each abelian layer
// G^(i) / G^(i+1) is refined with the generators h of G^(i): with N the group reached so far and
// m the order of h modulo N (the least divisor m of |h| with h^m in N), the groups
// <N, h^(m/p1)>, <N, h^(m/(p1 p2))>, ..., <N, h> have prime indices p1, p2, ... (every subgroup
// between G^(i+1) and G^(i) is normal in G^(i), the layer being abelian). The perfect part D
// is handled when it is 1, simple and named (A_n, n >= 5; PSL(2,q); the Mathieu groups; see
// naming.hpp), a direct product over its orbits of such groups (then D > the pointwise
// stabiliser of the first orbit > ...), or a puzzle group K : (A_n1 x ... x A_nr) with a piece
// structure (classes.hpp; then D > K : (A_n2 x ...) > ... > K and K, elementary abelian per
// prime, one generator at a time). Other perfect groups are refused (ErrorKind::Unsolvable
// with what was found), never guessed.
#pragma once

#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

struct CompositionSeries {
  std::vector<PermGroup> groups;     // G_0 = G, ..., G_r = 1
  std::vector<std::string> factors;  // r names: "C2", "A8", "M24", "PSL(2,1031)"
};

Result<CompositionSeries> composition_series(const PermGroup& g, const RunContext* run = nullptr);

}  // namespace permuzzle
