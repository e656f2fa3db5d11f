#include "permuzzle/core/table_store.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

namespace permuzzle {
namespace table_store_test {

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

// A recipe's build note (how long the build takes) is said before the build starts, with or
// without a table directory; a load says nothing of it.
TEST_F(TableStoreTest, BuildNoteIsSaidBeforeTheBuild) {
  for (bool persistent : {true, false}) {
    TableStore store(persistent ? dir_.string() : std::string());
    auto r = recipe(builds_);
    r.build_note = "about 3 minutes on 2 threads";
    std::vector<Progress> said;
    RunContext run;
    run.with_progress([&](const Progress& p) { said.push_back(p); });
    auto table = store.obtain(r, run);
    ASSERT_TRUE(table.ok()) << table.error().message;
    ASSERT_FALSE(said.empty());
    EXPECT_EQ(said.front().phase, "building test-puzzle pattern 1,2,3");
    EXPECT_EQ(said.front().message, std::string(persistent ? "missing" : "no table cache") +
                                        "; about 3 minutes on 2 threads");
  }
  TableStore again(dir_.string());
  auto r = recipe(builds_);
  r.build_note = "about 3 minutes on 2 threads";
  std::vector<Progress> said;
  RunContext run;
  run.with_progress([&](const Progress& p) { said.push_back(p); });
  ASSERT_TRUE(again.obtain(r, run).ok());
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0].phase, "loaded test-puzzle pattern 1,2,3");
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

// A resumable build: fills the table a quarter at a time (progress = quarters done), saving a
// checkpoint after each quarter; it stops (an error, as a cancelled build does) after
// `stop_after` quarters of this run. Records where each run began.
TableRecipe<Bytes> resumable_recipe(std::atomic<int>& builds, int stop_after,
                                    std::vector<std::uint64_t>& began_at) {
  TableRecipe<Bytes> r = recipe(builds);
  r.build = nullptr;
  r.resumable_build = [&builds, stop_after, &began_at](
                          const RunContext&,
                          TableCheckpoint& checkpoint) -> Result<std::shared_ptr<Bytes>> {
    ++builds;
    auto t = std::make_shared<Bytes>();
    t->data.assign(SIZE, 0);
    std::uint64_t quarter = 0;
    if (checkpoint.saved_progress() > 0) quarter = checkpoint.resume(t->data);
    if (quarter == 0) t->data.assign(SIZE, 0);
    began_at.push_back(quarter);
    for (int done = 0; quarter < 4; ++quarter, ++done) {
      if (done == stop_after) return make_error("stopped", {}, Error::NO_POSITION);
      for (std::size_t i = quarter * SIZE / 4; i < (quarter + 1) * SIZE / 4; ++i) {
        t->data[i] = expected_byte(i);
      }
      checkpoint.save(t->data, quarter + 1);
    }
    return t;
  };
  return r;
}

// A build stopped after its checkpoints goes on from the last one in a later process (the files
// beside the table), and the checkpoint files go once the table is saved.
TEST_F(TableStoreTest, StoppedBuildResumesFromItsCheckpoint) {
  std::vector<std::uint64_t> began_at;
  {
    TableStore store(dir_.string());
    EXPECT_FALSE(store.obtain(resumable_recipe(builds_, 2, began_at), RunContext{}).ok());
  }
  EXPECT_EQ(files_in(dir_), 2u);  // the payload so far and its progress, no table
  TableStore store(dir_.string());
  TableReport report;
  auto table = store.obtain(resumable_recipe(builds_, 99, began_at), RunContext{}, &report);
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_TRUE(has_expected_content(**table));
  EXPECT_EQ(began_at, (std::vector<std::uint64_t>{0, 2}));
  EXPECT_TRUE(report.saved);
  EXPECT_TRUE(report.warning.empty()) << report.warning;
  EXPECT_EQ(files_in(dir_), 1u);  // the table alone
}

// A damaged checkpoint is never resumed: the build starts over (and gives the right table).
TEST_F(TableStoreTest, DamagedCheckpointIsNotResumed) {
  std::vector<std::uint64_t> began_at;
  {
    TableStore store(dir_.string());
    EXPECT_FALSE(store.obtain(resumable_recipe(builds_, 3, began_at), RunContext{}).ok());
  }
  for (auto& entry : fs::directory_iterator(dir_)) {
    if (entry.path().string().find("partial-at") != std::string::npos) continue;
    if (entry.path().extension() != ".pztable") continue;
    std::fstream f(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('\x55');
  }
  TableStore store(dir_.string());
  auto table = store.obtain(resumable_recipe(builds_, 99, began_at), RunContext{});
  ASSERT_TRUE(table.ok());
  EXPECT_TRUE(has_expected_content(**table));
  EXPECT_EQ(began_at, (std::vector<std::uint64_t>{0, 0}));
}

// No directory, or checkpoints turned off: nothing is saved, nothing resumed.
TEST_F(TableStoreTest, CheckpointsNeedADirectoryAndAnInterval) {
  std::vector<std::uint64_t> began_at;
  TableStore memory_only;
  EXPECT_FALSE(memory_only.obtain(resumable_recipe(builds_, 2, began_at), RunContext{}).ok());
  TableStore::Options off;
  off.checkpoint_seconds = 0;
  {
    TableStore store(dir_.string(), off);
    EXPECT_FALSE(store.obtain(resumable_recipe(builds_, 2, began_at), RunContext{}).ok());
  }
  EXPECT_FALSE(fs::exists(dir_) && files_in(dir_) > 0);
  TableStore store(dir_.string());
  ASSERT_TRUE(store.obtain(resumable_recipe(builds_, 99, began_at), RunContext{}).ok());
  EXPECT_EQ(began_at, (std::vector<std::uint64_t>{0, 0, 0}));
  TableCheckpoint checkpoint(dir_.string(), TableKey{"p", "q", 1}, std::chrono::seconds(600));
  EXPECT_FALSE(checkpoint.due());  // not before the interval
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
  const fs::path empty = dir_ / ("e.pztable.tmp." + std::to_string(dead));
  // A table's temporary begins with the table header's magic (save_table writes it first).
  for (const auto& p : {stale, live, own, other}) std::ofstream(p) << "PZTABLE1partial";
  std::ofstream{empty};
  // A user's files whose names look like temporaries of a dead process (issue 39: the cache
  // deleted any "*.tmp.<dead pid>"): not the cache's, so never touched.
  const fs::path user_notes = dir_ / ("notes.txt.tmp." + std::to_string(dead));
  const fs::path user_table_name = dir_ / ("mine.pztable.tmp." + std::to_string(dead));
  for (const auto& p : {user_notes, user_table_name}) std::ofstream(p) << "my own work";
  TableStore(dir_.string()).clean_stale_temporaries();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_FALSE(fs::exists(empty));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(own));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_TRUE(fs::exists(user_notes));
  EXPECT_TRUE(fs::exists(user_table_name));
}

// Background builds, caps and budgets. The recipes below capture only shared_ptrs (never the
// test's locals by reference): a background build may outlive the call that started it.
struct BuildLog {
  std::atomic<int> started{0};   // builds that began
  std::atomic<int> finished{0};  // builds that ran to the end
  std::atomic<int> stopped{0};   // builds that saw should_stop() and gave up
};

// A build of `steps` steps of `step_ms` each that checks should_stop() and reports progress at
// every step; with `fail`, it ends with an error instead of a table.
TableRecipe<Bytes> slow_recipe(std::shared_ptr<BuildLog> log, std::string pattern, int steps,
                               int step_ms, bool fail = false) {
  TableRecipe<Bytes> r;
  r.key = TableKey{"test-slow", std::move(pattern), 1};
  r.bytes = SIZE;
  r.background = true;
  r.allocate = [] {
    auto t = std::make_shared<Bytes>();
    t->data.resize(SIZE);
    return t;
  };
  r.build = [log, steps, step_ms, fail](const RunContext& run) -> Result<std::shared_ptr<Bytes>> {
    ++log->started;
    for (int i = 0; i < steps; ++i) {
      if (run.should_stop()) {
        ++log->stopped;
        return run.stop_error();
      }
      run.report({"building the slow table", std::uint64_t(i), std::uint64_t(steps), ""});
      std::this_thread::sleep_for(std::chrono::milliseconds(step_ms));
    }
    ++log->finished;
    if (fail) return make_error("the slow table cannot be built: no goal");
    auto t = std::make_shared<Bytes>();
    t->data.resize(SIZE);
    for (std::size_t i = 0; i < SIZE; ++i) t->data[i] = expected_byte(i);
    return t;
  };
  r.payload = [](Bytes& t) { return std::span<std::uint8_t>(t.data); };
  return r;
}

TableStore::Options background_options() {
  TableStore::Options o;
  o.background_builds = true;
  return o;
}

RunContext within(double seconds) {
  RunContext run;
  run.with_time_limit(std::chrono::duration<double>(seconds));
  return run;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST_F(TableStoreTest, BuildOutlivingItsRequestGoesOnInTheBackgroundOnce) {
  auto log = std::make_shared<BuildLog>();
  TableStore store(dir_.string(), background_options());
  const auto r = slow_recipe(log, "p", 60, 25);  // about 1.5 s
  // The request's progress sink must not be called once the request returned: it counts into
  // a shared counter that is checked after the build went on.
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto phases = std::make_shared<std::vector<std::string>>();
  auto phases_mutex = std::make_shared<std::mutex>();
  RunContext first = within(0.2);
  first.with_progress([calls, phases, phases_mutex](const Progress& p) {
    ++*calls;
    std::lock_guard lock(*phases_mutex);
    phases->push_back(p.phase);
  });
  auto start = std::chrono::steady_clock::now();
  auto stopped = store.obtain(r, first);
  const double waited = seconds_since(start);
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(stopped.error().message.find("table test-slow p is being built in the background ("),
            std::string::npos)
      << stopped.error().message;
  EXPECT_NE(stopped.error().message.find("%"), std::string::npos) << stopped.error().message;
  EXPECT_NE(stopped.error().message.find("try again"), std::string::npos);
  EXPECT_GE(waited, 0.15);
  EXPECT_LT(waited, 1.0);  // well before the 1.5 s build ends
  {
    std::lock_guard lock(*phases_mutex);
    ASSERT_FALSE(phases->empty());
    EXPECT_EQ(phases->front(), "building test-slow p");  // the store's, then the build's own
    EXPECT_NE(std::find(phases->begin(), phases->end(), "building the slow table"), phases->end());
  }
  const int calls_when_returned = calls->load();
  EXPECT_EQ(log->started.load(), 1);

  // A second request (no deadline) joins the same build and gets its table.
  TableReport report;
  auto table = store.obtain(r, RunContext{}, &report);
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_TRUE(has_expected_content(**table));
  EXPECT_EQ(log->started.load(), 1);
  EXPECT_EQ(log->finished.load(), 1);
  EXPECT_EQ(calls->load(), calls_when_returned);
  // The build saved its table like any other: another store loads it.
  EXPECT_TRUE(fs::exists(table_path(dir_.string(), r.key)));
  ASSERT_EQ(store.reports().size(), 1u);
  EXPECT_EQ(store.reports()[0].source, TableReport::Source::Built);
  EXPECT_TRUE(store.reports()[0].saved);

  // The next request shares it in memory.
  auto again = store.obtain(r, within(0.05), &report);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), table->get());
  EXPECT_EQ(report.source, TableReport::Source::Memory);
  EXPECT_EQ(log->started.load(), 1);
}

