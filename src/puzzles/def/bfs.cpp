#include "permuzzle/puzzles/def/bfs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <span>

#include "permuzzle/core/cluster.hpp"
#include "permuzzle/core/table_cache.hpp"
#include "permuzzle/puzzles/def/symmetry.hpp"
#include "permuzzle/puzzles/def/symmetry_classes.hpp"
#include "permuzzle/search/bfs.hpp"
#include "permuzzle/search/bfs_checkpoint.hpp"
#include "permuzzle/search/bfs_distributed.hpp"
#include "permuzzle/search/bfs_space.hpp"

namespace permuzzle::def {

namespace {

__extension__ typedef unsigned __int128 Key;  // GCC/Clang extension: packed positions

// 2: ranks join small coordinates (CompileOptions::joint_raw_limit), so level files of format 1
// rank positions differently.
constexpr std::uint32_t CHECKPOINT_FORMAT = 2;
// The checkpoints of a search over symmetry classes (symmetry_classes.hpp's index).
constexpr std::uint32_t CLASS_CHECKPOINT_FORMAT = 1;
// Small coordinates whose combinations the moves do not all reach are numbered jointly when
// their product is at most this (a bit per combination while they are searched: 16 MB).
// Rank spaces up to this use 2 bits mod 3 rather than 4 bits when antipodes are asked for.
constexpr std::uint64_t MOD3_MAX_RANKS = std::uint64_t{1} << 27;
constexpr std::uint64_t JOINT_RAW_LIMIT = std::uint64_t{1} << 27;

Error limit_error(std::string message) {
  return make_error(std::move(message), {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
}

std::string mib(std::uint64_t bytes) {
  return fmt::format("{:.1f} MB", static_cast<double>(bytes) / (1 << 20));
}

std::vector<std::string> move_names(const Definition& d, const std::vector<std::size_t>& moves) {
  std::vector<std::string> names;
  for (std::size_t m : moves) names.push_back(d.moves[m].name);
  return names;
}

// The generating sequence of a walk from a position to the solved one: the walk's moves
// inverted, in reverse order, then consecutive quarter turns merged; replayed from the solved
// state and compared with the position.
Result<std::vector<std::string>> sequence_of_walk(const CompiledPuzzle& p,
                                                  const std::vector<int>& walk,
                                                  const Position& target) {
  std::vector<std::size_t> seq;
  for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
    const int inv = p.inverse(*it);
    if (inv < 0)
      return make_error("a move without an inverse among the search moves", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    seq.push_back(p.moves()[static_cast<std::size_t>(inv)]);
  }
  const Definition& d = p.definition();
  seq = merge_powers(d, seq);
  const State reached = replay(d, full_solved(d), seq);
  auto pos = p.position_of(reached);
  if (!pos || *pos != target) {
    return make_error("an antipode's move sequence failed verification by replay (internal error)",
                      {}, Error::NO_POSITION, ErrorKind::Internal);
  }
  return move_names(d, seq);
}

// Where the checkpoints of a ranked search go (the table_cache family "def-bfs"; level files of
// format 1 ranked positions before joint coordinates).
search::BfsCheckpointName checkpoint_name(const CompiledPuzzle& p, int bits, bool mod3,
                                          const DefBfsOptions& options) {
  return {options.checkpoint_dir, "def-bfs",
          fmt::format("{:016x}-{}-{}bit{}", definition_hash(p.definition()),
                      metric_name(p.metric()), bits, mod3 ? "-mod3" : ""),
          CHECKPOINT_FORMAT};
}

// A search stopped by the run (time limit or cancellation): the levels it completed, marked
// incomplete, with the run's stop error.
DefBfsResult stopped_result(DefBfsResult result, std::vector<std::uint64_t> histogram,
                            std::uint64_t table_bytes, const RunContext& run) {
  result.histogram = std::move(histogram);
  result.complete = false;
  result.max_distance = static_cast<int>(result.histogram.size()) - 1;
  result.reached = 0;
  for (std::uint64_t c : result.histogram) result.reached += c;
  result.table_bytes = table_bytes;
  result.antipodes.clear();
  result.stopped = run.stop_error();
  return result;
}

// ---------------------------------------------------------------------------------------------
// Ranked search.

// The moves of an antipode: from `rank` (at distance D) to a neighbour one closer, down to
// `start`. Every entry holds the distance modulo `modulus` (15 at 4 bits, 3 at 2 bits mod 3 on
// an undirected graph), so the neighbour one closer is the one whose entry is (d - 1) mod
// `modulus`. A rank of the last level's value at a smaller distance (D - 15, D - 3, ...)
// reaches the start early: nullopt. `entries_of(neighbours)` gives the neighbours' entries.
template <class EntriesOf>
Result<std::optional<std::vector<std::string>>> walk_back(const CompiledPuzzle& p, RankExpander& ex,
                                                          std::uint64_t rank, std::uint64_t start,
                                                          int D, int modulus,
                                                          EntriesOf&& entries_of) {
  std::vector<std::uint64_t> nb(static_cast<std::size_t>(p.move_count()));
  std::vector<int> walk;
  std::uint64_t cur = rank;
  int d = D;
  while (cur != start) {
    if (d == 0) return std::optional<std::vector<std::string>>();
    const unsigned want = static_cast<unsigned>((d - 1) % modulus);
    ex.neighbours(cur, nb.data());
    const std::vector<unsigned> entries = entries_of(std::span<const std::uint64_t>(nb));
    int found = -1;
    for (int m = 0; m < p.move_count() && found < 0; ++m) {
      if (entries[static_cast<std::size_t>(m)] == want) found = m;
    }
    if (found < 0) return std::optional<std::vector<std::string>>();
    walk.push_back(found);
    cur = nb[static_cast<std::size_t>(found)];
    --d;
  }
  if (d != 0) return std::optional<std::vector<std::string>>();
  auto seq = sequence_of_walk(p, walk, p.unrank(rank));
  if (!seq) return seq.error();
  return std::optional<std::vector<std::string>>(std::move(*seq));
}

// The antipodes: the first ranks whose entry is `last`, in rank order (from their owners under a
// cluster), each walked back by `walk` to a move sequence (nullopt: a shallower level sharing
// the value), until `options.antipodes` are listed. Stopped by the run, the list is cut short
// (result.stopped): the histogram is complete.
template <class Walk>
Status list_antipodes(const search::BfsSpace& space, unsigned last, const DefBfsOptions& options,
                      const RunContext& run, DefBfsResult& result, Walk&& walk) {
  std::uint64_t from = 0;
  while (result.antipodes.size() < options.antipodes) {
    const std::vector<std::uint64_t> candidates =
        space.find(last, from, options.antipodes - result.antipodes.size(), run);
    if (space.any(run.should_stop())) {
      result.stopped = run.stop_error();
      break;
    }
    if (candidates.empty()) break;
    from = candidates.back() + 1;
    for (std::uint64_t rank : candidates) {
      auto seq = walk(rank);
      if (!seq) return seq.error();
      if (*seq) result.antipodes.push_back(std::move(**seq));
    }
  }
  return Ok{};
}

// The whole rank space in this process's table, or under `cluster` (an MPI job) this process's
// slice of it (search/bfs_space.hpp).
Result<DefBfsResult> ranked_bfs(const CompiledPuzzle& p, int bits, const DefBfsOptions& options,
                                const RunContext& run, Cluster* cluster) {
  DefBfsResult result;
  result.method = "ranked";
  result.bits = bits;
  result.rank_space = p.states();
  search::DistributedBfsOptions dopt;
  dopt.buffer_bytes = options.buffer_bytes;
  auto space = search::BfsSpace::create(
      p.states(), bits == 4 ? search::BfsBits::Four : search::BfsBits::Two, cluster, run,
      fmt::format("a whole-graph BFS of {} ranked positions at {} bits each", p.states(), bits),
      dopt);
  if (!space) return space.error();
  const std::uint64_t start = p.rank(p.solved());

  // Step 1. Options and checkpoints.
  search::BfsOptions bo;
  bo.bits = space->table().bits();
  bo.max_depth = options.max_depth;
  bo.undirected = p.undirected();
  bo.antipodes_limit = 0;
  bo.phase = "def bfs";
  // 2 bits with antipodes asked for: the distance mod 3, enough to walk them back.
  bo.mod3 = bits == 2 && p.undirected() && options.antipodes > 0;
  auto resumed =
      space->use_checkpoints(checkpoint_name(p, bits, bo.mod3, options), options.resume, bo);
  if (!resumed) return resumed.error();
  result.resumed_from = *resumed;
  // The levels completed so far, for a run that is stopped (time limit or cancellation).
  search::BfsCompletedLevels completed;
  search::record_completed_levels(bo, completed);

  // Step 2. The search. One process prefetches the entries of a node's children in its table.
  const std::uint64_t starts[] = {start};
  const auto make_expander = [&] {
    RankExpander e(p);
    if (cluster == nullptr) e.set_prefetch(space->table().words(), static_cast<unsigned>(bits));
    return e;
  };
  auto r = space->search(starts, make_expander, run, bo);
  result.distribution = space->distribution();
  const std::uint64_t table_bytes = space->table().bytes() + p.table_bytes();
  if (!r && run.should_stop() && !completed.positions.empty()) {
    return stopped_result(std::move(result), completed.positions, table_bytes, run);
  }
  if (!r) return r.error();
  result.histogram = r->histogram;
  result.complete = r->complete;
  result.max_distance = r->max_distance;
  result.reached = r->reached;
  result.table_bytes = table_bytes;

  // Step 3. Antipodes: every entry is the distance mod 15 (4 bits) or mod 3 (2 bits,
  // undirected), so a walk from a position to a neighbour one closer ends at the start after
  // exactly its distance; entries of the last level's value at a smaller distance (d - 15 or
  // d - 3, ...) end early and are skipped. Under a cluster every process walks in step: the
  // candidates and each step's neighbour entries come from their owners.
  const int modulus = bits == 4 ? 15 : bo.mod3 ? 3 : 0;
  if (modulus > 0 && p.undirected() && options.antipodes > 0) {
    const int D = result.max_distance;
    const unsigned last = static_cast<unsigned>(D % modulus);
    RankExpander ex(p);
    auto listed = list_antipodes(*space, last, options, run, result, [&](std::uint64_t rank) {
      return walk_back(p, ex, rank, start, D, modulus,
                       [&](std::span<const std::uint64_t> nb) { return space->entries(nb); });
    });
    if (!listed) return listed.error();
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Search over symmetry classes (symmetry_classes.hpp).

// The classes of the puzzle's positions, or why there are none (the note); an error only when
// the run was stopped.
Result<std::optional<DefSymmetryClasses>> symmetry_classes(const CompiledPuzzle& p,
                                                           std::uint64_t memory,
                                                           const RunContext& run,
                                                           std::string& note) {
  if (auto ok = DefSymmetryClasses::supports(p); !ok) {
    note = ok.error().message;
    return std::optional<DefSymmetryClasses>();
  }
  SymmetryOptions so;
  so.keep_elements = true;
  auto group = symmetry_group(p.definition(), run, so);
  if (!group && run.should_stop()) return run.stop_error();
  if (!group) {
    note = group.error().message;
    return std::optional<DefSymmetryClasses>();
  }
  auto classes = DefSymmetryClasses::create(p, *group, run, memory);
  if (!classes && run.should_stop()) return run.stop_error();
  if (!classes) {
    note = classes.error().message;
    return std::optional<DefSymmetryClasses>();
  }
  return std::optional<DefSymmetryClasses>(std::move(*classes));
}

// The walk of an antipode class's canonical member back to the solved position: each step to a
// neighbour whose class's entry is one closer (the distance mod `modulus`); nullopt when the
// member is closer than D (a shallower level sharing the last level's entry value).
// `entries_of(indices)` gives the entries of class indices (under a cluster every process walks
// in step: the entries come from their owners).
template <class EntriesOf>
Result<std::optional<std::vector<std::string>>> walk_back_classes(const CompiledPuzzle& p,
                                                                  const DefSymmetryClasses& classes,
                                                                  std::uint64_t index, int D,
                                                                  int modulus,
                                                                  EntriesOf&& entries_of) {
  const Position target = classes.position(index);
  const Position solved = p.solved();
  std::vector<Position> next(static_cast<std::size_t>(p.move_count()), target);
  std::vector<std::uint64_t> indices(next.size());
  Position cur = target;
  std::vector<int> walk;
  for (int d = D; d > 0; --d) {
    for (int m = 0; m < p.move_count(); ++m) {
      p.apply_to(cur, m, next[static_cast<std::size_t>(m)]);
      indices[static_cast<std::size_t>(m)] = classes.index(next[static_cast<std::size_t>(m)]);
    }
    const std::vector<unsigned> entries = entries_of(std::span<const std::uint64_t>(indices));
    const auto want = static_cast<unsigned>((d - 1) % modulus);
    const auto it = std::find(entries.begin(), entries.end(), want);
    if (it == entries.end()) return std::optional<std::vector<std::string>>();
    const auto found = static_cast<std::size_t>(it - entries.begin());
    walk.push_back(static_cast<int>(found));
    cur = next[found];
  }
  if (cur != solved) return std::optional<std::vector<std::string>>();
  auto seq = sequence_of_walk(p, walk, target);
  if (!seq) return seq.error();
  return std::optional<std::vector<std::string>>(std::move(*seq));
}

// The search over classes: in this process's table, or under `cluster` its slice, with
// checkpoints as the ranked search has them (a file family of their own: the entries are
// classes).
Result<DefBfsResult> symmetric_bfs(const CompiledPuzzle& p, const DefSymmetryClasses& classes,
                                   std::uint64_t avail, const DefBfsOptions& options,
                                   const RunContext& run, Cluster* cluster) {
  DefBfsResult result;
  result.method = "symmetry";
  result.symmetries = classes.group_order();
  result.rank_space = classes.states();
  // Step 1. The table: 4 bits (the distance mod 15: antipodes walk back exactly below 15) when
  // the whole table would fit, else 2 bits mod 3 (the same choice for every process count).
  const bool four = (classes.states() + 15) / 16 * 8 <= avail;
  result.bits = four ? 4 : 2;
  search::DistributedBfsOptions dopt;
  dopt.buffer_bytes = options.buffer_bytes;
  auto space = search::BfsSpace::create(
      classes.states(), four ? search::BfsBits::Four : search::BfsBits::Two, cluster, run,
      fmt::format("a whole-graph BFS of {} symmetry classes at {} bits each", classes.states(),
                  result.bits),
      dopt);
  if (!space) return space.error();
  search::BfsOptions bo;
  bo.bits = space->table().bits();
  bo.max_depth = options.max_depth;
  bo.undirected = true;  // DefSymmetryClasses refuses directed move sets
  bo.mod3 = !four;
  bo.antipodes_limit = 0;
  bo.phase = "def bfs";
  bo.weight = [&classes](std::uint64_t index) { return classes.orbit_size(index); };
  auto resumed = space->use_checkpoints(
      {options.checkpoint_dir, "def-bfs",
       fmt::format("{:016x}-{}-sym{}-{}-{}bit{}", definition_hash(p.definition()),
                   metric_name(p.metric()), classes.group_order(), classes.states(), result.bits,
                   bo.mod3 ? "-mod3" : ""),
       CLASS_CHECKPOINT_FORMAT},
      options.resume, bo);
  if (!resumed) return resumed.error();
  result.resumed_from = *resumed;
  // The positions per level completed so far, for a run that is stopped.
  search::BfsCompletedLevels completed;
  search::record_completed_levels(bo, completed);
  // Step 2. The search.
  const std::uint64_t starts[] = {classes.index(p.solved())};
  auto r = space->search(
      starts, [&] { return classes.expander(); }, run, bo);
  result.distribution = space->distribution();
  const std::uint64_t table_bytes =
      space->table().bytes() + classes.table_bytes() + p.table_bytes();
  if (!r && run.should_stop() && !completed.positions.empty()) {
    return stopped_result(std::move(result), completed.positions, table_bytes, run);
  }
  if (!r) return r.error();
  result.histogram = r->weighted;
  result.class_histogram = r->histogram;
  result.classes = r->reached;
  result.complete = r->complete;
  result.max_distance = r->max_distance;
  for (std::uint64_t c : result.histogram) result.reached += c;
  result.table_bytes = table_bytes;
  // Step 3. Antipodes: the canonical members of the last level's first classes, walked back
  // (those of a shallower level with the same entry value end early).
  const int D = result.max_distance;
  const int modulus = four ? 15 : 3;
  const auto last = static_cast<unsigned>(D % modulus);
  auto listed = list_antipodes(*space, last, options, run, result, [&](std::uint64_t index) {
    return walk_back_classes(
        p, classes, index, D, modulus,
        [&](std::span<const std::uint64_t> indices) { return space->entries(indices); });
  });
  if (!listed) return listed.error();
  return result;
}

// ---------------------------------------------------------------------------------------------
// Sparse (depth-limited) search over packed positions.

struct Packer {
  std::vector<int> label_bits, ori_bits;
  int total = 0;
  static Result<Packer> make(const CompiledPuzzle& p) {
    Packer k;
    for (const PieceGroup& g : p.groups()) {
      const int lb = std::bit_width(static_cast<unsigned>(g.multiplicity.size() - 1));
      const int ob = std::bit_width(static_cast<unsigned>(g.orientations - 1));
      k.label_bits.push_back(lb);
      k.ori_bits.push_back(ob);
      k.total += (lb + ob) * g.size();
    }
    if (k.total > 128) {
      return limit_error(
          fmt::format("a position needs {} bits, more than the 128 of the depth-limited "
                      "search",
                      k.total));
    }
    return k;
  }
  Key pack(const Position& pos) const {
    Key key = 0;
    for (std::size_t g = 0; g < pos.size(); ++g) {
      for (std::size_t j = 0; j < pos[g].labels.size(); ++j) {
        key = (key << label_bits[g]) | pos[g].labels[j];
        key = (key << ori_bits[g]) | pos[g].ori[j];
      }
    }
    return key;
  }
  void unpack(Key key, Position& pos) const {
    for (std::size_t g = pos.size(); g-- > 0;) {
      for (std::size_t j = pos[g].labels.size(); j-- > 0;) {
        pos[g].ori[j] = static_cast<std::uint8_t>(key & ((Key{1} << ori_bits[g]) - 1));
        key >>= ori_bits[g];
        pos[g].labels[j] = static_cast<std::uint8_t>(key & ((Key{1} << label_bits[g]) - 1));
        key >>= label_bits[g];
      }
    }
  }
};

Result<DefBfsResult> sparse_bfs(const CompiledPuzzle& p, const DefBfsOptions& options,
                                const RunContext& run) {
  Stopwatch clock;
  if (!p.undirected()) {
    return make_error("the depth-limited search needs every move's inverse among the moves");
  }
  auto packer = Packer::make(p);
  if (!packer) return packer.error();
  DefBfsResult result;
  result.method = "sparse";
  std::vector<std::vector<Key>> levels;
  Position solved = p.solved();
  levels.push_back({packer->pack(solved)});
  result.histogram.push_back(1);
  std::uint64_t held = 1;
  const int moves = p.move_count();
  Position pos = solved;
  for (int depth = 0; depth < options.max_depth; ++depth) {
    const std::vector<Key>& cur = levels.back();
    const std::uint64_t candidates = cur.size() * static_cast<std::uint64_t>(moves);
    if (auto ok = run.check_memory((held + candidates) * sizeof(Key),
                                   fmt::format("the depth-limited search to depth {}", depth + 1));
        !ok) {
      return ok.error();
    }
    if ((held + candidates) * sizeof(Key) > options.memory_bytes) {
      return limit_error(
          fmt::format("the depth-limited search would hold {} positions at depth {} "
                      "({}), over the memory budget of {} (--memory)",
                      held + candidates, depth + 1, mib((held + candidates) * sizeof(Key)),
                      mib(options.memory_bytes)));
    }
    std::vector<Key> next;
    next.reserve(static_cast<std::size_t>(candidates));
    for (std::size_t i = 0; i < cur.size(); ++i) {
      if ((i & 0xFFF) == 0 && run.should_stop()) {
        std::vector<std::uint64_t> histogram = result.histogram;
        return stopped_result(std::move(result), std::move(histogram), held * sizeof(Key), run);
      }
      for (int m = 0; m < moves; ++m) {
        packer->unpack(cur[i], pos);
        p.apply(pos, m);
        next.push_back(packer->pack(pos));
      }
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    // Neighbours of level d lie in levels d-1, d, d+1.
    std::vector<Key> fresh;
    fresh.reserve(next.size());
    const std::vector<Key>* prev = levels.size() >= 2 ? &levels[levels.size() - 2] : nullptr;
    for (Key k : next) {
      if (std::binary_search(cur.begin(), cur.end(), k)) continue;
      if (prev && std::binary_search(prev->begin(), prev->end(), k)) continue;
      fresh.push_back(k);
    }
    next.clear();
    next.shrink_to_fit();
    if (fresh.empty()) {
      result.complete = true;
      break;
    }
    held += fresh.size();
    result.histogram.push_back(fresh.size());
    levels.push_back(std::move(fresh));
    if (run.wants_progress()) {
      run.report(Progress{"def bfs", held, 0,
                          fmt::format("depth {}: {} positions in {:.2f} s", depth + 1,
                                      levels.back().size(), clock.seconds())});
    }
  }
  result.max_distance = static_cast<int>(result.histogram.size()) - 1;
  for (std::uint64_t c : result.histogram) result.reached += c;
  result.table_bytes = held * sizeof(Key);
  // Antipodes (of the last level): walk back through the stored levels.
  const int D = result.max_distance;
  for (std::size_t i = 0; i < levels.back().size() && result.antipodes.size() < options.antipodes;
       ++i) {
    Position target = solved;
    packer->unpack(levels.back()[i], target);
    Position cur = target;
    std::vector<int> walk;
    for (int d = D; d > 0; --d) {
      int found = -1;
      for (int m = 0; m < moves && found < 0; ++m) {
        Position nb = cur;
        p.apply(nb, m);
        const auto& level = levels[static_cast<std::size_t>(d - 1)];
        if (std::binary_search(level.begin(), level.end(), packer->pack(nb))) {
          found = m;
          cur = std::move(nb);
        }
      }
      if (found < 0)
        return make_error("antipode walk failed (internal error)", {}, Error::NO_POSITION,
                          ErrorKind::Internal);
      walk.push_back(found);
    }
    auto seq = sequence_of_walk(p, walk, target);
    if (!seq) return seq.error();
    result.antipodes.push_back(std::move(*seq));
  }
  return result;
}

}  // namespace

std::vector<std::size_t> merge_powers(const Definition& d, const std::vector<std::size_t>& moves) {
  std::vector<std::size_t> out;
  for (std::size_t m : moves) {
    if (!out.empty() && d.moves[out.back()].base == d.moves[m].base) {
      const std::size_t base = d.moves[m].base;
      const int order = d.base_moves[base].order;
      const int power = (d.moves[out.back()].power + d.moves[m].power) % order;
      out.pop_back();
      if (power == 0) continue;
      for (std::size_t k = 0; k < d.moves.size(); ++k) {
        if (d.moves[k].base == base && d.moves[k].power == power) {
          out.push_back(k);
          break;
        }
      }
      continue;
    }
    out.push_back(m);
  }
  return out;
}

namespace {

// bfs() but its time and, without symmetry, its classes (every position).
Result<DefBfsResult> search_whole_or_sparse(const Definition& definition,
                                            const DefBfsOptions& options, const RunContext& run) {
  CompileOptions co;
  co.metric = options.metric;
  co.require_ranks = false;
  co.max_table_bytes = std::min<std::uint64_t>(std::uint64_t{256} << 20, options.memory_bytes / 4);
  co.joint_raw_limit = JOINT_RAW_LIMIT;
  auto p = CompiledPuzzle::compile(definition, co, run);
  if (!p) return p.error();
  if (options.sparse && options.max_depth < 0) {
    return make_error("the depth-limited search needs a maximum depth");
  }
  if (p->ranked() && !options.sparse) {
    const std::uint64_t avail =
        options.memory_bytes > p->table_bytes() ? options.memory_bytes - p->table_bytes() : 0;
    // Distributed: each process holds its blocks (and message buffers) only.
    Cluster* cluster = run.cluster();
    const std::uint64_t share =
        cluster ? search::BfsSlice::largest_share(
                      p->states(), search::distributed_block(p->states()), cluster->size())
                : p->states();
    const std::uint64_t buffers = cluster ? options.buffer_bytes : 0;
    const std::uint64_t bytes4 = (share + 15) / 16 * 8 + buffers;
    const std::uint64_t bytes2 = (share + 31) / 32 * 8 + buffers;
    int bits = 0;
    // The antipode walk needs every distance modulo something: 2 bits mod 3 on an undirected
    // graph (a neighbour is one closer, as far, or one farther), else 4 bits (mod 15). Mod 3
    // halves the memory and its traffic, but the antipodes are then looked for among every
    // third level (walked back in rank order, the shallower ones end early): fine up to
    // MOD3_MAX_RANKS ranks (the 2x2x2: 2.2 s instead of 3.3 s CPU), slow past it (twsearch's
    // pyraminx file, 302,330,880 ranks: 41 s instead of 9 s), where 4 bits are used when they
    // fit. Without antipodes 2 bits halve the memory traffic.
    const bool mod3_fits = p->undirected() && p->states() <= MOD3_MAX_RANKS;
    if (options.bits == 4 ||
        (options.bits == 0 && options.antipodes > 0 && !mod3_fits && bytes4 <= avail)) {
      bits = 4;
    } else if (options.bits == 2 || (options.bits == 0 && bytes2 <= avail)) {
      bits = 2;
    }
    // Over symmetry classes first, where the file has symmetries and the tables allow (else
    // `note` says why, and every position is searched).
    std::string note;
    if (options.symmetry && options.bits == 0) {
      auto classes = symmetry_classes(*p, avail, run, note);
      if (!classes) return classes.error();
      if (*classes) return symmetric_bfs(*p, **classes, avail, options, run, cluster);
    }
    if (bits != 0 && (bits == 4 ? bytes4 : bytes2) <= avail) {
      if (auto ok = run.check_memory((bits == 4 ? bytes4 : bytes2) + p->table_bytes(),
                                     fmt::format("a whole-graph BFS of {} ranked positions at {} "
                                                 "bits each",
                                                 p->states(), bits));
          !ok) {
        return ok.error();
      }
      auto r = ranked_bfs(*p, bits, options, run, cluster);
      if (r) r->symmetry_note = std::move(note);
      return r;
    }
    if (options.max_depth < 0) {
      return limit_error(fmt::format(
          "a whole-graph BFS of these {} ranked positions needs {} at 2 bits each (plus {} of move "
          "tables), over the memory budget of {} (--memory MB); give --max-depth D for a "
          "depth-limited search",
          p->states(), mib(bytes2), mib(p->table_bytes()), mib(options.memory_bytes)));
    }
  } else if (options.max_depth < 0) {
    return limit_error(
        "the puzzle's positions exceed 2^64 ranks: a whole-graph BFS is out of reach; give "
        "--max-depth D for a depth-limited search");
  }
  return sparse_bfs(*p, options, run);
}

}  // namespace

Result<DefBfsResult> bfs(const Definition& definition, const DefBfsOptions& options,
                         const RunContext& run) {
  Stopwatch clock;
  auto r = search_whole_or_sparse(definition, options, run);
  if (r) {
    r->seconds = clock.seconds();
    if (r->symmetries == 1) r->classes = r->reached;  // every position was searched
  }
  return r;
}

}  // namespace permuzzle::def
