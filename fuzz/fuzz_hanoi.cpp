// libFuzzer harness: Tower of Hanoi positions (both text forms) and moves
// (puzzles/hanoi/position.hpp). Selector byte: bit 0 picks the format; the rest picks the peg
// count the caller expects (0 = infer, or 3..26) and, for positions, whether a disk count is
// imposed (bits 5..7).
#include <string>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/hanoi/position.hpp"

namespace {

using namespace permuzzle::hanoi;
using permuzzle::fuzz::accepted;
using permuzzle::fuzz::check;

void fuzz_position(std::string_view text, int pegs, int disks) {
  auto p = parse_position(text, pegs, disks);
  if (!accepted(p)) return;
  check(p->pegs >= 3 && p->pegs <= MAX_PEGS);
  check(pegs == 0 || p->pegs == pegs);
  check(p->disks() >= 1 && p->disks() <= MAX_DISKS);
  check(disks == 0 || p->disks() == disks);
  for (auto peg : p->peg_of) check(peg < p->pegs);
  // Both printed forms read back the same position.
  auto lists = parse_position(format_position(*p), p->pegs, p->disks());
  check(lists.ok() && *lists == *p);
  auto inferred = parse_position(format_position(*p));
  check(inferred.ok() && *inferred == *p);
  auto letters = parse_position(format_letters(*p), p->pegs, p->disks());
  check(letters.ok() && *letters == *p);
  // Each peg's top disk is the smallest one on it, and a legal move keeps a legal position.
  for (int peg = 0; peg < p->pegs; ++peg) {
    const int top = p->top(peg);
    for (int d = 1; d < top; ++d) check(p->peg_of[d - 1] != peg);
    if (top) check(p->peg_of[top - 1] == peg);
  }
}

void fuzz_move(std::string_view text, int pegs) {
  auto m = parse_move(text, pegs);
  if (!accepted(m)) return;
  check(m->from < pegs && m->to < pegs && m->from != m->to);
  auto again = parse_move(move_name(*m), pegs);
  check(again.ok() && *again == *m);
  // On a tower on the source peg the move is legal and takes disk 1.
  Position p = tower(3, pegs, m->from);
  check(apply_move(p, *m).ok() && p.peg_of[0] == m->to && p.top(m->from) == 2);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [selector, text] = permuzzle::fuzz::split(data, size);
  const int choice = (selector >> 1) % 25;  // 0 = infer, else 2 + choice = 3..26 pegs
  const int pegs = choice == 0 ? 0 : 2 + choice;
  if (selector & 1) {
    fuzz_move(text, pegs == 0 ? 3 : pegs);
  } else {
    const int disks = (selector >> 5) == 7 ? 3 : 0;  // sometimes the caller imposes 3 disks
    fuzz_position(text, pegs, disks);
  }
  return 0;
}