TEST_F(TableStoreTest, RequestThatComesBackAfterTheBuildUsesTheTable) {
  auto log = std::make_shared<BuildLog>();
  TableStore store(std::string(), background_options());
  const auto r = slow_recipe(log, "p", 20, 10);  // about 0.2 s
  auto stopped = store.obtain(r, within(0.02));
  ASSERT_FALSE(stopped.ok());
  EXPECT_NE(stopped.error().message.find("in the background"), std::string::npos);
  for (int i = 0; i < 500 && log->finished.load() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(log->finished.load(), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the store keeps it
  TableReport report;
  auto table = store.obtain(r, within(0.05), &report);
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_TRUE(has_expected_content(**table));
  EXPECT_EQ(report.source, TableReport::Source::Memory);
  EXPECT_EQ(log->started.load(), 1);
}

TEST_F(TableStoreTest, ConcurrentRequestsShareOneBackgroundBuild) {
  auto log = std::make_shared<BuildLog>();
  TableStore store(dir_.string(), background_options());
  const auto r = slow_recipe(log, "p", 20, 15);
  std::vector<const Bytes*> got(3, nullptr);
  std::vector<TableReport> reports(3);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      auto table = store.obtain(r, RunContext{}, &reports[t]);
      if (table) got[t] = table->get();
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(log->started.load(), 1);
  ASSERT_NE(got[0], nullptr);
  for (auto* p : got) EXPECT_EQ(p, got[0]);
  EXPECT_TRUE(has_expected_content(*got[0]));
  int built = 0;
  for (const auto& rep : reports) built += rep.source == TableReport::Source::Built;
  EXPECT_EQ(built, 1);  // the others shared it
}

TEST_F(TableStoreTest, FailedBackgroundBuildGivesItsErrorToTheWaiters) {
  auto log = std::make_shared<BuildLog>();
  TableStore store(std::string(), background_options());
  const auto r = slow_recipe(log, "p", 10, 20, /*fail=*/true);
  std::vector<std::string> errors(2);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      auto table = store.obtain(r, RunContext{});
      errors[t] = table ? "ok" : table.error().message;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(log->started.load(), 1);
  for (const auto& e : errors) EXPECT_EQ(e, "the slow table cannot be built: no goal");

  // A request that stopped waiting hears of the failure when it comes back, once; the request
  // after that tries again.
  auto left = store.obtain(r, within(0.05));
  ASSERT_FALSE(left.ok());
  EXPECT_NE(left.error().message.find("in the background"), std::string::npos);
  for (int i = 0; i < 500 && log->finished.load() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(log->finished.load(), 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto back = store.obtain(r, within(5));
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.error().message, "the slow table cannot be built: no goal");
  EXPECT_EQ(log->started.load(), 2);
  auto retry = store.obtain(r, RunContext{});
  ASSERT_FALSE(retry.ok());
  EXPECT_EQ(log->started.load(), 3);
}

TEST_F(TableStoreTest, CancelledRequestSaysTheBuildGoesOn) {
  auto log = std::make_shared<BuildLog>();
  TableStore store(std::string(), background_options());
  const auto r = slow_recipe(log, "p", 40, 10);
  std::stop_source cancel;
  RunContext run;
  run.with_stop_token(cancel.get_token());
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.request_stop();
  });
  auto start = std::chrono::steady_clock::now();
  auto table = store.obtain(r, run);
  const double waited = seconds_since(start);
  canceller.join();
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error().kind, ErrorKind::Cancelled);
  EXPECT_NE(table.error().message.find("in the background"), std::string::npos);
  EXPECT_LT(waited, 0.6);  // cancelled at 0.1 s
  auto later = store.obtain(r, RunContext{});
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(log->started.load(), 1);
  EXPECT_EQ(log->stopped.load(), 0);
}

