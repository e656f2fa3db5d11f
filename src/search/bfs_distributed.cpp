#include "permuzzle/search/bfs_distributed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <mutex>
#include <thread>

namespace permuzzle::search {

namespace {

// Message tags: a batch of children (varints: the level, then the differences of the sorted
// local indices, the first one from 0) and the end of a process's level (empty).
constexpr int TAG_BATCH = 1;
constexpr int TAG_LEVEL_DONE = 2;

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v) | 0x80);
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

// The varint at b[i] (put_varint's coding); i moves past it.
std::uint64_t get_varint(const std::vector<std::uint8_t>& b, std::size_t& i) {
  std::uint64_t v = 0;
  for (unsigned shift = 0; i < b.size(); shift += 7) {
    const std::uint8_t byte = b[i++];
    v |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) break;
  }
  return v;
}

// Sorts `values` by 11-bit digits, least significant first (as many as the largest value has):
// a batch of 65,536 local indices below 2^22 takes 2 passes, several times faster than a
// comparison sort. `scratch` is the second buffer (its capacity is kept).
void radix_sort(std::vector<std::uint64_t>& values, std::vector<std::uint64_t>& scratch) {
  constexpr unsigned DIGIT = 11;
  constexpr std::size_t BUCKETS = std::size_t{1} << DIGIT;
  std::uint64_t largest = 0;
  for (std::uint64_t v : values) largest = std::max(largest, v);
  scratch.resize(values.size());
  std::vector<std::uint32_t> count(BUCKETS);
  for (unsigned shift = 0; shift < 64 && (largest >> shift) != 0; shift += DIGIT) {
    std::fill(count.begin(), count.end(), 0);
    for (std::uint64_t v : values) ++count[(v >> shift) & (BUCKETS - 1)];
    std::uint32_t sum = 0;
    for (std::uint32_t& c : count) {
      const std::uint32_t n = c;
      c = sum;
      sum += n;
    }
    for (std::uint64_t v : values) scratch[count[(v >> shift) & (BUCKETS - 1)]++] = v;
    values.swap(scratch);
  }
}

// Raises `peak` to at least `value`.
void raise(std::atomic<std::uint64_t>& peak, std::uint64_t value) {
  std::uint64_t old = peak.load(std::memory_order_relaxed);
  while (old < value && !peak.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
  }
}

}  // namespace

// One level's traffic of one process: the threads' outboxes send through it, and whichever
// thread holds its lock applies the batches that arrive (claims into the slice, atomic as the
// scanning threads claim too).
class BfsExchange {
 public:
  // `weight`: BfsOptions::weight (null or empty: no weights).
  BfsExchange(Cluster& cluster, BfsSlice& slice, const BfsLevel& level, std::uint64_t in_flight,
              std::uint64_t fixed_bytes, const BfsWeight* weight = nullptr)
      : cluster_(cluster),
        slice_(slice),
        level_(level),
        in_flight_limit_(in_flight),
        fixed_bytes_(fixed_bytes),
        weight_(weight != nullptr && *weight ? weight : nullptr) {}

  void send(int to, std::vector<std::uint64_t>& batch, std::vector<std::uint64_t>& scratch) {
    radix_sort(batch, scratch);
    batch.erase(std::unique(batch.begin(), batch.end()), batch.end());
    std::vector<std::uint8_t> bytes;
    bytes.reserve(batch.size() * 3 + 2);
    put_varint(bytes, static_cast<std::uint64_t>(level_.depth));
    std::uint64_t previous = 0;
    for (std::uint64_t index : batch) {
      put_varint(bytes, index - previous);
      previous = index;
    }
    ranks_sent_.fetch_add(batch.size(), std::memory_order_relaxed);
    bytes_sent_.fetch_add(bytes.size(), std::memory_order_relaxed);
    batch.clear();
    std::lock_guard lock(mutex_);
    // Bounded: while the batches in flight would pass their share of the budget, apply what
    // arrives (so the others can finish receiving ours) instead of queueing more.
    WaitBackoff backoff;
    while (true) {
      const std::uint64_t in_flight = cluster_.in_flight_bytes();
      if (in_flight == 0 || in_flight + bytes.size() <= in_flight_limit_) {
        raise(peak_, in_flight + bytes.size());
        break;
      }
      backoff.after(apply_one());
    }
    cluster_.send(to, TAG_BATCH, std::move(bytes));
  }

