// The contract of issue 22 for the perm, group, hanoi, binary and fifteen families and their
// benchmarks: time limits and cancellation honoured inside enumerations, Schreier–Sims and
// whole-graph searches; memory estimated before allocating and refused over the budget; outputs
// that grow with an input number bounded; conformance fields of every command; list notation.
#include <gtest/gtest.h>

#include <chrono>
#include <stop_token>
#include <thread>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/perm.hpp"
#include "permuzzle/group/cayley.hpp"
#include "permuzzle/group/operations.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/hanoi/graph.hpp"

namespace permuzzle {
namespace group_contract_test {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

const std::set<std::string> FAMILIES = {"perm", "group", "hanoi", "binary", "fifteen"};
const std::set<std::string> BENCHES = {"groups", "words", "binary", "hanoi"};

bool mine(const api::Command& c) {
  return FAMILIES.count(c.family) || (c.family == "bench" && BENCHES.count(c.verb));
}

struct Call {
  api::Registry registry = api::make_registry();
  TableStore store;
  Result<api::Output> run(const std::string& family, const std::string& verb,
                          const nlohmann::json& params, RunContext run = RunContext{}) {
    api::Session session{store, std::move(run), api::default_data_dir()};
    return registry.call(family, verb, params, session);
  }
};

// C2 wr S_m on 2m points: Schreier–Sims far longer than a second for large m.
std::vector<std::string> wreath(std::size_t m) {
  std::string odd = "(", even = "(";
  for (std::size_t i = 0; i < m; ++i) {
    odd += (i ? "," : "") + std::to_string(2 * i + 1);
    even += (i ? "," : "") + std::to_string(2 * i + 2);
  }
  return {odd + ")" + even + ")", "(1,3)(2,4)", "(1,2)"};
}

TEST(GroupContract, EveryCommandHasItsConformanceFields) {
  api::Registry r = api::make_registry();
  std::size_t seen = 0;
  for (const api::Command& c : r.commands()) {
    if (!mine(c)) continue;
    ++seen;
    EXPECT_FALSE(c.invalid_examples.empty()) << c.family << " " << c.verb;
    if (c.cost == api::Cost::Expensive) {
      EXPECT_TRUE(c.hard_example.is_object()) << c.family << " " << c.verb;
    }
    if (c.family == "perm") EXPECT_EQ(c.cost, api::Cost::Cheap) << c.verb;
  }
  EXPECT_GE(seen, 8u + 20u + 3u + 3u + 2u + 4u);
}

TEST(GroupContract, InvalidExamplesAreRefusedAsInvalidInput) {
  Call call;
  for (const api::Command& c : call.registry.commands()) {
    if (!mine(c)) continue;
    for (const auto& params : c.invalid_examples) {
      auto out = call.run(c.family, c.verb, params);
      ASSERT_FALSE(out.ok()) << c.family << " " << c.verb << " " << params.dump();
      EXPECT_EQ(out.error().kind, ErrorKind::InvalidInput)
          << c.family << " " << c.verb << " " << params.dump() << ": " << out.error().message;
    }
  }
}

// Item 1: `group elements --limit 2^64-1` was "internal error: vector::reserve". The order is
// compared exactly, the list sized by the order, and a group over the budget refused at once.
TEST(GroupContract, ElementsWithTheLargestLimitAnswerOrRefuseClearly) {
  Call call;
  auto small = call.run(
      "group", "elements",
      {{"generators", {"(1,2,3)", "(1,2)"}}, {"limit", std::numeric_limits<std::uint64_t>::max()}});
  ASSERT_TRUE(small.ok()) << small.error().message;
  EXPECT_EQ(small->json["elements"].size(), 6u);
  EXPECT_EQ(small->json["elements"][0], "()");

  // S_20 has 2.4e18 elements: refused by the memory check, naming the estimate and budget.
  const auto t0 = Clock::now();
  auto big =
      call.run("group", "elements",
               {{"generators", {"(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20)", "(1,2)"}},
                {"limit", std::numeric_limits<std::uint64_t>::max()}},
               RunContext{}.with_memory_budget(std::uint64_t(256) << 20));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(big.error().message.find("2432902008176640000 elements"), std::string::npos)
      << big.error().message;
  EXPECT_NE(big.error().message.find("memory budget"), std::string::npos) << big.error().message;
  EXPECT_LT(seconds_since(t0), 5.0);

  // Without any budget it is still a clear LimitExceeded, not an exception.
  auto unbudgeted =
      call.run("group", "elements",
               {{"generators", {"(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20)", "(1,2)"}},
                {"limit", std::numeric_limits<std::uint64_t>::max()}});
  ASSERT_FALSE(unbudgeted.ok());
  EXPECT_EQ(unbudgeted.error().kind, ErrorKind::LimitExceeded);
  EXPECT_EQ(unbudgeted.error().message.find("internal"), std::string::npos);
}

// Item 1: the enumeration of a group within the limit but too large to finish in time stops
// at the deadline (S_10 has 3,628,800 elements; the listing takes seconds).
TEST(GroupContract, ElementsStopAtTheDeadline) {
  Call call;
  const auto t0 = Clock::now();
  auto out = call.run("group", "elements",
                      {{"generators", {"(1,2,3,4,5,6,7,8,9,10)", "(1,2)"}}, {"limit", 10000000}},
                      RunContext{}.with_time_limit(std::chrono::milliseconds(200)));
  const double took = seconds_since(t0);
  if (out.ok()) {
    // A fast machine may list S_10 in 0.2 s: then the answer must be complete.
    EXPECT_EQ(out->json["elements"].size(), 3628800u);
  } else {
    EXPECT_EQ(out.error().kind, ErrorKind::LimitExceeded) << out.error().message;
    EXPECT_LT(took, 0.2 + 1.5) << "generous slack for a shared machine";
  }
}

// Item 3: Schreier–Sims itself honours the deadline and the cancellation (the wreath product
// C2 wr S_3000 takes far longer than a second).
TEST(GroupContract, SchreierSimsStopsAtTheDeadlineAndOnCancellation) {
  std::vector<Perm> gens;
  for (const auto& text : wreath(3000)) gens.push_back(*Perm::parse(text));
  RunContext limited = RunContext{}.with_time_limit(std::chrono::milliseconds(300));
  SchreierSimsOptions options;
  options.randomized = true;
  options.run = &limited;
  auto t0 = Clock::now();
  auto g = PermGroup::from_generators(gens, {}, options);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().kind, ErrorKind::LimitExceeded) << g.error().message;
  EXPECT_LT(seconds_since(t0), 0.3 + 1.5);

