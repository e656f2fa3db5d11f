// Helpers shared by the command families of the API layer (internal to src/api/).
#pragma once

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/perm.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"
#include "permuzzle/search/bfs_distributed.hpp"

namespace permuzzle::api {

// A benchmark's own check of an answer failed (a bug, not bad input): "[command: ]check failed:
// what".
inline Error check_failed(const std::string& what, const std::string& command = {}) {
  return make_error((command.empty() ? "" : command + ": ") + "check failed: " + what, {},
                    Error::NO_POSITION, ErrorKind::Internal);
}

// Parameter constructors, so that a command's parameter list reads like its usage line.
inline Param positional(std::string name, ParamType type, std::string help, bool required = true) {
  Param p;
  p.name = std::move(name);
  p.type = type;
  p.help = std::move(help);
  p.positional = true;
  p.required = required;
  return p;
}
inline Param option(std::string name, ParamType type, std::string help,
                    nlohmann::json fallback = nullptr) {
  Param p;
  p.name = std::move(name);
  p.type = type;
  p.help = std::move(help);
  p.fallback = std::move(fallback);
  return p;
}
inline Param flag(std::string name, std::string help) {
  Param p;
  p.name = std::move(name);
  p.type = ParamType::Flag;
  p.help = std::move(help);
  p.fallback = false;
  return p;
}
// The size, moves and disks are options (`--size 3x5`, `--moves "R U"`, `--disks 5`) in every
// family; where one was positional it is still taken there, with a note (Param::positional_alias).
inline Param formerly_positional(Param p) {
  p.positional = false;
  p.positional_alias = true;
  return p;
}
inline Param with_short(Param p, char short_name) {
  p.short_name = short_name;
  return p;
}
inline Param required(Param p) {
  p.required = true;
  return p;
}
inline Param with_choices(Param p, std::vector<std::string> choices) {
  p.choices = std::move(choices);
  return p;
}
inline Param with_range(Param p, std::optional<std::int64_t> min,
                        std::optional<std::uint64_t> max) {
  p.min = min;
  p.max = max;
  return p;
}

// A command with its conformance examples (see Command): a cheap one with the parameters that
// must be refused as invalid input, an expensive one with a hard example too.
inline Command cheap(Command c, std::vector<nlohmann::json> invalid) {
  c.cost = Cost::Cheap;
  c.invalid_examples = std::move(invalid);
  return c;
}
inline Command expensive(Command c, nlohmann::json hard, std::vector<nlohmann::json> invalid) {
  c.cost = Cost::Expensive;
  c.hard_example = std::move(hard);
  c.invalid_examples = std::move(invalid);
  return c;
}

// The session's run context with the request's --threads, when it has one.
RunContext with_threads(const Request& q, const Session& s);
// "--threads N" (1..256): worker threads, by default every hardware thread.
Param threads_option();

// A command whose handler shares its work with the other processes of an MPI job.
inline Command distributed(Command c) {
  c.distributed = true;
  return c;
}

// Parses a permutation parameter; errors name the parameter and point into its full text
// (`offset` skips a "NAME=" prefix).
Result<Perm> parse_perm_param(const std::string& text, const std::string& what,
                              std::size_t offset = 0);

// 0-based points as a 1-based JSON list / text list.
nlohmann::json points_json(const std::vector<Point>& points);
std::string points_text(const std::vector<Point>& points, const char* open, const char* close);

// 1234567 -> "1,234,567".
std::string with_commas(std::uint64_t v);
// The same for a decimal string of any length (GMP numbers): "43252003274489856000" ->
// "43,252,003,274,489,856,000".
std::string with_commas(const std::string& digits);
// The words of a list separated by commas and/or blanks ("a,b c" -> {"a", "b", "c"}).
std::vector<std::string> split_list(std::string list);

// What a whole-graph BFS run over several processes (under mpirun, docs/distributed.md) adds to
// its JSON: "processes", "bytes_sent", "positions_sent", "level_seconds",
// "message_buffer_bytes", "message_buffer_peak_bytes". Nothing for a one-process search.
void add_distribution_json(nlohmann::json& out,
                           const std::optional<search::DistributedBfsStats>& distribution);

// A bar chart of positions per distance (a self-contained SVG) for every whole-graph BFS.
std::string distance_chart_svg(const std::string& title,
                               const std::vector<std::uint64_t>& histogram);

// The cube group's word problem through the cube solver (cube.cpp): nullopt when the group is
// not recognised as the cube group on GAP's 48 stickers (every generator a face turn, each face
// present as a quarter turn), else a word of at most about 26 letters, verified.
std::optional<Result<Word>> cube_group_word(const PermGroup& group, const Perm& element,
                                            Session& session);

// `--budget S` of `cube solve` and `bench cube` (cube.cpp): the two-phase solver's time to look
// for shorter solutions, a positive finite number, not with --optimal.
Status check_cube_budget(const Request& q, bool optimal);

// `--optimal --memory MB` (cube.cpp): from OPTIMAL_TABLE_MIN_MEMORY_MB on, the largest big
// optimal table that fits (the 2.3 GiB one: built once, about 5 minutes) into `options`, its
// time, size and report added to `info`; below, nothing. With `--h48` (bench cube only), the
// H48 tables instead (h7, or with --memory the largest that fits). `cube solve` and `bench
// cube` share it.
Status attach_optimal_table(const Request& q, Session& session, const cube::SolverTables& tables,
                            cube::SolverTablesInfo& info, cube::OptimalOptions& options);
// Today's table, the 2.3 GiB big one (`bench cube --beside`), into `options` the same way.
Status attach_todays_table(Session& session, const cube::SolverTables& tables,
                           cube::SolverTablesInfo& info, cube::OptimalOptions& options);

}  // namespace permuzzle::api
