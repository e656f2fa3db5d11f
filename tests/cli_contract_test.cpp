// Black-box tests of the command line's own contract (apps/cli): list notation reaches every
// multi-valued argument verbatim, long values come from stdin ("-") or a file ("@FILE"), bytes
// from the user's input never reach the terminal as control characters, output never fails on
// input bytes, and the global limits (--time-limit, --memory) refuse what means nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"

namespace permuzzle {
namespace cli_contract_test {

using test::run_cli;
using test::run_cli_env;
using test::shell_quote;

// A temporary directory removed with the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "permuzzle-cli-XXXXXX");
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name, const std::string& content) const {
    std::string path = (path_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string repeat(const std::string& unit, std::size_t times) {
  std::string out;
  out.reserve(unit.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += unit;
  return out;
}

bool has_control_bytes(const std::string& text) {
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return true;
  }
  return false;
}

// --- list notation ----------------------------------------------------------------------------

TEST(CliContract, ListNotationInPositionalLists) {
  // [2,3,1] is (1,2,3); GAP's product applies it first, then (1,2): 1->2->1, 2->3, 3->1->2.
  auto list = run_cli("perm product '[2,3,1]' '(1,2)'");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(list.out, "(2,3)\n");
  auto cycles = run_cli("perm product '(1,2,3)' '(1,2)'");
  EXPECT_EQ(list.out, cycles.out);
  // Both permutations in list notation, and after `--`.
  auto both = run_cli("perm product -- '[2,3,1]' '[2,1,3]'");
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(both.out, "(2,3)\n");
  // Group generators: <(1,2,3), (1,2)> is S3.
  auto order = run_cli("group order '[2,3,1]' '(1,2)' --json");
  ASSERT_EQ(order.exit_code, 0) << order.err;
  EXPECT_EQ(order.json()["order"], "6");
  auto s4 = run_cli("group order '[2,3,4,1]' '[2,1]' --json");
  ASSERT_EQ(s4.exit_code, 0) << s4.err;
  EXPECT_EQ(s4.json()["order"], "24");
}

TEST(CliContract, ListNotationInRepeatedOptions) {
  // |S3 : <(1,2)>| = 3, the subgroup given with -s in list notation, as -s=... and --subgroup
  // (after G's generators: an option with several values takes the arguments that follow it).
  for (const std::string& s : {"-s '[2,1,3]'", "--subgroup '[2,1]'", "--subgroup='[2,1,3]'"}) {
    auto run = run_cli("group index '(1,2,3)' '(1,2)' " + s + " --json");
    ASSERT_EQ(run.exit_code, 0) << s << ": " << run.err;
    EXPECT_EQ(run.json()["index"], "3") << s;
  }
  // Two values after one -s: <(1,2), (2,3)> is all of S3, index 1.
  auto two = run_cli("group index -s '[2,1,3]' '[1,3,2]' -- '(1,2,3)' '(1,2)' --json");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(two.json()["index"], "1");
  // Single-valued options take it as they always did.
  auto member = run_cli("group contains --element '[3,1,2]' '(1,2,3)' --json");
  ASSERT_EQ(member.exit_code, 0) << member.err;
  EXPECT_EQ(member.json()["member"], true);
}

TEST(CliContract, ListNotationErrorsNameTheValueAsTyped) {
  // A malformed list reaches the parser whole (not split into pieces), and the message shows it
  // without the CLI's internal marker.
  auto bad = run_cli("perm product '[2,2,1]' '(1,2)'");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.out.empty());
  EXPECT_NE(bad.err.find("[2,2,1]"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find('\0'), std::string::npos);
  auto unknown = run_cli("perm product --nope '[1]'");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err.find('\0'), std::string::npos);
}

// --- "-" and @FILE ----------------------------------------------------------------------------

// Loopover takes at most 1,000,000 moves: 999,997 times "-A  " (4 MB, far over the 128 KiB
// the system allows for one argument) is one inverse shift of row A on a 4x4 board (a row
// returns after 4 shifts). The cube has no such cap: 1,500,001 quarter turns R (3 MB) are one.
const std::size_t LOOPOVER_REPEATS = 999'997;
const std::size_t CUBE_REPEATS = 1'500'001;

TEST(CliContract, LongMovesFromStdin) {
  const std::string moves = repeat("-A  ", LOOPOVER_REPEATS) + "\n";
  ASSERT_GT(moves.size(), 3'000'000u);
  auto one = run_cli("loopover apply --size 4x4 --moves=-A --json");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.json()["position"], "2 3 4 1 5 6 7 8 9 10 11 12 13 14 15 16");
  auto long_run = run_cli("loopover apply --size 4x4 --moves - --json", moves);
  ASSERT_EQ(long_run.exit_code, 0) << long_run.err;
  EXPECT_EQ(long_run.json()["position"], one.json()["position"]);
  // The positional spelling too.
  auto positional = run_cli("loopover apply --size 4x4 - --json", moves);
  ASSERT_EQ(positional.exit_code, 0) << positional.err;
  EXPECT_EQ(positional.json()["position"], one.json()["position"]);
  // Stdin with the cube: 3 MB of R.
  auto cube = run_cli("cube apply - --json", repeat("R ", CUBE_REPEATS));
  ASSERT_EQ(cube.exit_code, 0) << cube.err;
  EXPECT_EQ(cube.json()["facelets"], run_cli("cube apply R --json").json()["facelets"]);
}

TEST(CliContract, LongMovesFromFile) {
  TempDir dir;
  const std::string path = dir.file("moves.txt", repeat("R ", CUBE_REPEATS) + "\r\n\n");
  ASSERT_GT(std::filesystem::file_size(path), 3'000'000u);
  auto one = run_cli("cube apply R --json");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.json()["facelets"], "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB");
  auto from_file = run_cli("cube apply " + shell_quote("@" + path) + " --json");
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_EQ(from_file.json()["facelets"], one.json()["facelets"]);
  const std::string loopover_moves = dir.file("a.txt", repeat("-A  ", LOOPOVER_REPEATS));
  auto loopover =
      run_cli("loopover apply --size 4x4 --moves " + shell_quote("@" + loopover_moves) + " --json");
  ASSERT_EQ(loopover.exit_code, 0) << loopover.err;
  EXPECT_EQ(loopover.json()["position"], "2 3 4 1 5 6 7 8 9 10 11 12 13 14 15 16");
  // In a list: each @FILE is one value (here one permutation per file).
  auto perms = run_cli("perm product " + shell_quote("@" + dir.file("p", "[2,3,1]\n")) + " " +
                       shell_quote("@" + dir.file("q", "(1,2)")));
  ASSERT_EQ(perms.exit_code, 0) << perms.err;
  EXPECT_EQ(perms.out, "(2,3)\n");
}

