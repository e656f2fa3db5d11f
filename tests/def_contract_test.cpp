// The def commands under the one contract of issue 22: unreachable positions refused before any
// search (with the reason), limits and memory budgets honoured by the automaton, the pattern
// tables and the BFS (a stopped run answers with what it knew), definition files with a BOM,
// CR-only line ends, bad bytes and colliding power names.
//
// Facts from outside the code under test: reachability against a brute-force BFS and against
// Schreier–Sims membership (PermGroup::contains), the classical invariants of the 3x3x3 and of
// Loopover 3x3 (every move is a 3-cycle of tiles: only even permutations).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "cli_runner.hpp"
#include "def_test_data.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/solver.hpp"
#include "permuzzle/search/canonical.hpp"

namespace permuzzle::def {
namespace def_contract_test {

using test_data::data_file;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Definition load(const std::string& name) {
  auto d = parse_definition(read_text(data_file(name)), name);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().describe());
  return d.ok() ? std::move(*d) : Definition{};
}

struct Call {
  api::Registry registry = api::make_registry();
  TableStore store;
  Result<api::Output> operator()(const std::string& family, const std::string& verb,
                                 const nlohmann::json& params, RunContext run = RunContext{}) {
    api::Session session{store, std::move(run), api::default_data_dir()};
    return registry.call(family, verb, params, session);
  }
};

// --- Solvability first -----------------------------------------------------------------------

TEST(DefReachability, UnreachablePositionsAreRefusedWithTheReason) {
  Call call;
  // A broken check would search these until the generous limit: LimitExceeded, not Unsolvable.
  const RunContext limit = RunContext().with_time_limit(std::chrono::seconds(60));
  const std::string loopover = read_text(data_file("loopover-3x3.tws"));
  auto odd =
      call("def", "solve", {{"file", loopover}, {"state", "TILES 2 1 3 4 5 6 7 8 9"}}, limit);
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.error().kind, ErrorKind::Unsolvable) << odd.error().describe();
  EXPECT_NE(odd.error().message.find("odd permutation of TILES"), std::string::npos)
      << odd.error().message;

  const std::string cube = read_text(data_file("3x3x3.tws"));
  const std::string edges = "EDGES 1 2 3 4 5 6 7 8 9 10 11 12 0 0 0 0 0 0 0 0 0 0 0 0";
  auto twisted = call("def", "solve",
                      {{"file", cube},
                       {"state", "CORNERS 1 2 3 4 5 6 7 8 1 0 0 0 0 0 0 0 " + edges},
                       {"memory", 16}},
                      limit);
  ASSERT_FALSE(twisted.ok());
  EXPECT_EQ(twisted.error().kind, ErrorKind::Unsolvable) << twisted.error().describe();
  EXPECT_NE(twisted.error().message.find("CORNERS orientation (twist) sum is 1 mod 3"),
            std::string::npos)
      << twisted.error().message;

  auto swapped = call("def", "solve",
                      {{"file", cube},
                       {"state",
                        "CORNERS 1 2 3 4 5 6 7 8 0 0 0 0 0 0 0 0 "
                        "EDGES 2 1 3 4 5 6 7 8 9 10 11 12 0 0 0 0 0 0 0 0 0 0 0 0"},
                       {"memory", 16}},
                      limit);
  ASSERT_FALSE(swapped.ok());
  EXPECT_EQ(swapped.error().kind, ErrorKind::Unsolvable) << swapped.error().describe();
  EXPECT_NE(swapped.error().message.find("CORNERS and EDGES have different parities"),
            std::string::npos)
      << swapped.error().message;

  // `def apply --state` refuses the same start.
  auto applied = call("def", "apply",
                      {{"file", loopover}, {"state", "TILES 2 1 3 4 5 6 7 8 9"}, {"moves", "A"}});
  ASSERT_FALSE(applied.ok());
  EXPECT_EQ(applied.error().kind, ErrorKind::Unsolvable);

  // A reachable position is still solved, optimally (R U: two moves).
  auto fine = call("def", "solve", {{"file", cube}, {"moves", "R U"}, {"memory", 16}}, limit);
  ASSERT_TRUE(fine.ok()) << fine.error().describe();
  EXPECT_EQ(fine->json["solutions"][0]["moves"], (nlohmann::json{"U'", "R'"}));
  EXPECT_TRUE(fine->json["solutions"][0]["optimal"].get<bool>());
}

