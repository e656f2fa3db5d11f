// `bench groups`, backtrack part: centre, centralizer of a face turn, normalizer of <U> and the
// derived subgroup in the Rubik's cube group, and normalizers in M24 and PSL(2,1031), each
// timed (median, the group's chain already built, as GAP after `Size`) beside GAP 4.12's time
// on the same machine and checked against GAP's answer.
#include <algorithm>

#include "group_backtrack.hpp"
#include "permuzzle/group/backtrack.hpp"
#include "permuzzle/group/examples.hpp"
#include "permuzzle/group/operations.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::api {

namespace {

// Every case runs at most this many times (median).
constexpr std::uint64_t MAX_BACKTRACK_REPEATS = 11;

struct BacktrackCase {
  std::string name;
  std::function<Result<PermGroup>(const RunContext&)> run;
  mpz_class gap_order;  // GAP 4.12's answer
  double gap_ms;        // GAP 4.12's time (Runtime() around the call, after Size; 2-core host)
};

PermGroup group_of(std::vector<Perm> gens) {
  SchreierSimsOptions options;
  std::size_t n = 0;
  for (const Perm& p : gens) n = std::max(n, p.largest_moved_point());
  options.randomized = n > 64;
  return *PermGroup::from_generators(std::move(gens), {}, options);
}

// GAP's figures: `gap -q` 4.12.1 (Debian 12), G := Group(gens);; Size(G);; then
// t := Runtime(); Size(Centre(G)); Runtime() - t, and so on (median of 5 runs each, this host,
// other agents compiling at the same time).
std::vector<BacktrackCase> backtrack_cases(const PermGroup& cube, const PermGroup& m24,
                                           const PermGroup& psl, const PermGroup& s24) {
  const auto gens = cube::gap_generators();
  const Perm u = gens[0];
  const auto m = m24_generators();
  const auto p = psl2_generators(1031);
  std::vector<BacktrackCase> cases;
  cases.push_back({"cube: centre", [&](const RunContext& run) { return center(cube, &run); },
                   mpz_class(2), 12});
  cases.push_back({"cube: centralizer of U",
                   [&, u](const RunContext& run) { return centralizer(cube, u, &run); },
                   mpz_class("160526499840"), 8});
  cases.push_back({"cube: normalizer of <U>",
                   [&, u](const RunContext& run) { return normalizer(cube, group_of({u}), &run); },
                   mpz_class("321052999680"), 24});
  cases.push_back({"cube: normalizer of <U, D>",
                   [&, gens](const RunContext& run) {
                     return normalizer(cube, group_of({gens[0], gens[5]}), &run);
                   },
                   mpz_class("2359296"), 35});
  cases.push_back({"cube: stabilizer of the set 1..8",
                   [&](const RunContext& run) {
                     return set_stabilizer(cube, {0, 1, 2, 3, 4, 5, 6, 7}, &run);
                   },
                   mpz_class("963158999040"), 12});
  cases.push_back({"cube: derived subgroup",
                   [&](const RunContext& run) { return derived_subgroup(cube, &run); },
                   mpz_class("21626001637244928000"), 17});
  cases.push_back(
      {"M24: normalizer of <23-cycle>",
       [&, m](const RunContext& run) { return normalizer(m24, group_of({m[0]}), &run); },
       mpz_class(253), 3});
  cases.push_back(
      {"M24: normalizer of <involution>",
       [&, m](const RunContext& run) { return normalizer(m24, group_of({m[2]}), &run); },
       mpz_class(7680), 1});
  cases.push_back({"M24: normalizer of <b, c^b>",
                   [&, m](const RunContext& run) {
                     return normalizer(m24, group_of({m[1], m[2].conjugate(m[1])}), &run);
                   },
                   mpz_class(110), 2});
  // GAP: Normalizer(SymmetricGroup(24), M) (its method for natural symmetric groups; with S24
  // given by generators, as here, GAP takes 11.9 s).
  cases.push_back({"S24: normalizer of M24",
                   [&, m](const RunContext& run) { return normalizer(s24, group_of(m), &run); },
                   mpz_class(244823040), 34});
  cases.push_back(
      {"PSL(2,1031): normalizer of <x+1>",
       [&, p](const RunContext& run) { return normalizer(psl, group_of({p[0]}), &run); },
       mpz_class(1031 * 515), 2877});
  // GAP: median of 15 runs (8 to 10 ms), 2026-11-26, beside this benchmark on the loaded host.
  cases.push_back(
      {"PSL(2,1031): normalizer of <-1/x>",
       [&, p](const RunContext& run) { return normalizer(psl, group_of({p[1]}), &run); },
       mpz_class(1032), 8});
  return cases;
}

}  // namespace

Result<BacktrackBench> bench_backtrack(std::uint64_t repeats, const Session& s) {
  const PermGroup cube = group_of(cube::gap_generators());
  const PermGroup m24 = group_of(m24_generators());
  const PermGroup psl = group_of(psl2_generators(1031));
  const PermGroup s24 =
      group_of({*Perm::parse("(1,2)"),
                *Perm::parse("(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24)")});
  BacktrackBench bench;
  bench.json = nlohmann::json::array();
  bench.text = "Backtrack searches (median; GAP 4.12 on this host beside, after Size):\n";
  for (const BacktrackCase& c : backtrack_cases(cube, m24, psl, s24)) {
    std::vector<double> ms;
    mpz_class order;
    for (std::uint64_t r = 0; r < std::min(repeats, MAX_BACKTRACK_REPEATS); ++r) {
      if (s.run.should_stop()) return s.run.stop_error();
      Stopwatch clock;
      auto h = c.run(s.run);
      if (!h) return h.error();
      ms.push_back(clock.seconds() * 1e3);
      order = h->order();
    }
    if (order != c.gap_order) {
      return make_error("check failed: " + c.name + " has order " + order.get_str() +
                            ", GAP says " + c.gap_order.get_str(),
                        {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2];
    const bool ok = med <= c.gap_ms;
    bench.targets_met = bench.targets_met && ok;
    bench.text += fmt::format("  {:36} {:9.3f} ms   GAP {:7.0f} ms   order {} {}\n", c.name, med,
                              c.gap_ms, order.get_str(), ok ? "ok" : "SLOWER");
    bench.json.push_back({{"name", c.name},
                          {"ms", med},
                          {"gap_ms", c.gap_ms},
                          {"order", order.get_str()},
                          {"at_most_gap", ok}});
  }
  return bench;
}

}  // namespace permuzzle::api
