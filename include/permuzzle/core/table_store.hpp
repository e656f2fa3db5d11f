// The table store: the one policy for generated tables (pattern databases, distance tables,
// solver tables), shared by every puzzle.
//
//   obtain(key) = in memory already? -> share it
//               : take the cross-process lock for the key
//                 -> load and verify the cached file (table_cache.hpp: header, size, checksum)
//                 -> otherwise check the memory budget, build (reporting why: missing, stale,
//                    corrupt)
//                 -> save, best effort (a cache that cannot be written gives a warning and the
//                    table, never a failure)
//
// A store with no directory (`--tables none`) never touches the disk. A front end owns one store
// for the whole process and passes it to every solver, so that solvers of one process share their
// tables in memory (this replaces function-static caches), and concurrent callers asking for the
// same missing table wait for one build while other tables proceed.
//
// Builds that outlive their request. In a long-lived process (a server) a first-use table can take
// longer than one request may run. A store whose options allow background builds runs the load or
// build of a recipe marked `background` on a thread of its own, with no deadline but the store's
// own stop token; the request waits for it only until its own RunContext says stop, and then gets
// a LimitExceeded error saying that the table is being built in the background, with its
// progress. The build goes on exactly once: later requests for the same table join it, and use
// the table once it is done. A build that fails gives its error to the requests waiting for it (or,
// when none waits, to the next request; the one after that tries again). The store's destructor
// stops and joins its background builds.
//
// Caps. Tables in memory can be capped in bytes (Options::max_memory_bytes): the least recently
// used tables that nobody holds any more are dropped (a later request loads them again). Table
// files whose puzzle name starts with Options::disk_prefix (definition-file tables, "def-") can
// be capped on disk (Options::max_disk_bytes): the least recently used files go first.
#pragma once

#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_cache.hpp"

namespace permuzzle {

// What happened to one table, for the front ends to show ("loaded ... from ...", "rebuilt ...
// because the file is stale (...)", "could not save ...: ...").
struct TableReport {
  enum class Source { Memory, Loaded, Built };
  std::string puzzle;
  std::string pattern;
  std::string path;  // the cache file ("" without a directory)
  Source source = Source::Built;
  std::string reason;   // why it was built: "missing", "stale: ...", "corrupt: ...", "no cache"
  bool saved = false;   // written to the cache after building
  std::string warning;  // why saving failed (the table is still returned)
  double seconds = 0;   // time to load or build
  std::uint64_t bytes = 0;
};

std::string describe(const TableReport& report);

// A long build's checkpoint, so that a build stopped anywhere (the process killed, the machine
// rebooted) goes on later from its last checkpoint instead of from nothing. Kept in the cache
// directory beside the table as two table files (table_cache.hpp: atomic, checksummed):
// "<pattern>+partial", the payload as far as it is built, and "<pattern>+partial-at", a number
// saying how far that is (its meaning is the recipe's: the next start of a depth-first build). The
// payload is saved before the number, so a crash between the two leaves an older number beside a
// newer payload: builds that use checkpoints must be able to redo a step already in the payload
// (marks that keep a minimum can). The store removes both files once the table is saved.
// Inactive (no directory, or the store's checkpoint interval 0): nothing to resume, saves nothing.
class TableCheckpoint {
 public:
  TableCheckpoint() = default;
  TableCheckpoint(std::string dir, TableKey key, std::chrono::seconds interval);
  bool active() const { return !dir_.empty(); }
  // How far the saved checkpoint got (reads the number only); 0 when there is none.
  std::uint64_t saved_progress() const;
  // Fills `payload` from the saved checkpoint (of exactly its size) and returns how far it got; 0
  // when there is none usable (missing, stale, corrupt), and then `payload`'s content is
  // unspecified.
  std::uint64_t resume(std::span<std::uint8_t> payload) const;
  // Whether a checkpoint is due: the interval has passed since the build began or was last saved,
  // and at least ten times the last save's duration (a save of GBs takes a minute: at most a
  // tenth of the build goes to saving).
  bool due() const;
  // Saves `payload` and then `progress`, best effort: a failure is kept in warning() and the build
  // goes on.
  void save(std::span<const std::uint8_t> payload, std::uint64_t progress);
  // Removes both files (the store does, once the table itself is saved).
  void remove() const;
  const std::string& warning() const { return warning_; }