TEST(DefReachability, CliExitsTwoForAnOddLoopover) {
  auto r = test::run_cli("--quiet --time-limit 60 def solve " + data_file("loopover-3x3.tws") +
                         " --state " + test::shell_quote("TILES 1 2 3 4 5 6 7 9 8"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("odd permutation of TILES"), std::string::npos) << r.err;
}

// Every arrangement of a pattern with identical pieces, against a brute-force BFS.
TEST(DefReachability, IdenticalPiecesMatchBruteForce) {
  // Six slots, pieces 1 1 2 2 3 3, one move: the 6-cycle. Of the 90 arrangements only the six
  // rotations are reachable; no parity or orientation invariant tells them apart.
  auto d = parse_definition("Set P 6 1\nSolved\nP\n1 1 2 2 3 3\nEnd\nMove C\nP\n6 1 2 3 4 5\nEnd\n",
                            "c6");
  ASSERT_TRUE(d.ok()) << d.error().describe();
  auto g = build_group(*d);
  ASSERT_TRUE(g.ok());
  std::set<std::vector<std::uint8_t>> reachable;
  State s = full_solved(*d);
  for (int k = 0; k < 6; ++k) {
    reachable.insert(s.sets[0].perm);
    s = apply(*d, s, d->moves[0]);
  }
  std::vector<std::uint8_t> perm{0, 0, 1, 1, 2, 2};
  int reached = 0, total = 0;
  do {
    State st = full_solved(*d);
    st.sets[0].perm = perm;
    auto r = reachability(*d, *g, st);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_NE(r->verdict, Reachability::Verdict::Unknown);
    const bool want = reachable.count(perm) != 0;
    EXPECT_EQ(r->verdict == Reachability::Verdict::Reachable, want);
    reached += want;
    ++total;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_EQ(total, 90);
  EXPECT_EQ(reached, 6);
}

TEST(DefReachability, IgnoredOrientationsAndIdenticalPiecesMini) {
  // identical-mini: 1,296 positions by brute force, each one reachable.
  const Definition d = load("identical-mini.tws");
  auto g = build_group(d);
  ASSERT_TRUE(g.ok());
  std::set<std::string> seen;
  std::vector<State> queue{d.solved};
  auto key = [](const State& s) {
    std::string k;
    for (const auto& set : s.sets) {
      k.append(set.perm.begin(), set.perm.end());
      k.append(set.ori.begin(), set.ori.end());
    }
    return k;
  };
  seen.insert(key(d.solved));
  for (std::size_t q = 0; q < queue.size(); ++q) {
    for (const Move& m : d.moves) {
      State next = apply(d, queue[q], m);
      if (seen.insert(key(next)).second) queue.push_back(std::move(next));
    }
  }
  ASSERT_EQ(queue.size(), 1296u);
  for (const State& s : queue) {
    auto r = reachability(d, *g, s);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->verdict, Reachability::Verdict::Reachable);
  }
  // A tracked corner turned alone: reachable exactly when the brute force reached it.
  State twisted = d.solved;
  twisted.sets[0].ori[0] = 1;
  auto r = reachability(d, *g, twisted);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict == Reachability::Verdict::Reachable, seen.count(key(twisted)) != 0);
}