  std::stop_source source;
  RunContext cancellable = RunContext{}.with_stop_token(source.get_token());
  options.run = &cancellable;
  std::jthread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    source.request_stop();
  });
  t0 = Clock::now();
  auto c = PermGroup::from_generators(gens, {}, options);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().kind, ErrorKind::Cancelled) << c.error().message;
  EXPECT_LT(seconds_since(t0), 0.3 + 1.5);
}

// Item 1: the chain's tables stay within the run's memory budget.
TEST(GroupContract, SchreierSimsTablesStayWithinTheBudget) {
  std::vector<Perm> gens;
  for (const auto& text : wreath(3000)) gens.push_back(*Perm::parse(text));
  RunContext small = RunContext{}.with_memory_budget(std::uint64_t(8) << 20);
  SchreierSimsOptions options;
  options.randomized = true;
  options.run = &small;
  auto g = PermGroup::from_generators(gens, {}, options);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(g.error().message.find("memory budget"), std::string::npos) << g.error().message;
  // The same group's chain fits without the budget when it is small enough: C2 wr S_4.
  std::vector<Perm> small_gens;
  for (const auto& text : wreath(4)) small_gens.push_back(*Perm::parse(text));
  auto w = PermGroup::from_generators(small_gens, {}, options);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->order(), 16 * 24);  // 2^4 * 4!
}

// Item 1: Cayley tables, coset listings and conjugacy searches refuse what is over the budget
// before they fill it, and their answers are unchanged below it.
TEST(GroupContract, EnumerationsRefuseOverTheMemoryBudget) {
  auto s6 = *PermGroup::from_generators({*Perm::parse("(1,2,3,4,5,6)"), *Perm::parse("(1,2)")});
  RunContext tiny = RunContext{}.with_memory_budget(std::uint64_t(1) << 20);
  auto table = cayley_table(s6, 1000, &tiny);  // 720 x 720 x 4 bytes > 1 MB
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(table.error().message.find("Cayley table"), std::string::npos);
  RunContext roomy = RunContext{}.with_memory_budget(std::uint64_t(64) << 20);
  auto ok = cayley_table(s6, 1000, &roomy);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->product.size(), 720u);
  EXPECT_EQ(ok->product[0][5], 5u);  // the identity's row is the element order

  auto graph = cayley_graph(s6, {}, {}, true, 1000, &tiny);
  ASSERT_TRUE(graph.ok());  // 720 vertices, 1440 edges: well under 1 MB
  EXPECT_EQ(graph->edges.size(), 1440u);

  auto elements = s6.elements(1000, &tiny);
  ASSERT_TRUE(elements.ok());
  EXPECT_EQ(elements->size(), 720u);
}

// Item 2: the Hanoi sequence is estimated before it is built; over the budget the answer
// says how to get the length alone, which --length-only then gives.
TEST(GroupContract, HanoiSequenceIsBoundedByTheMemoryBudget) {
  Call call;
  const RunContext budget = RunContext{}.with_memory_budget(std::uint64_t(64) << 20);
  const auto t0 = Clock::now();
  auto refused = call.run("hanoi", "solve", {{"disks", 22}, {"all", true}}, budget);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(refused.error().message.find("4194303-move sequence"), std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("--length-only"), std::string::npos);
  EXPECT_LT(seconds_since(t0), 1.0);
  auto length =
      call.run("hanoi", "solve", {{"disks", 22}, {"all", true}, {"length-only", true}}, budget);
  ASSERT_TRUE(length.ok()) << length.error().message;
  EXPECT_EQ(length->json["length"], 4194303u);
  EXPECT_EQ(length->json["moves_printed"], false);
  // A small instance still prints its moves, as before.
  auto small = call.run("hanoi", "solve", {{"disks", 3}}, budget);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->json["moves"].size(), 7u);
}