 private:
  TableKey payload_key() const;
  TableKey progress_key() const;
  std::string dir_;
  TableKey key_;
  std::chrono::seconds interval_{0};
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::duration last_save_{0};
  std::string warning_;
};

// How to make one table of type T. The payload that is loaded and saved is the span returned by
// `payload` (the table's own storage, so that tables of hundreds of MB need no second copy).
// The key and the payload bytes are the file format: a recipe must keep them byte-identical
// across versions unless it bumps key.format_version. One key names one type T.
//
// `background`: the recipe's callbacks may run after obtain() returned, on the store's thread,
// because they hold (by value or shared_ptr) everything they read and capture nothing of their
// caller by reference; `build` must then use the RunContext it is given (the store's: no
// deadline, the store's stop token, the progress of whichever request waits), never the caller's.
// Recipes that capture their caller's locals leave it false and are built in the caller's thread
// with the caller's RunContext, as before.
template <class T>
struct TableRecipe {
  TableKey key;
  std::uint64_t bytes = 0;  // expected payload size (also what a load allocates)
  // Optional: the memory a build needs at its peak (the table and its frontiers), when more than
  // `bytes`; checked against the requesting RunContext's memory budget before anything is built.
  std::uint64_t estimated_bytes = 0;
  bool background = false;  // see above
  // Optional: what a user should know before a build starts (how long it takes), said in the
  // "building" report.
  std::string build_note;
  std::function<std::shared_ptr<T>()> allocate;  // empty table of the right size (null: no memory)
  std::function<Result<std::shared_ptr<T>>(const RunContext&)> build;
  // Instead of `build`, for builds of many minutes: the same, with the table's checkpoint (see
  // TableCheckpoint) to resume from and to save into as it goes. A recipe sets exactly one.
  std::function<Result<std::shared_ptr<T>>(const RunContext&, TableCheckpoint&)> resumable_build;
  std::function<std::span<std::uint8_t>(T&)> payload;
  // Optional: after a verified load, derives what is not in the payload (a histogram, the
  // largest value). An error makes the file count as corrupt: the table is rebuilt.
  std::function<Status(T&)> loaded;
};

class TableStore {
 public:
  struct Options {
    // Run builds of `background` recipes on the store's thread so that they outlive the request
    // that started them (a server, a long-lived Python process). Off: every build runs in its
    // caller's thread and stops with its caller's RunContext (the CLI: the process ends anyway).
    bool background_builds = false;
    // Bytes of tables kept in memory (0 = no cap). Over the cap, the least recently used tables
    // nobody holds are dropped after each obtain(); held tables are never dropped, so the total
    // may stay above the cap while they are in use.
    std::uint64_t max_memory_bytes = 0;
    // Bytes of table files in the directory whose puzzle name starts with `disk_prefix` (0 = no
    // cap). After such a table is saved, the least recently used of those files (by the time they
    // were last saved or loaded) are removed until the total fits; the file just used stays.
    std::uint64_t max_disk_bytes = 0;
    std::string disk_prefix = "def-";
    // Seconds between checkpoints of the builds that take them (TableRecipe::resumable_build;
    // 0 = none).
    std::uint32_t checkpoint_seconds = 600;
  };

  // `dir` empty: no disk cache at all (tables are built in memory and never saved).
  explicit TableStore(std::string dir = {});
  TableStore(std::string dir, Options options);
  // Stops the background builds (their RunContext's stop token) and waits for them.
  ~TableStore();
  TableStore(const TableStore&) = delete;
  TableStore& operator=(const TableStore&) = delete;

