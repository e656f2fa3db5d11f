// CLI helper shared by `loopover solve` and `bench loopover` (defined in loopover.cpp).
#pragma once

#include <string>

#include "cli.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"

namespace permuzzle::cli {

// The optimal solver with the pattern named by `pattern` ("auto" or "none"), showing progress
// lines while a pattern database is built.
Result<loopover::OptimalSolver> make_loopover_solver(const Context& ctx, loopover::BoardSize size,
                                                     loopover::Metric metric,
                                                     const std::string& tables,
                                                     const std::string& pattern);

}  // namespace permuzzle::cli