TEST(DefReachability, IdenticalTwistingPiecesMatchBruteForce) {
  // Corners 1 1 2 2 with three orientations, one twisting 4-cycle and one twisting 3-cycle:
  // every arrangement with every orientation (6 x 81 states) against a brute-force BFS.
  auto d = parse_definition(
      "Set C 4 3\nSolved\nC\n1 1 2 2\n0 0 0 0\nEnd\n"
      "Move X\nC\n2 3 4 1\n1 2 0 0\nEnd\nMove Y\nC\n1 3 4 2\n0 1 1 1\nEnd\n",
      "tw");
  ASSERT_TRUE(d.ok()) << d.error().describe();
  auto g = build_group(*d);
  ASSERT_TRUE(g.ok());
  std::set<State, bool (*)(const State&, const State&)> seen([](const State& a, const State& b) {
    return std::tie(a.sets[0].perm, a.sets[0].ori) < std::tie(b.sets[0].perm, b.sets[0].ori);
  });
  std::vector<State> queue{full_solved(*d)};
  seen.insert(queue[0]);
  for (std::size_t q = 0; q < queue.size(); ++q) {
    for (const Move& m : d->moves) {
      State next = apply(*d, queue[q], m);
      if (seen.insert(next).second) queue.push_back(std::move(next));
    }
  }
  std::vector<std::uint8_t> perm{0, 0, 1, 1};
  int reachable = 0, unreachable = 0;
  do {
    for (int code = 0; code < 81; ++code) {
      State st = full_solved(*d);
      st.sets[0].perm = perm;
      for (int i = 0, c = code; i < 4; ++i, c /= 3)
        st.sets[0].ori[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c % 3);
      auto r = reachability(*d, *g, st);
      ASSERT_TRUE(r.ok());
      ASSERT_NE(r->verdict, Reachability::Verdict::Unknown);
      const bool want = seen.count(st) != 0;
      EXPECT_EQ(r->verdict == Reachability::Verdict::Reachable, want);
      (want ? reachable : unreachable)++;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_EQ(static_cast<std::size_t>(reachable), queue.size());
  EXPECT_GT(unreachable, 0);
}

TEST(DefReachability, DistinctPiecesAgreeWithGroupMembership) {
  // Random arrangements and orientations of the 2x2x2 (fixed corner) and of the pyraminx:
  // reachable exactly when Schreier–Sims membership says the permutation is in the group.
  for (const char* file : {"2x2x2-fixed-corner.tws", "pyraminx.tws", "3x3x3.tws"}) {
    const Definition d = load(file);
    auto g = build_group(d);
    ASSERT_TRUE(g.ok());
    Rng rng(11);
    int yes = 0, no = 0;
    for (int i = 0; i < 200; ++i) {
      State s = full_solved(d);
      for (std::size_t k = 0; k < d.sets.size(); ++k) {
        rng.shuffle(s.sets[k].perm.begin(), s.sets[k].perm.end());
        for (auto& o : s.sets[k].ori) {
          o = static_cast<std::uint8_t>(
              rng.below(static_cast<std::uint64_t>(d.sets[k].orientations)));
        }
      }
      // Every other one from the group itself, so that both answers occur.
      if (i % 2 == 0) s = random_position(d, *g, rng);
      auto r = reachability(d, *g, s);
      ASSERT_TRUE(r.ok()) << r.error().describe();
      const bool member = g->contains(to_perm(d, s));
      ASSERT_NE(r->verdict, Reachability::Verdict::Unknown);
      EXPECT_EQ(r->verdict == Reachability::Verdict::Reachable, member) << file << " " << i;
      (member ? yes : no)++;
    }
    EXPECT_GT(yes, 50) << file;
    EXPECT_GT(no, 0) << file;
  }
}

// --- Limits ----------------------------------------------------------------------------------

// n disjoint transpositions: every family commutes with every other, so the automaton's states
// are all 2^n subsets.
std::vector<Perm> commuting_moves(int n) {
  std::vector<Perm> moves;
  for (int i = 0; i < n; ++i) {
    std::vector<Point> images(static_cast<std::size_t>(2 * n));
    for (std::size_t x = 0; x < images.size(); ++x) images[x] = static_cast<Point>(x);
    std::swap(images[static_cast<std::size_t>(2 * i)], images[static_cast<std::size_t>(2 * i + 1)]);
    moves.push_back(*Perm::from_images(images));
  }
  return moves;
}

TEST(CanonicalAutomatonLimits, StopsAtTheDeadlineAndRefusesOverTheBudget) {
  search::CanonicalOptions o;
  o.max_states = std::size_t(1) << 26;
  const auto moves = commuting_moves(40);
  const auto start = std::chrono::steady_clock::now();
  auto timed = search::CanonicalAutomaton::build(
      moves, o, RunContext().with_time_limit(std::chrono::milliseconds(300)));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(timed.ok());
  EXPECT_EQ(timed.error().kind, ErrorKind::LimitExceeded) << timed.error().describe();
  EXPECT_LT(seconds, 5.0);  // generous: the machine is shared

  auto budget = search::CanonicalAutomaton::build(
      moves, o, RunContext().with_memory_budget(std::uint64_t(1) << 20));
  ASSERT_FALSE(budget.ok());
  EXPECT_EQ(budget.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(budget.error().message.find("canonical-sequence automaton"), std::string::npos)
      << budget.error().message;

  std::stop_source stop;
  stop.request_stop();
  auto cancelled =
      search::CanonicalAutomaton::build(moves, o, RunContext().with_stop_token(stop.get_token()));
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error().kind, ErrorKind::Cancelled);

  // Without limits the same code still builds the small cases exactly: 2^10 states.
  auto small = search::CanonicalAutomaton::build(commuting_moves(10), o);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->states(), 1024);
}

TEST(DefLimits, StoppedSolveAnswersWithWhatItKnows) {
  // 4x4 Loopover with 1 MB of tables: IDA* needs minutes for a random position, the quick pass
  // milliseconds. Stopped after 5 s (2 s were not always enough for the quick pass on a loaded
  // machine running other tests): the quick pass's solution, "optimal": false, a proven lower
  // bound, and the stop error.
  Call call;
  State st = full_solved(samples::loopover(4, 4));
  Rng rng(3);
  rng.shuffle(st.sets[0].perm.begin(), st.sets[0].perm.end());
  std::string state = "TILES";
  for (auto v : st.sets[0].perm) state += " " + std::to_string(v + 1);
  const std::string text = read_text(data_file("loopover-4x4.tws"));
  auto r = call("def", "solve", {{"file", text}, {"state", state}, {"memory", 1}, {"threads", 1}},
                RunContext().with_time_limit(std::chrono::seconds(5)));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_TRUE(r->stopped.has_value());
  EXPECT_EQ(r->stopped->kind, ErrorKind::LimitExceeded);
  const auto& sol = r->json["solutions"][0];
  EXPECT_FALSE(sol["optimal"].get<bool>());
  const int lower = sol["lower_bound"].get<int>();
  EXPECT_GT(lower, 0);
  if (!sol["moves"].is_null()) EXPECT_GE(sol["length"].get<int>(), lower);
}

TEST(DefLimits, StoppedBfsReturnsItsPartialHistogram) {
  // 3x4 Loopover: 479,001,600 positions, far more than a second of BFS here.
  Call call;
  const std::string text = read_text(data_file("loopover-3x4.tws"));
  const auto start = std::chrono::steady_clock::now();
  auto r = call("def", "bfs", {{"file", text}, {"antipodes", 0}, {"symmetry", "none"}},
                RunContext().with_time_limit(std::chrono::seconds(3)));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 12.0);
  if (!r.ok()) {
    // Stopped before the first level was recorded (a very loaded machine): the plain error.
    EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded) << r.error().describe();
    return;
  }
  ASSERT_TRUE(r->stopped.has_value());
  EXPECT_EQ(r->stopped->kind, ErrorKind::LimitExceeded);
  EXPECT_FALSE(r->json["complete"].get<bool>());
  const auto& h = r->json["histogram"];
  ASSERT_GE(h.size(), 1u);
  EXPECT_EQ(h[0], 1);
  // HTM: 3 rows with 3 powers each, 4 columns with 2 each.
  if (h.size() >= 2) EXPECT_EQ(h[1], 17);
}

