// The whole-graph BFS of search/bfs.hpp run by several processes together (a Cluster, e.g. an
// MPI job): the same levels, histogram and antipodes, each process holding only its share of
// the table.
//
// Layout (BfsSlice): the rank space is cut into blocks of `block` consecutive ranks, dealt
// round-robin: block b belongs to process b mod P, where it is local block b div P. A process
// stores its blocks back to back in one BfsTable (same entry values as bfs.hpp): local index
// (b div P) * block + rank mod block. Round-robin gives every process a share of every level's
// work; each holds about states / P entries (states / (4P) bytes at 2 bits).
//
// A level: every process sweeps its slice (2 bits), then its threads scan their local blocks
// for frontier entries (the ranges of bfs.hpp, one block each) and expand them top-down. A child
// owned here is claimed at once; a child owned by process q goes into this thread's batch for q
// (its local index at q). A full batch is sorted, deduplicated and sent varint-coded as
// differences (BfsOutbox), while the process keeps applying the batches it receives (the owner
// claims: only it writes its slice). When its scan is done a process sends every other one an
// end-of-level message and applies batches until it has every other one's; messages between two
// processes keep their order, so nothing of the level is left in flight. The level counts, the
// bytes sent and a stop flag are then summed over the processes.
//
// Why top-down only: a bottom-up level asks, for every unreached position, whether a neighbour
// is in the frontier, which here means asking the owner of each neighbour: either a request per
// neighbour (more traffic than the top-down children) or every process holding the whole
// frontier bitmap (states / 8 bytes on every process every level, 1.6 TB for the 15-puzzle).
// Top-down is correct for directed graphs too, and its traffic is bounded by the edges leaving
// the frontier.
//
// Memory per process: the slice, plus at most `buffer_bytes` of message buffers (the threads'
// batches, the batches in flight and the one being applied; DistributedBfsStats::buffer_peak
// reports what was used).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "permuzzle/core/cluster.hpp"
#include "permuzzle/search/bfs.hpp"

namespace permuzzle::search {

class BfsSlice {
 public:
  // The slice of process `process` of `processes`; `block` a positive multiple of 64.
  static Result<BfsSlice> create(std::uint64_t states, BfsBits bits, std::uint64_t block,
                                 int processes, int process);
  // The entries of the largest slice (for memory checks before any is created).
  static std::uint64_t largest_share(std::uint64_t states, std::uint64_t block, int processes) {
    const std::uint64_t blocks = (states + block - 1) / block;
    const auto p = static_cast<std::uint64_t>(processes);
    return (blocks + p - 1) / p * block;
  }

  std::uint64_t states() const { return states_; }  // the whole rank space
  std::uint64_t block() const { return block_; }
  int processes() const { return processes_; }
  int process() const { return process_; }
  int owner(std::uint64_t rank) const {
    return static_cast<int>((rank / block_) % static_cast<std::uint64_t>(processes_));
  }
  // The index of `rank` in its owner's slice.
  std::uint64_t local_index(std::uint64_t rank) const {
    return rank / block_ / static_cast<std::uint64_t>(processes_) * block_ + rank % block_;
  }
  // The rank of this slice's local index.
  std::uint64_t global_rank(std::uint64_t local) const {
    return (local / block_ * static_cast<std::uint64_t>(processes_) +
            static_cast<std::uint64_t>(process_)) *
               block_ +
           local % block_;
  }
  BfsTable& table() { return table_; }
  const BfsTable& table() const { return table_; }

 private:
  std::uint64_t states_ = 0;
  std::uint64_t block_ = 0;
  int processes_ = 1;
  int process_ = 0;
  BfsTable table_;  // the local blocks (the last one may reach past states_: never reached)
};

// Ranks per block for a rank space of `states`: a function of the rank space only (not of the
// number of processes), so that a checkpoint resumes with another number of processes; small
// spaces get small blocks so that every process has some.
std::uint64_t distributed_block(std::uint64_t states);

struct DistributedBfsOptions {
  std::uint64_t buffer_bytes = std::uint64_t{64} << 20;  // message buffers per process
};

struct DistributedBfsStats {
  int processes = 1;
  std::uint64_t bytes_sent = 0;       // batch bytes sent, all processes
  std::uint64_t ranks_sent = 0;       // children sent to their owners, all processes
  std::vector<double> level_seconds;  // [d]: the expansion of level d (including the exchange)
  std::uint64_t buffer_limit = 0;     // DistributedBfsOptions::buffer_bytes
  std::uint64_t buffer_peak = 0;      // the most any process used
};

// Collective: the first antipodes in a caller's order. Every process passes its own candidates
// as (key, rank) pairs; every process gets the `limit` pairs of smallest key over all processes,
// ascending (ties by rank).
std::vector<std::pair<std::uint64_t, std::uint64_t>> distributed_smallest(
    Cluster& cluster, std::span<const std::pair<std::uint64_t, std::uint64_t>> mine,
    std::size_t limit);

class BfsExchange;

// One thread's batches of children for the other processes (the local indices at their owner).
class BfsOutbox {
 public:
  BfsOutbox(BfsExchange& exchange, int processes, int self, std::size_t capacity);
  void add(int to, std::uint64_t local_index) {
    std::vector<std::uint64_t>& batch = batches_[static_cast<std::size_t>(to)];
    batch.push_back(local_index);
    if (batch.size() >= capacity_) flush(to);
  }
  void flush(int to);
  void flush_all();
  // Applies the batches that have arrived, unless another thread is doing so.
  void poll();

