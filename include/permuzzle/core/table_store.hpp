// The table store: the one policy for generated tables (pattern databases, distance tables,
// solver tables), shared by every puzzle.
//
//   obtain(key) = in memory already? -> share it
//               : take the cross-process lock for the key
//                 -> load and verify the cached file (table_cache.hpp: header, size, checksum)
//                 -> otherwise build (reporting why: missing, stale, corrupt)
//                 -> save, best effort (a cache that cannot be written gives a warning and the
//                    table, never a failure)
//
// A store with no directory (`--tables none`) never touches the disk. A front end owns one store
// for the whole process and passes it to every solver, so that solvers of one process share their
// tables in memory (this replaces function-static caches), and concurrent callers asking for the
// same missing table wait for one build while other tables proceed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
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

// How to make one table of type T. The payload that is loaded and saved is the span returned by
// `payload` (the table's own storage, so that tables of hundreds of MB need no second copy).
// The key and the payload bytes are the file format: a recipe must keep them byte-identical
// across versions unless it bumps key.format_version. One key names one type T.
template <class T>
struct TableRecipe {
  TableKey key;
  std::uint64_t bytes = 0;                       // expected payload size
  std::function<std::shared_ptr<T>()> allocate;  // empty table of the right size (null: no memory)
  std::function<Result<std::shared_ptr<T>>(const RunContext&)> build;
  std::function<std::span<std::uint8_t>(T&)> payload;
  // Optional: after a verified load, derives what is not in the payload (a histogram, the
  // largest value). An error makes the file count as corrupt: the table is rebuilt.
  std::function<Status(T&)> loaded;
};

class TableStore {
 public:
  // `dir` empty: no disk cache at all (tables are built in memory and never saved).
  explicit TableStore(std::string dir = {});
  TableStore(const TableStore&) = delete;
  TableStore& operator=(const TableStore&) = delete;

  const std::string& dir() const { return dir_; }
  bool persistent() const { return !dir_.empty(); }

  // Load, verify, build and save one table as described above. Errors only when building fails
  // (or is cancelled); cache problems become warnings in the report. Progress goes to
  // run.report: "loaded ...", "building ..." (message: why), then "saved ..." or "not saved ...".
  // `report` (optional) receives what happened to this table for this caller.
  template <class T>
  Result<std::shared_ptr<const T>> obtain(const TableRecipe<T>& recipe, const RunContext& run,
                                          TableReport* report = nullptr);

  // An object shared in memory only (solver instances with their small tables): built once per
  // process by `make`, under a per-key lock so that concurrent callers wait for one build.
  template <class T>
  Result<std::shared_ptr<T>> shared(const std::string& key,
                                    const std::function<Result<std::shared_ptr<T>>()>& make);

  // Every table loaded or built so far, in order (for "tables" result fields and warnings);
  // later shares of a table in memory are reported to their caller only.
  std::vector<TableReport> reports() const;
  void add_report(TableReport report);

  // Removes temporary files left in the directory by processes that no longer run.
  void clean_stale_temporaries() const;

 private:
  struct Slot {
    std::mutex build;             // held while loading or building this key
    std::shared_ptr<void> value;  // set once built
  };
  Slot& slot(const std::string& key);
  // Loads or builds through type-erased callbacks; defined in table_store.cpp.
  Result<std::shared_ptr<void>> obtain_bytes(
      const TableKey& key, std::uint64_t bytes,
      const std::function<std::shared_ptr<void>()>& allocate,
      const std::function<Result<std::shared_ptr<void>>(const RunContext&)>& build,
      const std::function<std::span<std::uint8_t>(void*)>& payload,
      const std::function<Status(void*)>& loaded, const RunContext& run, TableReport* out);

  std::string dir_;
  mutable std::mutex mutex_;  // guards slots_ and reports_
  std::map<std::string, std::unique_ptr<Slot>> slots_;
  std::vector<TableReport> reports_;
};

template <class T>
Result<std::shared_ptr<const T>> TableStore::obtain(const TableRecipe<T>& recipe,
                                                    const RunContext& run, TableReport* report) {
  std::function<Status(void*)> loaded;
  if (recipe.loaded) loaded = [&](void* table) { return recipe.loaded(*static_cast<T*>(table)); };
  auto result = obtain_bytes(
      recipe.key, recipe.bytes, [&] { return std::static_pointer_cast<void>(recipe.allocate()); },
      [&](const RunContext& r) -> Result<std::shared_ptr<void>> {
        auto built = recipe.build(r);
        if (!built) return built.error();
        return std::static_pointer_cast<void>(*built);
      },
      [&](void* table) { return recipe.payload(*static_cast<T*>(table)); }, loaded, run, report);
  if (!result) return result.error();
  return std::shared_ptr<const T>(std::static_pointer_cast<const T>(*result));
}

template <class T>
Result<std::shared_ptr<T>> TableStore::shared(
    const std::string& key, const std::function<Result<std::shared_ptr<T>>()>& make) {
  Slot& s = slot("object:" + key);
  std::lock_guard lock(s.build);
  if (s.value) return std::static_pointer_cast<T>(s.value);
  auto made = make();
  if (!made) return made.error();
  s.value = *made;
  return *made;
}

}  // namespace permuzzle
