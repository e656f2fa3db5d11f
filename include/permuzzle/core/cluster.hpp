// A group of processes that run one command together (an MPI job): what the distributed BFS
// (search/bfs_distributed.hpp) needs from its transport, and nothing more.
//
// The library never starts or stops a cluster and links no MPI: a front end that was launched
// by mpirun (the `permuzzle` program, apps/cli/mpi_cluster.cpp) implements this interface over
// MPI and hands it to the computation through RunContext::with_cluster. Without one, every
// command runs in one process as before.
//
// Threads: collectives are called by one thread of every process, in the same order on every
// process, while no other thread of that process uses the cluster. send/receive/in_flight_bytes
// may be called from any thread; the implementation serialises them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <vector>

namespace permuzzle {

class Cluster {
 public:
  struct Message {
    int from = 0;
    int tag = 0;
    std::vector<std::uint8_t> bytes;
  };

  virtual ~Cluster() = default;

  virtual int rank() const = 0;  // this process, 0..size()-1
  virtual int size() const = 0;  // the number of processes

  // Collectives (element-wise over the processes' spans of equal length, result everywhere).
  virtual void sum(std::span<std::uint64_t> values) = 0;
  virtual void max(std::span<std::uint64_t> values) = 0;
  virtual void min(std::span<std::uint64_t> values) = 0;
  // Every process's list, indexed by process, on every process.
  virtual std::vector<std::vector<std::uint64_t>> all_gather(
      std::span<const std::uint64_t> mine) = 0;
  virtual void barrier() = 0;
  // Collective: the cluster of the processes that pass true (numbered in this cluster's order),
  // for them; nullptr for the others. Used while this cluster is idle.
  virtual std::unique_ptr<Cluster> split(bool member) = 0;

  // Point to point. send() returns at once; the cluster keeps the bytes until they are
  // delivered (in_flight_bytes counts them, and completes the deliveries that finished).
  // Messages from one process to another arrive in the order they were sent.
  virtual void send(int to, int tag, std::vector<std::uint8_t> bytes) = 0;
  virtual std::uint64_t in_flight_bytes() = 0;
  // A message that has arrived, if any (never waits).
  virtual std::optional<Message> receive() = 0;
};

// Waiting for other processes (a message, a collective): after a poll that found nothing, a few
// yields, then 50 us sleeps. Several processes may share a core (tests, --oversubscribe): a
// spinning one holds the core the others need to arrive; a busy one loses only microseconds.
class WaitBackoff {
 public:
  // After a poll: one that made progress starts the count again; one that did not waits.
  void after(bool progressed) {
    if (progressed) {
      idle_ = 0;
    } else if (++idle_ < 64) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

 private:
  unsigned idle_ = 0;
};

}  // namespace permuzzle
