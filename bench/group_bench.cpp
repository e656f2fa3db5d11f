// Google Benchmark: the permutation-group core on the Rubik's cube group (48 facelets).
// Targets (2-core machine): cube order from scratch <= 5 ms, membership <= 2 us per test.
#include <benchmark/benchmark.h>

#include <numeric>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace {

using permuzzle::Perm;
using permuzzle::PermGroup;

std::vector<Perm> cube_generators() {
  return permuzzle::cube::gap_generators();
}

const mpz_class CUBE_ORDER("43252003274489856000");

void BM_CubeOrderFromScratch(benchmark::State& state) {
  auto gens = cube_generators();
  for (auto _ : state) {
    auto g = PermGroup::from_generators(gens);
    mpz_class order = g->order();
    if (order != CUBE_ORDER) state.SkipWithError("wrong cube order");
    benchmark::DoNotOptimize(order);
  }
}
BENCHMARK(BM_CubeOrderFromScratch)->Unit(benchmark::kMillisecond);

// 10,000 membership tests per iteration: half random group elements, half random
// permutations of the 48 facelets (almost all outside the group).
void BM_CubeMembership10k(benchmark::State& state) {
  auto g = *PermGroup::from_generators(cube_generators());
  permuzzle::Rng rng(42);
  std::vector<Perm> tests;
  std::vector<permuzzle::Point> images(48);
  for (int i = 0; i < 5000; ++i) {
    tests.push_back(g.random_element(rng).extended(48));
    std::iota(images.begin(), images.end(), 0u);
    rng.shuffle(images.begin(), images.end());
    tests.push_back(*Perm::from_images(images));
  }
  for (auto _ : state) {
    int members = 0;
    for (const Perm& x : tests) members += g.contains(x);
    if (members < 5000) state.SkipWithError("a group element was rejected");
    benchmark::DoNotOptimize(members);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(tests.size()));
}
BENCHMARK(BM_CubeMembership10k)->Unit(benchmark::kMillisecond);

// One word-problem call on a fresh group (includes building the short-word chain) ...
void BM_CubeWordFirstCall(benchmark::State& state) {
  auto gens = cube_generators();
  permuzzle::Rng rng(7);
  for (auto _ : state) {
    state.PauseTiming();
    auto g = *PermGroup::from_generators(gens);
    Perm x = g.random_element(rng);
    state.ResumeTiming();
    auto w = g.word(x);
    if (!w.ok()) state.SkipWithError("word failed");
    state.counters["length"] = static_cast<double>(w->size());
  }
}
BENCHMARK(BM_CubeWordFirstCall)->Unit(benchmark::kMillisecond);

// ... and one call once the word chain exists.
void BM_CubeWord(benchmark::State& state) {
  auto g = *PermGroup::from_generators(cube_generators());
  permuzzle::Rng rng(7);
  (void)g.word(g.random_element(rng));
  double total = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Perm x = g.random_element(rng);
    state.ResumeTiming();
    auto w = g.word(x);
    if (!w.ok()) state.SkipWithError("word failed");
    total += static_cast<double>(w->size());
  }
  state.counters["avg_length"] = total / static_cast<double>(state.iterations());
}
BENCHMARK(BM_CubeWord)->Unit(benchmark::kMillisecond);

}  // namespace
