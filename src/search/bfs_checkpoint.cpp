#include "permuzzle/search/bfs_checkpoint.hpp"

#include <fmt/format.h>

#include <cstring>
#include <functional>
#include <optional>

#include "permuzzle/core/cluster.hpp"
#include "permuzzle/core/table_cache.hpp"

namespace permuzzle::search {

namespace {

// The layouts are in the header.

// Every process learns whether every process's step worked (`mine`), so that all stop together;
// `others_failed` is the error of a process whose own step worked.
Status all_agree(Cluster& cluster, Status mine, const char* others_failed) {
  std::vector<std::uint64_t> failed{mine ? 0u : 1u};
  cluster.max(failed);
  if (!mine) return mine;
  if (failed[0] != 0) return make_error(others_failed, {}, Error::NO_POSITION, ErrorKind::Io);
  return Ok{};
}

// The levels a record holds: [level, <header>..., histogram (level + 1 values), weighted (none,
// or level + 1 values: the positions per distance of a weighted search)].
struct Levels {
  std::vector<std::uint64_t> histogram;
  std::vector<std::uint64_t> weighted;
};

Result<Levels> split_levels(const std::vector<std::uint64_t>& record, std::size_t header) {
  const std::uint64_t count = record[0] + 1;
  const std::size_t values = record.size() - header;
  if (record[0] >= record.size() || (values != count && values != 2 * count)) {
    return make_error("--resume: the checkpoint record is inconsistent", {}, Error::NO_POSITION,
                      ErrorKind::Io);
  }
  const auto first = record.begin() + static_cast<std::ptrdiff_t>(header);
  const auto middle = first + static_cast<std::ptrdiff_t>(count);
  return Levels{std::vector<std::uint64_t>(first, middle),
                std::vector<std::uint64_t>(middle, record.end())};
}

// One process.

struct Checkpoint {
  BfsCheckpointName name;
  TableKey table_key(int level) const {
    return {name.family, name.prefix + "-level" + std::to_string(level), name.format};
  }
  TableKey record_key() const { return {name.family, name.prefix + "-record", name.format}; }

  Status save(const BfsTable& table, const std::vector<std::uint64_t>& histogram,
              const std::vector<std::uint64_t>& weighted) const {
    const int level = static_cast<int>(histogram.size()) - 1;
    if (auto ok = save_table(name.dir, table_key(level),
                             reinterpret_cast<const std::uint8_t*>(table.words()), table.bytes());
        !ok) {
      return ok.error();
    }
    std::vector<std::uint64_t> record{static_cast<std::uint64_t>(level)};
    record.insert(record.end(), histogram.begin(), histogram.end());
    record.insert(record.end(), weighted.begin(), weighted.end());
    if (auto ok =
            save_table(name.dir, record_key(), reinterpret_cast<const std::uint8_t*>(record.data()),
                       record.size() * sizeof(std::uint64_t));
        !ok) {
      return ok.error();
    }
    if (level > 0) remove_table(name.dir, table_key(level - 1));
    return Ok{};
  }

  // The histogram (and weights) of the last checkpoint, its table loaded into `table`.
  Result<Levels> load(BfsTable& table) const {
    std::vector<std::uint8_t> bytes;
    const TableLoadOutcome rec = load_table(name.dir, record_key(), bytes);
    if (rec.status != TableLoadStatus::Loaded || bytes.size() < 16 || bytes.size() % 8 != 0) {
      return make_error(
          fmt::format("--resume: no usable checkpoint of this puzzle, metric and table "
                      "width in {} ({})",
                      name.dir, rec.status == TableLoadStatus::Missing ? "missing" : rec.detail),
          {}, Error::NO_POSITION, ErrorKind::Io);
    }
    std::vector<std::uint64_t> record(bytes.size() / 8);
    std::memcpy(record.data(), bytes.data(), bytes.size());
    auto levels = split_levels(record, 1);
    if (!levels) return levels.error();
    const int level = static_cast<int>(levels->histogram.size()) - 1;
    const TableLoadOutcome t = load_table(
        name.dir, table_key(level), reinterpret_cast<std::uint8_t*>(table.words()), table.bytes());
    if (t.status != TableLoadStatus::Loaded) {
      return make_error(
          fmt::format("--resume: the checkpoint table of level {} cannot be used ({})", level,
                      t.detail),
          {}, Error::NO_POSITION, ErrorKind::Io);
    }
    return levels;
  }
};

// Checkpoints of a distributed search, in <dir>: per process r and level L a slice
// "<prefix>-b<block>-p<P>-r<r>-level<L>" (its table words) and a record "<prefix>-p<P>-r<r>"
// [level, P, block, histogram...] (u64 each). After level L: every process writes its slice,
// all wait, every process replaces its record, all wait, every process removes its slice of
// L-1. Whatever process dies wherever, the records say L-1 or L, and the slices of the smallest
// level recorded are all there. The directory may be shared (resuming with another number of
// processes reads every old slice) or local to each node (same number of processes).
struct DistributedCheckpoint {
  BfsCheckpointName name;
  std::uint64_t block = 0;