 private:
  BfsExchange* exchange_;
  std::size_t capacity_;
  std::vector<std::vector<std::uint64_t>> batches_;
  std::vector<std::uint64_t> scratch_;  // the radix sort's second buffer
};

namespace bfs_detail {

// Scans the local range [begin, end) (within one block) top-down; returns the positions claimed
// here.
// `weight`: BfsOptions::weight (null or empty: none).
template <unsigned BITS, class Expander>
BfsClaims scan_slice_bits(BfsSlice& slice, const BfsLevel& level, std::uint64_t begin,
                          std::uint64_t end, Expander& expander, BfsOutbox& outbox,
                          const BfsWeight* weight = nullptr) {
  constexpr unsigned PER_WORD = 64 / BITS;
  constexpr unsigned UNSEEN = (1u << BITS) - 1;
  std::uint64_t* words = slice.table().words();
  const int self = slice.process();
  const std::uint64_t global_begin = slice.global_rank(begin);
  const bool weighed = weight != nullptr && *weight;
  BfsClaims found;
  for (std::uint64_t wi = begin / PER_WORD; wi * PER_WORD < end; ++wi) {
    const std::uint64_t w =
        std::atomic_ref<std::uint64_t>(words[wi]).load(std::memory_order_relaxed);
    std::uint64_t match = fields_equal<BITS>(w, level.cur);
    const std::uint64_t base = wi * PER_WORD;
    while (match != 0) {
      const std::uint64_t local = base + static_cast<unsigned>(std::countr_zero(match)) / BITS;
      match &= match - 1;
      expander.for_each_neighbour(global_begin + (local - begin), [&](std::uint64_t neighbour) {
        const int owner = slice.owner(neighbour);
        const std::uint64_t index = slice.local_index(neighbour);
        if (owner != self) {
          outbox.add(owner, index);
        } else if (load_entry<BITS>(words, index) == UNSEEN) {
          if (!level.shared) {
            claim_exclusive<BITS>(words, index, level.nxt);
          } else if (!claim<BITS>(words, index, level.nxt)) {
            return false;
          }
          ++found.ranks;
          if (weighed) found.weight += (*weight)(neighbour);
        }
        return false;
      });
    }
  }
  return found;
}

using ScanFn = std::function<BfsClaims(unsigned worker, const BfsLevel& level, std::uint64_t begin,
                                       std::uint64_t end, BfsOutbox& outbox)>;
Result<BfsResult> run_distributed_bfs(Cluster& cluster, BfsSlice& slice,
                                      std::span<const std::uint64_t> starts, unsigned workers,
                                      const ScanFn& scan, const RunContext& run,
                                      const BfsOptions& options,
                                      const DistributedBfsOptions& distributed,
                                      DistributedBfsStats& stats);

}  // namespace bfs_detail

// The search of bfs.hpp over `slice` (every process calls it with its own slice, the same
// starts and options). BfsOptions::undirected is ignored (top-down only, see above); on_level
// gets this process's slice table; resume_histogram resumes from slices loaded by the caller.
// The result (histogram, antipodes: the first ranks of the last level over all processes) is
// the same on every process.
template <class MakeExpander>
Result<BfsResult> distributed_bfs(Cluster& cluster, BfsSlice& slice,
                                  std::span<const std::uint64_t> starts,
                                  MakeExpander&& make_expander, const RunContext& run,
                                  const BfsOptions& options,
                                  const DistributedBfsOptions& distributed,
                                  DistributedBfsStats& stats) {
  const unsigned workers = std::max(1u, run.threads());
  auto expanders = bfs_detail::thread_expanders(workers, make_expander);
  const bfs_detail::ScanFn scan = [&](unsigned worker, const BfsLevel& level, std::uint64_t begin,
                                      std::uint64_t end, BfsOutbox& outbox) {
    if (slice.table().bits() == BfsBits::Two) {
      return bfs_detail::scan_slice_bits<2>(slice, level, begin, end, expanders[worker].expander,
                                            outbox, &options.weight);
    }
    return bfs_detail::scan_slice_bits<4>(slice, level, begin, end, expanders[worker].expander,
                                          outbox, &options.weight);
  };
  return bfs_detail::run_distributed_bfs(cluster, slice, starts, workers, scan, run, options,
                                         distributed, stats);
}

// Collective: the entries of `ranks` (owned by any process), on every process.
std::vector<unsigned> distributed_entries(Cluster& cluster, const BfsSlice& slice,
                                          std::span<const std::uint64_t> ranks);
// Collective: the first `count` ranks from `from` on whose entry is `value`, ascending, on every
// process.
std::vector<std::uint64_t> distributed_find(Cluster& cluster, const BfsSlice& slice, unsigned value,
                                            std::uint64_t from, std::size_t count);

}  // namespace permuzzle::search