TEST_F(TableStoreTest, DestroyingTheStoreStopsItsBackgroundBuildPromptly) {
  auto log = std::make_shared<BuildLog>();
  std::chrono::steady_clock::time_point start;
  {
    TableStore store(dir_.string(), background_options());
    auto table = store.obtain(slow_recipe(log, "p", 6000, 10), within(0.1));  // a minute
    ASSERT_FALSE(table.ok());
    EXPECT_EQ(log->started.load(), 1);
    start = std::chrono::steady_clock::now();
  }
  EXPECT_LT(seconds_since(start), 1.0);
  EXPECT_EQ(log->stopped.load(), 1);
  EXPECT_EQ(log->finished.load(), 0);
  EXPECT_FALSE(fs::exists(table_path(dir_.string(), slow_recipe(log, "p", 1, 1).key)));
}

TEST_F(TableStoreTest, WithoutBackgroundBuildsTheRequestStopsItsOwnBuild) {
  // The CLI's store: a build stopped with its request is not continued.
  auto log = std::make_shared<BuildLog>();
  TableStore store;
  const auto r = slow_recipe(log, "p", 100, 10);
  auto start = std::chrono::steady_clock::now();
  auto table = store.obtain(r, within(0.1));
  ASSERT_FALSE(table.ok());
  EXPECT_LT(seconds_since(start), 0.6);
  EXPECT_EQ(table.error().kind, ErrorKind::LimitExceeded);
  EXPECT_EQ(table.error().message.find("background"), std::string::npos);
  EXPECT_EQ(log->stopped.load(), 1);
}