  void poll() {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    for (int i = 0; i < 64 && apply_one(); ++i) {
    }
  }

  // After every thread's scan and flush: the end-of-level handshake.
  void finish() {
    std::lock_guard lock(mutex_);
    const int processes = slice_.processes();
    for (int q = 0; q < processes; ++q) {
      if (q != slice_.process()) cluster_.send(q, TAG_LEVEL_DONE, {});
    }
    WaitBackoff backoff;
    while (done_from_ < processes - 1 || cluster_.in_flight_bytes() > 0) {
      backoff.after(apply_one());
    }
  }

  std::uint64_t found() const { return found_.load(); }
  std::uint64_t found_weight() const { return found_weight_.load(); }
  std::uint64_t bytes_sent() const { return bytes_sent_.load(); }
  std::uint64_t ranks_sent() const { return ranks_sent_.load(); }
  std::uint64_t peak() const { return fixed_bytes_ + peak_.load(); }
  std::uint64_t mismatched() const { return mismatched_.load(); }

 private:
  // Applies one arrived message (the lock held); false when none had arrived.
  bool apply_one() {
    std::optional<Cluster::Message> message = cluster_.receive();
    if (!message) return false;
    if (message->tag == TAG_LEVEL_DONE) {
      ++done_from_;
      return true;
    }
    raise(peak_, cluster_.in_flight_bytes() + message->bytes.size());
    std::uint64_t* words = slice_.table().words();
    const bool two = slice_.table().bits() == BfsBits::Two;
    std::uint64_t index = 0, found = 0, weight = 0;
    const std::vector<std::uint8_t>& b = message->bytes;
    std::size_t i = 0;
    if (get_varint(b, i) != static_cast<std::uint64_t>(level_.depth)) {
      // The level handshake makes this impossible; counted so that a test would see it.
      mismatched_.fetch_add(1, std::memory_order_relaxed);
    }
    while (i < b.size()) {
      index += get_varint(b, i);
      // claim() may only meet "not reached" entries (an AND with the claim's mask would turn a
      // frontier entry into another value), and concurrent claims only ever write nxt there.
      bool claimed = false;
      if (two) {
        if (bfs_detail::load_entry<2>(words, index) == 3u) {
          claimed = bfs_detail::claim<2>(words, index, level_.nxt);
        }
      } else if (bfs_detail::load_entry<4>(words, index) == 15u) {
        claimed = bfs_detail::claim<4>(words, index, level_.nxt);
      }
      if (claimed) {
        ++found;
        if (weight_ != nullptr) weight += (*weight_)(slice_.global_rank(index));
      }
    }
    found_.fetch_add(found, std::memory_order_relaxed);
    found_weight_.fetch_add(weight, std::memory_order_relaxed);
    return true;
  }

  Cluster& cluster_;
  BfsSlice& slice_;
  BfsLevel level_;
  std::uint64_t in_flight_limit_;
  std::uint64_t fixed_bytes_;  // the threads' batch buffers
  std::mutex mutex_;           // one thread talks to the cluster at a time
  int done_from_ = 0;          // end-of-level messages received (under mutex_)
  const BfsWeight* weight_;
  std::atomic<std::uint64_t> found_{0}, found_weight_{0}, bytes_sent_{0}, ranks_sent_{0}, peak_{0};
  std::atomic<std::uint64_t> mismatched_{0};  // batches of another level (must stay 0)
};

BfsOutbox::BfsOutbox(BfsExchange& exchange, int processes, int self, std::size_t capacity)
    : exchange_(&exchange), capacity_(capacity), batches_(static_cast<std::size_t>(processes)) {
  for (int q = 0; q < processes; ++q) {
    if (q != self) batches_[static_cast<std::size_t>(q)].reserve(capacity);
  }
  if (processes > 1) scratch_.reserve(capacity);
}

