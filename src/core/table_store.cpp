#include "permuzzle/core/table_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <string_view>
#include <system_error>

namespace permuzzle {

namespace {

// An advisory cross-process lock on `path` (flock on a side file), so that two processes that
// miss the same table build it once: the second waits, then finds the first one's file.
class FileLock {
 public:
  explicit FileLock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool locked() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

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

TableStore::TableStore(std::string dir) : dir_(std::move(dir)) {}

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
    // save_table writes "<name>.tmp.<pid>" and renames it into place.
    const std::string name = it->path().filename().string();
    std::size_t tmp = name.rfind(".tmp.");
    if (tmp == std::string::npos) continue;
    std::string_view pid_text = std::string_view(name).substr(tmp + 5);
    if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string_view::npos ||
        pid_text.size() > 9) {
      continue;
    }
    pid_t pid = static_cast<pid_t>(std::stol(std::string(pid_text)));
    if (pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno == EPERM) continue;  // its writer still runs
    std::error_code remove_ec;
    std::filesystem::remove(it->path(), remove_ec);
  }
}

Result<std::shared_ptr<void>> TableStore::obtain_bytes(
    const TableKey& key, std::uint64_t bytes,
    const std::function<std::shared_ptr<void>()>& allocate,
    const std::function<Result<std::shared_ptr<void>>(const RunContext&)>& build,
    const std::function<std::span<std::uint8_t>(void*)>& payload,
    const std::function<Status(void*)>& loaded, const RunContext& run, TableReport* out) {
  Slot& s =
      slot("table:" + key.puzzle + "\n" + key.pattern + "\n" + std::to_string(key.format_version));
  std::lock_guard build_lock(s.build);
  TableReport report;
  report.puzzle = key.puzzle;
  report.pattern = key.pattern;
  report.bytes = bytes;
  if (persistent()) report.path = table_path(dir_, key);
  auto finish = [&](std::shared_ptr<void> value) -> Result<std::shared_ptr<void>> {
    if (out) *out = report;
    // Only loads and builds are listed: a long-lived process (a server) shares its tables in
    // memory thousands of times, and the list stays one entry per table.
    if (report.source != TableReport::Source::Memory) add_report(std::move(report));
    s.value = std::move(value);
    return s.value;
  };
  if (s.value) {
    report.source = TableReport::Source::Memory;
    return finish(s.value);
  }
  const std::string name = key.puzzle + " " + key.pattern;
  Stopwatch watch;
  // Step 1. Without a directory: build in memory, never save.
  if (!persistent()) {
    report.reason = "no table cache";
    run.report({"building " + name, 0, 0, report.reason});
    auto built = build(run);
    if (!built) return built.error();
    report.seconds = watch.seconds();
    return finish(*built);
  }
  // Step 2. Take the cross-process lock (best effort: an unwritable cache has no lock), then
  // load and verify. A second process waits here and then finds the first one's file.
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  clean_stale_temporaries();
  FileLock lock(report.path + ".lock");
  {
    std::shared_ptr<void> table = allocate();
    if (!table) {
      return make_error(
          "out of memory for the table " + name + " (" + std::to_string(bytes) + " bytes)", {},
          Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    std::span<std::uint8_t> data = payload(table.get());
    TableLoadOutcome outcome = load_table(dir_, key, data.data(), data.size());
    report.reason = status_reason(outcome);
    if (outcome.status == TableLoadStatus::Loaded && loaded) {
      if (Status derived = loaded(table.get()); !derived) {
        report.reason = "corrupt: " + derived.error().message;
      }
    }
    if (report.reason.empty()) {
      report.source = TableReport::Source::Loaded;
      report.seconds = watch.seconds();
      run.report({"loaded " + name, 1, 1, report.path});
      return finish(std::move(table));
    }
  }  // the load buffer is released before the build allocates its own
  // Step 3. Build, saying why ("rebuilding" when a file was there but not usable).
  run.report(
      {(report.reason == "missing" ? "building " : "rebuilding ") + name, 0, 0, report.reason});
  auto built = build(run);
  if (!built) return built.error();
  report.seconds = watch.seconds();
  // Step 4. Save, best effort: the caller gets the table either way.
  std::span<std::uint8_t> data = payload(built->get());
  Status saved = save_table(dir_, key, data.data(), data.size());
  report.saved = saved.ok();
  if (saved) {
    run.report({"saved " + name, 1, 1, report.path});
  } else {
    report.warning = "could not save the table: " + saved.error().message;
    run.report({"not saved " + name, 1, 1, report.warning});
  }
  return finish(*built);
}

}  // namespace permuzzle
