// What group.cpp shares with the other `group` command files (group_structure.cpp).
#pragma once

#include <string>
#include <vector>

#include "common.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle::api {

// The group of a request's generators (positional, or --generators-file) within the run's
// time limit and memory budget.
Result<PermGroup> build_request_group(const Request& q, const Session& s);
// The parameters every group command starts with (generators, --generators-file,
// --deterministic).
std::vector<Param> group_base_params();
// The conformance fields of a group command (see Command).
struct Contract {
  Cost cost = Cost::Expensive;
  nlohmann::json hard_example = nullptr;
  std::vector<nlohmann::json> invalid_examples;
};
// What every group command shares: the large wreath product as the hard example (with the
// command's `extra` valid parameters), and as invalid input bad generators, no generators, a
// bad generator file and the command's own bad values (`invalid_extra`: changes to a valid call).
// `hard_generators`: the JSON array of the hard example's generators (a large wreath product).
Contract group_examples(const nlohmann::json& hard_generators, const nlohmann::json& extra,
                        const std::vector<nlohmann::json>& invalid_extra);
// A subgroup's order, structure and generators as an answer (`extra` adds JSON fields).
Output subgroup_answer(const PermGroup& h, nlohmann::json extra);
// Refuses a listing of `items` strings of `chars` characters over the memory budget.
Status check_answer_size(const Session& s, std::uint64_t items, std::uint64_t chars,
                         const std::string& what);

// Registers the structure commands (conjugacy-classes, blocks, ...): group_structure.cpp.
void register_group_structure(Registry& r, const nlohmann::json& hard_generators);

}  // namespace permuzzle::api