TEST(CliContract, AtSignEscapesAndErrors) {
  TempDir dir;
  // "@@x" is the literal "@x": the permutation parser sees (and names) it.
  auto literal = run_cli("perm order '@@(1,2)'");
  EXPECT_EQ(literal.exit_code, 2);
  EXPECT_NE(literal.err.find("@(1,2)"), std::string::npos) << literal.err;
  EXPECT_EQ(literal.err.find("@@"), std::string::npos) << literal.err;
  // A missing file is an I/O error naming the file and the parameter.
  auto missing = run_cli("perm order " + shell_quote("@" + (dir.path() / "nope").string()));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("cannot read"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("perm: "), std::string::npos) << missing.err;
  auto empty_name = run_cli("perm order @");
  EXPECT_EQ(empty_name.exit_code, 2);
  // Standard input is read once.
  auto twice = run_cli("perm product - -", "(1,2)");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("standard input"), std::string::npos) << twice.err;
  // More than MAX_INPUT_FILE_BYTES (64 MiB) is refused as over a limit.
  auto endless = run_cli("perm order @/dev/zero");
  EXPECT_EQ(endless.exit_code, 3) << endless.err;
  EXPECT_NE(endless.err.find("larger than 64 MiB"), std::string::npos) << endless.err;
  // An '@' after the first character is not a file reference.
  auto plain = run_cli("perm order '(1,2)@'");
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_EQ(plain.err.find("cannot read"), std::string::npos) << plain.err;
  EXPECT_NE(plain.err.find("(1,2)@"), std::string::npos) << plain.err;
}

// --- bytes from the input never reach the terminal raw ----------------------------------------

