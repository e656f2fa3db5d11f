// Helpers shared by the `def` commands (src/api/def.cpp: info, apply, random; the search
// commands in their own file): reading the definition and scramble inputs, and the JSON form of
// a state. Internal to src/api/.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/api/registry.hpp"
#include "permuzzle/puzzles/def/definition.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/loopover/types.hpp"

namespace permuzzle::api {

// cubing.js KPuzzle JSON (spec): orbits, defaultPattern (orientationMod 1 = ignored),
// moves (permutation + orientationDelta, or the older orientation), derivedMoves.
Result<def::Definition> parse_kpuzzle_json(std::string_view text, std::string_view file_name);

// An error about user text made safe to print: its message and input escaped (def::escape_bytes,
// invalid UTF-8 and control characters as \xNN), its position counted in the escaped input.
Error escaped(Error e);

// The definition in the InputFile parameter `name`: KPuzzle JSON when the text starts with '{'
// (after blanks), else the text format. Errors name the file.
Result<def::Definition> read_definition_param(const Request& q, const std::string& name);

// The scrambles in the InputFile parameter `name` (a scramble file, see reader.hpp).
Result<std::vector<def::Scramble>> read_scrambles_param(const Request& q, const def::Definition& d,
                                                        const std::string& name);

// The positions to work on from the usual inputs of a command: `scramble` (InputFile),
// `moves` (String, one entry named "moves") and `state` (String, one entry named "state"),
// whichever of those parameter names the request has. An error when none or several are given.
Result<std::vector<def::Scramble>> read_positions_params(const Request& q,
                                                         const def::Definition& d);

// {SET: {"pieces": [...], "orientation": [...]}}, 0-based like KPuzzle JSON; an ignored
// orientation is null.
nlohmann::json state_json(const def::Definition& d, const def::State& s);

// The text of a file the project ships in the data directory (`data/puzzles/NAME`: definition
// and phase files the benches use); `who` names the caller in the error of a missing file.
Result<std::string> read_data_puzzle_file(const Session& s, const std::string& name,
                                          const std::string& who);

// Definitions generated from the built-in models (src/api/def_export.cpp).
def::Definition loopover_definition(loopover::BoardSize size);
def::Definition cube_definition(int size, bool fixed_corner);
void register_def_exports(Registry& registry);
// Their definition files as text (the commands' conformance examples give files as text).
std::string cube_definition_text(int size);
std::string loopover_definition_text(int rows, int cols);
// A hard optimal 3x3x3 position (the superflip), as moves of cube_definition_text(3).
inline constexpr const char* CUBE3_HARD_MOVES =
    "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

}  // namespace permuzzle::api
