// Error::describe: the echo of the input is bounded and the caret counts characters.
#include <gtest/gtest.h>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"

namespace permuzzle {
namespace result_test {

// The line holding the caret, and the echoed input line.
std::pair<std::string, std::string> echo_and_caret(const std::string& described) {
  std::size_t input_at = described.find("\n  input: ");
  std::size_t caret_at = described.find("\n         ", input_at + 1);
  std::string echo = described.substr(input_at + 10, caret_at - input_at - 10);
  std::string caret = described.substr(caret_at + 10);
  return {echo, caret};
}

// Number of UTF-8 characters in a string.
std::size_t characters(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

TEST(ErrorDescribe, CaretCountsCharactersNotBytes) {
  // "é" and "→" are 2 and 3 bytes: the caret must stand under the 'x', 6 characters in.
  const std::string input = "é→(1,x)";
  Error e = make_error("bad point", input, input.find('x'));
  auto [echo, caret] = echo_and_caret(e.describe());
  EXPECT_EQ(echo, input);
  EXPECT_EQ(caret.find('^'), 5u);
  EXPECT_NE(caret.find("at character 6"), std::string::npos);
}

TEST(ErrorDescribe, LongInputIsEchoedAroundTheErrorOnly) {
  std::string input = "(1,2)";
  while (input.size() < 1'000'000) input += "(1,2)";
  const std::size_t bad = 600'003;
  input[bad] = 'x';
  Error e = make_error("bad point", input, bad);
  std::string text = e.describe();
  EXPECT_LT(text.size(), 500u);
  auto [echo, caret] = echo_and_caret(text);
  EXPECT_LE(characters(echo), 206u);
  // The caret points at the 'x' in the echo, and names the true character number.
  ASSERT_NE(caret.find('^'), std::string::npos);
  EXPECT_EQ(echo[caret.find('^')], 'x');
  EXPECT_NE(caret.find("at character " + std::to_string(bad + 1)), std::string::npos);
}

TEST(ErrorDescribe, ParserErrorsOnHugeInputStayShort) {
  std::string input(2'000'000, '(');
  auto p = Perm::parse(input);
  ASSERT_FALSE(p.ok());
  EXPECT_LT(p.error().describe().size(), 800u);
}

TEST(ErrorDescribe, ControlCharactersDoNotBreakTheLine) {
  Error e = make_error("bad", "a\nb\tc", 4);
  auto [echo, caret] = echo_and_caret(e.describe());
  EXPECT_EQ(echo, "a b c");
  EXPECT_EQ(caret.find('^'), 4u);
}

}  // namespace result_test
}  // namespace permuzzle
