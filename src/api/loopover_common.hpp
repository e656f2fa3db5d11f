// Helpers shared by the `loopover` commands and the Loopover benchmarks (internal to src/api/).
#pragma once

#include <string>

#include "common.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"

namespace permuzzle::api {

// "stm" or "mtm" (upper case accepted, as the CLI always did).
Result<loopover::Metric> parse_loopover_metric(const std::string& text);
const char* loopover_metric_name(loopover::Metric metric);

// The optimal solver with the pattern named by `pattern` ("auto" or "none"), its tables in
// s.tables; reports the pattern database build through s.run.
Result<loopover::OptimalSolver> make_loopover_solver(Session& s, loopover::BoardSize size,
                                                     loopover::Metric metric,
                                                     const std::string& pattern);

// `bench loopover` and `bench loopover-fast` (loopover_bench.cpp).
void register_loopover_bench(Registry& r);

}  // namespace permuzzle::api
