// The `permuzzle` program under mpirun: a Cluster (core/cluster.hpp) over MPI_COMM_WORLD.
//
// Compiled into the program only (not into the library, the Python module or the tests), so
// that nothing but the program links MPI. main() creates one when mpirun launched it (Open MPI
// sets OMPI_COMM_WORLD_SIZE): the constructor initialises MPI (threads serialised: every MPI
// call here holds one mutex), the destructor finalises it.
#pragma once

#include <cstdint>
#include <memory>

#include "permuzzle/core/cluster.hpp"

namespace permuzzle::cli {

class MpiCluster final : public Cluster {
 public:
  MpiCluster(int* argc, char*** argv);
  // A sub-cluster (split) over its own communicator.
  MpiCluster(const MpiCluster& parent, void* communicator);
  ~MpiCluster() override;
  MpiCluster(const MpiCluster&) = delete;
  MpiCluster& operator=(const MpiCluster&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void sum(std::span<std::uint64_t> values) override;
  void max(std::span<std::uint64_t> values) override;
  void min(std::span<std::uint64_t> values) override;
  std::vector<std::vector<std::uint64_t>> all_gather(std::span<const std::uint64_t> mine) override;
  void barrier() override;
  std::unique_ptr<Cluster> split(bool member) override;
  void send(int to, int tag, std::vector<std::uint8_t> bytes) override;
  std::uint64_t in_flight_bytes() override;
  std::optional<Message> receive() override;

  // Ends the job at once with this exit code on every process (a process that failed alone
  // must not leave the others waiting in a collective).
  [[noreturn]] void abort(int code);

 private:
  struct State;
  std::unique_ptr<State> state_;
  bool owns_mpi_ = true;  // the world cluster initialises and finalises MPI
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace permuzzle::cli