TEST_F(TableStoreTest, MemoryCapDropsUnusedTablesOnly) {
  auto log = std::make_shared<BuildLog>();
  TableStore::Options options;
  options.max_memory_bytes = 2 * SIZE;
  TableStore store(std::string(), options);  // no disk: a dropped table is built again
  auto a = store.obtain(slow_recipe(log, "a", 1, 0), RunContext{});
  ASSERT_TRUE(a.ok());
  {
    auto b = store.obtain(slow_recipe(log, "b", 1, 0), RunContext{});
    ASSERT_TRUE(b.ok());
  }  // nobody holds b any more
  EXPECT_EQ(store.memory_bytes(), 2 * SIZE);
  auto c = store.obtain(slow_recipe(log, "c", 1, 0), RunContext{});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(log->started.load(), 3);
  EXPECT_EQ(store.memory_bytes(), 2 * SIZE);  // b went; a is held, c is the newest

  TableReport report;
  auto a_again = store.obtain(slow_recipe(log, "a", 1, 0), RunContext{}, &report);
  ASSERT_TRUE(a_again.ok());
  EXPECT_EQ(a_again->get(), a->get());  // held: never dropped
  EXPECT_EQ(report.source, TableReport::Source::Memory);
  EXPECT_EQ(log->started.load(), 3);
  auto b_again = store.obtain(slow_recipe(log, "b", 1, 0), RunContext{}, &report);
  ASSERT_TRUE(b_again.ok());
  EXPECT_EQ(report.source, TableReport::Source::Built);  // it had been dropped
  EXPECT_EQ(log->started.load(), 4);
  // a, b and c are all held now: over the cap, nothing can go.
  store.trim();
  EXPECT_EQ(store.memory_bytes(), 3 * SIZE);
  c = Result<std::shared_ptr<const Bytes>>(make_error("released"));
  store.trim();
  EXPECT_EQ(store.memory_bytes(), 2 * SIZE);
  EXPECT_TRUE(has_expected_content(**a));
}

