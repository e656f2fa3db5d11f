// `bench words`: short words (group word) on the Rubik's cube group, M24 and the 5x5 Loopover
// group, side by side with GAP 4.12.1's EpimorphismFromFreeGroup + PreImagesRepresentative on the
// same elements (`permuzzle group random --count 100 --seed 1 ...`, measured once and kept here
// as reference numbers); then the subgroup method on 4x4 Loopover (`--seeds-chain`: also the
// seeds' two-stage chain).
// A word that does not multiply back is an Internal error (exit 1); missed targets are reported.
#include <fmt/format.h>

#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/chain.hpp"
#include "permuzzle/group/words.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::api {

namespace {

struct Case {
  std::string name;
  std::vector<Perm> generators;
  double gap_mean;  // GAP 4.12.1, 100 elements from `group random --count 100 --seed 1`
  double target;    // mean length to reach
};

std::vector<Perm> loopover_moves(int rows, int cols) {
  std::vector<Perm> moves;
  for (int r = 0; r < rows; ++r) {
    std::vector<Point> cycle;
    for (int c = 0; c < cols; ++c) cycle.push_back(static_cast<Point>(r * cols + c + 1));
    moves.push_back(*Perm::from_cycles({cycle}));
  }
  for (int c = 0; c < cols; ++c) {
    std::vector<Point> cycle;
    for (int r = 0; r < rows; ++r) cycle.push_back(static_cast<Point>(r * cols + c + 1));
    moves.push_back(*Perm::from_cycles({cycle}));
  }
  return moves;
}

Result<Output> bench_words(const Request& q, Session& s) {
  const std::uint64_t count = q.unsigned_integer("count");
  const std::uint64_t seed = q.unsigned_integer("seed");
  ShortWordOptions options;
  options.time_budget_seconds = q.number("time-budget");
  if (!(options.time_budget_seconds >= 0) || options.time_budget_seconds > 3600) {
    return make_error("--time-budget: expected seconds between 0 and 3600");
  }
  const std::uint64_t budget = s.run.memory_budget();
  if (budget != 0 && budget < options.memory_budget_bytes) {
    options.memory_budget_bytes = static_cast<std::size_t>(budget);
  }
  std::vector<Case> cases = {
      {"cube", cube::gap_generators(), 97.28, 60.0},
      {"M24",
       {*Perm::parse("(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)"),
        *Perm::parse("(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)"),
        *Perm::parse(
            "(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)")},
       37.28,
       37.28},
      {"loopover 5x5", loopover_moves(5, 5), 126.45, 126.45}};
  Output out;
  out.json = {{"count", count}, {"seed", seed}, {"gap_version", "4.12.1"}};
  nlohmann::json groups = nlohmann::json::array();
  bool all_met = true;
  out.text = fmt::format(
      "Short words on {} random elements (seed {}), set-up budget {} s; GAP 4.12.1 "
      "(EpimorphismFromFreeGroup) on the elements of seed 1:\n"
      "  {:<14} {:>9} {:>6} {:>6} {:>10} {:>9} {:>8}\n",
      count, seed, options.time_budget_seconds, "group", "setup s", "mean", "max", "ms/word",
      "GAP mean", "target");
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const Case& k = cases[c];
    s.run.report({"bench words", c, cases.size(), k.name});
    auto g = PermGroup::from_generators(k.generators);
    if (!g) return g.error();
    Stopwatch setup_clock;
    auto sw = ShortWords::build(*g, options, &s.run);
    if (!sw) return sw.error();
    const double setup = setup_clock.seconds();
    Rng rng(seed);
    std::size_t total = 0, longest = 0;
    Stopwatch word_clock;
    for (std::uint64_t i = 0; i < count; ++i) {
      if ((i & 15) == 15 && s.run.should_stop()) return s.run.stop_error();
      Perm x = g->random_element(rng);
      auto w = (*sw)->word(x);
      if (!w) return w.error();
      if (g->evaluate(w->word) != x)
        return check_failed(k.name + ": a word does not multiply back");
      total += w->word.size();
      longest = std::max(longest, w->word.size());
    }
    const double per_word_ms = word_clock.seconds() * 1e3 / static_cast<double>(count);
    const double mean = static_cast<double>(total) / static_cast<double>(count);
    const bool met = mean <= k.target && (c != 0 || setup <= 5.0);
    all_met = all_met && met;
    out.text +=
        fmt::format("  {:<14} {:>9.2f} {:>6.2f} {:>6} {:>10.1f} {:>9.2f} {:>8.2f} {}\n", k.name,
                    setup, mean, longest, per_word_ms, k.gap_mean, k.target, met ? "ok" : "MISSED");
    groups.push_back({{"group", k.name},
                      {"setup_seconds", setup},
                      {"mean_length", mean},
                      {"max_length", longest},
                      {"ms_per_word", per_word_ms},
                      {"gap_mean_length", k.gap_mean},
                      {"target_mean_length", k.target},
                      {"ball_size", (*sw)->stats().ball_size},
                      {"rounds", (*sw)->stats().rounds},
                      {"target_met", met}});
  }
  out.json["groups"] = groups;

