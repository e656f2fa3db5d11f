// The README cannot drift: every `$ permuzzle ...` example in a ```console block is run and its
// stdout compared with the lines shown under it. In the README, "..." stands for any text within
// a line, and a line of just "..." for any number of lines; decimal fractions (timings) compare
// equal to any decimal fraction.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"

namespace permuzzle::test {
namespace readme_test {

struct Example {
  int line = 0;         // README line of the command
  std::string command;  // what follows "$ permuzzle "
  std::vector<std::string> expected;
};

std::vector<Example> read_examples() {
  std::ifstream in(std::string(PERMUZZLE_DATA_DIR) + "/../README.md");
  std::vector<Example> examples;
  std::string text;
  bool in_console = false;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (text.rfind("```", 0) == 0) {
      in_console = !in_console && text == "```console";
      continue;
    }
    if (!in_console) continue;
    if (text.rfind("$ permuzzle", 0) == 0) {
      examples.push_back({number, text.substr(11), {}});
    } else if (!examples.empty()) {
      examples.back().expected.push_back(text);
    }
  }
  return examples;
}

std::string normalise_numbers(const std::string& s) {
  static const std::regex FRACTION(R"(\d+\.\d+(e-?\d+)?)");
  return std::regex_replace(s, FRACTION, "#");
}

std::regex line_pattern(const std::string& expected) {
  std::string pattern;
  std::string line = normalise_numbers(expected);
  std::size_t start = 0;
  while (true) {
    std::size_t dots = line.find("...", start);
    std::string piece =
        line.substr(start, dots == std::string::npos ? std::string::npos : dots - start);
    for (char c : piece) {
      if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) pattern += '\\';
      pattern += c;
    }
    if (dots == std::string::npos) break;
    pattern += ".*";
    start = dots + 3;
  }
  return std::regex(pattern);
}

// Does `actual` (from line a on) match `expected` (from line e on)?
bool matches(const std::vector<std::string>& expected, std::size_t e,
             const std::vector<std::string>& actual, std::size_t a) {
  if (e == expected.size()) return a == actual.size();
  if (expected[e] == "...") {
    for (std::size_t skip = a; skip <= actual.size(); ++skip) {
      if (matches(expected, e + 1, actual, skip)) return true;
    }
    return false;
  }
  if (a == actual.size()) return false;
  if (!std::regex_match(normalise_numbers(actual[a]), line_pattern(expected[e]))) return false;
  return matches(expected, e + 1, actual, a + 1);
}

void PrintTo(const Example& ex, std::ostream* os) {
  *os << "permuzzle" << ex.command;
}

class ReadmeExample : public ::testing::TestWithParam<Example> {};

TEST_P(ReadmeExample, PrintsWhatTheReadmeShows) {
  const Example& ex = GetParam();
  SCOPED_TRACE("README.md line " + std::to_string(ex.line) + ": permuzzle" + ex.command);
  // Tables go to the build tree's test cache (built once, shared with the other tests); the
  // commands run in the repository's root, so that examples can name files like data/puzzles/.
  CliRun run = run_cli_env("cd " + shell_quote(std::string(PERMUZZLE_DATA_DIR) + "/..") +
                               " && PERMUZZLE_TABLES=" + shell_quote(PERMUZZLE_TEST_TABLES_DIR),
                           ex.command);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> actual;
  std::istringstream lines(run.out);
  for (std::string l; std::getline(lines, l);) actual.push_back(l);
  std::string shown;
  for (const auto& l : ex.expected) shown += l + "\n";
  EXPECT_TRUE(matches(ex.expected, 0, actual, 0)) << "README shows:\n"
                                                  << shown << "the command printed:\n"
                                                  << run.out;
}

TEST(Readme, HasExamples) {
  EXPECT_GE(read_examples().size(), 15u);
}

INSTANTIATE_TEST_SUITE_P(Readme, ReadmeExample, ::testing::ValuesIn(read_examples()),
                         [](const ::testing::TestParamInfo<Example>& info) {
                           return "line" + std::to_string(info.param.line);
                         });

}  // namespace readme_test
}  // namespace permuzzle::test