  const std::string& dir() const { return dir_; }
  bool persistent() const { return !dir_.empty(); }
  Options options() const;
  // A front end sets its policy once it knows what it runs (the CLI's `serve`); applies to the
  // following calls.
  void set_options(Options options);

  // Bytes of tables the store keeps in memory now (held by callers or not).
  std::uint64_t memory_bytes() const;
  // Drops the least recently used tables nobody holds until the memory cap is met (obtain() does
  // this itself; a front end may call it when requests end).
  void trim();

  // Load, verify, build and save one table as described above. Errors only when building fails
  // (or is cancelled, or the table is over run's memory budget, or a background build outlives
  // run); cache problems become warnings in the report. Progress goes to run.report: "loaded
  // ...", "building ..." (message: why), the build's own progress, then "saved ..." or "not saved
  // ...". `report` (optional) receives what happened to this table for this caller.
  template <class T>
  Result<std::shared_ptr<const T>> obtain(const TableRecipe<T>& recipe, const RunContext& run,
                                          TableReport* report = nullptr);

  // An object shared in memory only (solver instances with their small tables): built once per
  // process by `make`, under a per-key lock so that concurrent callers wait for one build.
  template <class T>
  Result<std::shared_ptr<T>> shared(const std::string& key,
                                    const std::function<Result<std::shared_ptr<T>>()>& make);
  // The same, but a caller that finds another one making the object waits only while `run`
  // allows (then: run's stop error).
  template <class T>
  Result<std::shared_ptr<T>> shared(const std::string& key,
                                    const std::function<Result<std::shared_ptr<T>>()>& make,
                                    const RunContext& run);

  // Every table loaded or built so far, in order (for "tables" result fields and warnings);
  // later shares of a table in memory are reported to their caller only.
  std::vector<TableReport> reports() const;
  void add_report(TableReport report);

  // Removes temporary files left in the directory by processes that no longer run.
  void clean_stale_temporaries() const;

 private:
  // A recipe with its type erased; callbacks take the table as void*.
  struct ErasedRecipe {
    TableKey key;
    std::uint64_t bytes = 0;
    std::uint64_t estimated_bytes = 0;
    bool background = false;
    std::string build_note;
    std::function<std::shared_ptr<void>()> allocate;
    std::function<Result<std::shared_ptr<void>>(const RunContext&)> build;
    std::function<Result<std::shared_ptr<void>>(const RunContext&, TableCheckpoint&)>
        resumable_build;
    std::function<std::span<std::uint8_t>(void*)> payload;
    std::function<Status(void*)> loaded;
  };
  struct Job;  // a background load or build (table_store.cpp)
  struct Slot {
    std::mutex build;             // held while loading or building this key
    std::shared_ptr<void> value;  // set once built; guarded by mutex_ for tables
    std::uint64_t bytes = 0;      // the table's payload size (tables only)
    std::uint64_t last_use = 0;   // use_clock_ when last obtained
    bool table = false;           // a table (capped), not a shared() object
    std::shared_ptr<Job> job;     // the background build in flight, if any
    std::optional<Error> failed;  // a background build's error nobody waited for
  };
  Slot& slot(const std::string& key);
  // Takes `mutex` when it is free, polling, unless run says stop first.
  static Status lock_while_running(std::mutex& mutex, const RunContext& run);
  Result<std::shared_ptr<void>> obtain_erased(ErasedRecipe recipe, const RunContext& run,
                                              TableReport* out);
  // Load -> verify -> build -> save for one key, in the calling thread (the caller holds the
  // slot's build lock).
  Result<std::shared_ptr<void>> load_or_build(const ErasedRecipe& recipe, const RunContext& run,
                                              TableReport& report);
  std::shared_ptr<void> shared_locked(const ErasedRecipe& recipe, Slot& s, TableReport* out);
  Result<std::shared_ptr<void>> obtain_here(const ErasedRecipe& recipe, Slot& s,
                                            const RunContext& run, TableReport* out);
  Result<std::shared_ptr<void>> obtain_background(ErasedRecipe recipe, Slot& s,
                                                  const RunContext& run, TableReport* out);
  void run_job(const ErasedRecipe& recipe, Slot& s, const std::shared_ptr<Job>& job);
  // Keeps `value` in the slot as the most recently used table, then drops what is over the cap.
  void keep(Slot& s, std::shared_ptr<void> value, std::uint64_t bytes);
  // Drops what is over the memory cap (mutex_ held); returns the dropped tables, so that the
  // caller frees them outside the lock.
  std::vector<std::shared_ptr<void>> trim_locked(const Slot* keep);
  bool disk_capped(const TableKey& key) const;  // under Options::max_disk_bytes
  void cap_disk(const TableKey& used) const;

