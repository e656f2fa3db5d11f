#include "permuzzle/core/table_store.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <exception>
#include <filesystem>
#include <new>
#include <string_view>
#include <system_error>
#include <thread>

namespace permuzzle {

namespace {

// An advisory cross-process lock on `path` (flock on a side file), so that two processes that
// miss the same table build it once: the second waits, then finds the first one's file. The wait
// polls, so that a caller whose RunContext says stop does not wait for another process's build.
class FileLock {
 public:
  explicit FileLock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  // Waits for the lock while `run` allows. Without a lock file (an unwritable cache) there is
  // nothing to wait for: Ok, unlocked.
  Status lock(const RunContext& run) {
    while (fd_ >= 0) {
      if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return Ok{};
      if (errno != EWOULDBLOCK && errno != EINTR) {
        ::close(fd_);
        fd_ = -1;
        break;
      }
      if (run.should_stop()) return run.stop_error();
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return Ok{};
  }
  // Takes the lock only if nobody holds it.
  bool try_lock() { return fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) == 0; }

 private:
  int fd_ = -1;
};

std::string table_name(const TableKey& key) {
  return key.puzzle + " " + key.pattern;
}

std::string status_reason(const TableLoadOutcome& outcome) {
  switch (outcome.status) {
    case TableLoadStatus::Loaded:
      return "";
    case TableLoadStatus::Missing:
      return "missing";
    case TableLoadStatus::Stale:
      return "stale: " + outcome.detail;
    case TableLoadStatus::Corrupt:
      return "corrupt: " + outcome.detail;
  }
  return "";
}

}  // namespace

std::string describe(const TableReport& r) {
  std::string name = r.puzzle + " " + r.pattern;
  std::string out;
  switch (r.source) {
    case TableReport::Source::Memory:
      out = "shared " + name + " (already in memory)";
      break;
    case TableReport::Source::Loaded:
      out = "loaded " + name + " from " + r.path;
      break;
    case TableReport::Source::Built:
      out = "built " + name + " (" + r.reason + ")";
      if (r.saved) out += ", saved to " + r.path;
      break;
  }
  if (!r.warning.empty()) out += "; warning: " + r.warning;
  return out;
}

TableCheckpoint::TableCheckpoint(std::string dir, TableKey key, std::chrono::seconds interval)
    : dir_(interval.count() > 0 ? std::move(dir) : std::string()),
      key_(std::move(key)),
      interval_(interval) {}

TableKey TableCheckpoint::payload_key() const {
  return TableKey{key_.puzzle, key_.pattern + "+partial", key_.format_version};
}

TableKey TableCheckpoint::progress_key() const {
  return TableKey{key_.puzzle, key_.pattern + "+partial-at", key_.format_version};
}

std::uint64_t TableCheckpoint::saved_progress() const {
  if (!active()) return 0;
  std::uint64_t progress = 0;
  auto* at = reinterpret_cast<std::uint8_t*>(&progress);
  if (load_table(dir_, progress_key(), at, sizeof progress).status != TableLoadStatus::Loaded) {
    return 0;
  }
  return progress;
}

std::uint64_t TableCheckpoint::resume(std::span<std::uint8_t> payload) const {
  const std::uint64_t progress = saved_progress();
  if (progress == 0 || load_table(dir_, payload_key(), payload.data(), payload.size()).status !=
                           TableLoadStatus::Loaded) {
    return 0;
  }
  return progress;
}

bool TableCheckpoint::due() const {
  if (!active()) return false;
  const auto since = std::chrono::steady_clock::now() - last_;
  return since >= interval_ && since >= 10 * last_save_;
}

void TableCheckpoint::save(std::span<const std::uint8_t> payload, std::uint64_t progress) {
  if (!active()) return;
  const auto start = std::chrono::steady_clock::now();
  // Step 1. The payload, then the number (see the class comment for why in this order).
  Status saved = save_table(dir_, payload_key(), payload.data(), payload.size());
  if (saved) {
    saved = save_table(dir_, progress_key(), reinterpret_cast<const std::uint8_t*>(&progress),
                       sizeof progress);
  }
  // Step 2. The next one is due an interval from now.
  last_ = std::chrono::steady_clock::now();
  last_save_ = last_ - start;
  if (!saved) warning_ = "could not save a checkpoint: " + saved.error().message;
}

void TableCheckpoint::remove() const {
  if (!active()) return;
  remove_table(dir_, progress_key());  // the number first: a payload alone is never resumed
  remove_table(dir_, payload_key());
}

// A background load or build: its result for the requests waiting, its latest progress for the
// message of those that stop waiting.
struct TableStore::Job {
  std::mutex mutex;  // guards the fields below up to `sinks`
  std::condition_variable_any done_cv;
  bool done = false;
  std::optional<Result<std::shared_ptr<void>>> result;
  TableReport report;
  Progress latest;
  bool building = false;  // past the load: building (else loading or waiting for a lock)
  int waiters = 0;
  Stopwatch clock;
  // The progress sinks of the requests waiting now, called under sinks_mutex so that a request
  // that stops waiting (and removes its sink) is never called afterwards.
  std::mutex sinks_mutex;
  std::map<std::uint64_t, ProgressSink> sinks;
  std::uint64_t next_sink = 0;
  RunContext run;  // no deadline, the store's stop token, progress to the sinks
  std::thread thread;
  std::atomic<bool> finished{false};  // the thread has nothing left to do: join it