  // Step 2. The subgroup method on 4x4 Loopover: the five-stage chain of
  // data/chains/loopover4-fast.txt (targets: tables <= 60 s, a position <= 0.1 s), and with
  // --seeds-chain the seeds' two-stage chain <C, D, 4> (then <D, 4>) too.
  struct ChainCase {
    std::string name, text;
    bool timed;  // checked against the targets
  };
  std::vector<ChainCase> chains = {
      {"loopover4-fast",
       "(5,6,7,8) (9,10,11,12) (13,14,15,16) (2,6,10,14) (3,7,11,15) (4,8,12,16)\n"
       "(9,10,11,12) (13,14,15,16) (3,7,11,15) (4,8,12,16)\n"
       "(9,10,11,12) (13,14,15,16) (4,8,12,16)\n(13,14,15,16) (4,8,12,16)\n",
       true}};
  if (q.flag("seeds-chain")) {
    chains.push_back({"loopover4 (seeds)",
                      "(9,10,11,12) (13,14,15,16) (4,8,12,16)\n(13,14,15,16) (4,8,12,16)\n",
                      false});
  }
  nlohmann::json chain_json = nlohmann::json::array();
  for (const ChainCase& cc : chains) {
    s.run.report({"bench words", cases.size(), cases.size() + 1, "4x4 Loopover " + cc.name});
    auto g = PermGroup::from_generators(loopover_moves(4, 4));
    if (!g) return g.error();
    auto subgroups = parse_chain(cc.text, cc.name);
    if (!subgroups) return subgroups.error();
    Stopwatch table_clock;
    auto chain = SubgroupChain::build(
        *g, *subgroups, {}, [&](const Perm& m) { return g->word(m); }, s.run);
    if (!chain) return chain.error();
    const double tables = table_clock.seconds();
    Rng rng(seed);
    double worst = 0, total_s = 0;
    std::size_t total_len = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      if ((i & 255) == 255 && s.run.should_stop()) return s.run.stop_error();
      Perm x = g->random_element(rng);
      Stopwatch clock;
      auto sol = (*chain)->solve(x);
      double t = clock.seconds();
      if (!sol) return sol.error();
      worst = std::max(worst, t);
      total_s += t;
      total_len += sol->word.size();
    }
    const bool met = !cc.timed || (tables <= 60 && worst <= 0.1);
    all_met = all_met && met;
    const double mean_s = total_s / static_cast<double>(count);
    const double mean_len = static_cast<double>(total_len) / static_cast<double>(count);
    out.text += fmt::format(
        "4x4 Loopover, chain {}: tables {:.2f} s{}, solve mean {:.5f} s, max {:.5f} s{}, mean "
        "length {:.2f} {}\n",
        cc.name, tables, cc.timed ? " (target <= 60)" : "", mean_s, worst,
        cc.timed ? " (target <= 0.1)" : "", mean_len, cc.timed ? (met ? "ok" : "MISSED") : "");
    chain_json.push_back({{"chain", cc.name},
                          {"table_seconds", tables},
                          {"solve_mean_seconds", mean_s},
                          {"solve_max_seconds", worst},
                          {"mean_length", mean_len},
                          {"target_met", met}});
  }
  out.json["loopover_chains"] = chain_json;
  out.json["targets_met"] = all_met;
  return out;
}

}  // namespace

void register_words_bench(Registry& r) {
  Command c{"bench",
            "words",
            "Short words (group word) on the cube group, M24 and 5x5 Loopover next to GAP's; "
            "and the subgroup method on 4x4 Loopover",
            {with_range(option("count", ParamType::Unsigned, "Random elements per group", 100), 1,
                        100000),
             option("seed", ParamType::Unsigned, "Random seed", 1),
             option("time-budget", ParamType::Number, "Set-up budget per group, seconds", 4.0),
             flag("seeds-chain",
                  "Also the seeds' two-stage 4x4 Loopover chain <C, D, 4> (its tables take about "
                  "a minute of CPU)")},
            bench_words};
  c.long_running = true;
  c.hard_example = {{"count", 100000}};
  c.invalid_examples = {{{"count", 0}}, {{"time-budget", -1.0}}};
  r.add(std::move(c));
}

}  // namespace permuzzle::api