void BfsOutbox::flush(int to) {
  std::vector<std::uint64_t>& batch = batches_[static_cast<std::size_t>(to)];
  if (!batch.empty()) exchange_->send(to, batch, scratch_);
}

void BfsOutbox::flush_all() {
  for (std::size_t q = 0; q < batches_.size(); ++q) flush(static_cast<int>(q));
}

void BfsOutbox::poll() {
  exchange_->poll();
}

std::uint64_t distributed_block(std::uint64_t states) {
  return std::clamp<std::uint64_t>(std::bit_floor(std::max<std::uint64_t>(states / 1024, 1)), 64,
                                   std::uint64_t{1} << 16);
}

Result<BfsSlice> BfsSlice::create(std::uint64_t states, BfsBits bits, std::uint64_t block,
                                  int processes, int process) {
  if (block == 0 || block % 64 != 0) return make_error("the BFS block must be a multiple of 64");
  if (processes < 1 || process < 0 || process >= processes) {
    return make_error(fmt::format("process {} of {} does not exist", process, processes));
  }
  if (states == 0) return make_error("the BFS state space is empty");
  const std::uint64_t blocks = states / block + (states % block != 0 ? 1 : 0);
  const auto p = static_cast<std::uint64_t>(processes);
  const auto self = static_cast<std::uint64_t>(process);
  const std::uint64_t owned = self < blocks ? (blocks - self + p - 1) / p : 0;
  BfsSlice slice;
  slice.states_ = states;
  slice.block_ = block;
  slice.processes_ = processes;
  slice.process_ = process;
  auto table = BfsTable::create(std::max<std::uint64_t>(owned, 1) * block, bits);
  if (!table) return table.error();
  slice.table_ = std::move(*table);
  return slice;
}

std::vector<unsigned> distributed_entries(Cluster& cluster, const BfsSlice& slice,
                                          std::span<const std::uint64_t> ranks) {
  std::vector<std::uint64_t> values(ranks.size(), std::numeric_limits<std::uint64_t>::max());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] < slice.states() && slice.owner(ranks[i]) == slice.process()) {
      values[i] = slice.table().entry(slice.local_index(ranks[i]));
    }
  }
  cluster.min(values);
  return {values.begin(), values.end()};
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> distributed_smallest(
    Cluster& cluster, std::span<const std::pair<std::uint64_t, std::uint64_t>> mine,
    std::size_t limit) {
  std::vector<std::uint64_t> flat;
  flat.reserve(2 * mine.size());
  for (const auto& [key, rank] : mine) {
    flat.push_back(key);
    flat.push_back(rank);
  }
  std::vector<std::pair<std::uint64_t, std::uint64_t>> all;
  for (const auto& list : cluster.all_gather(flat)) {
    for (std::size_t i = 0; i + 1 < list.size(); i += 2) all.emplace_back(list[i], list[i + 1]);
  }
  std::sort(all.begin(), all.end());
  if (all.size() > limit) all.resize(limit);
  return all;
}

std::vector<std::uint64_t> distributed_find(Cluster& cluster, const BfsSlice& slice, unsigned value,
                                            std::uint64_t from, std::size_t count) {
  // This process's first `count` matches (its local order is the global order), then the first
  // `count` of everyone's.
  std::vector<std::uint64_t> mine;
  const BfsTable& table = slice.table();
  const std::uint64_t first_block = from / slice.block();
  const auto p = static_cast<std::uint64_t>(slice.processes());
  std::uint64_t local =
      (first_block / p + (first_block % p > static_cast<std::uint64_t>(slice.process()) ? 1 : 0)) *
      slice.block();
  for (; local < table.states() && mine.size() < count; ++local) {
    const std::uint64_t rank = slice.global_rank(local);
    if (rank >= slice.states()) break;
    if (rank >= from && table.entry(local) == value) mine.push_back(rank);
  }
  std::vector<std::uint64_t> all;
  for (const auto& list : cluster.all_gather(mine)) all.insert(all.end(), list.begin(), list.end());
  std::sort(all.begin(), all.end());
  if (all.size() > count) all.resize(count);
  return all;
}

