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
sliding::PdbOptions sliding_pdb_options(const Session& s, const std::string& partition,
                                        unsigned threads, sliding::BoardSize size);

}  // namespace sliding_detail

// `bench korf100`, `bench korf24` (sliding_bench.cpp).
void register_sliding_bench(Registry& r);

}  // namespace permuzzle::api
