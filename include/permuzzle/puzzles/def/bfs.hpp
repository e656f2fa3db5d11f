// Whole-graph BFS of a puzzle given by a definition file: positions per distance from the
// solved pattern, God's number, antipodes as verified move sequences.
//
// Methods, chosen by the memory budget:
// - ranked: search/bfs.hpp over the CompiledPuzzle ranking, 4 bits per rank when they fit (the
//   distance mod 15 of every position: antipodes are walked back to the solved state at any
//   depth), else 2 bits (no antipode sequences then: the table keeps the last level only);
// - sparse (depth-limited, when the rank space does not fit and max_depth is given): the levels
//   as sorted arrays of packed positions (at most 128 bits each), each level deduplicated
//   against the two before it (the move set is closed under inverses).
// Quarter-turn metric: only the moves of cost 1 are expanded; every power of cost c is a product
// of c of them, so BFS levels are QTM distances. Antipode sequences merge consecutive quarter
// turns of one base move into its power.
// Checkpoints (ranked method): after every level the table and the histogram are written
// atomically through table_cache into `checkpoint_dir`; `resume` continues from the last one.
// Distributed (ranked method, RunContext::cluster set, e.g. under mpirun): the search of
// search/bfs_distributed.hpp, each process holding its slice of the table; every process
// computes the same result. Its checkpoints are one slice and one record per process and level
// (see bfs.cpp); a checkpoint of P processes resumes with any number of processes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/definition.hpp"
#include "permuzzle/search/bfs_distributed.hpp"

namespace permuzzle::def {

struct DefBfsOptions {
  Metric metric = Metric::Htm;
  int max_depth = -1;                                   // -1: the whole graph
  std::uint64_t memory_bytes = std::uint64_t{4} << 30;  // table budget
  std::size_t antipodes = 10;                           // how many to list as move sequences
  std::string checkpoint_dir;                           // empty: no checkpoints
  bool resume = false;                                  // continue from checkpoint_dir
  int bits = 0;  // 0: 4 when antipodes are asked for and fit in memory_bytes, else 2; or 2 or 4
  bool sparse = false;  // the depth-limited search even when ranks fit (needs max_depth)
  std::uint64_t buffer_bytes = std::uint64_t{64} << 20;  // distributed: message buffers
  // Search classes of positions under the puzzle's symmetries (symmetry_classes.hpp) when the
  // puzzle has some and the tables allow (with threads, checkpoints and a cluster as the ranked
  // search); not with `bits` given or the depth-limited search.
  bool symmetry = true;
};

struct DefBfsResult {
  std::vector<std::uint64_t> histogram;  // positions per distance 0..max_distance
  bool complete = false;                 // every reachable position was reached
  int max_distance = 0;                  // God's number when complete
  std::uint64_t reached = 0;
  // Up to DefBfsOptions::antipodes positions at max_distance, as move names from the solved
  // state, each replayed.
  std::vector<std::vector<std::string>> antipodes;
  std::string method;            // "ranked", "symmetry" (classes) or "sparse"
  int bits = 0;                  // ranked: bits per rank
  std::uint64_t rank_space = 0;  // ranked: the size of the ranking
  std::uint64_t table_bytes = 0;
  int resumed_from = -1;  // the checkpoint level resumed from, -1 if none
  // The symmetries used (1: none) and the classes searched (positions without symmetry), the
  // classes per distance (method "symmetry"), and why symmetry was not used, if it was asked for.
  std::uint64_t symmetries = 1;
  std::uint64_t classes = 0;
  std::vector<std::uint64_t> class_histogram;
  std::string symmetry_note;
  double seconds = 0;
  // Set when the run stopped the search (time limit or cancellation): the histogram holds the
  // levels completed (complete is false), or, stopped during the antipode walk, the antipodes
  // found so far.
  std::optional<Error> stopped;
  std::optional<search::DistributedBfsStats> distribution;  // set by a distributed search
};

Result<DefBfsResult> bfs(const Definition& definition, const DefBfsOptions& options,
                         const RunContext& run);

// Merges consecutive moves of one base move into the power they make (dropping identities).
std::vector<std::size_t> merge_powers(const Definition& definition,
                                      const std::vector<std::size_t>& moves);

}  // namespace permuzzle::def
