// Short and optimal solutions of the 3x3x3 cube (Kociemba's two-phase algorithm, and IDA*).
//
// Two-phase: phase 1 takes the cube into H = <U, D, R2, L2, F2, B2> (corners and edges
// oriented, the four UD-slice edges in the slice), phase 2 solves it inside H. Phase 1 is
// pruned by the exact distance to H of (flip-slice class under the 16 symmetries that keep the
// U-D axis, twist): 64430 x 2187 entries at 4 bits, about 70 MB, built once through the table
// store; phase 2 by two small exact tables (corner permutation x slice permutation, U/D edge
// permutation x slice permutation). Like min2phase, the search runs on the cube seen along each
// of the three axes and on its inverse (6 searches, interleaved by phase-1 length), keeps the
// shortest solution, and stops at the first solution of at most `max_length` moves, or when its
// budget for shorter solutions is spent.
//
// Optimal: IDA* on the whole cube, bounded below by the same phase-1 table probed along the three
// axes and on the inverse cube, or (OptimalOptions::table) by the 2.3 GiB table of phase-1
// coordinates x U-corner combination with nxopt's tricks; canonical move order (no face twice
// in a row, opposite faces in one order). Splits each iteration into subtrees of fixed order across
// threads and keeps the first solution in that order, so the answer (and the counted nodes) equal
// one thread's.
//
// Every solution is replayed on the sticker model before it is returned.
#pragma once

#include <array>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::cube {

enum class Metric { Htm, Qtm };  // half-turn metric (a half turn is one move) / quarter-turn
int metric_length(const std::vector<CubeMove>& moves, Metric metric);

// The solver tables (opaque): move and symmetry tables built in memory, the phase-1 table
// through the table store. Shared per process through the store.
struct SolverTables;
struct SolverTablesInfo {
  double seconds = 0;       // time to obtain every table for this caller (load or build)
  std::uint64_t bytes = 0;  // memory of all the tables
  std::vector<TableReport> reports;
};
Result<std::shared_ptr<const SolverTables>> solver_tables(TableStore& store, const RunContext& run,
                                                          SolverTablesInfo* info = nullptr);
// At least the memory they take (SolverTablesInfo::bytes), known before they are built, for the
// memory check of the commands that use them.
std::uint64_t solver_tables_bytes();

struct CubeSolution {
  std::vector<CubeMove> moves;  // face turns, quarter turns 1..3 (U, U2, U')
  int length = 0;               // in the requested metric
  bool optimal = false;         // proven: equal to a lower bound, or by IDA*
  bool verified = false;        // replayed on the sticker model
  int lower_bound = 0;          // the largest admissible bound at the start (HTM)
  std::uint64_t nodes = 0;      // search nodes
  double seconds = 0;
  std::string method;
};

struct TwoPhaseOptions {
  // The answer's most moves (-1: any): the search goes on until it has a solution this short.
  int max_length = -1;
  // Seconds (from the start) to look for shorter solutions once there is one of at most
  // max_length moves; < 0: 0.01 without max_length, 0 with it (the first such solution). Not a
  // time limit: that is the RunContext's.
  double budget = -1;
  Metric metric = Metric::Htm;
};
// Errors: Unsolvable for a state that breaks the fundamental theorem; Cancelled/LimitExceeded
// from `run`; LimitExceeded when no solution of at most max_length moves exists (below the
// position's lower bound) or none has the two-phase form (every phase-1 length up to max_length
// searched: solve_optimal can still find one or prove there is none). When the run stops first,
// its error is returned and `partial` (if given) receives what was known: the best solution so
// far within max_length (moves empty if none; replayed), the lower bound and the nodes.
Result<CubeSolution> solve_two_phase(const SolverTables& tables, const CubieState& state,
                                     const TwoPhaseOptions& options, const RunContext& run,
                                     CubeSolution* partial = nullptr);

// The optimal solver's big tables (opaque; see optimal_table.hpp): the distance mod 3 to
// <U, D, R2 L2 ...> of (flip-slice class, twist, U-corner combination, and for `order` Q > 1 the
// slice edges' order up to a group of index Q), built once through the store. Q = 1: 2.30 GiB,
// about 5 minutes to build (about 100 times faster than the phase-1 table alone); 2: 4.60 GiB;
// 3: 6.89 GiB; 6: 13.78 GiB (each larger one prunes more).
struct OptimalTable;
struct H48Tables;  // internal (src/puzzles/cube/solver_tables.hpp)
inline constexpr std::array<int, 4> OPTIMAL_TABLE_ORDERS = {1, 2, 3, 6};
// Bytes of memory a table takes (its payload), its entries, and its name for people.
std::uint64_t optimal_table_bytes(int order = 1);
std::uint64_t optimal_table_entries(int order = 1);
std::string optimal_table_name(int order);
// The largest order whose table takes at most `bytes`; 0 if none does.
int optimal_table_order_for(std::uint64_t bytes);
// The order of a table (1 without the slice edges' order).
int optimal_table_order(const OptimalTable& table);
// The --memory (MB) from which front ends use a big table.
inline constexpr std::uint64_t OPTIMAL_TABLE_MIN_MEMORY_MB = 2600;
Result<std::shared_ptr<const OptimalTable>> optimal_table(TableStore& store,
                                                          const SolverTables& tables,
                                                          const RunContext& run,
                                                          TableReport* report = nullptr,
                                                          int order = 1);