TEST(CliContract, ControlCharactersInErrorsAreEscaped) {
  // A definition file whose name holds ESC [ 3 1 m (a colour change) and BEL.
  auto missing = run_cli("def info " + shell_quote("/nonexistent/\x1b[31mred\x07.tws"));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_FALSE(has_control_bytes(missing.err)) << missing.err;
  EXPECT_NE(missing.err.find("\\x1b[31mred\\x07.tws"), std::string::npos) << missing.err;
  // A bad permutation with a carriage return and ESC.
  auto bad = run_cli("perm order " + shell_quote("(1,2\r\x1b[2J)"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_FALSE(has_control_bytes(bad.err)) << bad.err;
  EXPECT_NE(bad.err.find("unexpected '\\x1b'"), std::string::npos) << bad.err;
  // CLI11's own messages (an unknown option) too.
  auto option = run_cli("perm order " + shell_quote("--\x1b]0;title\x07") + " '(1,2)'");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_FALSE(has_control_bytes(option.err)) << option.err;
}

const std::string MINI_DEF = "Name NAME\nSet C 3 1\nSolved\nC\n1 2 3\nEnd\nMove X\nC\n2 3 1\nEnd\n";

// A definition file whose name holds a control character or invalid UTF-8 is refused at the
// name's line and column (the reader's rule), and the message shows the bytes escaped: nothing
// reaches the terminal raw, and with --json stdout stays empty (never a half JSON object or an
// exception of the JSON library).
TEST(CliContract, ControlCharactersInADefinitionFileAreRefusedEscaped) {
  TempDir dir;
  std::string text = MINI_DEF;
  text.replace(text.find("NAME"), 4, "evil\x1b[8mhidden");
  const std::string path = dir.file("evil.tws", text);
  for (const std::string json : {"", " --json"}) {
    auto info = run_cli("def info " + shell_quote(path) + json);
    EXPECT_EQ(info.exit_code, 2) << info.err;
    EXPECT_TRUE(info.out.empty()) << info.out;
    EXPECT_FALSE(has_control_bytes(info.err)) << info.err;
    EXPECT_NE(info.err.find("evil.tws:1:10"), std::string::npos) << info.err;
    EXPECT_NE(info.err.find("evil\\x1B[8mhidden"), std::string::npos) << info.err;
  }
}

TEST(CliContract, InvalidUtf8InADefinitionFileGivesCleanOutput) {
  TempDir dir;
  std::string text = MINI_DEF;
  text.replace(text.find("NAME"), 4, "bad\xff\xfe");
  const std::string path = dir.file("latin.tws", text);
  auto json = run_cli("def info " + shell_quote(path) + " --json");
  EXPECT_EQ(json.exit_code, 2) << json.err;
  EXPECT_TRUE(json.out.empty()) << json.out;
  EXPECT_EQ(json.err.find("internal error"), std::string::npos) << json.err;
  EXPECT_NE(json.err.find("bad\\xFF\\xFE"), std::string::npos) << json.err;
  EXPECT_NE(json.err.find("not valid UTF-8"), std::string::npos) << json.err;
  // A bad move name with invalid UTF-8 in a valid file: a clean error (exit 2), text escaped.
  const std::string good = dir.file("good.tws", MINI_DEF);
  auto move =
      run_cli("def apply " + shell_quote(good) + " --moves " + shell_quote("X\xc3") + " --json");
  EXPECT_EQ(move.exit_code, 2) << move.err;
  EXPECT_TRUE(move.out.empty());
  EXPECT_EQ(move.err.find('\xc3'), std::string::npos) << move.err;
  EXPECT_TRUE(move.err.find("\\xc3") != std::string::npos ||
              move.err.find("\\xC3") != std::string::npos)
      << move.err;
}

TEST(CliContract, LibraryExceptionsBecomeErrors) {
  // A list longer than memory can hold: over a limit (exit 3), never "internal error".
  auto huge = run_cli("group elements --limit 18446744073709551615 '(1,2)'");
  EXPECT_NE(huge.exit_code, 1) << huge.err;
  EXPECT_EQ(huge.err.find("internal error"), std::string::npos) << huge.err;
}

TEST(CliContract, BigIntegersAreDecimalWhateverTheirZeros) {
  // Found by fuzz_registry: GMP's default base read "010" as octal 8 (a wrong power, silently)
  // and refused "09" and "+5" with an internal error. 10 = 1 (mod 3), 9 = 0, 5 = 2.
  EXPECT_EQ(run_cli("perm power '(1,2,3)' 010").out, "(1,2,3)\n");
  EXPECT_EQ(run_cli("perm power '(1,2,3)' 09").out, "()\n");
  EXPECT_EQ(run_cli("perm power '(1,2,3)' +5").out, "(1,3,2)\n");
  EXPECT_EQ(run_cli("perm power '(1,2,3)' -- -010").out, "(1,3,2)\n");
  auto zeros = run_cli("perm power '(1,2,3)' 0000000000000000000000000000000013944679594242921169");
  EXPECT_EQ(zeros.exit_code, 0) << zeros.err;
  EXPECT_EQ(zeros.out, "(1,2,3)\n");  // 13944679594242921169 = 1 (mod 3)
}

// --- global limits ----------------------------------------------------------------------------

TEST(CliContract, TimeLimitThatMeansNothingIsRefused) {
  for (const std::string& limit : {"0", "nan", "inf", "-1", "-0.5", "1e999"}) {
    auto run = run_cli("--time-limit=" + limit + " perm order '(1,2)'");
    EXPECT_EQ(run.exit_code, 2) << limit << ": " << run.err;
    EXPECT_TRUE(run.out.empty()) << limit;
    EXPECT_NE(run.err.find("time-limit"), std::string::npos) << limit << ": " << run.err;
  }
  auto fine = run_cli("--time-limit 0.5 perm order '(1,2)'");
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
  EXPECT_EQ(fine.out, "2\n");
}

TEST(CliContract, MemoryOptionParsesAndRefusesNonsense) {
  auto fine = run_cli("--memory 1 perm order '(1,2,3)'");
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
  EXPECT_EQ(fine.out, "3\n");
  for (const std::string& mb : {"0", "-1", "x", "1.5", "18446744073709551615"}) {
    auto run = run_cli("--memory=" + mb + " perm order '(1,2)'");
    EXPECT_EQ(run.exit_code, 2) << mb << ": " << run.err;
    EXPECT_TRUE(run.out.empty()) << mb;
    EXPECT_NE(run.err.find("memory"), std::string::npos) << mb << ": " << run.err;
  }
}

// The default budget is 3/4 of the memory the process can really have: under `ulimit -v` (an
// address-space limit, as a cgroup's would be) a command that needs more is refused in advance
// with that budget, never an "out of memory" half-way (issue 39).
TEST(CliContract, DefaultMemoryBudgetFollowsTheProcesssLimit) {
  // 1,500,000 KB of address space: a budget of 3/4 of it, 1.2 GB.
  auto limited = run_cli_env("ulimit -v 1500000 &&", "sliding bfs 4x4");
  EXPECT_EQ(limited.exit_code, 3) << limited.err;
  EXPECT_NE(limited.err.find("memory budget of 1.2 GB"), std::string::npos) << limited.err;
  // A cheap command still runs in that address space.
  auto cheap = run_cli_env("ulimit -v 1500000 &&", "perm order '(1,2,3)'");
  EXPECT_EQ(cheap.exit_code, 0) << cheap.err;
  EXPECT_EQ(cheap.out, "3\n");
}

// One argument style (issue 38): in every family the size, the moves and the disks are options,
// and every command's --help says so; the former positional forms are still read, with a note,
// and give the same answer.
TEST(CliContract, SizeMovesAndDisksAreOptionsInEveryFamily) {
  const api::Registry registry = api::make_registry();
  std::size_t checked = 0;
  for (const api::Command& c : registry.commands()) {
    for (const api::Param& p : c.params) {
      if (p.name != "size" && p.name != "moves" && p.name != "disks") continue;
      ++checked;
      EXPECT_FALSE(p.positional) << c.family << " " << c.verb << " " << p.name;
      auto help = run_cli(c.family + " " + c.verb + " --help");
      EXPECT_EQ(help.exit_code, 0) << c.family << " " << c.verb << help.err;
      EXPECT_NE(help.out.find("--" + p.name), std::string::npos)
          << c.family << " " << c.verb << ":\n"
          << help.out;
    }
  }
  EXPECT_GE(checked, 20u);
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"loopover random 3x5 --seed 4", "loopover random --size 3x5 --seed 4"},
      {"loopover group 3x3", "loopover group --size 3x3"},
      {"sliding apply '1 2 3 4 5 6 7 0 8' 'L'", "sliding apply '1 2 3 4 5 6 7 0 8' --moves L"},
      {"cube apply \"R U R' U'\"", "cube apply --moves \"R U R' U'\""},
      {"hanoi solve 3", "hanoi solve --disks 3"},
  };
  for (const auto& [former, now] : pairs) {
    auto a = run_cli(former);
    auto b = run_cli(now);
    EXPECT_EQ(a.exit_code, 0) << former << ": " << a.err;
    EXPECT_EQ(b.exit_code, 0) << now << ": " << b.err;
    EXPECT_EQ(a.out, b.out) << former;
    EXPECT_NE(a.err.find("note: give the"), std::string::npos) << former << ": " << a.err;
    EXPECT_EQ(b.err, "") << now;
    EXPECT_EQ(run_cli("-q " + former).err, "") << "--quiet hides the note";
  }
}

}  // namespace cli_contract_test
}  // namespace permuzzle