TEST(DefLimits, SolveTableBuildStopsAndMemoryIsBudgeted) {
  // The superflip on the 3x3x3 file with 64 MB of tables, 1 s: the table build (or the search,
  // when the tables exist) is stopped; with a 16 MB budget the plan and the automaton fit it.
  Call call;
  const std::string cube = read_text(data_file("3x3x3.tws"));
  const std::string superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
  const auto start = std::chrono::steady_clock::now();
  auto r = call("def", "solve", {{"file", cube}, {"moves", superflip}, {"memory", 64}},
                RunContext().with_time_limit(std::chrono::seconds(1)));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool stopped = r.ok() ? r->stopped.has_value() : r.error().kind == ErrorKind::LimitExceeded;
  EXPECT_TRUE(stopped) << (r.ok() ? r->json.dump() : r.error().describe());
  EXPECT_LT(seconds, 10.0);

  // A budget below what the planned tables need is refused before they are built.
  auto over = call("def", "solve", {{"file", cube}, {"moves", "R"}, {"memory", 64}},
                   RunContext().with_memory_budget(std::uint64_t(8) << 20));
  ASSERT_TRUE(over.ok()) << over.error().describe();  // --memory is capped by the budget
  EXPECT_EQ(over->json["solutions"][0]["length"], 1);
}

// --- Definition files ------------------------------------------------------------------------

TEST(DefReaderText, ByteOrderMarkAndOldMacLineEnds) {
  const std::string text = read_text(data_file("identical-mini.tws"));
  auto plain = parse_definition(text, "mini");
  ASSERT_TRUE(plain.ok());
  auto bom = parse_definition("\xEF\xBB\xBF" + text, "mini");
  ASSERT_TRUE(bom.ok()) << bom.error().describe();
  std::string cr = text;
  std::replace(cr.begin(), cr.end(), '\n', '\r');
  auto mac = parse_definition(cr, "mini");
  ASSERT_TRUE(mac.ok()) << mac.error().describe();
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  auto dos = parse_definition(crlf, "mini");
  ASSERT_TRUE(dos.ok()) << dos.error().describe();
  for (const auto* d : {&*bom, &*mac, &*dos}) {
    EXPECT_EQ(d->solved, plain->solved);
    ASSERT_EQ(d->moves.size(), plain->moves.size());
    for (std::size_t m = 0; m < d->moves.size(); ++m) {
      EXPECT_EQ(d->moves[m].name, plain->moves[m].name);
      EXPECT_EQ(d->moves[m].effect, plain->moves[m].effect);
    }
  }
  // Errors still point at the right line of a CR-only file.
  auto bad = parse_definition("Set A 2 1\rMove M\rA\r2 1 3\rEnd\r", "cr.tws");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("cr.tws:4:"), std::string::npos) << bad.error().message;
  // Through the API (the JSON path too): a BOM before a KPuzzle object.
  Call call;
  auto info = call("def", "info", {{"file", "\xEF\xBB\xBF" + text}});
  ASSERT_TRUE(info.ok()) << info.error().describe();
  EXPECT_EQ(info->json["positions"], "1296");
}

