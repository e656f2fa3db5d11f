// `bench groups`: the group core on the Rubik's cube group, timed and checked.
// Targets (2-core machine): cube order from scratch <= 5 ms; membership <= 2 us per test.
// A wrong order, a group element refused or a word that does not multiply back is an Internal
// error (exit 1); a missed time target is reported in the output.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>

#include "common.hpp"
#include "group_backtrack.hpp"
#include "group_structure_bench.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/examples.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::api {

namespace {

constexpr double ORDER_TARGET_MS = 5.0;
constexpr double MEMBERSHIP_TARGET_US = 2.0;
constexpr int MEMBERSHIP_PAIRS = 5000;  // random elements and random permutations, each
// Large groups (issue 14): order from scratch plus a few membership tests, each <= 2 s.
constexpr double LARGE_TARGET_MS = 2000.0;
constexpr int LARGE_MEMBERSHIP_TESTS = 10;

Perm long_cycle(std::size_t n) {  // (1,2,...,n)
  std::vector<Point> images(n);
  for (std::size_t i = 0; i < n; ++i) images[i] = static_cast<Point>((i + 1) % n);
  return *Perm::from_images(std::move(images));
}

Perm random_perm(Rng& rng, std::size_t n, int parity) {  // parity 0: any, 1: even
  std::vector<Point> images(n);
  std::iota(images.begin(), images.end(), Point{0});
  rng.shuffle(images.begin(), images.end());
  Perm p = *Perm::from_images(std::move(images));
  if (parity == 1 && p.sign() == -1) p = p * *Perm::from_cycles({{1, 2}});
  return p;
}

struct LargeCase {
  std::string name;
  std::vector<Perm> generators;
  mpz_class expected;
};

std::vector<LargeCase> large_cases() {
  Rng rng(14);
  auto fact = [](unsigned long n) {
    mpz_class f;
    mpz_fac_ui(f.get_mpz_t(), n);
    return f;
  };
  std::vector<LargeCase> cases;
  cases.push_back({"S1000 (2 random generators)",
                   {random_perm(rng, 1000, 0), random_perm(rng, 1000, 0)},
                   fact(1000)});
  // Make sure the first pair is not all even (then it would be A1000).
  if (cases[0].generators[0].sign() == 1 && cases[0].generators[1].sign() == 1) {
    cases[0].generators[0] = cases[0].generators[0] * *Perm::from_cycles({{1, 2}});
  }
  cases.push_back({"A1000 (2 random even generators)",
                   {random_perm(rng, 1000, 1), random_perm(rng, 1000, 1)},
                   fact(1000) / 2});
  cases.push_back({"C20000 (one 20000-cycle)", {long_cycle(20000)}, mpz_class(20000)});
  cases.push_back({"S20001 ((1,...,20001), (1,2))",
                   {long_cycle(20001), *Perm::from_cycles({{1, 2}})},
                   fact(20001)});
  cases.push_back({"PSL(2,1031) on 1032 points", psl2_generators(1031),
                   mpz_class(1031) * (1031 * 1031 - 1) / 2});
  return cases;
}

long peak_rss_mb() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Result<Output> bench_groups(const Request& q, Session& s) {
  const std::uint64_t repeats = q.unsigned_integer("repeats");
  const std::vector<Perm> gens = cube::gap_generators();
  const std::vector<std::string> names = {"U", "L", "F", "R", "B", "D"};
  const mpz_class expected("43252003274489856000");

  // Step 1. Order from scratch (median over repetitions), checked against the known order.
  s.run.report({"bench groups", 0, 4, "cube order from scratch"});
  std::vector<double> order_ms;
  mpz_class order;
  for (std::uint64_t r = 0; r < repeats; ++r) {
    if (s.run.should_stop()) return s.run.stop_error();
    Stopwatch clock;
    auto g = PermGroup::from_generators(gens, names);
    if (!g) return g.error();
    order = g->order();
    order_ms.push_back(clock.seconds() * 1e3);
  }
  if (order != expected) return check_failed("cube order came out as " + order.get_str());
  auto built = PermGroup::from_generators(gens, names);
  if (!built) return built.error();
  const PermGroup& cube = *built;

  // Step 2. 10,000 membership tests: 5,000 random elements, 5,000 random permutations.
  s.run.report({"bench groups", 1, 4, "10,000 membership tests"});
  Rng rng(2026);
  std::vector<Perm> tests;
  std::vector<Point> images(48);
  for (int i = 0; i < MEMBERSHIP_PAIRS; ++i) {
    tests.push_back(cube.random_element(rng).extended(48));
    std::iota(images.begin(), images.end(), Point{0});
    rng.shuffle(images.begin(), images.end());
    tests.push_back(*Perm::from_images(images));
  }
  std::vector<double> member_us;
  int members = 0;
  for (std::uint64_t r = 0; r < repeats; ++r) {
    if (s.run.should_stop()) return s.run.stop_error();
    members = 0;
    Stopwatch clock;
    for (const Perm& x : tests) members += cube.contains(x);
    member_us.push_back(clock.seconds() * 1e6 / static_cast<double>(tests.size()));
  }
  if (members < MEMBERSHIP_PAIRS) {
    return check_failed("a cube group element failed the membership test");
  }

  // Step 3. One word-problem call on a fresh group (builds the short-word chain), then
  // calls on the built chain.
  s.run.report({"bench groups", 2, 4, "word problem"});
  Perm target = cube.random_element(rng);
  Stopwatch first_clock;
  auto w = cube.word(target);
  const double word_first_ms = first_clock.seconds() * 1e3;
  if (!w || cube.evaluate(*w) != target) return check_failed("word problem failed");
  std::vector<double> word_ms;
  std::size_t total_length = 0;
  for (std::uint64_t r = 0; r < repeats; ++r) {
    if (s.run.should_stop()) return s.run.stop_error();
    Perm x = cube.random_element(rng);
    Stopwatch clock;
    auto wx = cube.word(x);
    word_ms.push_back(clock.seconds() * 1e3);
    if (!wx || cube.evaluate(*wx) != x) return check_failed("word problem failed");
    total_length += wx->size();
  }

  // Step 4. Large groups: order from scratch (median of up to 5 runs), checked against the
  // formula, then membership of random elements and of one non-member.
  s.run.report({"bench groups", 3, 4, "large groups"});
  nlohmann::json large = nlohmann::json::array();
  std::string large_text;
  bool large_ok = true;
  for (const LargeCase& c : large_cases()) {
    std::vector<double> ms;
    std::optional<PermGroup> g;
    for (std::uint64_t r = 0; r < std::min<std::uint64_t>(repeats, 5); ++r) {
      SchreierSimsOptions options;
      options.randomized = true;
      options.run = &s.run;
      Stopwatch clock;
      auto built = PermGroup::from_generators(c.generators, {}, options);
      if (!built) return built.error();
      ms.push_back(clock.seconds() * 1e3);
      g = std::move(*built);
    }
    if (g->order() != c.expected) return check_failed(c.name + ": wrong order");
    Rng member_rng(99);
    Stopwatch member_clock;
    for (int i = 0; i < LARGE_MEMBERSHIP_TESTS; ++i) {
      if (!g->contains(g->random_element(member_rng))) {
        return check_failed(c.name + ": a random element was refused");
      }
    }
    const double member_ms = member_clock.seconds() * 1e3 / LARGE_MEMBERSHIP_TESTS;
    const double med = median(ms);
    large_ok = large_ok && med <= LARGE_TARGET_MS;
    std::string digits = std::to_string(c.expected.get_str().size());
    large_text += fmt::format(
        "  {:34} {:9.3f} ms   order ({} digits) checked, random element "
        "+ membership {:.3f} ms {}\n",
        c.name, med, digits, member_ms, med <= LARGE_TARGET_MS ? "ok" : "MISSED");
    large.push_back({{"name", c.name},
                     {"order_ms", med},
                     {"order_digits", c.expected.get_str().size()},
                     {"random_and_membership_ms", member_ms},
                     {"degree", g->degree()}});
  }
  // Step 5. Backtrack searches beside GAP (group_backtrack_bench.cpp).
  s.run.report({"bench groups", 4, 6, "backtrack searches"});
  auto backtrack = bench_backtrack(repeats, s);
  if (!backtrack) return backtrack.error();
  // Step 5. Structure: classes, names, blocks (group_structure_bench.cpp).
  s.run.report({"bench groups", 5, 6, "structure"});
  auto structure = bench_group_structure(repeats, s.run);
  if (!structure) return structure.error();
  const long rss = peak_rss_mb();

  const double order_med = median(order_ms), member_med = median(member_us);
  const double word_med = median(word_ms);
  const double avg_len = static_cast<double>(total_length) / static_cast<double>(repeats);
  const bool ok = order_med <= ORDER_TARGET_MS && member_med <= MEMBERSHIP_TARGET_US;
  Output out;
  out.text = fmt::format(
      "Rubik's cube group (6 generators, 48 points), median of {} runs:\n"
      "  order from scratch   {:8.3f} ms   (target <= {} ms) {}   order {}\n"
      "  membership           {:8.3f} us   per test, 10,000 tests (target <= {} us) {}\n"
      "  word problem         {:8.3f} ms   first call (builds the word chain), length {}\n"
      "                       {:8.3f} ms   per call afterwards, average length {:.0f}, "
      "all verified\n",
      repeats, order_med, ORDER_TARGET_MS, order_med <= ORDER_TARGET_MS ? "ok" : "MISSED",
      order.get_str(), member_med, MEMBERSHIP_TARGET_US,
      member_med <= MEMBERSHIP_TARGET_US ? "ok" : "MISSED", word_first_ms, w->size(), word_med,
      avg_len);
  out.text += fmt::format("Large groups (target <= {} ms each, peak memory {} MB):\n{}",
                          LARGE_TARGET_MS, rss, large_text);
  out.text += backtrack->text;
  out.text += structure->text;
  out.json = {{"cube_order", order.get_str()},
              {"structure", structure->json},
              {"structure_targets_met", structure->targets_met},
              {"order_ms", order_med},
              {"order_target_ms", ORDER_TARGET_MS},
              {"membership_us", member_med},
              {"membership_target_us", MEMBERSHIP_TARGET_US},
              {"membership_tests", tests.size()},
              {"word_first_call_ms", word_first_ms},
              {"word_first_length", w->size()},
              {"word_ms", word_med},
              {"word_average_length", avg_len},
              {"repeats", repeats},
              {"targets_met", ok},
              {"large", large},
              {"large_target_ms", LARGE_TARGET_MS},
              {"large_targets_met", large_ok},
              {"peak_rss_mb", rss},
              {"backtrack", backtrack->json},
              {"backtrack_at_most_gap", backtrack->targets_met}};
  return out;
}

}  // namespace

void register_group_bench(Registry& r) {
  Command c{
      "bench",
      "groups",
      "Rubik's cube group: order from scratch, 10,000 membership tests, word problem; large "
      "groups (S1000, A1000, a 20000-cycle, S20001, PSL(2,1031)): order and membership; backtrack "
      "searches (centre, centralizer, normalizers, derived subgroup) beside GAP's times",
      {with_range(
          option("repeats", ParamType::Unsigned, "Timed repetitions per measurement (median)", 21),
          1, 100000)},
      bench_groups};
  c.long_running = true;
  c.hard_example = {{"repeats", 100000}};
  c.invalid_examples = {{{"repeats", 0}}, {{"repeats", 100001}}};
  r.add(std::move(c));
}

}  // namespace permuzzle::api
