// The API registry: parameter validation (exact integers, unknown names, required values) and
// the command list the front ends build on; plus the CLI hardening it provides.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"

namespace permuzzle {
namespace registry_test {

using test::run_cli;
using test::shell_quote;

struct Fixture {
  api::Registry registry = api::make_registry();
  TableStore store;  // no directory: nothing here builds tables
  api::Session session{store, RunContext{}, api::default_data_dir()};
  Result<api::Output> call(const std::string& family, const std::string& verb,
                           const nlohmann::json& params) {
    return registry.call(family, verb, params, session);
  }
};

TEST(Registry, EveryCommandHasHelpAndDistinctParameters) {
  api::Registry r = api::make_registry();
  nlohmann::json list = r.describe();
  ASSERT_GE(list.size(), 17u);  // perm (8) and group (9) at least
  for (const auto& c : list) {
    EXPECT_FALSE(c["help"].get<std::string>().empty()) << c["family"] << " " << c["verb"];
    std::set<std::string> names;
    for (const auto& p : c["params"]) {
      EXPECT_TRUE(names.insert(p["name"].get<std::string>()).second)
          << c["family"] << " " << c["verb"] << " " << p["name"];
    }
  }
}

TEST(Registry, InputFilesAreTextOrNameAndText) {
  api::Command command;
  command.family = "test";
  command.verb = "read";
  api::Param p;
  p.name = "file";
  p.type = api::ParamType::InputFile;
  p.positional = true;
  p.required = true;
  command.params = {p};
  api::Registry r;
  auto plain = r.validate(command, {{"file", "Set A 2 1"}});
  ASSERT_TRUE(plain.ok()) << plain.error().describe();
  EXPECT_EQ(plain->input_file("file").name, "file");
  EXPECT_EQ(plain->input_file("file").text, "Set A 2 1");
  auto named = r.validate(command, {{"file", {{"name", "a.tws"}, {"text", "x"}}}});
  ASSERT_TRUE(named.ok()) << named.error().describe();
  EXPECT_EQ(named->input_file("file").name, "a.tws");
  EXPECT_FALSE(r.validate(command, {{"file", 3}}).ok());
  EXPECT_FALSE(r.validate(command, {{"file", {{"text", "x"}, {"path", "/etc/passwd"}}}}).ok());
  auto big = r.validate(command, {{"file", std::string(api::MAX_INPUT_FILE_BYTES + 1, 'x')}});
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().kind, ErrorKind::LimitExceeded);
}

TEST(Registry, CallsGiveTheSameJsonAsTheCli) {
  Fixture f;
  auto out = f.call("group", "order", {{"generators", {"(1,2,3)", "(1,2)"}}});
  ASSERT_TRUE(out.ok()) << out.error().describe();
  auto cli = run_cli("--json group order '(1,2,3)' '(1,2)'");
  EXPECT_EQ(out->json, cli.json());
  EXPECT_EQ(out->json["order"], "6");
}

TEST(Registry, ParametersAreCheckedExactly) {
  Fixture f;
  // A negative count is an error, not 2^64-1.
  auto negative = f.call("group", "random", {{"generators", {"(1,2)"}}, {"count", -1}});
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.error().message.find("count"), std::string::npos);
  // Unknown parameters are named with a suggestion.
  auto unknown = f.call("group", "contains", {{"generators", {"(1,2)"}}, {"elemnt", "(1,2)"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("did you mean 'element'"), std::string::npos);
  // Wrong types and missing required parameters.
  EXPECT_FALSE(f.call("group", "contains", {{"generators", {"(1,2)"}}, {"element", 3}}).ok());
  EXPECT_FALSE(f.call("group", "contains", {{"generators", {"(1,2)"}}}).ok());
  EXPECT_FALSE(f.call("group", "order", nlohmann::json::array()).ok());
  // Unknown commands.
  auto verb = f.call("perm", "produc", {});
  ASSERT_FALSE(verb.ok());
  EXPECT_NE(verb.error().message.find("did you mean 'product'"), std::string::npos);
  EXPECT_FALSE(f.call("nosuch", "thing", {}).ok());
}

TEST(Registry, BigExponentsAreExact) {
  Fixture f;
  // 10^20 - 1 is divisible by 3: the power of a 3-cycle is the identity (not a clamped value).
  auto out = f.call("perm", "power", {{"perm", "(1,2,3)"}, {"k", "99999999999999999999"}});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->json["power"], "()");
  // 10^20 = 1 mod 3 and mod 7's order 6 ... check against a small exponent with the same residue.
  auto big =
      f.call("perm", "power", {{"perm", "(1,2,3,4,5,6,7)(8,9)"}, {"k", "100000000000000000000"}});
  auto small = f.call("perm", "power",
                      {{"perm", "(1,2,3,4,5,6,7)(8,9)"}, {"k", "2"}});  // 10^20 = 2 mod 7, 0 mod 2
  ASSERT_TRUE(big.ok() && small.ok());
  EXPECT_EQ(big->json["power"], "(1,3,5,7,2,4,6)");
  EXPECT_EQ(big->json["power"], small->json["power"]);
  auto negative = f.call("perm", "power", {{"perm", "(1,2,3)"}, {"k", "-99999999999999999998"}});
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(negative->json["power"], "(1,2,3)");  // -(10^20 - 2) = 1 mod 3
}

TEST(CliHardening, PowerWithAHugeExponent) {
  auto run = run_cli("perm power '(1,2,3)' 99999999999999999999");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "()\n");
}

