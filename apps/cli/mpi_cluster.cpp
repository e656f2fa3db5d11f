#include "mpi_cluster.hpp"

#include <mpi.h>

#include <cstdlib>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>

namespace permuzzle::cli {

struct MpiCluster::State {
  struct Sending {
    MPI_Request request;
    std::vector<std::uint8_t> bytes;  // kept until MPI is done with them
  };
  MPI_Comm comm = MPI_COMM_WORLD;
  std::mutex mutex;
  std::deque<Sending> sending;
  std::uint64_t in_flight = 0;
  // Test hook (the kill-and-resume test): PERMUZZLE_TEST_DIE_AFTER_BATCHES=N makes process
  // PERMUZZLE_TEST_DIE_PROCESS (default 1) die without a word when it sends its Nth batch,
  // as a crashed node would, in the middle of a level.
  std::uint64_t die_after = 0;
  std::uint64_t batches = 0;
};

namespace {

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

}  // namespace

MpiCluster::MpiCluster(int* argc, char*** argv) : state_(std::make_unique<State>()) {
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("MPI: this MPI library cannot serve calls from several threads");
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (const char* n = std::getenv("PERMUZZLE_TEST_DIE_AFTER_BATCHES")) {
    const char* who = std::getenv("PERMUZZLE_TEST_DIE_PROCESS");
    if ((who ? std::atoi(who) : 1) == rank_) state_->die_after = std::strtoull(n, nullptr, 10);
  }
}

MpiCluster::MpiCluster(const MpiCluster& parent, void* communicator)
    : state_(std::make_unique<State>()), owns_mpi_(false) {
  state_->comm = *static_cast<MPI_Comm*>(communicator);
  state_->die_after = parent.state_->die_after;
  MPI_Comm_rank(state_->comm, &rank_);
  MPI_Comm_size(state_->comm, &size_);
}

MpiCluster::~MpiCluster() {
  std::lock_guard lock(state_->mutex);
  for (auto& s : state_->sending) MPI_Wait(&s.request, MPI_STATUS_IGNORE);
  if (owns_mpi_) {
    MPI_Finalize();
  } else {
    MPI_Comm_free(&state_->comm);
  }
}

std::unique_ptr<Cluster> MpiCluster::split(bool member) {
  MPI_Comm sub = MPI_COMM_NULL;
  {
    std::lock_guard lock(state_->mutex);
    check(MPI_Comm_split(state_->comm, member ? 0 : MPI_UNDEFINED, rank_, &sub), "MPI_Comm_split");
  }
  if (sub == MPI_COMM_NULL) return nullptr;
  return std::make_unique<MpiCluster>(*this, &sub);
}

void MpiCluster::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

namespace {

// Completes a non-blocking collective, waiting politely (WaitBackoff): a blocking collective
// spins in Open MPI's progress loop, and with several processes on one core a level of a small
// BFS took 0.5 s instead of milliseconds.
void complete(MPI_Request& request, const char* what) {
  WaitBackoff backoff;
  for (int done = 0;;) {
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), what);
    if (done) return;
    backoff.after(false);
  }
}

void all_reduce(std::span<std::uint64_t> values, MPI_Op op, MPI_Comm comm) {
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T,
                       op, comm, &request),
        "MPI_Iallreduce");
  complete(request, "MPI_Iallreduce");
}

}  // namespace

void MpiCluster::sum(std::span<std::uint64_t> values) {
  std::lock_guard lock(state_->mutex);
  all_reduce(values, MPI_SUM, state_->comm);
}

void MpiCluster::max(std::span<std::uint64_t> values) {
  std::lock_guard lock(state_->mutex);
  all_reduce(values, MPI_MAX, state_->comm);
}

void MpiCluster::min(std::span<std::uint64_t> values) {
  std::lock_guard lock(state_->mutex);
  all_reduce(values, MPI_MIN, state_->comm);
}

std::vector<std::vector<std::uint64_t>> MpiCluster::all_gather(
    std::span<const std::uint64_t> mine) {
  std::lock_guard lock(state_->mutex);
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(counts.size());
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Iallgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, state_->comm, &request),
        "MPI_Iallgather");
  complete(request, "MPI_Iallgather");
  int total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    offsets[i] = total;
    total += counts[i];
  }
  std::vector<std::uint64_t> all(static_cast<std::size_t>(total));
  check(MPI_Iallgatherv(mine.data(), count, MPI_UINT64_T, all.data(), counts.data(), offsets.data(),
                        MPI_UINT64_T, state_->comm, &request),
        "MPI_Iallgatherv");
  complete(request, "MPI_Iallgatherv");
  std::vector<std::vector<std::uint64_t>> lists;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    lists.emplace_back(all.begin() + offsets[i], all.begin() + offsets[i] + counts[i]);
  }
  return lists;
}

void MpiCluster::barrier() {
  std::lock_guard lock(state_->mutex);
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(state_->comm, &request), "MPI_Ibarrier");
  complete(request, "MPI_Ibarrier");
}

void MpiCluster::send(int to, int tag, std::vector<std::uint8_t> bytes) {
  std::lock_guard lock(state_->mutex);
  if (state_->die_after != 0 && !bytes.empty() && ++state_->batches >= state_->die_after) {
    std::_Exit(137);
  }
  state_->in_flight += bytes.size();
  state_->sending.push_back({MPI_REQUEST_NULL, std::move(bytes)});
  State::Sending& s = state_->sending.back();
  check(MPI_Isend(s.bytes.data(), static_cast<int>(s.bytes.size()), MPI_BYTE, to, tag, state_->comm,
                  &s.request),
        "MPI_Isend");
}

std::uint64_t MpiCluster::in_flight_bytes() {
  std::lock_guard lock(state_->mutex);
  // Sends complete in any order: every finished one is counted out.
  for (auto it = state_->sending.begin(); it != state_->sending.end();) {
    int done = 0;
    check(MPI_Test(&it->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) {
      ++it;
      continue;
    }
    state_->in_flight -= it->bytes.size();
    it = state_->sending.erase(it);
  }
  return state_->in_flight;
}

std::optional<Cluster::Message> MpiCluster::receive() {
  std::lock_guard lock(state_->mutex);
  int arrived = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, state_->comm, &arrived, &status), "MPI_Iprobe");
  if (!arrived) return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Message m;
  m.from = status.MPI_SOURCE;
  m.tag = status.MPI_TAG;
  m.bytes.resize(static_cast<std::size_t>(count));
  check(MPI_Recv(m.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, state_->comm,
                 MPI_STATUS_IGNORE),
        "MPI_Recv");
  return m;
}

}  // namespace permuzzle::cli