  // Registers run's progress sink (0: run wants no progress).
  std::uint64_t add_sink(const RunContext& run) {
    if (!run.wants_progress()) return 0;
    std::lock_guard lock(sinks_mutex);
    sinks.emplace(++next_sink, run.progress_sink());
    return next_sink;
  }
  void forward(const Progress& p) {
    {
      std::lock_guard lock(mutex);
      latest = p;
      // The store says "building <table>" (or "rebuilding") before it calls the build.
      if (p.phase.rfind("building ", 0) == 0 || p.phase.rfind("rebuilding ", 0) == 0) {
        building = true;
      }
    }
    std::lock_guard lock(sinks_mutex);
    for (auto& [id, sink] : sinks) sink(p);
  }
  // "43%, 12 s so far": for the message of a request that stops waiting (mutex held).
  std::string progress_text() const {
    std::string out;
    if (latest.total != 0) {
      const double percent = 100.0 * double(latest.done) / double(latest.total);
      out = std::to_string(static_cast<int>(std::min(99.0, percent))) + "%, ";
    }
    return out + std::to_string(static_cast<long long>(clock.seconds())) + " s so far";
  }
};

// Polling: a build holds the lock for seconds, and a waiter must answer by its deadline.
Status TableStore::lock_while_running(std::mutex& mutex, const RunContext& run) {
  for (int wait_ms = 1; !mutex.try_lock(); wait_ms = std::min(wait_ms * 2, 20)) {
    if (run.should_stop()) return run.stop_error();
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
  }
  return Ok{};
}

TableStore::TableStore(std::string dir) : dir_(std::move(dir)) {}

TableStore::TableStore(std::string dir, Options options)
    : dir_(std::move(dir)), options_(std::move(options)) {}

TableStore::~TableStore() {
  stop_.request_stop();
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs = jobs_;  // the threads need mutex_ to finish: join them outside it
  }
  for (auto& job : jobs) {
    if (job->thread.joinable()) job->thread.join();
  }
}

TableStore::Options TableStore::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

void TableStore::set_options(Options options) {
  std::vector<std::shared_ptr<void>> dropped;
  {
    std::lock_guard lock(mutex_);
    options_ = std::move(options);
    dropped = trim_locked(nullptr);
  }
}  // dropped tables are freed here, outside the lock

std::uint64_t TableStore::memory_bytes() const {
  std::lock_guard lock(mutex_);
  std::uint64_t total = 0;
  for (const auto& [key, s] : slots_) {
    if (s->table && s->value) total += s->bytes;
  }
  return total;
}

void TableStore::trim() {
  std::vector<std::shared_ptr<void>> dropped;
  std::lock_guard lock(mutex_);
  dropped = trim_locked(nullptr);
}

TableStore::Slot& TableStore::slot(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto& s = slots_[key];
  if (!s) s = std::make_unique<Slot>();
  return *s;
}

std::vector<TableReport> TableStore::reports() const {
  std::lock_guard lock(mutex_);
  return reports_;
}

void TableStore::add_report(TableReport report) {
  std::lock_guard lock(mutex_);
  reports_.push_back(std::move(report));
}

