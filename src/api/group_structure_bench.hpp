// The structure part of `bench groups` (group_structure_bench.cpp).
#pragma once

#include <string>

#include "common.hpp"

namespace permuzzle::api {

struct StructureBench {
  std::string text;
  nlohmann::json json;
  bool targets_met = true;
};

Result<StructureBench> bench_group_structure(std::uint64_t repeats, const RunContext& run);

}  // namespace permuzzle::api
