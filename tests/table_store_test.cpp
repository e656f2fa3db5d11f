#include "permuzzle/core/table_store.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace permuzzle {
namespace {

namespace fs = std::filesystem;

struct Bytes {
  std::vector<std::uint8_t> data;
};

constexpr std::size_t SIZE = 4096;

// The content every build produces, computed here independently of the store.
std::uint8_t expected_byte(std::size_t i) {
  return static_cast<std::uint8_t>(i * 7 + 3);
}

bool has_expected_content(const Bytes& table) {
  if (table.data.size() != SIZE) return false;
  for (std::size_t i = 0; i < SIZE; ++i)
    if (table.data[i] != expected_byte(i)) return false;
  return true;
}

// A recipe whose builds are counted (and may be slow, to make callers overlap).
TableRecipe<Bytes> recipe(std::atomic<int>& builds, std::uint32_t version = 1,
                          std::chrono::milliseconds delay = {}) {
  TableRecipe<Bytes> r;
  r.key = TableKey{"test-puzzle", "pattern 1,2,3", version};
  r.bytes = SIZE;
  r.allocate = [] {
    auto t = std::make_shared<Bytes>();
    t->data.resize(SIZE);
    return t;
  };
  r.build = [&builds, delay](const RunContext&) -> Result<std::shared_ptr<Bytes>> {
    ++builds;
    std::this_thread::sleep_for(delay);
    auto t = std::make_shared<Bytes>();
    t->data.resize(SIZE);
    for (std::size_t i = 0; i < SIZE; ++i) t->data[i] = expected_byte(i);
    return t;
  };
  r.payload = [](Bytes& t) { return std::span<std::uint8_t>(t.data); };
  return r;
}

class TableStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("permuzzle-store-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::size_t files_in(const fs::path& dir) const {
    std::size_t n = 0;
    for (auto& entry : fs::directory_iterator(dir)) n += entry.path().extension() == ".pztable";
    return n;
  }
  fs::path dir_;
  std::atomic<int> builds_{0};
};

TEST_F(TableStoreTest, BuildsSavesThenAnotherStoreLoads) {
  TableReport first;
  {
    TableStore store(dir_.string());
    auto table = store.obtain(recipe(builds_), RunContext{}, &first);
    ASSERT_TRUE(table.ok()) << table.error().message;
    EXPECT_TRUE(has_expected_content(**table));
  }
  EXPECT_EQ(first.source, TableReport::Source::Built);
  EXPECT_EQ(first.reason, "missing");
  EXPECT_TRUE(first.saved);
  EXPECT_TRUE(first.warning.empty());
  EXPECT_TRUE(fs::exists(first.path));
  EXPECT_EQ(fs::path(first.path).parent_path(), dir_);

  TableStore again(dir_.string());
  std::vector<std::string> phases;
  RunContext run;
  run.with_progress([&](const Progress& p) { phases.push_back(p.phase); });
  TableReport second;
  auto table = again.obtain(recipe(builds_), run, &second);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(builds_.load(), 1);
  EXPECT_EQ(second.source, TableReport::Source::Loaded);
  EXPECT_TRUE(has_expected_content(**table));
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(phases[0], "loaded test-puzzle pattern 1,2,3");
  ASSERT_EQ(again.reports().size(), 1u);
  EXPECT_EQ(again.reports()[0].source, TableReport::Source::Loaded);
}

TEST_F(TableStoreTest, StaleFileIsRebuiltWithTheReason) {
  TableStore old_store(dir_.string());
  ASSERT_TRUE(old_store.obtain(recipe(builds_, 1), RunContext{}).ok());
  TableStore new_store(dir_.string());
  TableReport report;
  auto table = new_store.obtain(recipe(builds_, 2), RunContext{}, &report);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(builds_.load(), 2);
  EXPECT_EQ(report.source, TableReport::Source::Built);
  EXPECT_EQ(report.reason.rfind("stale: ", 0), 0u) << report.reason;
  EXPECT_NE(report.reason.find("format version 1, expected 2"), std::string::npos) << report.reason;
  EXPECT_TRUE(report.saved);
  EXPECT_NE(describe(report).find("stale"), std::string::npos);
  // The rebuilt file replaced the stale one: a third store loads it.
  TableStore third(dir_.string());
  TableReport loaded;
  ASSERT_TRUE(third.obtain(recipe(builds_, 2), RunContext{}, &loaded).ok());
  EXPECT_EQ(loaded.source, TableReport::Source::Loaded);
  EXPECT_EQ(builds_.load(), 2);
}

TEST_F(TableStoreTest, CorruptFileIsRebuiltWithTheReason) {
  TableReport built;
  {
    TableStore store(dir_.string());
    ASSERT_TRUE(store.obtain(recipe(builds_), RunContext{}, &built).ok());
  }
  {
    // Flip the last payload byte.
    std::fstream f(built.path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-1, std::ios::end);
    char c = 0;
    f.read(&c, 1);
    f.seekp(-1, std::ios::end);
    c = static_cast<char>(c ^ 0x40);
    f.write(&c, 1);
  }
  TableStore store(dir_.string());
  TableReport report;
  auto table = store.obtain(recipe(builds_), RunContext{}, &report);
  ASSERT_TRUE(table.ok());
  EXPECT_TRUE(has_expected_content(**table));
  EXPECT_EQ(builds_.load(), 2);
  EXPECT_EQ(report.source, TableReport::Source::Built);
  EXPECT_EQ(report.reason.rfind("corrupt: ", 0), 0u) << report.reason;
  EXPECT_NE(report.reason.find("checksum"), std::string::npos) << report.reason;
}

