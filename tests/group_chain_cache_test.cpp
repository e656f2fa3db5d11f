// The chain cache of the `group` commands (src/api/group_chain_cache.hpp): a second request on
// the same generators loads the saved stabilizer chain instead of running Schreier–Sims, and the
// loaded chain is the very chain that was built (same base, strong generators, transversals: the
// same random elements and words for the same seeds, hence the same answers). Orders are checked
// against published values: the Rubik's cube group 43,252,003,274,489,856,000, |M24| =
// 244,823,040 (ATLAS), |PSL(2,p)| = p(p^2-1)/2, |S12 wr S2| = 2 * 12!^2. A damaged file, or a
// well-formed one whose chain does not match its recorded order, is ignored and rebuilt.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "../src/api/group_chain_cache.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/table_cache.hpp"
#include "permuzzle/group/examples.hpp"

namespace permuzzle {
namespace group_chain_cache_test {

using api::ChainSource;

struct TempDir {
  std::string path;
  TempDir() {
    char pattern[] = "/tmp/permuzzle-chain-cache-XXXXXX";
    path = ::mkdtemp(pattern);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

Perm P(const std::string& text) {
  auto p = Perm::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? *p : Perm();
}

// GAP's 48-facelet cube group (group/examples).
std::vector<Perm> cube() {
  return rubik_cube_generators();
}

mpz_class factorial(unsigned long n) {
  mpz_class f;
  mpz_fac_ui(f.get_mpz_t(), n);
  return f;
}

struct Case {
  std::string name;
  std::vector<Perm> generators;
  mpz_class order;
  bool randomized;
};

std::vector<Case> cases() {
  return {{"cube", cube(), mpz_class("43252003274489856000"), false},
          {"M24", m24_generators(), mpz_class(244823040), false},
          {"PSL(2,13)", psl2_generators(13), mpz_class(13 * (13 * 13 - 1) / 2), false},
          {"PSL(2,251)", psl2_generators(251), mpz_class(251) * (251 * 251 - 1) / 2, true},
          {"S12 wr S2", s12_wr_s2_generators(), factorial(12) * factorial(12) * 2, false},
          // Degree 1032: a Schreier-vector chain.
          {"PSL(2,1031)", psl2_generators(1031), mpz_class(1031) * (1031 * 1031 - 1) / 2, true}};
}

SchreierSimsOptions options_for(const Case& c) {
  SchreierSimsOptions options;
  options.randomized = c.randomized;
  return options;
}

// The one table file of a directory holding one cached chain.
std::string only_file(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".lock") files.push_back(e.path().string());
  }
  EXPECT_EQ(files.size(), 1u);
  return files.empty() ? std::string() : files[0];
}

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// Where the payload starts in a table file (layout: table_cache.hpp): magic, version, the two
// names with their lengths, payload size, checksum.
std::size_t payload_offset(const std::vector<std::uint8_t>& file) {
  auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(file[at + i]) << (8 * i);
    return v;
  };
  std::size_t at = 12;
  at += 4 + u32(at);  // puzzle name
  at += 4 + u32(at);  // pattern name
  return at + 16;     // payload size, checksum
}

// Rewrites a file's checksum after its payload was changed (a forged, well-formed file).
void reseal(std::vector<std::uint8_t>& file) {
  const std::size_t start = payload_offset(file);
  std::uint64_t sum = fnv1a64(file.data() + start, file.size() - start);
  for (int i = 0; i < 8; ++i) file[start - 8 + i] = static_cast<std::uint8_t>(sum >> (8 * i));
}

// Same chain: same base, strong generators, random elements and words for the same seed.
void expect_same_chain(const PermGroup& a, const PermGroup& b, const std::string& name) {
  EXPECT_EQ(a.order(), b.order()) << name;
  EXPECT_EQ(a.base(), b.base()) << name;
  EXPECT_EQ(a.strong_generators(), b.strong_generators()) << name;
  Rng ra(7), rb(7);
  for (int i = 0; i < 20; ++i) {
    Perm x = a.random_element(ra);
    EXPECT_EQ(x, b.random_element(rb)) << name;
    EXPECT_TRUE(b.contains(x)) << name;
  }
  Rng rw(3);
  Perm x = a.random_element(rw);
  auto wa = a.word(x), wb = b.word(x);
  ASSERT_EQ(wa.ok(), wb.ok()) << name;
  if (wa.ok()) {
    EXPECT_EQ(*wa, *wb) << name;
  } else {  // PSL(2,1031): over the word tables' limit, refused the same way
    EXPECT_EQ(wa.error().message, wb.error().message) << name;
  }
}

Result<PermGroup> cached(const Case& c, TableStore& store, ChainSource* source,
                         const SchreierSimsOptions& options) {
  return api::group_with_cached_chain(c.generators, {}, options, store, source, 0.0);
}

TEST(GroupChainCache, SecondRequestLoadsTheSameChain) {
  for (const Case& c : cases()) {
    TempDir dir;
    TableStore store(dir.path);
    auto uncached = PermGroup::from_generators(c.generators, {}, options_for(c));
    ASSERT_TRUE(uncached.ok()) << c.name;
    EXPECT_EQ(uncached->order(), c.order) << c.name;
    ChainSource first = ChainSource::Loaded, second = ChainSource::Built;
    auto built = cached(c, store, &first, options_for(c));
    auto loaded = cached(c, store, &second, options_for(c));
    ASSERT_TRUE(built.ok() && loaded.ok()) << c.name;
    EXPECT_EQ(first, ChainSource::Built) << c.name;
    EXPECT_EQ(second, ChainSource::Loaded) << c.name;
    expect_same_chain(*uncached, *built, c.name);
    expect_same_chain(*uncached, *loaded, c.name);
    EXPECT_EQ(loaded->generators(), c.generators) << c.name;
  }
}

TEST(GroupChainCache, OptionsAndGeneratorsKeepTheirOwnChains) {
  TempDir dir;
  TableStore store(dir.path);
  Case c = cases()[0];
  ChainSource source = ChainSource::Loaded;
  ASSERT_TRUE(cached(c, store, &source, {}).ok());
  SchreierSimsOptions randomized;
  randomized.randomized = true;
  ASSERT_TRUE(cached(c, store, &source, randomized).ok());
  EXPECT_EQ(source, ChainSource::Built);  // another construction, another chain
  std::reverse(c.generators.begin(), c.generators.end());
  auto reversed = cached(c, store, &source, {});
  ASSERT_TRUE(reversed.ok());
  EXPECT_EQ(source, ChainSource::Built);
  EXPECT_EQ(reversed->order(), c.order);
  // Without a directory, or with a disk cap (a server), nothing is saved or loaded.
  TableStore memory_only;
  ASSERT_TRUE(cached(c, memory_only, &source, {}).ok());
  ASSERT_TRUE(cached(c, memory_only, &source, {}).ok());
  EXPECT_EQ(source, ChainSource::Built);
  TempDir capped_dir;
  TableStore::Options capped;
  capped.max_disk_bytes = std::uint64_t{1} << 30;
  TableStore server(capped_dir.path, capped);
  ASSERT_TRUE(cached(c, server, &source, {}).ok());
  ASSERT_TRUE(cached(c, server, &source, {}).ok());
  EXPECT_EQ(source, ChainSource::Built);
  EXPECT_TRUE(std::filesystem::is_empty(capped_dir.path));
}

// One damaged file after another in place of a good one: each is ignored, the chain is built and
// saved again (the same bytes: the construction is deterministic for a seed), and then loads.
void expect_damage_ignored(const Case& c, const SchreierSimsOptions& options) {
  TempDir dir;
  TableStore store(dir.path);
  ChainSource source = ChainSource::Loaded;
  ASSERT_TRUE(cached(c, store, &source, options).ok());
  const std::string path = only_file(dir.path);
  const std::vector<std::uint8_t> good = read_bytes(path);
  const std::size_t start = payload_offset(good);
  ASSERT_LT(start + 64, good.size());

  // A flipped payload byte (checksum mismatch), a truncated file, a file of another format.
  std::vector<std::vector<std::uint8_t>> damaged;
  damaged.push_back(good);
  damaged.back()[good.size() - 5] ^= 0x40;
  damaged.emplace_back(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(start + 10));
  damaged.push_back(good);
  damaged.back()[8] ^= 1;  // format version
  // Well-formed files (valid checksum) whose chain is wrong: the recorded order changed, the
  // degree changed, the last orbit point dropped.
  const std::vector<std::uint8_t> payload(good.begin() + static_cast<std::ptrdiff_t>(start),
                                          good.end());
  std::size_t text = payload[0] | payload[1] << 8;
  std::size_t record = start + 4 + (text + 3) / 4 * 4;
  damaged.push_back(good);
  damaged.back()[record + 16] ^= 2;  // the order's first digit (M24: 244823040 -> 044823040)
  reseal(damaged.back());
  damaged.push_back(good);
  damaged.back()[record] ^= 1;  // the degree
  reseal(damaged.back());
  damaged.push_back(good);
  damaged.back().resize(good.size() - 16);
  reseal(damaged.back());
  for (std::size_t i = 0; i < damaged.size(); ++i) {
    write_bytes(path, damaged[i]);
    source = ChainSource::Loaded;
    auto rebuilt = cached(c, store, &source, options);
    ASSERT_TRUE(rebuilt.ok()) << c.name << " " << i;
    EXPECT_EQ(source, ChainSource::Built) << "damage " << c.name << " " << i;
    EXPECT_EQ(rebuilt->order(), c.order) << c.name << " " << i;
    // The rebuilt chain was saved again, and loads.
    auto again = cached(c, store, &source, options);
    ASSERT_TRUE(again.ok()) << c.name << " " << i;
    EXPECT_EQ(source, ChainSource::Loaded) << "damage " << c.name << " " << i;
    EXPECT_EQ(read_bytes(path), good) << c.name << " " << i;
  }
}

TEST(GroupChainCache, DamagedFilesAreIgnoredAndRebuilt) {
  expect_damage_ignored(cases()[1], {});  // M24: explicit transversals
  SchreierSimsOptions vectors;
  vectors.transversals = SchreierSimsOptions::Transversals::SchreierVectors;
  expect_damage_ignored(cases()[2], vectors);  // PSL(2,13): Schreier vectors
}

// Through the registry, as the CLI runs a command: the same answers from a session whose table
// store keeps chains and from one that has none, and the second request says it loaded one.
TEST(GroupChainCache, GroupCommandsGiveTheSameAnswersWithTheCache) {
  TempDir dir;
  TableStore store(dir.path), memory_only;
  api::Registry registry = api::make_registry();
  std::vector<std::string> notes;
  auto call = [&](TableStore& tables, const std::string& verb, nlohmann::json params) {
    RunContext run;
    run.with_progress([&](const Progress& p) { notes.push_back(p.message); });
    api::Session session{tables, std::move(run), api::default_data_dir()};
    auto out = registry.call("group", verb, params, session);
    EXPECT_TRUE(out.ok()) << verb << ": " << (out.ok() ? "" : out.error().message);
    return out.ok() ? out->json : nlohmann::json();
  };
  nlohmann::json generators = nlohmann::json::array();
  for (const Perm& g : s12_wr_s2_generators()) generators.push_back(g.to_cycle_string());
  const nlohmann::json base = {{"generators", generators}};
  nlohmann::json contains = base;
  contains["element"] =
      "(1,13)(2,14)(3,15)(4,16)(5,17)(6,18)(7,19)(8,20)(9,21)(10,22)(11,23)(12,24)";
  const std::vector<std::pair<std::string, nlohmann::json>> requests = {
      {"order", base}, {"describe", base}, {"contains", contains}, {"orbits", base}};
  for (const auto& [verb, params] : requests) {
    nlohmann::json expected = call(memory_only, verb, params);
    EXPECT_EQ(call(store, verb, params), expected) << verb;
    EXPECT_EQ(call(store, verb, params), expected) << verb;
  }
  EXPECT_EQ(call(store, "order", base)["order"],
            mpz_class(factorial(12) * factorial(12) * 2).get_str());
  // PSL(2,1031) takes ~100 ms to build (50 times the saving threshold): its chain is saved by
  // the first command, used by the next, and a damaged file is said to be rebuilt.
  TempDir psl_dir;
  TableStore psl_store(psl_dir.path);
  nlohmann::json psl = nlohmann::json::array();
  for (const Perm& g : psl2_generators(1031)) psl.push_back(g.to_cycle_string());
  const std::string psl_order = mpz_class(mpz_class(1031) * (1031 * 1031 - 1) / 2).get_str();
  EXPECT_EQ(call(psl_store, "order", {{"generators", psl}})["order"], psl_order);
  const std::string path = only_file(psl_dir.path);
  ASSERT_FALSE(path.empty());
  notes.clear();
  EXPECT_EQ(call(psl_store, "order", {{"generators", psl}})["order"], psl_order);
  EXPECT_TRUE(notes.empty());  // loaded: nothing to say
  std::vector<std::uint8_t> bytes = read_bytes(path);
  bytes[bytes.size() / 2] ^= 1;
  write_bytes(path, bytes);
  EXPECT_EQ(call(psl_store, "order", {{"generators", psl}})["order"], psl_order);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.front().find("rebuilding the stabilizer chain"), std::string::npos) << notes[0];
}

}  // namespace group_chain_cache_test
}  // namespace permuzzle
