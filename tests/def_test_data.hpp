// The definition files of data/puzzles/ for the def tests: paths, text and parsed (a failure to
// read or parse is a test failure; the test then gets an empty definition).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/definition.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/phases.hpp"
#include "permuzzle/puzzles/def/reader.hpp"

namespace permuzzle::def::test_data {

// The path of data/puzzles/NAME.
inline std::string data_file(const std::string& name) {
  return std::string(PERMUZZLE_DATA_DIR) + "/puzzles/" + name;
}

inline std::string data_text(const std::string& name) {
  std::ifstream in(data_file(name));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline Definition data_definition(const std::string& name) {
  auto d = parse_definition(data_text(name), name);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().describe());
  return d.ok() ? std::move(*d) : Definition{};
}

// `count` random positions (from `seed`) solved by the phases, each solution replayed here.
inline void expect_solves_random_positions(const Definition& d, const std::vector<Phase>& phases,
                                           std::uint64_t seed, int count) {
  TableStore store;
  auto solver = PhasedSolver::create(d, phases, {}, store, RunContext{});
  ASSERT_TRUE(solver) << solver.error().message;
  auto g = build_group(d);
  ASSERT_TRUE(g);
  Rng rng(seed);
  for (int i = 0; i < count; ++i) {
    const State start = random_position(d, *g, rng);
    auto r = (*solver)->solve(start, RunContext{});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(apply_moves(d, start, r->move_indices), d.solved);
  }
}

}  // namespace permuzzle::def::test_data