// The H48 tables (Tronto's kind; src/puzzles/cube/h48.hpp): the hK table (K of the 11 edge flips
// with the corner tetrads, twist and edge slices, reduced by the 48 symmetries; 2 bits over a
// base) and the exact h0 table it falls back to. K = 7, 8 or 9 (3.76, 7.52, 15.05 GB; base 9:
// each built once in about the same time, 30-40 minutes on 2 threads); K = 7 by default, and
// the largest that fits a memory budget (h48_table_k_for).
inline constexpr int H48_TABLE_K = 7;
inline constexpr std::array<int, 3> H48_TABLE_KS = {7, 8, 9};
// The largest K whose tables take at most `bytes` (0 if none).
int h48_table_k_for(std::uint64_t bytes);
std::uint64_t h48_tables_bytes(int k = H48_TABLE_K);
std::string h48_table_name(int k = H48_TABLE_K);
Result<std::shared_ptr<const H48Tables>> h48_tables(TableStore& store, const SolverTables& tables,
                                                    const RunContext& run,
                                                    TableReport* report = nullptr,
                                                    int k = H48_TABLE_K);
// What an H48 table holds: its K and base, and how many entries have each 2-bit value (0: at
// most the base, 1, 2: base + 1, + 2, 3: base + 3 or more; padding apart).
struct H48TableInfo {
  int k = 0;
  int base = 0;
  std::array<std::uint64_t, 4> per_value{};
};
H48TableInfo h48_table_info(const H48Tables& tables);
// Random entries of an H48 table, `samples` of each value (fewer where draws run out), each
// against the least distance to K of the coordinates it stands for, found by IDA* over positions
// with h0 (a second method, beside the depth-first build). An error names a disagreeing entry.
struct H48TableCheck {
  std::array<std::uint64_t, 4> per_value{};  // entries checked of each value
};
Result<H48TableCheck> check_h48_table(const SolverTables& tables, const H48Tables& h48,
                                      std::uint64_t samples, std::uint64_t seed,
                                      const RunContext& run);
// What the table says about itself: the number of entries at each distance (from the build,
// kept in the file), every coordinate within 5 moves of the goal (a breadth-first search of the
// raw coordinates) against its entry, and a check of `samples` random entries: their exact
// distances (by descending the table) differ by at most 1 from their neighbours', are at least the
// phase-1 table's distance of the same coordinates, and 0 only for the goal. Errors: Internal.
struct OptimalTableCheck {
  std::vector<std::uint64_t> per_depth;
  std::uint64_t entries = 0;
  std::uint64_t samples = 0;
  std::vector<std::uint64_t> sample_depths;  // sampled entries at each exact distance
  // A breadth-first search of the raw coordinates to bfs_depth: the coordinates it reached, each
  // found with its distance's residue in the table.
  int bfs_depth = 0;
  std::uint64_t bfs_coordinates = 0;
};
Result<OptimalTableCheck> check_optimal_table(const SolverTables& tables, const OptimalTable& table,
                                              std::uint64_t samples, std::uint64_t seed);

struct OptimalOptions {
  Metric metric = Metric::Htm;
  int max_length = 30;  // refuse (LimitExceeded) beyond this bound
  // The big table: null = the phase-1 table alone (85 MB, minutes per random cube).
  std::shared_ptr<const OptimalTable> table;
  // With the big table: subtrees each thread searches at once, interleaved so that their table
  // reads overlap (a speed setting only: answers and node counts do not depend on it). The H48
  // search takes 2, measured best there.
  int lanes = 4;
  // In the half-turn metric, a position with symmetries (conj(X, s) = X for some of the 48
  // besides the identity) searches one subtree of each class of conjugate ones (the same length;
  // fewer nodes, perhaps another solution of that length). Off: every subtree, as for any other
  // position.
  bool reduce_by_symmetry = true;
  // The H48 tables (Tronto's kind, src/puzzles/cube/h48.hpp): when set, the search reads them
  // (the cube and its inverse, one entry each) instead of the big table or the phase-1 table.
  std::shared_ptr<const H48Tables> h48;
  // With the H48 tables: each node below the shared subtrees is expanded on the side (the cube's
  // or its inverse's) with fewer children (nissy's branching). Off: the cube's side only. The
  // same lengths either way; the answer may be another solution of that length.
  bool both_ends = true;
};
// Scrambles of known optimal length: for each length from min_moves to max_moves, `per_length`
// seeded random move sequences (no move after one of its face, nor after the opposite face's in
// the canonical order) solved twice, by the phase-1 search (the 70 MB phase-1 table alone: a
// second method, no table in common) and with `options` (an H48 or big table). Both solutions
// are replayed; their lengths must agree and be at most the scramble's. An error (Internal) names
// the first scramble that fails; a stop returns the run's error.
struct ScrambleCheck {
  std::string scramble;  // the moves, as format_moves writes them
  int moves = 0;         // the scramble's length
  int optimal = 0;       // the length both searches proved
  std::uint64_t nodes = 0, reference_nodes = 0;
  double seconds = 0, reference_seconds = 0;
};
Result<std::vector<ScrambleCheck>> check_scramble_lengths(const SolverTables& tables,
                                                          const OptimalOptions& options,
                                                          int min_moves, int max_moves,
                                                          int per_length, std::uint64_t seed,
                                                          const RunContext& run);

// Errors: Unsolvable; LimitExceeded when no solution of at most max_length moves exists (a
// proof); the run's error when it stops first, with `partial` (if given) receiving the proven
// lower bound (every shorter length searched) and the nodes, and no moves.
Result<CubeSolution> solve_optimal(const SolverTables& tables, const CubieState& state,
                                   const OptimalOptions& options, const RunContext& run,
                                   CubeSolution* partial = nullptr);

// Replays `moves` from `state` on the sticker model: does it reach the solved cube?
bool replay_solves(const CubieState& state, const std::vector<CubeMove>& moves);

}  // namespace permuzzle::cube
