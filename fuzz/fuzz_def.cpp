// libFuzzer harness: definition files (parse_definition, puzzles/def/reader.hpp) and, against a
// fixed small definition, scramble files, move sequences and `--state` text. Selector byte:
// bits 0-1 pick the format (0: definition, 1: scramble file, 2: move sequence, 3: state); with
// format 1, bit 2 reads a phase file (parse_phase_file) instead.
#include <algorithm>
#include <string>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/def/phases.hpp"
#include "permuzzle/puzzles/def/reader.hpp"

namespace {

using namespace permuzzle::def;
using permuzzle::fuzz::accepted;
using permuzzle::fuzz::check;

// A fixed puzzle with identical pieces, '?' orientations and two sets.
constexpr const char* FIXED =
    "Name fixed\nSet C 4 3\nSet E 3 2\n"
    "Solved\nC\n1 1 2 2\n0 0 ? ?\nE\n1 2 3\n0 0 ?\nEnd\n"
    "Move X\nC\n3 1 2 4\n1 2 0 0\nE\n2 1 3\n1 0 0\nEnd\n"
    "Move Y\nC\n1 4 2 3\n0 0 1 2\nE\n1 3 2\n0 0 1\nEnd\n";

void check_state(const Definition& d, const State& s) {
  check(check_state_shape(d, s, "state").ok());
}

void fuzz_definition(std::string_view text) {
  auto d = parse_definition(text, "fuzz.tws");
  if (!accepted(d)) return;
  check(!d->sets.empty() && !d->moves.empty());
  check_state(*d, d->solved);
  for (const Move& m : d->moves) {
    check(m.base < d->base_moves.size());
    check(m.power >= 1 && m.power < d->base_moves[m.base].order);
    check_state(*d, m.effect);
    check(d->find_move(m.name).ok());
  }
  // Writing the definition and reading it back gives the same moves.
  auto again = parse_definition(format_definition(*d), "again.tws");
  check(again.ok());
  check(again->moves.size() == d->moves.size());
  for (std::size_t i = 0; i < d->moves.size(); ++i) {
    check(again->moves[i].name == d->moves[i].name);
    check(again->moves[i].effect == d->moves[i].effect);
  }
  check(again->solved == d->solved);
}

void fuzz_phases(const Definition& d, std::string_view text) {
  auto phases = parse_phase_file(d, text, "fuzz.phases");
  if (!accepted(phases)) return;
  for (const PhaseSpec& p : *phases) {
    check_state(d, p.pattern);
    for (std::size_t m : p.moves) check(m < d.moves.size());
    // A sequence's net effect is its moves', its order in range, its inverse undoes it.
    for (const PhaseSequence& q : p.sequences) {
      check(!q.moves.empty() && q.order >= 2 && q.order <= MAX_SEQUENCE_ORDER);
      check(apply_moves(d, d.identity(), q.moves) == q.effect);
      check(apply_moves(d, q.effect, q.inverse) == d.identity());
      check(!d.find_move(q.name).ok());
    }
    // Together groups: slots in range, each in one group, each with a number of its own in
    // the pattern; blocks given before them, each a state of the puzzle.
    check(p.together.empty() || !p.blocks.empty());
    for (const BlockGenerator& b : p.blocks) check_state(d, b.effect);
    std::vector<SlotRef> seen;
    for (const auto& group : p.together) {
      check(!group.empty());
      for (const SlotRef& piece : group) {
        check(piece.set < d.sets.size() && piece.slot < d.sets[piece.set].pieces);
        check(std::find(seen.begin(), seen.end(), piece) == seen.end());
        seen.push_back(piece);
        const auto& numbers = p.pattern.sets[piece.set].perm;
        check(std::count(numbers.begin(), numbers.end(), numbers[piece.slot]) == 1);
      }
    }
    // Their places: the home place first, every place a slot per piece.
    if (!p.together.empty()) {
      const Phase phase = phases_from_specs(d, {p}).front();
      auto groups = together_groups(d, phase, permuzzle::RunContext{});
      if (groups.ok()) {
        for (const TogetherGroup& g : *groups) {
          check(!g.places.empty());
          for (const auto& place : g.places) check(place.size() == g.pieces.size());
        }
      }
    }
    // Pieces identical in the Solved pattern got one number (the reader's promise).
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      const SetState& solved = d.solved.sets[k];
      for (std::size_t i = 0; i < solved.perm.size(); ++i) {
        for (std::size_t j = 0; j < solved.perm.size(); ++j) {
          if (solved.perm[i] == solved.perm[j])
            check(p.pattern.sets[k].perm[i] == p.pattern.sets[k].perm[j]);
        }
      }
    }
  }
}

void fuzz_inputs(int format, bool phases, std::string_view text) {
  auto d = parse_definition(FIXED, "fixed.tws");
  check(d.ok());
  if (format == 1 && phases) {
    fuzz_phases(*d, text);
  } else if (format == 1) {
    auto s = parse_scrambles(*d, text, "fuzz.scr");
    if (!accepted(s)) return;
    for (const Scramble& sc : *s) {
      check_state(*d, sc.state);
      // The printed state reads back as itself.
      auto back = parse_scrambles(*d, format_scramble(*d, sc.state, "x"), "back.scr");
      check(back.ok() && back->size() == 1 && back->front().state == sc.state);
    }
  } else if (format == 2) {
    auto moves = parse_move_sequence(*d, text);
    if (!accepted(moves)) return;
    auto again = parse_move_sequence(*d, move_sequence_text(*d, *moves));
    check(again.ok() && *again == *moves);
    check_state(*d, apply_moves(*d, *moves));
  } else {
    auto s = parse_state(*d, text, "--state");
    if (!accepted(s)) return;
    check_state(*d, *s);
    auto back = parse_state(*d, format_state_body(*d, *s), "back");
    check(back.ok() && *back == *s);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto in = permuzzle::fuzz::split(data, size);
  const int format = in.selector & 3;
  if (format == 0) {
    fuzz_definition(in.text);
  } else {
    fuzz_inputs(format, (in.selector & 4) != 0, in.text);
  }
  return 0;
}
