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

std::vector<std::uint64_t> BfsSpace::find(unsigned value, std::uint64_t from, std::size_t count,
                                          const RunContext& run) const {
  if (slice_) return distributed_find(*cluster_, *slice_, value, from, count);
  std::vector<std::uint64_t> found;
  for (std::uint64_t rank = from; rank < states_ && found.size() < count; ++rank) {
    if ((rank & 0xFFFFF) == 0 && run.should_stop()) break;
    if (whole_->entry(rank) == value) found.push_back(rank);
  }
  return found;
}

std::vector<unsigned> BfsSpace::entries(std::span<const std::uint64_t> ranks) const {
  if (slice_) return distributed_entries(*cluster_, *slice_, ranks);
  std::vector<unsigned> out(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) out[i] = whole_->entry(ranks[i]);
  return out;
}

Result<int> BfsSpace::use_checkpoints(const BfsCheckpointName& name, bool resume, BfsOptions& bo) {
  if (slice_) return search::use_checkpoints(name, resume, *cluster_, *slice_, bo);
  return search::use_checkpoints(name, resume, *whole_, bo);
}

}  // namespace permuzzle::search