TEST_F(TableStoreTest, OverBudgetEstimateIsRefusedBeforeTheBuild) {
  auto log = std::make_shared<BuildLog>();
  for (bool background : {false, true}) {
    TableStore store(dir_.string(), background ? background_options() : TableStore::Options{});
    auto r = slow_recipe(log, background ? "big-bg" : "big", 1, 0);
    r.estimated_bytes = std::uint64_t(3) << 30;
    RunContext run;
    run.with_memory_budget(std::uint64_t(256) << 20);
    auto table = store.obtain(r, run);
    ASSERT_FALSE(table.ok());
    EXPECT_EQ(table.error().kind, ErrorKind::LimitExceeded);
    EXPECT_EQ(table.error().message.rfind("the table test-slow big", 0), 0u)
        << table.error().message;
    EXPECT_NE(table.error().message.find("needs about 3.3 GB"), std::string::npos)
        << table.error().message;
    EXPECT_NE(table.error().message.find("memory budget of 269 MB"), std::string::npos)
        << table.error().message;
    // Within the budget it is built.
    run.with_memory_budget(std::uint64_t(4) << 30);
    ASSERT_TRUE(store.obtain(r, run).ok());
  }
  EXPECT_EQ(log->started.load(), 2);  // once each, within the budget
}

TEST_F(TableStoreTest, DiskCapRemovesTheOldestDefinitionTables) {
  auto log = std::make_shared<BuildLog>();
  auto keyed = [&](std::string puzzle) {
    auto r = slow_recipe(log, "p", 1, 0);
    r.key.puzzle = std::move(puzzle);
    return r;
  };
  TableStore::Options options;
  options.max_disk_bytes = 2 * SIZE + 2 * 200;  // two tables with their headers, not three
  TableStore store(dir_.string(), options);
  ASSERT_TRUE(store.obtain(keyed("other-1"), RunContext{}).ok());
  ASSERT_TRUE(store.obtain(keyed("def-1"), RunContext{}).ok());
  ASSERT_TRUE(store.obtain(keyed("def-2"), RunContext{}).ok());
  // Make the ages certain whatever the file system's clock resolution.
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(table_path(dir_.string(), keyed("other-1").key), now - std::chrono::hours(2));
  fs::last_write_time(table_path(dir_.string(), keyed("def-1").key), now - std::chrono::hours(1));
  fs::last_write_time(table_path(dir_.string(), keyed("def-2").key), now - std::chrono::minutes(1));
  // A user's file named like a definition table, and the oldest: not a table, never removed.
  const fs::path user_file = dir_ / "def-notes.pztable";
  std::ofstream(user_file) << std::string(SIZE, 'x');
  fs::last_write_time(user_file, now - std::chrono::hours(3));
  ASSERT_TRUE(store.obtain(keyed("def-3"), RunContext{}).ok());
  EXPECT_TRUE(fs::exists(user_file));
  fs::remove(user_file);
  EXPECT_TRUE(fs::exists(table_path(dir_.string(), keyed("other-1").key)));  // not capped
  EXPECT_FALSE(fs::exists(table_path(dir_.string(), keyed("def-1").key)));   // the oldest
  EXPECT_TRUE(fs::exists(table_path(dir_.string(), keyed("def-2").key)));
  EXPECT_TRUE(fs::exists(table_path(dir_.string(), keyed("def-3").key)));  // just saved
  EXPECT_EQ(files_in(dir_), 3u);
}

TEST_F(TableStoreTest, WaitForASharedObjectEndsWithTheRunContext) {
  TableStore store;
  std::atomic<bool> making{false};
  std::thread maker([&] {
    auto made = store.shared<int>("slow object", [&]() -> Result<std::shared_ptr<int>> {
      making = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(600));
      return std::make_shared<int>(7);
    });
    EXPECT_TRUE(made.ok());
  });
  while (!making) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  int made_here = 0;
  auto make = [&]() -> Result<std::shared_ptr<int>> {
    ++made_here;
    return std::make_shared<int>(8);
  };
  auto start = std::chrono::steady_clock::now();
  auto waited = store.shared<int>("slow object", make, within(0.1));
  EXPECT_LT(seconds_since(start), 0.6);
  ASSERT_FALSE(waited.ok());
  EXPECT_EQ(waited.error().kind, ErrorKind::LimitExceeded);
  auto later = store.shared<int>("slow object", make, RunContext{});
  maker.join();
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(**later, 7);  // the first maker's object, made once
  EXPECT_EQ(made_here, 0);
}

}  // namespace table_store_test
}  // namespace permuzzle