TEST(CliHardening, UnknownCommandsAreNamedWithASuggestion) {
  auto run = run_cli("perm produc '(1,2)'");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown command 'produc'; did you mean 'product'?"), std::string::npos)
      << run.err;
  auto family = run_cli("gruop order '(1,2)'");
  EXPECT_EQ(family.exit_code, 2);
  EXPECT_NE(family.err.find("did you mean 'group'?"), std::string::npos) << family.err;
}

TEST(CliHardening, BareCommandPrintsHelp) {
  auto run = run_cli("");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("Usage"), std::string::npos);
  EXPECT_NE(run.out.find("group"), std::string::npos);
}

TEST(CliHardening, NegativeCountsAndSeedsAreErrors) {
  for (const std::string args :
       {"group random -n -1 '(1,2,3)'", "group random --seed -5 '(1,2,3)'",
        "group elements --limit -1 '(1,2,3)'", "group random -n 18446744073709551616 '(1,2,3)'"}) {
    auto run = run_cli(args);
    EXPECT_EQ(run.exit_code, 2) << args << "\n" << run.err;
    EXPECT_TRUE(run.out.empty()) << args;
  }
}

TEST(CliHardening, HugeRandomCountIsRefusedNotPrinted) {
  auto run = run_cli("group random -n 1000000000000 '(1,2,3)' '(1,2)'");
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_TRUE(run.out.empty());
  EXPECT_NE(run.err.find("at most"), std::string::npos) << run.err;
}

TEST(CliHardening, SvgGoesToStdoutWithDashAndBigGraphsAreRefused) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no GraphViz";
  auto dash = run_cli("group cayley-graph '(1,2,3)' --svg -");
  EXPECT_EQ(dash.exit_code, 0) << dash.err;
  EXPECT_NE(dash.out.find("<svg"), std::string::npos);
  auto json = run_cli("--json group cayley-graph '(1,2,3)' --svg -");
  EXPECT_NE(json.json()["svg"].get<std::string>().find("<svg"), std::string::npos);
  // S6 has 720 elements: too many to lay out; refused before GraphViz runs (exit 3).
  auto big = run_cli("group cayley-graph '(1,2,3,4,5,6)' '(1,2)' --svg");
  EXPECT_EQ(big.exit_code, 3) << big.err;
  EXPECT_TRUE(big.out.empty());
}

TEST(CliHardening, SvgTempFilesLiveInTmpdirAndAreRemoved) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no GraphViz";
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "permuzzle-tmpdir-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto run = run_cli(
      "group cayley-graph '(1,2,3)' '(1,2)' --svg " + shell_quote((dir / "g.svg").string()), {});
  (void)run;
  // TMPDIR pointed elsewhere: the temp file must appear there and be gone afterwards.
  auto with_tmpdir = test::run_cli_env("TMPDIR=" + shell_quote(dir.string()),
                                       "group cayley-graph '(1,2,3)' '(1,2)' --svg -");
  EXPECT_EQ(with_tmpdir.exit_code, 0) << with_tmpdir.err;
  std::size_t left = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("permuzzle-cayley-", 0) == 0) ++left;
  }
  EXPECT_EQ(left, 0u);
  EXPECT_TRUE(std::filesystem::exists(dir / "g.svg"));
  std::filesystem::remove_all(dir);
}