// Item 3: the Hanoi state graph's BFS stops at the deadline (4^12 positions take seconds).
TEST(GroupContract, HanoiGraphStopsAtTheDeadline) {
  RunContext limited = RunContext{}.with_time_limit(std::chrono::milliseconds(100));
  const auto t0 = Clock::now();
  auto g = hanoi::summarize_graph(hanoi::tower(12, 4, 0), 0, &limited);
  if (!g.ok()) {
    EXPECT_EQ(g.error().kind, ErrorKind::LimitExceeded);
    EXPECT_LT(seconds_since(t0), 0.1 + 1.5);
  } else {
    EXPECT_EQ(g->positions, 16777216u);
  }
  RunContext small = RunContext{}.with_memory_budget(std::uint64_t(64) << 20);
  auto refused = hanoi::summarize_graph(hanoi::tower(12, 4, 0), 0, &small);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("memory budget"), std::string::npos);
}

// Item 3: the binary puzzle's sequence construction stops at the deadline.
TEST(GroupContract, BinarySequenceStopsAtTheDeadline) {
  Call call;
  const auto t0 = Clock::now();
  auto out = call.run("binary", "random", {{"rows", 2000}, {"cols", 2000}},
                      RunContext{}.with_time_limit(std::chrono::milliseconds(300)));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().kind, ErrorKind::LimitExceeded) << out.error().message;
  EXPECT_LT(seconds_since(t0), 0.3 + 1.5);
}

// Item 3: `fifteen toroidal --check` returns the samples checked so far, marked incomplete.
TEST(GroupContract, ToroidalCheckReturnsWhatItCheckedWhenStopped) {
  Call call;
  auto out = call.run("fifteen", "toroidal", {{"check", 1000000}},
                      RunContext{}.with_time_limit(std::chrono::milliseconds(300)));
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_TRUE(out->stopped.has_value());
  EXPECT_EQ(out->stopped->kind, ErrorKind::LimitExceeded);
  EXPECT_EQ(out->json["complete"], false);
  EXPECT_LT(out->json["checked"].get<std::uint64_t>(), 1000000u);
  EXPECT_EQ(out->json["checked"], out->json["bijection_ok"]);
}

// Item 5: list notation wherever a permutation is taken.
TEST(GroupContract, ListNotationIsAcceptedEverywhere) {
  Call call;
  auto product = call.run("perm", "product", {{"perms", {"[2,3,1]", "(1,2)"}}});
  ASSERT_TRUE(product.ok()) << product.error().message;
  // [2,3,1] = (1,2,3); then (1,2): 1->2->1, 2->3, 3->1->2.
  EXPECT_EQ(product->json["product"], "(2,3)");
  auto order = call.run("group", "order", {{"generators", {"[2,3,4,1]", "[2,1]"}}});
  ASSERT_TRUE(order.ok()) << order.error().message;
  EXPECT_EQ(order->json["order"], "24");
  auto named = call.run("group", "order", {{"generators", {"a=[2,3,1]", "b=[2,1,3]"}}});
  ASSERT_TRUE(named.ok()) << named.error().message;
  EXPECT_EQ(named->json["order"], "6");
  auto sub = call.run("group", "index",
                      {{"generators", {"(1,2,3,4)", "(1,2)"}}, {"subgroup", {"[2,3,1]"}}});
  ASSERT_TRUE(sub.ok()) << sub.error().message;
  EXPECT_EQ(sub->json["index"], "8");
  auto member =
      call.run("group", "contains", {{"generators", {"(1,2,3)", "(1,2)"}}, {"element", "[3,1,2]"}});
  ASSERT_TRUE(member.ok());
  EXPECT_EQ(member->json["member"], true);
}

}  // namespace group_contract_test
}  // namespace permuzzle

namespace permuzzle {
namespace group_contract_test {

// The reported CLI defect: exit 1 "internal error: vector::reserve". Now the small group is
// listed (exit 0) and the huge one refused by the memory check (exit 3) with the estimate.
TEST(GroupContract, CliElementsWithTheLargestLimit) {
  auto small = test::run_cli("group elements --limit 18446744073709551615 '(1,2,3)' '(1,2)'");
  EXPECT_EQ(small.exit_code, 0) << small.err;
  EXPECT_EQ(small.out, "()\n(2,3)\n(1,2)\n(1,2,3)\n(1,3,2)\n(1,3)\n");
  auto big = test::run_cli(
      "--memory 64 group elements --limit 18446744073709551615 "
      "'(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20)' '(1,2)'");
  EXPECT_EQ(big.exit_code, 3) << big.err;
  EXPECT_NE(big.err.find("2432902008176640000 elements"), std::string::npos) << big.err;
  EXPECT_EQ(big.err.find("internal"), std::string::npos) << big.err;
}

}  // namespace group_contract_test
}  // namespace permuzzle