TEST(DefReaderText, BadBytesAreEscapedNeverRaw) {
  // A set name with a Latin-1 byte and one with a control character: clear errors, the bytes
  // written \xNN, the whole message valid UTF-8 (it is dumped as JSON without throwing).
  for (const std::string name : {std::string("CAF\xC9"), std::string("A\x1b[31mB")}) {
    auto r = parse_definition("Set " + name + " 2 1\nMove M\n" + name + "\n2 1\nEnd\n", "b.tws");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::InvalidInput);
    EXPECT_EQ(first_bad_byte(r.error().message), std::string::npos) << r.error().message;
    EXPECT_EQ(first_bad_byte(r.error().input), std::string::npos);
    EXPECT_NO_THROW((void)nlohmann::json(r.error().message).dump());
    EXPECT_NE(r.error().message.find(name[3] == '\xC9' ? "\\xC9" : "\\x1B"), std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("b.tws:1:"), std::string::npos) << r.error().message;
  }
  EXPECT_EQ(escape_bytes("ok \xE2\x9C\x93 \xff\x01"), "ok \xE2\x9C\x93 \\xFF\\x01");
  // KPuzzle JSON: a control character written as \u0001 in an orbit name.
  Call call;
  const std::string kpuzzle =
      R"({"orbits": [{"orbitName": "A\u0001", "numPieces": 2, "numOrientations": 1}],
          "defaultPattern": {"A\u0001": {"pieces": [0, 1], "orientation": [0, 0]}},
          "moves": {"M": {"A\u0001": {"permutation": [1, 0], "orientationDelta": [0, 0]}}}})";
  auto k = call("def", "info", {{"file", kpuzzle}});
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.error().kind, ErrorKind::InvalidInput);
  EXPECT_NE(k.error().message.find("'A\\x01'"), std::string::npos) << k.error().message;
  // Unknown move names from the user are escaped too (the CLI prints them).
  auto cli = test::run_cli("--json def apply " + data_file("2x2x2.tws") + " --moves " +
                           test::shell_quote("R \xff\x1b"));
  EXPECT_EQ(cli.exit_code, 2) << cli.err;
  EXPECT_EQ(cli.err.find('\x1b'), std::string::npos) << cli.err;
  EXPECT_EQ(cli.err.find('\xff'), std::string::npos) << cli.err;
}

TEST(DefReaderText, CollidingPowerNamesSayHowToRename) {
  // M1 (order 4) generates M1, M12, M1'; a move named M12 collides in either order.
  const std::string m1 = "Move M1\nX\n2 3 4 1\nEnd\n";
  const std::string m12 = "Move M12\nX\n2 1 3 4\nEnd\n";
  for (const std::string& body : {m1 + m12, m12 + m1}) {
    auto r = parse_definition("Set X 4 1\n" + body, "m.tws");
    ASSERT_FALSE(r.ok()) << body;
    EXPECT_EQ(r.error().kind, ErrorKind::InvalidInput);
    EXPECT_NE(r.error().message.find("M12"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("rename"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("_'"), std::string::npos) << r.error().message;
  }
  // M11 squared and M1 to the power 12 are both M112 (M1 of order 24 here).
  std::string cycle24;
  for (int i = 0; i < 24; ++i) cycle24 += std::to_string((i + 1) % 24 + 1) + " ";
  auto r = parse_definition("Set X 24 1\nMove M1\nX\n" + cycle24 +
                                "\nEnd\nMove M11\nX\n2 3 4 1 5 6 7 8 9 10 11 12 13 14 15 16 17 "
                                "18 19 20 21 22 23 24\nEnd\n",
                            "m.tws");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("M112"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("rename"), std::string::npos) << r.error().message;
  // The suggested rename works.
  auto renamed = parse_definition("Set X 4 1\n" + m1 + "Move M12_\nX\n2 1 3 4\nEnd\n", "m.tws");
  ASSERT_TRUE(renamed.ok()) << renamed.error().describe();
}

}  // namespace def_contract_test
}  // namespace permuzzle::def