TEST_F(TableStoreTest, DerivedFieldsThatFailMakeTheFileCorrupt) {
  {
    TableStore store(dir_.string());
    ASSERT_TRUE(store.obtain(recipe(builds_), RunContext{}).ok());
  }
  auto r = recipe(builds_);
  r.loaded = [](Bytes&) -> Status { return make_error("no value reaches the goal"); };
  TableStore store(dir_.string());
  TableReport report;
  ASSERT_TRUE(store.obtain(r, RunContext{}, &report).ok());
  EXPECT_EQ(builds_.load(), 2);
  EXPECT_EQ(report.reason, "corrupt: no value reaches the goal");
}

TEST_F(TableStoreTest, UnwritableDirectoryGivesTheTableAndAWarning) {
  // A directory under a regular file cannot be created, even by root.
  fs::create_directories(dir_);
  const fs::path file = dir_ / "not-a-directory";
  std::ofstream(file) << "x";
  TableStore store((file / "sub").string());
  std::vector<Progress> progress;
  RunContext run;
  run.with_progress([&](const Progress& p) { progress.push_back(p); });
  TableReport report;
  auto table = store.obtain(recipe(builds_), run, &report);
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_TRUE(has_expected_content(**table));
  EXPECT_EQ(report.source, TableReport::Source::Built);
  EXPECT_FALSE(report.saved);
  EXPECT_NE(report.warning.find("could not save"), std::string::npos) << report.warning;
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().phase, "not saved test-puzzle pattern 1,2,3");
  EXPECT_NE(describe(report).find("warning"), std::string::npos);
}

TEST_F(TableStoreTest, WithoutDirectoryNothingTouchesTheDisk) {
  fs::create_directories(dir_);
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  {
    TableStore store;
    EXPECT_FALSE(store.persistent());
    TableReport report;
    auto table = store.obtain(recipe(builds_), RunContext{}, &report);
    ASSERT_TRUE(table.ok());
    EXPECT_TRUE(has_expected_content(**table));
    EXPECT_EQ(report.reason, "no table cache");
    EXPECT_TRUE(report.path.empty());
    EXPECT_FALSE(report.saved);
    store.clean_stale_temporaries();
    TableStore other;
    ASSERT_TRUE(other.obtain(recipe(builds_), RunContext{}).ok());
  }
  fs::current_path(cwd);
  EXPECT_EQ(builds_.load(), 2);  // nothing was kept between stores
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(TableStoreTest, SecondCallerSharesTheTableInMemory) {
  TableStore store(dir_.string());
  auto a = store.obtain(recipe(builds_), RunContext{});
  TableReport report;
  auto b = store.obtain(recipe(builds_), RunContext{}, &report);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ(builds_.load(), 1);
  EXPECT_EQ(report.source, TableReport::Source::Memory);

  int made = 0;
  auto make = [&]() -> Result<std::shared_ptr<int>> {
    ++made;
    return std::make_shared<int>(42);
  };
  auto x = store.shared<int>("solver 4x4", make);
  auto y = store.shared<int>("solver 4x4", make);
  ASSERT_TRUE(x.ok() && y.ok());
  EXPECT_EQ(x->get(), y->get());
  EXPECT_EQ(made, 1);
}

TEST_F(TableStoreTest, ConcurrentThreadsBuildOnce) {
  TableStore store;  // in memory only: the per-key lock alone must serialise
  const auto r = recipe(builds_, 1, std::chrono::milliseconds(100));
  std::vector<const Bytes*> got(4, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      auto table = store.obtain(r, RunContext{});
      if (table) got[t] = table->get();
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(builds_.load(), 1);
  for (auto* p : got) EXPECT_EQ(p, got[0]);
  ASSERT_NE(got[0], nullptr);
  EXPECT_TRUE(has_expected_content(*got[0]));
}

TEST_F(TableStoreTest, ConcurrentProcessesBuildOnce) {
  fs::create_directories(dir_);
  const fs::path counter = dir_ / "builds.txt";
  std::vector<pid_t> children;
  for (int c = 0; c < 2; ++c) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      TableStore store((dir_ / "tables").string());
      auto r = recipe(builds_);
      r.build = [&](const RunContext&) -> Result<std::shared_ptr<Bytes>> {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        std::ofstream(counter, std::ios::app) << "built by " << ::getpid() << "\n";
        auto t = std::make_shared<Bytes>();
        t->data.resize(SIZE);
        for (std::size_t i = 0; i < SIZE; ++i) t->data[i] = expected_byte(i);
        return t;
      };
      auto table = store.obtain(r, RunContext{});
      ::_exit(table && has_expected_content(**table) ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::ifstream in(counter);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 1);
}

TEST_F(TableStoreTest, RemovesTemporariesOfDeadProcessesOnly) {
  fs::create_directories(dir_);
  // A pid that surely runs no more: a child that exited and was reaped.
  pid_t dead = ::fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) ::_exit(0);
  ASSERT_EQ(::waitpid(dead, nullptr, 0), dead);
  const fs::path stale = dir_ / ("a.pztable.tmp." + std::to_string(dead));
  const fs::path live = dir_ / "b.pztable.tmp.1";  // init runs as long as the system
  const fs::path own = dir_ / ("c.pztable.tmp." + std::to_string(::getpid()));
  const fs::path other = dir_ / "d.pztable";
  for (const auto& p : {stale, live, own, other}) std::ofstream(p) << "partial";
  TableStore(dir_.string()).clean_stale_temporaries();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(own));
  EXPECT_TRUE(fs::exists(other));
}

}  // namespace
}  // namespace permuzzle
