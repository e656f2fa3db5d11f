// Black-box tests of `permuzzle group ...`: the JSON interface acceptance checks rely on, and
// the error contract (one clear message, exit code 2, nothing on stdout).
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"

namespace permuzzle {
namespace group_cli_test {

using test::run_cli;

const std::string LOOPOVER4 =
    "'(1,2,3,4)' '(5,6,7,8)' '(9,10,11,12)' '(13,14,15,16)' '(1,5,9,13)' '(2,6,10,14)' "
    "'(3,7,11,15)' '(4,8,12,16)'";
const std::string LOOPOVER3 = "'(1,2,3)' '(4,5,6)' '(7,8,9)' '(1,4,7)' '(2,5,8)' '(3,6,9)'";
const std::string TRILOOP4 =
    "'(2,4)' '(5,7,9)(6,8)' '(10,12,14,16)(11,13,15)' '(1,2,5,10)(3,6,11)' '(4,7,12)(8,13)' "
    "'(9,14)' '(1,4,9,16)(3,8,15)' '(2,7,14)(6,13)' '(5,12)'";
const std::string CUBE =
    "U='(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)' "
    "L='(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)' "
    "F='(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)' "
    "R='(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)' "
    "B='(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)' "
    "D='(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)'";

TEST(GroupCli, OrderJson) {
  auto run = run_cli("group order " + LOOPOVER4 + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json(), nlohmann::json({{"order", "20922789888000"}}));
  auto cube = run_cli("group order " + CUBE + " --json");
  ASSERT_EQ(cube.exit_code, 0) << cube.err;
  EXPECT_EQ(cube.json()["order"], "43252003274489856000");
  auto text = run_cli("group order '(1,2)' '(1,2,3)'");
  EXPECT_EQ(text.out, "6\n");
}

TEST(GroupCli, DescribeStructure) {
  auto s16 = run_cli("group describe " + LOOPOVER4 + " --json");
  ASSERT_EQ(s16.exit_code, 0) << s16.err;
  EXPECT_EQ(s16.json()["structure"], "S16");
  EXPECT_EQ(s16.json()["order"], "20922789888000");
  EXPECT_EQ(s16.json()["transitive"], true);
  auto a9 = run_cli("group describe " + LOOPOVER3 + " --json");
  EXPECT_EQ(a9.json()["structure"], "A9");
  EXPECT_EQ(a9.json()["order"], "181440");
  auto tri = run_cli("group describe " + TRILOOP4 + " --json");
  EXPECT_EQ(tri.json()["structure"], "S10 x S6");
  EXPECT_EQ(tri.json()["order"], "2612736000");  // 10! * 6!
  EXPECT_EQ(tri.json()["orbits"].size(), 2u);
  auto text = run_cli("group describe " + TRILOOP4);
  EXPECT_NE(text.out.find("structure:    S10 x S6"), std::string::npos) << text.out;
}

TEST(GroupCli, ContainsJson) {
  auto yes = run_cli("group contains --element '(1,2)(3,4)' " + LOOPOVER3 + " --json");
  ASSERT_EQ(yes.exit_code, 0) << yes.err;
  EXPECT_EQ(yes.json()["member"], true);
  auto no = run_cli("group contains --element '(1,2)' " + LOOPOVER3 + " --json");
  ASSERT_EQ(no.exit_code, 0) << no.err;
  EXPECT_EQ(no.json()["member"], false);
  auto twist = run_cli("group contains --element '(8,19,25)' " + CUBE + " --json");
  EXPECT_EQ(twist.json()["member"], false);
}

TEST(GroupCli, WordJsonIsVerified) {
  auto run = run_cli("group word --element '(1,2)(4,5)' " + LOOPOVER3 + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = run.json();
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["length"], j["word"].size());
  EXPECT_GT(j["length"].get<int>(), 0);
  // Multiply the word back with `permuzzle perm product` (an independent code path).
  const std::string gens[] = {"(1,2,3)", "(4,5,6)", "(7,8,9)", "(1,4,7)", "(2,5,8)", "(3,6,9)"};
  std::string args;
  for (const auto& letter : j["word"]) {
    std::string s = letter.get<std::string>();
    bool inverse = s.size() > 3 && s.substr(s.size() - 3) == "^-1";
    int index = std::stoi(s.substr(1, inverse ? s.size() - 4 : std::string::npos)) - 1;
    std::string g = gens[index];
    if (inverse) {  // reverse the cycle
      std::string inner = g.substr(1, g.size() - 2);
      auto a = inner.substr(0, inner.find(','));
      auto rest = inner.substr(inner.find(',') + 1);
      auto b = rest.substr(0, rest.find(','));
      auto c = rest.substr(rest.find(',') + 1);
      g = "(" + c + "," + b + "," + a + ")";
    }
    args += " '" + g + "'";
  }
  auto product = run_cli("perm product" + args);
  EXPECT_EQ(product.out, "(1,2)(4,5)\n");
  // Named generators appear by name.
  auto named = run_cli("group word --element '(1,3,2)' a='(1,2,3)' --json");
  EXPECT_EQ(named.json()["word"], nlohmann::json::array({"a^-1"}));
  // Not a member: exit 2 and a clear message.
  auto outside = run_cli("group word --element '(1,2)' " + LOOPOVER3 + " --json");
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_EQ(outside.out, "");
  EXPECT_NE(outside.err.find("not in the group"), std::string::npos) << outside.err;
}

TEST(GroupCli, OtherSubcommands) {
  auto orbits = run_cli("group orbits '(1,2)' '(4,5,6)' --json");
  EXPECT_EQ(orbits.json()["orbits"], nlohmann::json::parse("[[1,2],[4,5,6]]"));
  auto elements = run_cli("group elements '(1,2,3)' --json");
  EXPECT_EQ(elements.json()["elements"], nlohmann::json::array({"()", "(1,2,3)", "(1,3,2)"}));
  auto random = run_cli("group random --count 5 --seed 3 " + CUBE + " --json");
  ASSERT_EQ(random.exit_code, 0) << random.err;
  EXPECT_EQ(random.json()["elements"].size(), 5u);
  auto table = run_cli("group cayley-table '(1,2)' '(1,2,3)' --json");
  EXPECT_EQ(table.json()["elements"].size(), 6u);
  EXPECT_EQ(table.json()["table"][0], table.json()["elements"]);
  auto graph =
      run_cli("group cayley-graph '(1,2,3)' '(1,2)(3,4)' -x '(1,2)(3,4)' -x '(1,4)(2,3)' --json");
  ASSERT_EQ(graph.exit_code, 0) << graph.err;
  EXPECT_EQ(graph.json()["component_count"], 3);
  const auto components = graph.json()["components"];  // a copy: json() returns a temporary
  for (const auto& c : components) EXPECT_EQ(c.size(), 4u);
  auto dot = run_cli("group cayley-graph '(1,2)' '(1,2,3)'");
  EXPECT_EQ(dot.out.find("// Cayley digraph"), 0u);
  if (std::system("command -v dot >/dev/null 2>&1") == 0) {
    auto svg = run_cli("group cayley-graph '(1,2)' '(1,2,3)' --svg");
    EXPECT_EQ(svg.exit_code, 0) << svg.err;
    EXPECT_NE(svg.out.find("<svg"), std::string::npos);
  }
  auto too_big = run_cli("group elements " + CUBE);
  EXPECT_EQ(too_big.exit_code, 3);
  EXPECT_EQ(too_big.out, "");
}

TEST(GroupCli, ErrorsAreOneClearMessageWithExitTwo) {
  struct Case {
    std::string args, expect;
  };
  const Case cases[] = {
      {"group order '(1,2)' '(1,2' --json", "unclosed cycle"},
      {"group order '(1,2)' '(1,2,2)' --json", "repeated"},
      {"group order '(0,1)' --json", "point 0"},
      {"group describe --json", "empty generator list"},
      {"group order '(1,2)' '(1;2)' --json", "unexpected ';'"},
      {"group contains --element '(1,2' '(1,2)' --json", "--element"},
      {"group order '1x=(1,2)' --json", "invalid name"},
  };
  for (const auto& c : cases) {
    auto run = run_cli(c.args);
    EXPECT_EQ(run.exit_code, 2) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
    EXPECT_NE(run.err.find(c.expect), std::string::npos) << c.args << "\n" << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n') <= 3, true) << run.err;
  }
  // The message names the generator and points at the offending character.
  auto run = run_cli("group order '(1,2)' 'b=(3,4,3)'");
  EXPECT_NE(run.err.find("generator 2 (b)"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("at character 8"), std::string::npos) << run.err;
}

}  // namespace group_cli_test
}  // namespace permuzzle