TEST(CliHardening, ProgressOffATerminalIsPlainRateLimitedLines) {
  // stderr is a file here: no carriage returns, no ANSI codes, and the nine per-depth lines of
  // the pattern database build (all within one second) collapse to the first and the last.
  auto run = run_cli("--tables none loopover solve '9 8 7 6 5 4 3 2 1' --size 3x3");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find('\r'), std::string::npos);
  EXPECT_EQ(run.err.find('\x1b'), std::string::npos);
  std::size_t depth_lines = 0;
  for (std::size_t at = run.err.find("pattern database: depth"); at != std::string::npos;
       at = run.err.find("pattern database: depth", at + 1)) {
    ++depth_lines;
  }
  EXPECT_GE(depth_lines, 1u);
  EXPECT_LE(depth_lines, 3u) << run.err;
}

TEST(CliHardening, TimeLimitStopsALongComputation) {
  // The whole 3x4 Loopover graph over every position takes ~26 s; with --time-limit 0.3 it stops
  // at once (exit 3), with the levels it finished.
  auto start = std::chrono::steady_clock::now();
  auto run = run_cli("--time-limit 0.3 loopover bfs 3x4 --symmetry none -q");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_NE(run.out.find("stopped after"), std::string::npos) << run.out;
  EXPECT_NE(run.err.find("time limit"), std::string::npos) << run.err;
  EXPECT_LT(seconds, 3.0);
  auto negative = run_cli("--time-limit -1 perm order '(1,2)'");
  EXPECT_EQ(negative.exit_code, 2);
}

TEST(CliHardening, TablesNoneTouchesNoCache) {
  std::filesystem::path home = std::filesystem::temp_directory_path() / "permuzzle-home-test";
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home);
  auto run =
      test::run_cli_env("HOME=" + shell_quote(home.string()) + " XDG_CACHE_HOME= PERMUZZLE_TABLES=",
                        "--tables none loopover solve '9 8 7 6 5 4 3 2 1' --size 3x3 -q");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(std::filesystem::is_empty(home));
  std::filesystem::remove_all(home);
}

// A command line builds only the family it names (make_registry(family)): exactly the commands,
// family line and demos the whole registry has for that family, in the same order, for every
// family; and every family of the whole registry is one is_family knows.
TEST(Registry, OneFamilyIsTheWholeRegistrysShareOfIt) {
  const api::Registry all = api::make_registry();
  for (const auto& [family, help] : all.families()) {
    SCOPED_TRACE(family);
    EXPECT_TRUE(api::is_family(family));
    const api::Registry one = api::make_registry(family);
    ASSERT_EQ(one.families().size(), 1u);
    EXPECT_EQ(one.families().front().first, family);
    EXPECT_EQ(one.families().front().second, help);
    std::vector<std::string> expected, got;
    for (const api::Command& c : all.commands()) {
      if (c.family == family) expected.push_back(c.verb);
    }
    for (const api::Command& c : one.commands()) got.push_back(c.family + " " + c.verb);
    for (std::string& verb : expected) verb = family + " " + verb;
    EXPECT_EQ(got, expected);
    std::size_t demos = 0;
    for (const auto& demo : all.demos()) demos += demo.first == family;
    EXPECT_EQ(one.demos().size(), demos);
  }
  EXPECT_FALSE(api::is_family("serve"));
  EXPECT_EQ(api::make_registry("no-such-family").commands().size(), all.commands().size());
}

// Every thread count is checked by the registry, whatever the command declared: from 1 to
// MAX_THREADS (issue 39: 3000 or 2^64-1 threads killed the process).
TEST(Registry, EveryThreadsParameterIsBounded) {
  const api::Registry registry = api::make_registry();
  std::size_t checked = 0;
  for (const api::Command& c : registry.commands()) {
    for (const api::Param& p : c.params) {
      if (p.name != "threads") continue;
      ++checked;
      ASSERT_TRUE(p.min && p.max) << c.family << " " << c.verb;
      EXPECT_GE(*p.min, 1) << c.family << " " << c.verb;
      EXPECT_LE(*p.max, api::MAX_THREADS) << c.family << " " << c.verb;
    }
  }
  EXPECT_GT(checked, 5u);
  auto many = run_cli("cube solve --moves \"R U F\" --optimal --threads 3000");
  EXPECT_EQ(many.exit_code, 2) << many.err;
  EXPECT_NE(many.err.find("threads"), std::string::npos) << many.err;
  auto wrapped = run_cli("cube solve --moves \"R U F\" --optimal --threads 18446744073709551615");
  EXPECT_EQ(wrapped.exit_code, 2) << wrapped.err;
}

}  // namespace registry_test
}  // namespace permuzzle