  std::string dir_;
  std::stop_source stop_;     // stops the background builds
  mutable std::mutex mutex_;  // guards slots_ (and their values), reports_, options_, jobs_
  Options options_;
  std::uint64_t use_clock_ = 0;
  std::map<std::string, std::unique_ptr<Slot>> slots_;
  std::vector<TableReport> reports_;
  std::vector<std::shared_ptr<Job>> jobs_;  // background builds, joined when done or at the end
};

template <class T>
Result<std::shared_ptr<const T>> TableStore::obtain(const TableRecipe<T>& recipe,
                                                    const RunContext& run, TableReport* report) {
  // The callbacks are copied (not referenced): a background build may outlive this call.
  assert(bool(recipe.build) != bool(recipe.resumable_build));
  ErasedRecipe erased;
  erased.key = recipe.key;
  erased.bytes = recipe.bytes;
  erased.estimated_bytes = recipe.estimated_bytes;
  erased.background = recipe.background;
  erased.build_note = recipe.build_note;
  erased.allocate = [allocate = recipe.allocate] {
    return std::static_pointer_cast<void>(allocate());
  };
  if (recipe.build) {
    erased.build = [build = recipe.build](const RunContext& r) -> Result<std::shared_ptr<void>> {
      auto built = build(r);
      if (!built) return built.error();
      return std::static_pointer_cast<void>(*built);
    };
  }
  if (recipe.resumable_build) {
    erased.resumable_build = [build = recipe.resumable_build](
                                 const RunContext& r,
                                 TableCheckpoint& c) -> Result<std::shared_ptr<void>> {
      auto built = build(r, c);
      if (!built) return built.error();
      return std::static_pointer_cast<void>(*built);
    };
  }
  erased.payload = [payload = recipe.payload](void* table) {
    return payload(*static_cast<T*>(table));
  };
  if (recipe.loaded) {
    erased.loaded = [loaded = recipe.loaded](void* table) {
      return loaded(*static_cast<T*>(table));
    };
  }
  auto result = obtain_erased(std::move(erased), run, report);
  if (!result) return result.error();
  return std::shared_ptr<const T>(std::static_pointer_cast<const T>(*result));
}

template <class T>
Result<std::shared_ptr<T>> TableStore::shared(
    const std::string& key, const std::function<Result<std::shared_ptr<T>>()>& make) {
  return shared<T>(key, make, RunContext{});
}

template <class T>
Result<std::shared_ptr<T>> TableStore::shared(
    const std::string& key, const std::function<Result<std::shared_ptr<T>>()>& make,
    const RunContext& run) {
  Slot& s = slot("object:" + key);
  if (Status locked = lock_while_running(s.build, run); !locked) return locked.error();
  std::lock_guard lock(s.build, std::adopt_lock);
  if (s.value) return std::static_pointer_cast<T>(s.value);
  auto made = make();
  if (!made) return made.error();
  s.value = *made;
  return *made;
}

}  // namespace permuzzle
