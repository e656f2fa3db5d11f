// `bench groups`: the group core on the Rubik's cube group, timed and checked.
// Targets (2-core machine): cube order from scratch <= 5 ms; membership <= 2 us per test.
// A wrong order, a group element refused or a word that does not multiply back is an Internal
// error (exit 1); a missed time target is reported in the output.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>

#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::api {

namespace {

constexpr double ORDER_TARGET_MS = 5.0;
constexpr double MEMBERSHIP_TARGET_US = 2.0;
constexpr int MEMBERSHIP_PAIRS = 5000;  // random elements and random permutations, each

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Error check_failed(const std::string& what) {
  return make_error("check failed: " + what, {}, Error::NO_POSITION, ErrorKind::Internal);
}

Result<Output> bench_groups(const Request& q, Session& s) {
  const std::uint64_t repeats = q.unsigned_integer("repeats");
  const std::vector<Perm> gens = cube::gap_generators();
  const std::vector<std::string> names = {"U", "L", "F", "R", "B", "D"};
  const mpz_class expected("43252003274489856000");

  // Step 1. Order from scratch (median over repetitions), checked against the known order.
  s.run.report({"bench groups", 0, 3, "cube order from scratch"});
  std::vector<double> order_ms;
  mpz_class order;
  for (std::uint64_t r = 0; r < repeats; ++r) {
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
  s.run.report({"bench groups", 1, 3, "10,000 membership tests"});
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
  s.run.report({"bench groups", 2, 3, "word problem"});
  Perm target = cube.random_element(rng);
  Stopwatch first_clock;
  auto w = cube.word(target);
  const double word_first_ms = first_clock.seconds() * 1e3;
  if (!w || cube.evaluate(*w) != target) return check_failed("word problem failed");
  std::vector<double> word_ms;
  std::size_t total_length = 0;
  for (std::uint64_t r = 0; r < repeats; ++r) {
    Perm x = cube.random_element(rng);
    Stopwatch clock;
    auto wx = cube.word(x);
    word_ms.push_back(clock.seconds() * 1e3);
    if (!wx || cube.evaluate(*wx) != x) return check_failed("word problem failed");
    total_length += wx->size();
  }

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
  out.json = {{"cube_order", order.get_str()},
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
              {"targets_met", ok}};
  return out;
}

}  // namespace

void register_group_bench(Registry& r) {
  Command c{"bench",
            "groups",
            "Rubik's cube group: order from scratch, 10,000 membership tests, word problem",
            {with_range(option("repeats", ParamType::Unsigned,
                               "Timed repetitions per measurement (median)", 21),
                        1, 100000)},
            bench_groups};
  c.long_running = true;
  r.add(std::move(c));
}

}  // namespace permuzzle::api
