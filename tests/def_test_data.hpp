// The definition files of data/puzzles/ for the def tests: paths, text and parsed (a failure to
// read or parse is a test failure; the test then gets an empty definition).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "permuzzle/puzzles/def/definition.hpp"
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

}  // namespace permuzzle::def::test_data