void TableStore::clean_stale_temporaries() const {
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir_, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    // save_table writes "<name>.pztable.tmp.<pid>" and renames it into place. Only such a
    // file, begun by save_table (is_table_file), is removed: a user's own file stays.
    const std::string name = it->path().filename().string();
    std::size_t tmp = name.rfind(".pztable.tmp.");
    if (tmp == std::string::npos) continue;
    tmp += std::string_view(".pztable").size();
    std::string_view pid_text = std::string_view(name).substr(tmp + 5);
    if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string_view::npos ||
        pid_text.size() > 9) {
      continue;
    }
    pid_t pid = static_cast<pid_t>(std::stol(std::string(pid_text)));
    if (pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno == EPERM) continue;  // its writer still runs
    if (!is_table_file(it->path().string())) continue;
    std::error_code remove_ec;
    std::filesystem::remove(it->path(), remove_ec);
  }
}

std::vector<std::shared_ptr<void>> TableStore::trim_locked(const Slot* keep) {
  std::vector<std::shared_ptr<void>> dropped;
  const std::uint64_t cap = options_.max_memory_bytes;
  if (cap == 0) return dropped;
  std::uint64_t total = 0;
  for (const auto& [key, s] : slots_) {
    if (s->table && s->value) total += s->bytes;
  }
  while (total > cap) {
    // The least recently used table that only this store holds: a copy of its pointer can only
    // be taken under mutex_, so a use count of 1 stays 1 until it is dropped.
    Slot* victim = nullptr;
    for (const auto& [key, s] : slots_) {
      if (!s->table || !s->value || s.get() == keep || s->value.use_count() != 1) continue;
      if (victim == nullptr || s->last_use < victim->last_use) victim = s.get();
    }
    if (victim == nullptr) break;  // the rest is held by callers
    total -= victim->bytes;
    dropped.push_back(std::move(victim->value));
    victim->value.reset();
  }
  return dropped;
}

void TableStore::keep(Slot& s, std::shared_ptr<void> value, std::uint64_t bytes) {
  std::vector<std::shared_ptr<void>> dropped;
  std::lock_guard lock(mutex_);
  s.table = true;
  s.value = std::move(value);
  s.bytes = bytes;
  s.last_use = ++use_clock_;
  dropped = trim_locked(&s);
}

bool TableStore::disk_capped(const TableKey& key) const {
  std::lock_guard lock(mutex_);
  return !dir_.empty() && options_.max_disk_bytes != 0 &&
         key.puzzle.rfind(options_.disk_prefix, 0) == 0;
}

void TableStore::cap_disk(const TableKey& used) const {
  if (!disk_capped(used)) return;
  const Options options = this->options();
  namespace fs = std::filesystem;
  const std::string prefix = table_file_prefix(options.disk_prefix);
  const fs::path used_path = table_path(dir_, used);
  struct File {
    fs::path path;
    std::uint64_t size;
    fs::file_time_type time;
  };
  std::vector<File> files;
  std::uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0 || it->path().extension() != ".pztable" ||
        !is_table_file(it->path().string())) {
      continue;
    }
    std::error_code size_ec, time_ec;
    const std::uint64_t size = it->file_size(size_ec);
    const fs::file_time_type time = it->last_write_time(time_ec);
    if (size_ec || time_ec) continue;
    total += size;
    if (it->path() != used_path) files.push_back({it->path(), size, time});
  }
  std::sort(files.begin(), files.end(),
            [](const File& a, const File& b) { return a.time < b.time; });
  for (const File& f : files) {
    if (total <= options.max_disk_bytes) break;
    // A file another thread or process is loading or building (its lock held) stays. (One that
    // opens the lock file just before it is removed may build the table a second time: the
    // cost of a race that only wastes work.)
    FileLock lock(f.path.string() + ".lock");
    if (!lock.try_lock()) continue;
    std::error_code remove_ec;
    if (fs::remove(f.path, remove_ec)) total -= f.size;
    fs::remove(f.path.string() + ".lock", remove_ec);
  }
}

