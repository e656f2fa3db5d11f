// `--phases auto|PHASEFILE` of `def solve` and `def info`, the scramble sequence of `def random`
// and `bench def-phases` (src/api/def_phases.cpp; the library side is puzzles/def/phases.hpp).
// Internal to src/api/.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "permuzzle/api/registry.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/phases.hpp"

namespace permuzzle::api {

// The `phases` parameter: an InputFile whose keyword `auto` the CLI passes as it is.
Param phases_param();
// def random's --phases: the phases its scramble sequence comes from (default auto).
Param random_phases_param();

// Largest --beam and --branch: a phase keeps at most beam x branch candidates (each a position
// and its moves so far: a few hundred bytes), about 20 MB.
inline constexpr std::uint64_t MAX_PHASE_BEAM = 1024;
inline constexpr std::uint64_t MAX_PHASE_BRANCH = 64;

// Appends `--beam W`, `--branch B`, `--slack S` and `--inverse` of `def solve --phases`
// (PhaseOptions' beam) to a command's parameters.
void append_phase_beam_params(std::vector<Param>& params);
void read_beam_params(const Request& q, def::PhaseOptions& o);

// The phases the request asks for (`auto`, or a phase file checked against the puzzle).
// Tables `auto` builds while planning go to `tables` (the solve's store).
Result<std::vector<def::Phase>> read_phases_param(const Request& q, const def::Definition& d,
                                                  const RunContext& run, TableStore& tables);

// `def solve --phases`: every position solved phase by phase.
Result<Output> solve_by_phases(const Request& q, Session& s, const def::Definition& d,
                               def::Metric metric, const std::vector<def::Scramble>& positions);

// `def info --phases`: the chosen phases and their sizes, added to `out` (json "phases", text).
Status add_phase_info(const Request& q, Session& s, const def::Definition& d, Output& out);

// `def random`: a move sequence reaching `position` (solved by --phases, else auto phases;
// inverted, replayed),
// added to `out` as "moves" (null with "moves_refused" when no sequence could be found).
Status add_scramble_moves(const Request& q, Session& s, const def::Definition& d,
                          const def::State& position, Output& out);

void register_def_phases_bench(Registry& r);

}  // namespace permuzzle::api