  TableKey slice_key(int processes, int process, int level) const {
    return {name.family,
            fmt::format("{}-b{}-p{}-r{}-level{}", name.prefix, block, processes, process, level),
            name.format};
  }
  TableKey record_key(int processes, int process) const {
    return {name.family, fmt::format("{}-p{}-r{}", name.prefix, processes, process), name.format};
  }

  Status save(Cluster& cluster, const BfsTable& table, const std::vector<std::uint64_t>& histogram,
              const std::vector<std::uint64_t>& weighted) const {
    const int level = static_cast<int>(histogram.size()) - 1;
    const int P = cluster.size(), r = cluster.rank();
    auto agree = [&](Status ok) {
      return all_agree(cluster, std::move(ok),
                       "--checkpoint: another process could not write its checkpoint");
    };
    if (auto ok =
            agree(save_table(name.dir, slice_key(P, r, level),
                             reinterpret_cast<const std::uint8_t*>(table.words()), table.bytes()));
        !ok) {
      return ok;
    }
    std::vector<std::uint64_t> record{static_cast<std::uint64_t>(level),
                                      static_cast<std::uint64_t>(P), block};
    record.insert(record.end(), histogram.begin(), histogram.end());
    record.insert(record.end(), weighted.begin(), weighted.end());
    if (auto ok = agree(save_table(name.dir, record_key(P, r),
                                   reinterpret_cast<const std::uint8_t*>(record.data()),
                                   record.size() * sizeof(std::uint64_t)));
        !ok) {
      return ok;
    }
    if (level > 0) remove_table(name.dir, slice_key(P, r, level - 1));
    return Ok{};
  }

  // A record: [level, P, block, histogram...].
  Result<std::vector<std::uint64_t>> read_record(int processes, int process) const {
    std::vector<std::uint8_t> bytes;
    const TableLoadOutcome rec = load_table(name.dir, record_key(processes, process), bytes);
    if (rec.status != TableLoadStatus::Loaded || bytes.size() < 32 || bytes.size() % 8 != 0) {
      return make_error(
          fmt::format("--resume: no usable checkpoint record of process {} of {} for this "
                      "puzzle, metric and table width in {} ({})",
                      process, processes, name.dir,
                      rec.status == TableLoadStatus::Missing ? "missing" : rec.detail),
          {}, Error::NO_POSITION, ErrorKind::Io);
    }
    std::vector<std::uint64_t> record(bytes.size() / 8);
    std::memcpy(record.data(), bytes.data(), bytes.size());
    if (record[1] != static_cast<std::uint64_t>(processes) || record[2] != block ||
        !split_levels(record, 3)) {
      return make_error("--resume: a checkpoint record is inconsistent", {}, Error::NO_POSITION,
                        ErrorKind::Io);
    }
    return record;
  }

  // The number of processes that wrote the checkpoint: the records present (this number's
  // first, then 1, 2, ...).
  std::optional<int> writers(int processes) const {
    std::vector<std::uint8_t> bytes;
    if (load_table(name.dir, record_key(processes, 0), bytes).status == TableLoadStatus::Loaded) {
      return processes;
    }
    for (int p = 1; p <= 4096; ++p) {
      if (load_table(name.dir, record_key(p, 0), bytes).status == TableLoadStatus::Loaded) return p;
    }
    return std::nullopt;
  }

  // Loads this process's slice of the last level every writer recorded; returns its levels.
  Result<Levels> load(Cluster& cluster, BfsSlice& slice) const {
    auto result = load_local(cluster, slice);
    // Every process resumes, or none does.
    if (auto ok = all_agree(cluster, result ? Status(Ok{}) : Status(result.error()),
                            "--resume: another process could not read its checkpoint");
        !ok) {
      return ok.error();
    }
    return result;
  }

