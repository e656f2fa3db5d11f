// `permuzzle bench groups`: the group core on the Rubik's cube group, timed and checked.
// Targets (2-core machine): cube order from scratch <= 5 ms; membership <= 2 us per test.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>

#include "cli.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::cli {

namespace {

constexpr double ORDER_TARGET_MS = 5.0;
constexpr double MEMBERSHIP_TARGET_US = 2.0;

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

void add_bench_groups(CLI::App& bench, Context& ctx) {
  auto* sub = bench.add_subcommand(
      "groups", "Rubik's cube group: order from scratch, 10,000 membership tests, word problem");
  auto repeats = std::make_shared<int>(21);
  sub->add_option("--repeats", *repeats, "Timed repetitions per measurement (median; default 21)")
      ->check(CLI::Range(1, 100000));
  set_action(ctx, sub, [&ctx, repeats]() -> Result<CommandOutput> {
    const std::vector<Perm> gens = cube::gap_generators();
    const mpz_class expected("43252003274489856000");

    // Step 1. Order from scratch (median over repetitions), checked against the known order.
    progress(ctx, "bench groups: cube order from scratch", true);
    std::vector<double> order_ms;
    mpz_class order;
    for (int r = 0; r < *repeats; ++r) {
      auto start = std::chrono::steady_clock::now();
      auto g = PermGroup::from_generators(gens, {"U", "L", "F", "R", "B", "D"});
      order = g->order();
      order_ms.push_back(ms_since(start));
    }
    if (order != expected) {
      return make_error("cube order came out as " + order.get_str(), {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    PermGroup cube = *PermGroup::from_generators(gens, {"U", "L", "F", "R", "B", "D"});

    // Step 2. 10,000 membership tests: 5,000 random elements, 5,000 random permutations.
    progress(ctx, "bench groups: 10,000 membership tests", true);
    Rng rng(2026);
    std::vector<Perm> tests;
    std::vector<Point> images(48);
    for (int i = 0; i < 5000; ++i) {
      tests.push_back(cube.random_element(rng).extended(48));
      std::iota(images.begin(), images.end(), Point{0});
      std::shuffle(images.begin(), images.end(), rng);
      tests.push_back(*Perm::from_images(images));
    }
    std::vector<double> member_us;
    int members = 0;
    for (int r = 0; r < *repeats; ++r) {
      members = 0;
      auto start = std::chrono::steady_clock::now();
      for (const Perm& x : tests) members += cube.contains(x);
      member_us.push_back(ms_since(start) * 1000.0 / static_cast<double>(tests.size()));
    }
    if (members < 5000) {
      return make_error("a cube group element failed the membership test", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }

    // Step 3. One word-problem call on a fresh group (builds the short-word chain), then
    // calls on the built chain.
    progress(ctx, "bench groups: word problem", true);
    Perm target = cube.random_element(rng);
    auto start = std::chrono::steady_clock::now();
    auto w = cube.word(target);
    double word_first_ms = ms_since(start);
    if (!w || cube.evaluate(*w) != target) {
      return make_error("word problem failed", {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    std::vector<double> word_ms;
    std::size_t total_length = 0;
    for (int r = 0; r < *repeats; ++r) {
      Perm x = cube.random_element(rng);
      auto s = std::chrono::steady_clock::now();
      auto wx = cube.word(x);
      word_ms.push_back(ms_since(s));
      if (!wx || cube.evaluate(*wx) != x) {
        return make_error("word problem failed", {}, Error::NO_POSITION, ErrorKind::Internal);
      }
      total_length += wx->size();
    }
    end_progress(ctx);

    double order_med = median(order_ms), member_med = median(member_us);
    double word_med = median(word_ms);
    double avg_len = static_cast<double>(total_length) / *repeats;
    bool ok = order_med <= ORDER_TARGET_MS && member_med <= MEMBERSHIP_TARGET_US;
    CommandOutput out;
    out.text = fmt::format(
        "Rubik's cube group (6 generators, 48 points), median of {} runs:\n"
        "  order from scratch   {:8.3f} ms   (target <= {} ms) {}   order {}\n"
        "  membership           {:8.3f} us   per test, 10,000 tests (target <= {} us) {}\n"
        "  word problem         {:8.3f} ms   first call (builds the word chain), length {}\n"
        "                       {:8.3f} ms   per call afterwards, average length {:.0f}, "
        "all verified\n",
        *repeats, order_med, ORDER_TARGET_MS, order_med <= ORDER_TARGET_MS ? "ok" : "MISSED",
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
                {"repeats", *repeats},
                {"targets_met", ok}};
    return out;
  });
}

}  // namespace permuzzle::cli
