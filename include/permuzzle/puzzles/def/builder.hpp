// Definitions built in code (tests, benchmarks, exports): sets, a solved pattern, base moves in
// state form; the powers of every base move are generated and named as the definition-file spec
// says (order 4: X X2 X'; order 5: X X2 X2' X'), with their quarter-turn costs.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/puzzles/def/definition.hpp"

namespace permuzzle::def {

// A set's part of a move in state form from cycles of slots (0-based): in a cycle (a b c) the
// piece in slot a moves to slot b, the one in b to c, the one in c to a.
std::vector<std::uint8_t> perm_from_cycles(int pieces, const std::vector<std::vector<int>>& cycles);

class DefinitionBuilder {
 public:
  explicit DefinitionBuilder(std::string name);
  // Sets in order; the solved pattern starts as the identity with orientation 0.
  DefinitionBuilder& set(std::string name, int pieces, int orientations);
  // The solved pattern of a set (0-based piece values, may repeat; ORIENTATION_IGNORED allowed).
  DefinitionBuilder& solved(std::size_t set, std::vector<std::uint8_t> perm,
                            std::vector<std::uint8_t> ori = {});
  // A base move: its effect per set in state form (an empty part is the identity).
  DefinitionBuilder& move(std::string name, std::vector<SetState> effect);
  // Orders, powers and their names; errors for a move of order 1 or inconsistent sizes.
  Result<Definition> build() const;

 private:
  Definition d_;
  std::vector<std::pair<std::string, std::vector<SetState>>> bases_;
};

// The composition "a, then b" in state form.
State compose(const Definition& d, const State& a, const State& b);

}  // namespace permuzzle::def

namespace permuzzle::def::samples {

// Rubik's cubes from Kociemba's cubie tables (corners URF UFL ULB UBR DFR DLF DBL DRB, edges UR
// UF UL UB DR DF DL DB FR FL BL BR): the 2x2x2 with the faces U R F (corner DBL fixed) or all six,
// and the 3x3x3 with its six faces.
Definition cube2(bool fixed_corner);
Definition cube3();
// An r x c Loopover: one set of r*c tiles (row-major), base moves R1..Rr (row shifted right) and
// C1..Cc (column shifted down).
Definition loopover(int rows, int cols);

}  // namespace permuzzle::def::samples
