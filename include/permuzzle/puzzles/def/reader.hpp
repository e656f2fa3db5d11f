// Reading definition files (ksolve/twsearch text format), scramble files, move sequences and
// state text into the model of definition.hpp.
//
// Spec: ../shared/spec/definition-files.md. Every error names file:line:column (1-based) and
// what was expected. Sizes are bounded (MAX_PIECES, MAX_ORIENTATIONS, MAX_MOVE_ORDER,
// MAX_SETS, MAX_BASE_MOVES) so that a hostile file cannot make memory grow without bound.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/puzzles/def/definition.hpp"

namespace permuzzle::def {

// A base move whose order exceeds this is refused (its powers would all be search moves).
inline constexpr int MAX_MOVE_ORDER = 1024;
inline constexpr std::size_t MAX_SETS = 4096;
inline constexpr std::size_t MAX_BASE_MOVES = 4096;
// Total generated search moves (all powers of all base moves).
inline constexpr std::size_t MAX_SEARCH_MOVES = 65536;
// Every move is stored as a whole state (2 bytes per piece): the base moves, rotations and
// generated search moves together may take at most this much (a short file with many big sets
// and many one-line moves would otherwise ask for gigabytes).
inline constexpr std::size_t MAX_MOVE_BYTES = std::size_t(512) << 20;

// The text format (.tws / .def). `file_name` is used in error messages only.
Result<Definition> parse_definition(std::string_view text, std::string_view file_name);

// A named position to solve (a scramble file entry, or `--moves` / `--state` input).
// Text from a file or a user, made safe for error messages, JSON and terminals: every byte
// that is not part of valid UTF-8, and every control character (C0, DEL, C1), becomes \xNN.
std::string escape_bytes(std::string_view text);
// The offset of the first such byte in `text`, or npos.
std::size_t first_bad_byte(std::string_view text);

struct Scramble {
  std::string name;
  State state;
};

// A scramble file: `Scramble NAME` (1-based), `ScrambleState NAME` / `StartState NAME`
// (0-based) blocks in the Solved layout, and `ScrambleAlg NAME` followed by lines of moves, each
// until `End`; several per file. A set left out of a state block is as in the solved pattern.
// Numbers in a state block are either the solved pattern's labels rearranged (identical pieces
// repeat) or a permutation of 1..n, which is then applied to the solved pattern.
Result<std::vector<Scramble>> parse_scrambles(const Definition& d, std::string_view text,
                                              std::string_view file_name);

// A phase file (docs/def.md, "Phase files"): `Phase NAME` blocks, each an optional line
// `Moves M1 M2 ...` (the search moves allowed in that phase; default every move) and then a
// pattern in the Solved layout (1-based; numbers may repeat, '?' orientations) until `End`.
// A set left out is as in the puzzle's Solved pattern. Checked against the puzzle: pieces
// identical in its Solved pattern get the same number, an orientation is the Solved one or
// '?'. `pattern` is in the puzzle's state form (0-based numbers of the phase, '?' = 255).
// A `Sequence NAME MOVE ...` line of a phase: a sequence of the puzzle's moves the phase plays
// as one search move, with its powers (NAME, NAME2, ..., NAME'; order at most
// MAX_SEQUENCE_ORDER).
struct PhaseSequence {
  std::string name;
  std::vector<std::size_t> moves;    // indices into Definition::moves
  std::vector<std::size_t> inverse;  // the inverse sequence, as indices
  int order = 1;                     // of its net effect (2..MAX_SEQUENCE_ORDER)
  State effect;                      // net effect, in state form (as Move::effect)
};
inline constexpr int MAX_SEQUENCE_ORDER = 12;
// A phase's `Parity` lines: each doubles every pattern database of the phase (Phase::parity).
inline constexpr std::size_t MAX_PARITY_LINES = 8;

// The puzzle's moves a sequence's power stands for (the sequence `power` times, or its inverse
// order - power times, whichever is shorter). As a search move of its phase the power is named
// power_name(seq.name, power, seq.order), as a base move's powers are.
std::vector<std::size_t> sequence_power_moves(const PhaseSequence& seq, int power);

// One `Blocks` line of a phase: its moves and rotations as written, and their net effect.
struct BlockGenerator {
  std::string text;
  State effect;
  bool operator==(const BlockGenerator&) const = default;
};

// One phase: a pattern to reach (docs/def-phases.md), in the puzzle's state form: slots whose
// home pieces get the same number are identical for that phase, a '?' orientation is not cared
// for yet (phases.hpp says how a phase is solved).
struct Phase {
  std::string name;
  State pattern;
  std::vector<std::size_t> moves;  // indices into Definition::moves; empty = every move
  // Played as one search move each, with their powers (a phase file's `Sequence` lines).
  std::vector<PhaseSequence> sequences;
  // No move of the puzzle, only the sequences (a phase file's `Moves` line with no move; an
  // auto phase where every move would disturb pieces already placed). `moves` is then empty.
  bool only_sequences = false;
  // `Blocks MOVE ...` lines: each one generator (the net effect of its moves or rotations) of
  // the group under which pieces stay together; `Together SET n ... [SET n ...]` lines: the
  // pieces the puzzle's Solved pattern holds at those slots end together, where that group can
  // take them from their home slots, all at once, rather than at home (together_groups; the
  // 4x4x4's paired wings).
  std::vector<BlockGenerator> blocks = {};
  std::vector<std::vector<SlotRef>> together = {};
  // `Parity SET [SET ...]` lines: each a list of sets (indices into Definition::sets, pieces
  // distinct in the Solved pattern) whose pieces' permutations, counted against the Solved
  // pattern, end even together. A parity is no pattern (pieces told apart or not), so the
  // phase's puzzle carries each as a set of two pieces that every odd move swaps
  // (phase_definition): the 4x4x4's "OLL parity" as a phase of its own
  // (data/puzzles/4x4x4-reduction.phases).
  std::vector<std::vector<std::size_t>> parity = {};
};

// A phase as a phase file gives it, with the line of its `Phase` keyword.
struct PhaseSpec : Phase {
  std::size_t line = 0;  // 1-based
};
Result<std::vector<PhaseSpec>> parse_phase_file(const Definition& d, std::string_view text,
                                                std::string_view file_name);

// "R U R' U2" -> indices into d.moves (aliases resolved). Errors point at the token: `input` is
// `text` and `position` the token's offset. Tokens are separated by blanks (commas and
// parentheses are not accepted).
Result<std::vector<std::size_t>> parse_move_sequence(const Definition& d, std::string_view text);

// The inverse of a move sequence (reversed, each move's inverse power), as indices into
// Definition::moves; an error when some move's inverse is not a search move.
Result<std::vector<std::size_t>> inverse_sequence(const Definition& d,
                                                  const std::vector<std::size_t>& moves);

// The state reached from d.solved by a sequence of search moves.
State apply_moves(const Definition& d, const std::vector<std::size_t>& moves);
State apply_moves(const Definition& d, State s, const std::vector<std::size_t>& moves);
std::string move_sequence_text(const Definition& d, const std::vector<std::size_t>& moves);

// `--state` text: the body of a `Scramble` block (1-based, Solved layout) on one or several
// lines: a set name, its `pieces` numbers, optionally its `pieces` orientations, then the next
// set; sets left out are as in the solved pattern. Also accepts a whole `Scramble NAME ... End`
// block. `what` names the input in errors.
Result<State> parse_state(const Definition& d, std::string_view text, std::string_view what);

// A state in the Solved layout (1-based; '?' for ignored orientations): one line per set name,
// one of pieces and one of orientations (left out when the set has one orientation). Sets equal
// to the identity are still printed, so the text is complete.
std::string format_state_body(const Definition& d, const State& s);
// The same wrapped as a scramble file entry: "Scramble NAME\n<body>End\n".
std::string format_scramble(const Definition& d, const State& s, std::string_view name);

// Checks that `s` has the definition's shape and values in range (for states from elsewhere).
Status check_state_shape(const Definition& d, const State& s, std::string_view what);

// Whole-puzzle rotations: x, y, z and names of capitals ending in v (Fv, DFRv).
bool is_rotation_name(std::string_view name);
// The name of base^power for a base move of order `order` (X, X2, X2', X').
std::string power_name(const std::string& base, int power, int order);
// The effect of a search move, an alias, or a rotation or one of its powers, by name.
std::optional<State> named_effect(const Definition& d, std::string_view name);

// The definition in the text format: Name, Set lines, the Solved block (1-based) and one ksolve
// `Move` block per base move (1-based, orientation per piece) listing the sets it changes;
// rotations too; aliases as MoveAlias. `comment` lines are written first, each prefixed "# ".
// Reading the text back gives the same definition (tests/def_reader_test.cpp).
std::string format_definition(const Definition& d, const std::vector<std::string>& comment = {});

// Builds everything derived from sets/solved/base moves: validates the base moves, computes
// their orders and generates d.moves (powers named as in the spec). Used by every reader (text,
// KPuzzle JSON) after filling d.sets, d.solved, d.base_moves, d.rotations, d.aliases.
Status finish_definition(Definition& d, std::string_view file_name);

// A file's name without folders and extension ("data/3x3x3.tws" -> "3x3x3"): the puzzle's name
// when its file gives none.
std::string file_stem(std::string_view file);

}  // namespace permuzzle::def
