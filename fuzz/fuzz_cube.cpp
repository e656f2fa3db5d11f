// libFuzzer harness: the cube text formats: Singmaster move sequences (parse_moves,
// puzzles/cube/facelets.hpp), 54-sticker facelet strings (read_facelets,
// puzzles/cube/cubie.hpp) and 24-sticker 2x2x2 strings (cube2::read_facelets,
// puzzles/cube/cube2.hpp). Selector byte: bit 0 picks moves or facelets; with bit 0 set, bit 1
// picks the 2x2x2.
#include <map>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "permuzzle/puzzles/cube/cube2.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace {

using namespace permuzzle::cube;
using permuzzle::Perm;
using permuzzle::fuzz::accepted;
using permuzzle::fuzz::check;

void fuzz_moves(std::string_view text) {
  auto moves = parse_moves(text);
  if (!accepted(moves)) return;
  bool face_turns_only = true;
  for (const CubeMove& m : *moves) {
    check(m.turns >= 1 && m.turns <= 3);
    check(m.name.size() == 1 &&
          std::string("UDLRFBMESxyzudlrfb").find(m.name) != std::string::npos);
    face_turns_only = face_turns_only && std::string("UDLRFB").find(m.name) != std::string::npos;
  }
  auto again = parse_moves(format_moves(*moves));
  check(again.ok() && *again == *moves);
  if (moves->size() > 64) return;  // move_perm rebuilds the geometry: keep the fuzzer fast
  // The inverse sequence undoes the sequence.
  const Perm p = moves_perm(*moves);
  std::vector<CubeMove> undo(moves->rbegin(), moves->rend());
  for (CubeMove& m : undo) m.turns = 4 - m.turns;
  check((p * moves_perm(undo)).is_identity());
  // Face turns fix the centres and make a real cube: the cubie form exists, satisfies the
  // fundamental theorem and gives back the same sticker permutation and facelets.
  if (face_turns_only) {
    auto cubies = from_sticker_perm(p);
    check(cubies.ok());
    check(check_theorem(*cubies).solvable());
    check(to_sticker_perm(*cubies) == p.extended(STICKERS));
    check(to_facelets(*cubies) == facelets_of(p));
  }
}

void fuzz_facelets(std::string_view text) {
  auto reading = read_facelets(text);
  if (!accepted(reading)) return;
  check(reading->valid == reading->problems.empty());
  if (!reading->valid) return;
  // The 54 stickers, read as faces through the centre colours, are the facelets of the state
  // found; the state converts to stickers and back unchanged.
  std::string stickers;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) stickers += ch;
  check(stickers.size() == static_cast<std::size_t>(STICKERS));
  std::map<char, char> face_of_colour;
  for (int face = 0; face < 6; ++face) face_of_colour[stickers[face * 9 + 4]] = FACE_NAMES[face];
  std::string faces;
  for (char ch : stickers) faces += face_of_colour.at(ch);
  const CubieState& state = reading->state;
  check(to_facelets(state) == faces);
  auto back = from_sticker_perm(to_sticker_perm(state));
  check(back.ok() && *back == state);
  auto reread = read_facelets(faces);
  check(reread.ok() && reread->valid && reread->state == state);
  check((state * state.inverse()).is_solved());
}

// A valid 2x2x2 stays valid under the moves that keep its reference corner (DBL) in place, and
// its position index is in range; the reading never throws or asserts.
void fuzz_cube2(std::string_view text) {
  auto reading = permuzzle::cube2::read_facelets(text);
  if (!accepted(reading)) return;
  check(reading->valid == reading->problems.empty());
  if (!reading->valid) return;
  check(permuzzle::cube2::index_of(reading->state) < permuzzle::cube2::POSITIONS);
  auto turned = permuzzle::cube2::apply_moves(text, *parse_moves("U R2 F'"));
  check(turned.ok());
  auto again = permuzzle::cube2::read_facelets(*turned);
  check(again.ok() && again->valid);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [selector, text] = permuzzle::fuzz::split(data, size);
  if ((selector & 3) == 3)
    fuzz_cube2(text);
  else if (selector & 1)
    fuzz_facelets(text);
  else
    fuzz_moves(text);
  return 0;
}