  Result<Levels> load_local(Cluster& cluster, BfsSlice& slice) const {
    const int P = cluster.size();
    const std::optional<int> old_p = writers(P);
    if (!old_p) {
      return make_error(
          fmt::format("--resume: no checkpoint of this puzzle, metric and table width in {}",
                      name.dir),
          {}, Error::NO_POSITION, ErrorKind::Io);
    }
    // Step 1. The smallest level recorded (a process may have died between the records).
    Levels levels;
    for (int q = 0; q < *old_p; ++q) {
      auto record = read_record(*old_p, q);
      if (!record) return record.error();
      Levels h = *split_levels(*record, 3);
      if (levels.histogram.empty() || h.histogram.size() < levels.histogram.size()) {
        levels = std::move(h);
      }
    }
    const int level = static_cast<int>(levels.histogram.size()) - 1;
    // Step 2. The slice: this process's own file, or its blocks out of every old slice.
    BfsTable& table = slice.table();
    if (*old_p == P) {
      const TableLoadOutcome t =
          load_table(name.dir, slice_key(P, cluster.rank(), level),
                     reinterpret_cast<std::uint8_t*>(table.words()), table.bytes());
      if (t.status != TableLoadStatus::Loaded) {
        return make_error(fmt::format("--resume: the checkpoint slice of level {} cannot be "
                                      "used ({})",
                                      level, t.detail),
                          {}, Error::NO_POSITION, ErrorKind::Io);
      }
      return levels;
    }
    const unsigned bits = static_cast<unsigned>(table.bits());
    const std::uint64_t block_words = block * bits / 64;
    for (int q = 0; q < *old_p; ++q) {
      auto old = BfsSlice::create(slice.states(), table.bits(), block, *old_p, q);
      if (!old) return old.error();
      const TableLoadOutcome t =
          load_table(name.dir, slice_key(*old_p, q, level),
                     reinterpret_cast<std::uint8_t*>(old->table().words()), old->table().bytes());
      if (t.status != TableLoadStatus::Loaded) {
        return make_error(fmt::format("--resume: the checkpoint slice of process {} of {} at "
                                      "level {} cannot be used ({})",
                                      q, *old_p, level, t.detail),
                          {}, Error::NO_POSITION, ErrorKind::Io);
      }
      const std::uint64_t old_blocks = old->table().bytes() / 8 / block_words;
      for (std::uint64_t lb = 0; lb < old_blocks; ++lb) {
        const std::uint64_t rank = old->global_rank(lb * block);
        if (rank >= slice.states() || slice.owner(rank) != slice.process()) continue;
        std::memcpy(table.words() + slice.local_index(rank) / (64 / bits),
                    old->table().words() + lb * block_words, block_words * 8);
      }
    }
    return levels;
  }
};

// Loads the last checkpoint (`load()` gives its histogram) when resuming, then runs `save` after
// whatever bo.on_level did before; returns the level resumed from, or -1.
template <class Load>
Result<int> attach(const BfsCheckpointName& name, bool resume, BfsOptions& bo, Load&& load,
                   std::function<Status(const BfsTable&, const std::vector<std::uint64_t>&,
                                        const std::vector<std::uint64_t>&)>
                       save) {
  if (name.dir.empty()) {
    if (resume) return make_error("--resume needs --checkpoint DIR");
    return -1;
  }
  int resumed_from = -1;
  if (resume) {
    Result<Levels> levels = load();
    if (!levels) return levels.error();
    if (levels->weighted.empty() != !bo.weight) {
      return make_error(fmt::format("--resume: the checkpoint in {} was written by a search {} "
                                    "symmetry classes",
                                    name.dir, bo.weight ? "without" : "over"),
                        {}, Error::NO_POSITION, ErrorKind::Io);
    }
    resumed_from = static_cast<int>(levels->histogram.size()) - 1;
    bo.resume_histogram = std::move(levels->histogram);
    bo.resume_weighted = std::move(levels->weighted);
  }
  auto before = std::move(bo.on_level);
  bo.on_level = [before = std::move(before), save = std::move(save)](
                    const BfsTable& t, const std::vector<std::uint64_t>& h,
                    const std::vector<std::uint64_t>& w) -> Status {
    if (before) {
      if (auto ok = before(t, h, w); !ok) return ok;
    }
    return save(t, h, w);
  };
  return resumed_from;
}

}  // namespace

Result<int> use_checkpoints(const BfsCheckpointName& name, bool resume, BfsTable& table,
                            BfsOptions& bo) {
  const Checkpoint checkpoint{name};
  return attach(
      name, resume, bo, [&] { return checkpoint.load(table); },
      [checkpoint](const BfsTable& t, const std::vector<std::uint64_t>& h,
                   const std::vector<std::uint64_t>& w) { return checkpoint.save(t, h, w); });
}

Result<int> use_checkpoints(const BfsCheckpointName& name, bool resume, Cluster& cluster,
                            BfsSlice& slice, BfsOptions& bo) {
  const DistributedCheckpoint checkpoint{name, slice.block()};
  return attach(
      name, resume, bo, [&] { return checkpoint.load(cluster, slice); },
      [checkpoint, &cluster](const BfsTable& t, const std::vector<std::uint64_t>& h,
                             const std::vector<std::uint64_t>& w) {
        return checkpoint.save(cluster, t, h, w);
      });
}

}  // namespace permuzzle::search
