#include "permuzzle/search/bfs_space.hpp"

#include <fmt/format.h>

#include <vector>

namespace permuzzle::search {

Result<BfsSpace> BfsSpace::create(std::uint64_t states, BfsBits bits, Cluster* cluster,
                                  const RunContext& run, const std::string& what,
                                  const DistributedBfsOptions& distributed) {
  const std::uint64_t per_word = 64 / static_cast<unsigned>(bits);
  BfsSpace space;
  space.states_ = states;
  space.cluster_ = cluster;
  space.distributed_ = distributed;
  if (cluster == nullptr) {
    if (auto ok = run.check_memory((states + per_word - 1) / per_word * 8, what); !ok) {
      return ok.error();
    }
    auto table = BfsTable::create(states, bits);
    if (!table) return table.error();
    space.whole_ = std::move(*table);
    return space;
  }
  const std::uint64_t block = distributed_block(states);
  const std::uint64_t entries = BfsSlice::largest_share(states, block, cluster->size());
  if (auto ok = run.check_memory(
          (entries + per_word - 1) / per_word * 8 + distributed.buffer_bytes,
          fmt::format("{} over {} processes, with message buffers", what, cluster->size()));
      !ok) {
    return ok.error();
  }
  auto slice = BfsSlice::create(states, bits, block, cluster->size(), cluster->rank());
  if (!slice) return slice.error();
  space.slice_ = std::move(*slice);
  return space;
}

bool BfsSpace::any(bool mine) const {
  if (cluster_ == nullptr) return mine;
  std::vector<std::uint64_t> flag{mine ? 1u : 0u};
  cluster_->max(flag);
  return flag[0] != 0;
}

std::uint64_t BfsSpace::min(std::uint64_t mine) const {
  if (cluster_ == nullptr) return mine;
  std::vector<std::uint64_t> value{mine};
  cluster_->min(value);
  return value[0];
}

Result<int> BfsSpace::use_checkpoints(const BfsCheckpointName& name, bool resume, BfsOptions& bo) {
  if (slice_) return search::use_checkpoints(name, resume, *cluster_, *slice_, bo);
  return search::use_checkpoints(name, resume, *whole_, bo);
}

}  // namespace permuzzle::search
