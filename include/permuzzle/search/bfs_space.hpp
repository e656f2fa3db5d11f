// The table of a ranked whole-graph BFS in this process, one piece for every puzzle's command:
// the whole rank space (search/bfs.hpp), or under a cluster (an MPI job) this process's slice of
// it (search/bfs_distributed.hpp). A puzzle creates the space, attaches checkpoints and searches
// with its expander; whether the search is shared with other processes is decided here.
//
// Local entries are in ascending order of their global ranks in either case (rank_of); the last
// block of a slice may reach past states() (those entries are never reached).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "permuzzle/core/cluster.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/search/bfs.hpp"
#include "permuzzle/search/bfs_checkpoint.hpp"
#include "permuzzle/search/bfs_distributed.hpp"

namespace permuzzle::search {

class BfsSpace {
 public:
  // A table of `states` entries of `bits`, or this process's slice when `cluster` is set (then
  // with the message buffers of `distributed`), checked against the run's memory budget before
  // it is allocated; `what` names the search in the refusal.
  static Result<BfsSpace> create(std::uint64_t states, BfsBits bits, Cluster* cluster,
                                 const RunContext& run, const std::string& what,
                                 const DistributedBfsOptions& distributed = {});

  std::uint64_t states() const { return states_; }  // the whole rank space
  Cluster* cluster() const { return cluster_; }
  BfsTable& table() { return slice_ ? slice_->table() : *whole_; }
  const BfsTable& table() const { return slice_ ? slice_->table() : *whole_; }
  // The global rank of a local entry.
  std::uint64_t rank_of(std::uint64_t local) const {
    return slice_ ? slice_->global_rank(local) : local;
  }
  // Every process learns whether any process passed true.
  bool any(bool mine) const;
  // The smallest value over the processes.
  std::uint64_t min(std::uint64_t mine) const;
  // The first `count` global ranks from `from` on whose entry is `value`, in ascending order
  // (collective under a cluster: distributed_find). One process checks `run` as it scans and
  // returns what it found so far when the run stops.
  std::vector<std::uint64_t> find(unsigned value, std::uint64_t from, std::size_t count,
                                  const RunContext& run) const;
  // The entries of global ranks (collective under a cluster: distributed_entries).
  std::vector<unsigned> entries(std::span<const std::uint64_t> ranks) const;
  // search/bfs_checkpoint.hpp's use_checkpoints for this table or slice.
  Result<int> use_checkpoints(const BfsCheckpointName& name, bool resume, BfsOptions& bo);

  // bfs() or distributed_bfs() from `starts` in the table as it is; distribution() then holds
  // the figures of a distributed search.
  template <class MakeExpander>
  Result<BfsResult> search(std::span<const std::uint64_t> starts, MakeExpander&& make_expander,
                           const RunContext& run, const BfsOptions& bo) {
    if (!slice_) return bfs(*whole_, starts, make_expander, run, bo);
    DistributedBfsStats stats;
    auto r =
        distributed_bfs(*cluster_, *slice_, starts, make_expander, run, bo, distributed_, stats);
    distribution_ = std::move(stats);
    return r;
  }
  const std::optional<DistributedBfsStats>& distribution() const { return distribution_; }

  // The whole table of a one-process space (for a caller that keeps it).
  BfsTable release_table() { return std::move(*whole_); }

 private:
  std::uint64_t states_ = 0;
  Cluster* cluster_ = nullptr;
  DistributedBfsOptions distributed_;
  std::optional<BfsTable> whole_;
  std::optional<BfsSlice> slice_;
  std::optional<DistributedBfsStats> distribution_;
};

}  // namespace permuzzle::search