namespace bfs_detail {

Result<BfsResult> run_distributed_bfs(Cluster& cluster, BfsSlice& slice,
                                      std::span<const std::uint64_t> starts, unsigned workers,
                                      const ScanFn& scan, const RunContext& run,
                                      const BfsOptions& options,
                                      const DistributedBfsOptions& distributed,
                                      DistributedBfsStats& stats) {
  // Step 1. Arguments and the buffer plan: half the budget for the threads' batches (one per
  // thread and other process, at most 65,536 children each), the rest for batches in flight
  // and the one being applied.
  const std::uint64_t states = slice.states();
  const BfsBits bits = slice.table().bits();
  BfsTable& table = slice.table();
  if (starts.empty()) return make_error("a BFS needs at least one start state");
  for (std::uint64_t s : starts) {
    if (s >= states) return make_error(fmt::format("start rank {} is not below {}", s, states));
  }
  if (!options.watch.empty()) {
    return make_error("a distributed BFS does not watch ranks (use the antipodes)");
  }
  const int processes = slice.processes();
  const std::uint64_t others = static_cast<std::uint64_t>(std::max(processes - 1, 1));
  const std::uint64_t capacity = std::clamp<std::uint64_t>(
      distributed.buffer_bytes / 2 / (workers * (others + 1) * 8), 1, 65536);
  // Per thread: a batch per other process and the sort's scratch buffer.
  const std::uint64_t fixed = processes > 1 ? capacity * 8 * workers * (others + 1) : 0;
  if (processes > 1 &&
      (capacity < 64 || fixed + (std::uint64_t{1} << 20) > distributed.buffer_bytes)) {
    return make_error(
        fmt::format("a message buffer budget of {} is too small for {} threads and {} processes",
                    memory_text(distributed.buffer_bytes), workers, processes),
        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  // What one applied batch can add: `capacity` varints of at most 10 bytes.
  const std::uint64_t largest_message = capacity * 10;
  const std::uint64_t in_flight = distributed.buffer_bytes - fixed -
                                  std::min(distributed.buffer_bytes - fixed, largest_message);
  stats = DistributedBfsStats{};
  stats.processes = processes;
  stats.buffer_limit = distributed.buffer_bytes;
  Stopwatch clock;

  // 2 bits holding the distance mod 3 (bfs.hpp): levels d and d-3 share a value, so a top-down
  // level also re-expands the earlier ones of its value (their claims all fail); no sweep.
  const bool mod3 = options.mod3 && bits == BfsBits::Two;
  if (mod3 && !options.undirected) {
    return make_error("2 bits mod 3 need an undirected graph", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }

  // Step 2. Level 0: the starts each process owns.
  BfsResult result;
  result.states = states;
  result.table_bytes = table.bytes();
  std::uint64_t level_size = 0, reached = 0;
  int depth = 0;
  const bool weighed = static_cast<bool>(options.weight);
  if (weighed && !options.resume_histogram.empty() &&
      options.resume_weighted.size() != options.resume_histogram.size()) {
    return make_error("resuming a weighted BFS needs the positions of every level resumed");
  }
  if (options.resume_histogram.empty()) {
    std::vector<std::uint64_t> own{0, 0};
    for (std::uint64_t s : starts) {
      if (slice.owner(s) == slice.process() && claim_start(table, slice.local_index(s), mod3)) {
        ++own[0];
        if (weighed) own[1] += options.weight(s);
      }
    }
    cluster.sum(own);
    level_size = own[0];
    result.histogram.push_back(level_size);
    if (weighed) result.weighted.push_back(own[1]);
    reached = level_size;
  } else {
    result.histogram = options.resume_histogram;
    if (weighed) result.weighted = options.resume_weighted;
    level_size = result.histogram.back();
    for (std::uint64_t c : result.histogram) reached += c;
    depth = static_cast<int>(result.histogram.size()) - 1;
  }
  auto report = [&](int depth, std::uint64_t count) {
    if (!run.wants_progress()) return;
    run.report(Progress{options.phase, reached, states,
                        fmt::format("depth {}: {} positions, {} reached in {:.2f} s ({} processes)",
                                    depth, count, reached, clock.seconds(), processes)});
  };
  report(depth, level_size);
  if (options.on_level && options.resume_histogram.empty()) {
    if (auto ok = options.on_level(table, result.histogram, result.weighted); !ok) {
      return ok.error();
    }
  }

  // Step 3. One level at a time, every process in step; a stop anywhere stops all of them.
  bool complete = false;
  const std::uint64_t block = slice.block();
  while (true) {
    if (options.max_depth >= 0 && depth >= options.max_depth) break;
    Stopwatch level_clock;
    BfsLevel level = bfs_level(bits, depth, false, mod3);
    level.shared = workers > 1;
    bool stopped = false;
    if (level.sweep) {
      stopped = !for_each_chunk(workers, table.states(), block, run,
                                [&](unsigned, std::uint64_t begin, std::uint64_t end) {
                                  sweep_range(table, level, begin, end);
                                });
    }
    BfsExchange exchange(cluster, slice, level, in_flight, fixed, &options.weight);
    std::vector<BfsOutbox> outboxes;
    outboxes.reserve(workers);
    for (unsigned w = 0; w < workers; ++w) {
      outboxes.emplace_back(exchange, processes, slice.process(),
                            static_cast<std::size_t>(capacity));
    }
    std::atomic<std::uint64_t> found{0}, found_weight{0};
    if (!stopped) {
      // A stopped scan still takes part in the handshake below: the others are waiting for it.
      stopped = !for_each_chunk(workers, table.states(), block, run,
                                [&](unsigned worker, std::uint64_t begin, std::uint64_t end) {
                                  const BfsClaims claims =
                                      scan(worker, level, begin, end, outboxes[worker]);
                                  found.fetch_add(claims.ranks, std::memory_order_relaxed);
                                  found_weight.fetch_add(claims.weight, std::memory_order_relaxed);
                                  outboxes[worker].poll();
                                });
    }
    for (BfsOutbox& outbox : outboxes) outbox.flush_all();
    exchange.finish();
    std::vector<std::uint64_t> sums{found.load() + exchange.found(), exchange.bytes_sent(),
                                    exchange.ranks_sent(), exchange.mismatched(),
                                    found_weight.load() + exchange.found_weight()};
    cluster.sum(sums);
    if (sums[3] != 0) {
      return make_error(fmt::format("distributed BFS: {} batches arrived in another level than "
                                    "they were sent in (internal error)",
                                    sums[3]),
                        {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    std::vector<std::uint64_t> maxima{stopped || run.should_stop() ? 1u : 0u, exchange.peak()};
    cluster.max(maxima);
    stats.bytes_sent += sums[1];
    stats.ranks_sent += sums[2];
    stats.buffer_peak = std::max(stats.buffer_peak, maxima[1]);
    stats.level_seconds.push_back(level_clock.seconds());
    if (maxima[0] != 0) return run.stop_error();
    const std::uint64_t count = sums[0];
    if (count == 0) {
      complete = true;
      break;
    }
    ++depth;
    level_size = count;
    reached += count;
    result.histogram.push_back(count);
    if (weighed) result.weighted.push_back(sums[4]);
    report(depth, count);
    if (run.node_limit() != 0 && reached > run.node_limit()) return run.check(reached).error();
    if (options.on_level) {
      if (auto ok = options.on_level(table, result.histogram, result.weighted); !ok) {
        return ok.error();
      }
    }
  }

  // Step 4. Summary; the last level's first ranks over all processes.
  result.reached = reached;
  result.complete = complete;
  result.max_distance = depth;
  result.last_level = result.histogram.back();
  if (last_level_distinct(bits, depth, mod3) && options.antipodes_limit > 0) {
    result.antipodes = distributed_find(cluster, slice, bfs_level(bits, depth, false, mod3).cur, 0,
                                        options.antipodes_limit);
  }
  result.watch_distances.clear();
  result.seconds = clock.seconds();
  return result;
}

}  // namespace bfs_detail

}  // namespace permuzzle::search
