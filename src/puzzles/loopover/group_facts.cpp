#include "permuzzle/puzzles/loopover/group_facts.hpp"

#include "permuzzle/group/perm_group.hpp"

namespace permuzzle::loopover {

namespace {

Perm word_perm(BoardSize size, const std::string& word) {
  Perm p(static_cast<std::size_t>(size.cells()));
  const MoveSequence moves = parse_moves(size, word).value();  // own it: no dangling temporary
  for (const Move& m : moves) p *= move_perm(size, m);
  return p;
}

}  // namespace

Result<GroupFacts> group_facts(BoardSize size) {
  if (auto ok = validate_size(size); !ok) return ok.error();
  // Step 1. The generators: every row moved right, every column moved down.
  std::vector<Perm> gens;
  std::vector<std::string> names;
  GroupFacts f;
  f.all_moves_odd = true;
  f.all_moves_even = true;
  for (int r = 0; r < size.rows; ++r) {
    gens.push_back(move_perm(size, Move{Axis::Row, static_cast<std::uint8_t>(r), 1}));
    names.push_back(std::string(1, static_cast<char>('A' + r)));
  }
  for (int c = 0; c < size.cols; ++c) {
    gens.push_back(move_perm(size, Move{Axis::Column, static_cast<std::uint8_t>(c), 1}));
    names.push_back(std::to_string(c + 1));
  }
  for (const Perm& g : gens) {
    (g.sign() < 0 ? f.all_moves_even : f.all_moves_odd) = false;
  }
  // Step 2. Schreier-Sims: order and structure.
  auto group = PermGroup::from_generators(gens, names);
  if (!group) return group.error();
  f.order = group->order();
  f.group = group->describe().structure;
  const Perm swap12 = Perm::parse("(1,2)")->extended(static_cast<std::size_t>(size.cells()));
  f.contains_transposition_1_2 = group->contains(swap12);
  // Step 3. The spec's transposition word, and one that works on this board.
  if (size.cols == 2) {
    f.spec_word = "A";
  } else if (size.rows == 2) {
    f.spec_word = "1";
  } else {
    f.spec_word = "(2AA-2-A)^" + std::to_string(size.cols - 1);
  }
  const Perm spec = word_perm(size, f.spec_word);
  f.spec_word_cycles = spec.to_cycle_string();
  f.spec_word_swaps_1_2 = spec == swap12;
  for (const std::string& w :
       {f.spec_word, std::string("(2AA-2-A)^") + std::to_string(size.cols - 1),
        std::string("(B11-B-1)^") + std::to_string(size.rows - 1), std::string("1"),
        std::string("A")}) {
    if (size.rows < 2 || size.cols < 2) break;
    const Perm p = word_perm(size, w);
    if (p.cycle_type() == std::vector<std::size_t>{2}) {
      f.transposition_word = w;
      f.transposition_cycles = p.to_cycle_string();
      break;
    }
  }
  return f;
}

}  // namespace permuzzle::loopover
