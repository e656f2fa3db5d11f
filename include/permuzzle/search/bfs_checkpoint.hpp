// Checkpoints of a whole-graph BFS (search/bfs.hpp in one process, search/bfs_distributed.hpp
// over a cluster): after every completed level the table (or each process's slice) and the
// positions per distance are written to a directory through core/table_cache (atomic,
// checksummed files), so that a search killed anywhere resumes from its last complete level.
//
// One process: "<prefix>-level<L>" (the table words) and "<prefix>-record" [level,
// histogram...] written after it; the previous level's table is removed only once the new
// record is in place, so a crash between the two leaves the previous record and its table.
// Several processes: per process r of P a slice "<prefix>-b<block>-p<P>-r<r>-level<L>" and a
// record "<prefix>-p<P>-r<r>" [level, P, block, histogram...]; after level L every process writes
// its slice, all wait, every process replaces its record, all wait, every process removes its
// slice of L-1. Whatever process dies wherever, the records say L-1 or L and the slices of the
// smallest level recorded are all there. A checkpoint of P processes resumes with any number of
// processes when the directory is shared (each reads its blocks out of every old slice), and with
// the same number when it is local to each node.
#pragma once

#include <cstdint>
#include <string>

#include "permuzzle/core/result.hpp"
#include "permuzzle/search/bfs.hpp"
#include "permuzzle/search/bfs_distributed.hpp"

namespace permuzzle::search {

struct BfsCheckpointName {
  std::string dir;           // empty: no checkpoints
  std::string family;        // the table_cache family, e.g. "def-bfs"
  std::string prefix;        // what was searched: the puzzle, its metric, the table's width
  std::uint32_t format = 1;  // the caller's ranking version: another version is not resumed
};

// Checkpoints every completed level of bfs() (BfsOptions::on_level, after what it did before);
// with `resume`, first loads the last checkpoint into `table` and sets
// BfsOptions::resume_histogram. Returns the level resumed from, or -1.
Result<int> use_checkpoints(const BfsCheckpointName& name, bool resume, BfsTable& table,
                            BfsOptions& bo);

// The same for distributed_bfs() over `slice` (collective: every process calls it).
Result<int> use_checkpoints(const BfsCheckpointName& name, bool resume, Cluster& cluster,
                            BfsSlice& slice, BfsOptions& bo);

}  // namespace permuzzle::search
