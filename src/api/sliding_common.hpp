// Shared by the sliding commands and the sliding benchmarks (internal to src/api/).
#pragma once

#include <cstdint>
#include <string>

#include "permuzzle/api/registry.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"

namespace permuzzle::api {

namespace sliding_detail {

// Pattern-database options of one call: the session's table directory, `threads` for building
// and searching, and table progress through the session, announced (what is built, how big,
// where it is cached) before the first table is built.
// The run (time limit, cancellation, memory budget) is the session's: `s` must outlive the
// options.
sliding::PdbOptions sliding_pdb_options(const Session& s, const std::string& partition,
                                        unsigned threads, sliding::BoardSize size);

// The memory of a partition's tables (loaded or built; a build checks its own peak) against
// the session's budget.
Status check_pdb_memory(const Session& s, sliding::BoardSize size, const std::string& partition);

}  // namespace sliding_detail

// `bench korf100`, `bench korf24` (sliding_bench.cpp).
void register_sliding_bench(Registry& r);

}  // namespace permuzzle::api