Result<std::shared_ptr<void>> TableStore::load_or_build(const ErasedRecipe& recipe,
                                                        const RunContext& run,
                                                        TableReport& report) {
  const TableKey& key = recipe.key;
  const std::string name = table_name(key);
  const std::string what = "the table " + name;
  const std::uint64_t build_bytes = std::max(recipe.bytes, recipe.estimated_bytes);
  Stopwatch watch;
  // Step 1. Without a directory: build in memory, never save.
  if (!persistent()) {
    if (Status fits = run.check_memory(build_bytes, what); !fits) return fits.error();
    report.reason = "no table cache";
    run.report(
        {"building " + name, 1, 1,
         recipe.build_note.empty() ? report.reason : report.reason + "; " + recipe.build_note});
    TableCheckpoint none;
    auto built = recipe.build ? recipe.build(run) : recipe.resumable_build(run, none);
    if (!built) return built.error();
    report.source = TableReport::Source::Built;
    report.seconds = watch.seconds();
    return *built;
  }
  // Step 2. Take the cross-process lock (best effort: an unwritable cache has no lock), then
  // load and verify. A second process waits here and then finds the first one's file.
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  clean_stale_temporaries();
  FileLock lock(report.path + ".lock");
  if (Status locked = lock.lock(run); !locked) return locked.error();
  if (!std::filesystem::exists(report.path, ec)) {
    report.reason = "missing";  // no buffer to allocate for a file that is not there
  } else {
    if (Status fits = run.check_memory(recipe.bytes, what); !fits) return fits.error();
    std::shared_ptr<void> table = recipe.allocate();
    if (!table) {
      return make_error(
          "out of memory for the table " + name + " (" + std::to_string(recipe.bytes) + " bytes)",
          {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    std::span<std::uint8_t> data = recipe.payload(table.get());
    TableLoadOutcome outcome = load_table(dir_, key, data.data(), data.size());
    report.reason = status_reason(outcome);
    if (outcome.status == TableLoadStatus::Loaded && recipe.loaded) {
      if (Status derived = recipe.loaded(table.get()); !derived) {
        report.reason = "corrupt: " + derived.error().message;
      }
    }
    if (report.reason.empty()) {
      report.source = TableReport::Source::Loaded;
      report.seconds = watch.seconds();
      // Marks the file as recently used for the disk cap (its modification time is its age).
      if (disk_capped(key)) {
        std::filesystem::last_write_time(report.path, std::filesystem::file_time_type::clock::now(),
                                         ec);
      }
      run.report({"loaded " + name, 1, 1, report.path});
      return table;
    }
  }  // the load buffer is released before the build allocates its own
  // Step 3. Build, saying why ("rebuilding" when a file was there but not usable), once the
  // memory it needs is known to be within the budget.
  if (Status fits = run.check_memory(build_bytes, what); !fits) return fits.error();
  TableCheckpoint checkpoint(dir_, key, std::chrono::seconds(options().checkpoint_seconds));
  std::string note =
      recipe.build_note.empty() ? report.reason : report.reason + "; " + recipe.build_note;
  if (recipe.resumable_build && checkpoint.active()) {
    const std::uint32_t minutes = (options().checkpoint_seconds + 59) / 60;
    note +=
        fmt::format("; a checkpoint every {} minute{} at least (a stopped build goes on from it)",
                    minutes, minutes == 1 ? "" : "s");
  }
  // Done = total: a lasting line (a front end shows it whole, not as a passing progress line).
  run.report({(report.reason == "missing" ? "building " : "rebuilding ") + name, 1, 1, note});
  auto built = recipe.build ? recipe.build(run) : recipe.resumable_build(run, checkpoint);
  if (!built) return built.error();
  report.source = TableReport::Source::Built;
  report.seconds = watch.seconds();
  if (!checkpoint.warning().empty()) report.warning = checkpoint.warning();
  // Step 4. Save, best effort: the caller gets the table either way.
  std::span<std::uint8_t> data = recipe.payload(built->get());
  Status saved = save_table(dir_, key, data.data(), data.size());
  report.saved = saved.ok();
  if (saved) {
    checkpoint.remove();
    run.report({"saved " + name, 1, 1, report.path});
    cap_disk(key);
  } else {
    if (!report.warning.empty()) report.warning += "; ";
    report.warning += "could not save the table: " + saved.error().message;
    run.report({"not saved " + name, 1, 1, report.warning});
  }
  return *built;
}

Result<std::shared_ptr<void>> TableStore::obtain_erased(ErasedRecipe recipe, const RunContext& run,
                                                        TableReport* out) {
  const TableKey& key = recipe.key;
  Slot& s =
      slot("table:" + key.puzzle + "\n" + key.pattern + "\n" + std::to_string(key.format_version));
  bool background = false;
  std::vector<std::shared_ptr<void>> dropped;  // freed after the lock is released
  {
    std::lock_guard lock(mutex_);
    s.table = true;
    dropped = trim_locked(&s);  // tables released since the last call
    if (s.value) return shared_locked(recipe, s, out);
    background = recipe.background && options_.background_builds;
  }
  if (background) return obtain_background(std::move(recipe), s, run, out);
  return obtain_here(recipe, s, run, out);
}

// Caller holds mutex_: the table already in memory, reported as shared from memory.
std::shared_ptr<void> TableStore::shared_locked(const ErasedRecipe& recipe, Slot& s,
                                                TableReport* out) {
  if (out) {
    TableReport report;
    report.puzzle = recipe.key.puzzle;
    report.pattern = recipe.key.pattern;
    report.bytes = recipe.bytes;
    if (persistent()) report.path = table_path(dir_, recipe.key);
    report.source = TableReport::Source::Memory;
    *out = report;
  }
  s.last_use = ++use_clock_;
  return s.value;
}

Result<std::shared_ptr<void>> TableStore::obtain_here(const ErasedRecipe& recipe, Slot& s,
                                                      const RunContext& run, TableReport* out) {
  const TableKey& key = recipe.key;
  if (Status locked = lock_while_running(s.build, run); !locked) return locked.error();
  std::unique_lock build_lock(s.build, std::adopt_lock);
  TableReport report;
  report.puzzle = key.puzzle;
  report.pattern = key.pattern;
  report.bytes = recipe.bytes;
  if (persistent()) report.path = table_path(dir_, key);
  {
    // Another caller may have finished it while this one waited.
    std::lock_guard lock(mutex_);
    if (s.value) {
      report.source = TableReport::Source::Memory;
      if (out) *out = report;
      s.last_use = ++use_clock_;
      return s.value;
    }
  }
  auto made = load_or_build(recipe, run, report);
  if (!made) return made.error();
  if (out) *out = report;
  // Only loads and builds are listed: a long-lived process (a server) shares its tables in
  // memory thousands of times, and the list stays one entry per table.
  add_report(report);
  keep(s, *made, recipe.bytes);
  return *made;
}

void TableStore::run_job(const ErasedRecipe& recipe, Slot& s, const std::shared_ptr<Job>& job) {
  const RunContext& run = job->run;
  TableReport report;
  report.puzzle = recipe.key.puzzle;
  report.pattern = recipe.key.pattern;
  report.bytes = recipe.bytes;
  if (persistent()) report.path = table_path(dir_, recipe.key);
  std::optional<Result<std::shared_ptr<void>>> result;
  // Step 1. The slot's build lock: a build of the same key in a caller's thread may run.
  if (Status locked = lock_while_running(s.build, run); !locked) {
    result = locked.error();
  } else {
    std::unique_lock build_lock(s.build, std::adopt_lock);
    {
      std::lock_guard lock(mutex_);
      if (s.value) {
        report.source = TableReport::Source::Memory;
        result = s.value;
      }
    }
    // Step 2. Load or build. Nobody above this thread catches: exceptions become errors here.
    if (!result) {
      try {
        result = load_or_build(recipe, run, report);
      } catch (const std::bad_alloc&) {
        result = make_error("out of memory while building the table " + table_name(recipe.key), {},
                            Error::NO_POSITION, ErrorKind::LimitExceeded);
      } catch (const std::exception& e) {
        result = make_error(
            "internal error while building the table " + table_name(recipe.key) + ": " + e.what(),
            {}, Error::NO_POSITION, ErrorKind::Internal);
      }
      if (*result) {
        add_report(report);
        keep(s, **result, recipe.bytes);
      }
    }
  }
  // Step 3. Hand the result to the waiters; an error nobody waits for is kept for the next
  // request, so that someone hears of it.
  {
    std::lock_guard store_lock(mutex_);
    std::lock_guard lock(job->mutex);
    if (s.job == job) s.job.reset();  // no request joins it any more
    if (job->waiters > 0) {
      job->result = std::move(result);  // the last waiter to leave releases it
    } else if (!*result) {
      s.failed = result->error();
    }
    job->report = report;
    job->done = true;
  }
  job->done_cv.notify_all();
}

Result<std::shared_ptr<void>> TableStore::obtain_background(ErasedRecipe recipe, Slot& s,
                                                            const RunContext& run,
                                                            TableReport* out) {
  const TableKey key = recipe.key;
  const std::string name = table_name(key);
  // Step 1. The memory the request would add, before anything starts: the payload to load, or
  // what the build needs when there is no file to load.
  std::uint64_t need = recipe.bytes;
  std::error_code ec;
  if (!persistent() || !std::filesystem::exists(table_path(dir_, key), ec)) {
    need = std::max(recipe.bytes, recipe.estimated_bytes);
  }
  // Step 2. Join the build in flight, or start one on a thread of the store.
  std::shared_ptr<Job> job;
  bool started = false;
  std::uint64_t sink_id = 0;
  {
    std::lock_guard lock(mutex_);
    if (s.value) return shared_locked(recipe, s, out);  // finished since obtain_erased looked
    if (s.failed) {
      Error error = std::move(*s.failed);
      s.failed.reset();
      return error;
    }
    job = s.job;
    if (!job) {
      if (Status fits = run.check_memory(need, "the table " + name); !fits) return fits.error();
      // Reap the threads of finished builds.
      std::erase_if(jobs_, [](const std::shared_ptr<Job>& j) {
        if (!j->finished.load()) return false;
        if (j->thread.joinable()) j->thread.join();
        return true;
      });
      job = std::make_shared<Job>();
      Job* raw = job.get();
      sink_id = job->add_sink(run);  // before the thread starts: the request sees it all
      job->run.with_stop_token(stop_.get_token())
          .with_threads(run.requested_threads())
          .with_memory_budget(run.memory_budget())
          .with_progress([raw](const Progress& p) { raw->forward(p); });
      try {
        job->thread = std::thread([this, recipe = std::move(recipe), &s, job] {
          run_job(recipe, s, job);
          job->finished = true;
        });
      } catch (const std::system_error& e) {
        return make_error("could not start building the table " + name + ": " + e.what(), {},
                          Error::NO_POSITION, ErrorKind::LimitExceeded);
      }
      s.job = job;
      jobs_.push_back(job);
      started = true;
    } else {
      sink_id = job->add_sink(run);
    }
    {
      std::lock_guard job_lock(job->mutex);
      ++job->waiters;
    }
  }
  // Step 3. Wait until the build is done or this request must stop.
  std::unique_lock lock(job->mutex);
  auto done = [&] { return job->done; };
  std::stop_token token = run.stop_token();
  if (auto deadline = run.deadline()) {
    job->done_cv.wait_until(lock, token, *deadline, done);
  } else {
    job->done_cv.wait(lock, token, done);
  }
  --job->waiters;
  const bool finished = job->done;
  std::optional<Result<std::shared_ptr<void>>> result;
  TableReport report = job->report;
  std::string progress = job->progress_text();
  const bool building = job->building;
  if (finished) {
    result = *job->result;
    // The job's copy would keep the table in memory beyond the memory cap.
    if (job->waiters == 0) job->result.reset();
  }
  lock.unlock();
  if (sink_id != 0) {
    std::lock_guard sinks_lock(job->sinks_mutex);
    job->sinks.erase(sink_id);
  }
  // Step 4. The table, the build's error, or the news that it goes on without this request.
  if (finished) {
    if (!*result) return result->error();
    if (!started) {
      report.source = TableReport::Source::Memory;
      report.reason.clear();
      report.saved = false;
      report.warning.clear();
      report.seconds = 0;
    }
    if (out) *out = report;
    return **result;
  }
  const std::string news = "table " + name + " is being " + (building ? "built" : "loaded") +
                           " in the background (" + progress + ")";
  if (token.stop_requested()) {
    return make_error(
        "cancelled: the request was stopped; the " + news + " and will be ready for a later one",
        {}, Error::NO_POSITION, ErrorKind::Cancelled);
  }
  return make_error(news + "; try again in a moment", {}, Error::NO_POSITION,
                    ErrorKind::LimitExceeded);
}

}  // namespace permuzzle
