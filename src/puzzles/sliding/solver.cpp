#include "permuzzle/puzzles/sliding/solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <memory>
#include <vector>

#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/bounds.hpp"

namespace permuzzle::sliding {

namespace {

constexpr int MAX_DEPTH = 1024;
constexpr std::uint64_t PROGRESS_MASK = (std::uint64_t{1} << 24) - 1;
// Cancellation and the deadline are checked every 2^20 nodes (a few milliseconds).
constexpr std::uint64_t STOP_CHECK_MASK = (std::uint64_t{1} << 20) - 1;

// A position packed by tile: 6 bits per tile cell, ten tiles per word (tile t in word
// (t-1)/10, bits 6*((t-1)%10)...); the blank's cell follows from the others. Updated
// incrementally when a tile moves. Five words hold the 47 tiles of the largest board (3x16).
struct Key {
  static constexpr int WORDS = (MAX_CELLS - 1 + 9) / 10;
  std::array<std::uint64_t, WORDS> w{};
  bool operator==(const Key&) const = default;
  void move(int tile, int from, int to) {
    w[(tile - 1) / 10] ^= static_cast<std::uint64_t>(from ^ to) << (6 * ((tile - 1) % 10));
  }
};

Key key_of(const std::uint8_t* board, int cells) {
  Key k;
  for (int c = 0; c < cells; ++c) {
    const int t = board[c];
    if (t != 0) k.w[(t - 1) / 10] |= static_cast<std::uint64_t>(c) << (6 * ((t - 1) % 10));
  }
  return k;
}

// Open-addressing table of the backward perimeter: Key -> exact distance to the goal.
// Layout: one slot per entry (the key's words, distance; 0xFF = empty), linear probing,
// at most half full.
class Perimeter {
 public:
  // Starts small and doubles while it fills, so a small search does not pay for the cap.
  explicit Perimeter(std::uint64_t capacity) : cap_(capacity) { resize(1 << 12); }
  std::uint64_t size() const { return size_; }
  bool full() const { return size_ >= cap_; }
  // Peak bytes of a table of at most `states` entries: the slots (a power of two, at most half
  // full) while they double, old and new at once.
  static std::uint64_t peak_bytes(std::uint64_t states) {
    std::uint64_t slots = 1 << 12;
    while (slots / 2 < states + 1 && slots < (std::uint64_t{1} << 58)) slots *= 2;
    return slots / 2 * 3 * sizeof(Slot);
  }
  // Inserts if absent; returns false if the key was already present.
  bool insert(const Key& k, int dist) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    for (std::uint64_t i = hash(k) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.dist == EMPTY) {
        s.key = k;
        s.dist = static_cast<std::uint8_t>(dist);
        ++size_;
        return true;
      }
      if (s.key == k) return false;
    }
  }
  int find(const Key& k) const {
    for (std::uint64_t i = hash(k) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.dist == EMPTY) return -1;
      if (s.key == k) return s.dist;
    }
  }

 private:
  static constexpr std::uint8_t EMPTY = 0xFF;
  struct Slot {
    Key key;
    std::uint8_t dist = EMPTY;
  };
  void resize(std::uint64_t slots) {
    slots_.assign(slots, Slot{});
    mask_ = slots - 1;
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    resize(old.size() * 2);
    for (const Slot& s : old) {
      if (s.dist == EMPTY) continue;
      std::uint64_t i = hash(s.key) & mask_;
      while (slots_[i].dist != EMPTY) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }
  static std::uint64_t hash(const Key& k) {
    std::uint64_t h = 0x632BE59BD9B4E019ULL;
    for (auto word : k.w) h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
  }
  std::vector<Slot> slots_;
  std::uint64_t mask_ = 0, size_ = 0, cap_ = 0;
};

// Board geometry shared by the searches: neighbour cell per direction (-1 off the board).
struct Geometry {
  int rows = 0, cols = 0, cells = 0;
  std::array<std::array<std::int8_t, 4>, MAX_CELLS> nb{};
  explicit Geometry(BoardSize size) : rows(size.rows), cols(size.cols), cells(size.cells()) {
    for (int c = 0; c < cells; ++c) {
      int r = c / cols, k = c % cols;
      nb[c][0] = static_cast<std::int8_t>(r > 0 ? c - cols : -1);
      nb[c][1] = static_cast<std::int8_t>(r + 1 < rows ? c + cols : -1);
      nb[c][2] = static_cast<std::int8_t>(k > 0 ? c - 1 : -1);
      nb[c][3] = static_cast<std::int8_t>(k + 1 < cols ? c + 1 : -1);
    }
  }
};

// Step 0 of bidirectional search: breadth-first from the goal into a Perimeter.
struct PerimeterResult {
  int depth = 0;               // every position within this distance is stored
  std::uint64_t expanded = 0;  // positions expanded (the backward node count)
  bool stopped = false;        // the run context said stop before it was complete
};

using PerimeterState = std::array<std::uint8_t, MAX_CELLS>;

// Peak memory of a perimeter of at most `states` positions on a board of `cells` cells: the
// table, and the two breadth-first layers (together at most the table's positions, each
// vector with up to twice its size of capacity).
std::uint64_t perimeter_bytes(std::uint64_t states, int cells) {
  std::uint64_t reachable = 1;  // cells! / 2 positions at most, saturated
  for (int k = 3; k <= cells && reachable < states; ++k) {
    reachable = reachable > ~std::uint64_t(0) / static_cast<std::uint64_t>(k)
                    ? ~std::uint64_t(0)
                    : reachable * static_cast<std::uint64_t>(k);
  }
  const std::uint64_t n = std::min(states, reachable);
  return Perimeter::peak_bytes(n) + 2 * n * sizeof(PerimeterState);
}

PerimeterResult build_perimeter(const Geometry& geo, const Position& goal, int max_depth,
                                Perimeter& table, const SolveOptions& options, Stopwatch t0) {
  using State = PerimeterState;
  PerimeterResult res;
  State g{};
  std::copy(goal.begin(), goal.end(), g.begin());
  std::vector<State> layer{g}, next;
  table.insert(key_of(g.data(), geo.cells), 0);
  for (int d = 0; max_depth < 0 || d < max_depth; ++d) {
    next.clear();
    bool complete = true;
    for (const State& s : layer) {
      ++res.expanded;
      if ((res.expanded & 4095) == 0 && options.run && options.run->should_stop()) {
        res.stopped = true;
        return res;
      }
      int blank = static_cast<int>(std::find(s.begin(), s.begin() + geo.cells, 0) - s.begin());
      for (int dir = 0; dir < 4; ++dir) {
        int t = geo.nb[blank][dir];
        if (t < 0) continue;
        State c = s;
        std::swap(c[blank], c[t]);
        if (table.full()) {
          complete = false;
          break;
        }
        if (table.insert(key_of(c.data(), geo.cells), d + 1)) next.push_back(c);
      }
      if (!complete) break;
    }
    if (!complete) break;  // layer d+1 is partial: its stored entries are still exact
    res.depth = d + 1;
    if (options.on_progress) {
      options.on_progress({res.depth, res.expanded, t0.seconds(),
                           fmt::format("backward: all {} positions within {} moves of the goal "
                                       "stored",
                                       table.size(), res.depth)});
    }
    if (next.empty()) break;
    layer.swap(next);
  }
  return res;
}

// The forward IDA*. R, C > 0: board size fixed at compile time; 0: taken from `geo`.
template <int R, int C, bool LC, bool LM, bool PERIM>
class Search {
 public:
  Search(const Geometry& geo, const Position& start, const Position& goal,
         const SolveOptions& options, const Perimeter* perim, int perim_depth, Stopwatch t0)
      : geo_(geo), options_(options), perim_(perim), perim_depth_(perim_depth), t0_(t0) {
    const int n = cells();
    std::array<int, MAX_CELLS> goal_cell{};
    for (int c = 0; c < n; ++c) goal_cell[goal[c]] = c;
    for (int t = 0; t < n; ++t) {
      goal_row_[t] = static_cast<std::uint8_t>(goal_cell[t] / cols());
      goal_col_[t] = static_cast<std::uint8_t>(goal_cell[t] % cols());
      for (int c = 0; c < n; ++c) {
        md_[t][c] = t == 0 ? 0
                           : static_cast<std::uint8_t>(std::abs(c / cols() - goal_row_[t]) +
                                                       std::abs(c % cols() - goal_col_[t]));
      }
    }
    // Last-move data: the goal neighbours of the goal blank cell.
    int b = goal_cell[0];
    for (int c = 0; c < n; ++c) {
      dist_b_[c] = static_cast<std::uint8_t>(std::abs(c / cols() - b / cols()) +
                                             std::abs(c % cols() - b % cols()));
    }
    for (int d = 0; d < 4; ++d) {
      int nc = geo_.nb[b][d];
      if (nc < 0) continue;
      lm_tile_[lm_count_] = goal[nc];
      lm_horizontal_[lm_count_] = d >= 2;
      ++lm_count_;
    }
    // Start state.
    for (int c = 0; c < n; ++c) {
      board_[c] = start[c];
      cell_[start[c]] = static_cast<std::uint8_t>(c);
      md_sum_ += md_[start[c]][c];
    }
    blank_ = cell_[0];
    if constexpr (LC) {
      for (int l = 0; l < rows() + cols(); ++l) {
        line_[l] = static_cast<std::int8_t>(compute_line(l));
        lc_sum_ += line_[l];
      }
    }
    key_ = key_of(board_.data(), n);
    limit_ = options.max_nodes ? options.max_nodes : ~std::uint64_t{0};
  }

  int rows() const {
    if constexpr (R > 0) return R;
    return geo_.rows;
  }
  int cols() const {
    if constexpr (C > 0) return C;
    return geo_.cols;
  }
  int cells() const { return rows() * cols(); }

  int heuristic() const { return md_sum_ + (LC ? lc_sum_ : 0) + (LM ? last_move() : 0); }

  // Runs IDA*. On success `path()` holds the forward moves and, in perimeter mode, `meet_*`
  // the state where the stored distances take over.
  Status run() {
    int h = heuristic();
    if constexpr (PERIM) {
      int e = h <= perim_depth_ ? perim_->find(key_) : -1;
      if (e >= 0) {
        found_depth_ = 0;
        meet_dist_ = e;
        std::copy(board_.begin(), board_.end(), meet_board_.begin());
        return Ok{};
      }
      if (h <= perim_depth_) h = outside_bound();
    } else if (h == 0) {
      found_depth_ = 0;
      return Ok{};
    }
    bound_ = h;
    report(bound_, "forward, bound of the start");
    while (true) {
      next_bound_ = INT_MAX;
      if (dfs(0, -1)) return Ok{};
      if (stopped_) return options_.run->stop_error();
      if (aborted_) {
        return make_error(fmt::format("gave up after {} nodes (--max-nodes): no solution shorter "
                                      "than {} moves",
                                      nodes_, bound_),
                          {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
      }
      if (next_bound_ == INT_MAX || next_bound_ >= MAX_DEPTH) {
        return make_error("no solution within the search depth limit", {}, Error::NO_POSITION,
                          ErrorKind::Internal);
      }
      bound_ = next_bound_;
      report(bound_, "forward, iteration done");
    }
  }

  std::uint64_t nodes() const { return nodes_; }
  int found_depth() const { return found_depth_; }
  int bound() const { return bound_; }
  std::vector<Direction> path() const {
    std::vector<Direction> out;
    for (int i = 0; i < found_depth_; ++i) out.push_back(static_cast<Direction>(path_[i]));
    return out;
  }
  int meet_dist() const { return meet_dist_; }
  Position meet_position() const {
    return Position(meet_board_.begin(), meet_board_.begin() + cells());
  }

 private:
  void report(int bound, std::string note) {
    if (options_.on_progress) {
      options_.on_progress({bound, nodes_, t0_.seconds(), std::move(note)});
    }
  }

  // Bound of a position outside the perimeter: more than perim_depth_ moves, and (every move
  // changes Manhattan by one) of the same parity as the Manhattan distance.
  int outside_bound() const { return perim_depth_ + 1 + ((perim_depth_ + 1 + md_sum_) & 1); }

  // Extra moves of line l (rows 0..rows-1, then columns).
  int compute_line(int l) const {
    int keys[MAX_SIDE];
    int k = 0;
    if (l < rows()) {
      for (int c = 0; c < cols(); ++c) {
        int t = board_[l * cols() + c];
        if (t != 0 && goal_row_[t] == l) keys[k++] = goal_col_[t];
      }
    } else {
      int c = l - rows();
      for (int r = 0; r < rows(); ++r) {
        int t = board_[r * cols() + c];
        if (t != 0 && goal_col_[t] == c) keys[k++] = goal_row_[t];
      }
    }
    if (k < 2) return 0;
    // Longest increasing subsequence by patience sorting (k <= 12).
    int tails[MAX_SIDE];
    int len = 0;
    for (int i = 0; i < k; ++i) {
      int lo = 0, hi = len;
      while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (tails[mid] < keys[i])
          lo = mid + 1;
        else
          hi = mid;
      }
      tails[lo] = keys[i];
      if (lo == len) ++len;
    }
    return 2 * (k - len);
  }

  // Last-move rule (bounds.hpp explains the conditions).
  int last_move() const {
    if (md_sum_ == 0) return 0;
    for (int i = 0; i < lm_count_; ++i) {
      int t = lm_tile_[i];
      int p = cell_[t];
      if (dist_b_[p] + 1 - md_[t][p] < 2) return 0;
      if constexpr (LC) {
        if (lm_horizontal_[i]) {
          int pc = p % cols();
          if (pc == goal_col_[t] && line_[rows() + pc] > 0) return 0;
        } else {
          int pr = p / cols();
          if (pr == goal_row_[t] && line_[pr] > 0) return 0;
        }
      }
    }
    return 2;
  }

  // Depth-first iteration below the current state at depth g; `last` = previous direction.
  bool dfs(int g, int last) {
    if ((nodes_ & STOP_CHECK_MASK) == 0 && nodes_) {
      if ((nodes_ & PROGRESS_MASK) == 0 && options_.on_progress) {
        report(bound_, "forward, searching");
      }
      if (options_.run && options_.run->should_stop()) {
        stopped_ = aborted_ = true;
        return false;
      }
    }
    if (nodes_ >= limit_) {
      aborted_ = true;
      return false;
    }
    const int from_blank = blank_;
    for (int d = 0; d < 4; ++d) {
      if (d == (last ^ 1)) continue;  // U<->D, L<->R: never undo the previous move
      const int t = geo_.nb[from_blank][d];
      if (t < 0) continue;
      // Step 1. Slide tile from cell t into the blank's cell.
      const int tile = board_[t];
      const int old_md = md_sum_;
      md_sum_ += md_[tile][from_blank] - md_[tile][t];
      board_[from_blank] = static_cast<std::uint8_t>(tile);
      board_[t] = 0;
      cell_[tile] = static_cast<std::uint8_t>(from_blank);
      cell_[0] = static_cast<std::uint8_t>(t);
      blank_ = t;
      int line = -1, old_line = 0;
      if constexpr (LC) {
        if (d < 2) {
          int gr = goal_row_[tile];
          if (gr == t / cols() || gr == from_blank / cols()) line = gr;
        } else {
          int gc = goal_col_[tile];
          if (gc == t % cols() || gc == from_blank % cols()) line = rows() + gc;
        }
        if (line >= 0) {
          old_line = line_[line];
          line_[line] = static_cast<std::int8_t>(compute_line(line));
          lc_sum_ += line_[line] - old_line;
        }
      }
      if constexpr (PERIM) key_.move(tile, t, from_blank);
      ++nodes_;

      // Step 2. Bound of the child; goal test.
      int h = md_sum_ + (LC ? lc_sum_ : 0) + (LM ? last_move() : 0);
      bool found = false;
      path_[g] = static_cast<std::uint8_t>(d);
      if constexpr (PERIM) {
        if (h <= perim_depth_) {
          int e = perim_->find(key_);
          if (e >= 0) {
            h = e;
            if (g + 1 + e <= bound_) {
              found = true;
              found_depth_ = g + 1;
              meet_dist_ = e;
              std::copy(board_.begin(), board_.end(), meet_board_.begin());
            }
          } else {
            h = outside_bound();
          }
        }
      } else if (h == 0) {
        found = true;
        found_depth_ = g + 1;
      }
      if (!found) {
        int f = g + 1 + h;
        if (f > bound_) {
          if (f < next_bound_) next_bound_ = f;
        } else {
          found = dfs(g + 1, d);
        }
      }

      // Step 3. Undo.
      if constexpr (PERIM) key_.move(tile, from_blank, t);
      if constexpr (LC) {
        if (line >= 0) {
          lc_sum_ += old_line - line_[line];
          line_[line] = static_cast<std::int8_t>(old_line);
        }
      }
      board_[t] = static_cast<std::uint8_t>(tile);
      board_[from_blank] = 0;
      cell_[tile] = static_cast<std::uint8_t>(t);
      cell_[0] = static_cast<std::uint8_t>(from_blank);
      blank_ = from_blank;
      md_sum_ = old_md;
      if (found) return true;
      if (aborted_) return false;
    }
    return false;
  }

  const Geometry& geo_;
  const SolveOptions& options_;
  const Perimeter* perim_;
  int perim_depth_;
  Stopwatch t0_;

  std::array<std::uint8_t, MAX_CELLS> board_{};  // cell -> tile
  std::array<std::uint8_t, MAX_CELLS> cell_{};   // tile -> cell
  int blank_ = 0;
  std::uint8_t md_[MAX_CELLS][MAX_CELLS]{};  // md_[tile][cell]: Manhattan distance to goal cell
  std::array<std::uint8_t, MAX_CELLS> goal_row_{}, goal_col_{}, dist_b_{};
  std::array<std::int8_t, 2 * MAX_SIDE> line_{};  // conflict extras: rows, then columns
  int lm_count_ = 0;
  std::array<std::uint8_t, 4> lm_tile_{};
  std::array<bool, 4> lm_horizontal_{};
  int md_sum_ = 0, lc_sum_ = 0;
  Key key_;
  std::array<std::uint8_t, MAX_DEPTH> path_{};
  std::uint64_t nodes_ = 0, limit_ = 0;
  int bound_ = 0, next_bound_ = 0;
  bool aborted_ = false;
  bool stopped_ = false;  // aborted because the run context said stop
  int found_depth_ = -1;
  int meet_dist_ = 0;
  std::array<std::uint8_t, MAX_CELLS> meet_board_{};
};

// Reads the back half of a bidirectional solution off the perimeter's exact distances.
Result<std::vector<Direction>> descend(const Geometry& geo, Position p, int dist,
                                       const Perimeter& table) {
  std::vector<Direction> out;
  BoardSize size{geo.rows, geo.cols};
  while (dist > 0) {
    bool stepped = false;
    for (int d = 0; d < 4 && !stepped; ++d) {
      Position q = p;
      if (!apply_direction(size, q, static_cast<Direction>(d))) continue;
      if (table.find(key_of(q.data(), geo.cells)) == dist - 1) {
        p = q;
        out.push_back(static_cast<Direction>(d));
        --dist;
        stepped = true;
      }
    }
    if (!stepped) {
      return make_error("perimeter table is inconsistent", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
  }
  return out;
}

std::string heuristic_name(const SolveOptions& o) {
  std::string h = o.heuristic == Heuristic::Manhattan ? "manhattan" : "linear-conflict";
  if (o.last_move) h += "+last-move";
  return h;
}

template <int R, int C, bool LC, bool LM, bool PERIM>
Result<SolveResult> run_search(const Geometry& geo, const Position& start, const Position& goal,
                               const SolveOptions& options, Stopwatch t0) {
  SolveResult result;
  result.heuristic = heuristic_name(options);
  std::unique_ptr<Perimeter> table;
  PerimeterResult pr;
  if constexpr (PERIM) {
    // Its memory is checked against the run's budget before anything is stored.
    const std::uint64_t states = std::max<std::uint64_t>(options.perimeter_states, 1);
    if (options.run) {
      auto ok = options.run->check_memory(
          perimeter_bytes(states, geo.cells),
          fmt::format("a bidirectional perimeter of {} positions", states));
      if (!ok) return ok.error();
    }
    table = std::make_unique<Perimeter>(states);
    pr = build_perimeter(geo, goal, options.perimeter_depth, *table, options, t0);
    if (pr.stopped) return options.run->stop_error();
    result.nodes_backward = pr.expanded;
  }
  auto search = std::make_unique<Search<R, C, LC, LM, PERIM>>(geo, start, goal, options,
                                                              table.get(), pr.depth, t0);
  Status st = search->run();
  result.nodes_forward = search->nodes();
  result.nodes = result.nodes_forward + result.nodes_backward;
  if (!st) return st.error();
  result.moves = search->path();
  if constexpr (PERIM) {
    auto back = descend(geo, search->meet_position(), search->meet_dist(), *table);
    if (!back) return back.error();
    result.moves.insert(result.moves.end(), back->begin(), back->end());
    result.method = fmt::format(
        "bidirectional: backward breadth-first perimeter ({} positions stored, complete to "
        "distance {}) + forward IDA*+{} (front-to-end, meets after {} forward moves)",
        table->size(), pr.depth, result.heuristic, search->found_depth());
  } else {
    result.method = "ida*+" + result.heuristic;
  }
  result.optimal = true;
  return result;
}

template <int R, int C>
Result<SolveResult> dispatch(const Geometry& geo, const Position& start, const Position& goal,
                             const SolveOptions& o, Stopwatch t0) {
  const bool lc = o.heuristic == Heuristic::LinearConflict;
  const int mode = (lc ? 4 : 0) | (o.last_move ? 2 : 0) | (o.bidirectional ? 1 : 0);
  switch (mode) {
    case 0:
      return run_search<R, C, false, false, false>(geo, start, goal, o, t0);
    case 1:
      return run_search<R, C, false, false, true>(geo, start, goal, o, t0);
    case 2:
      return run_search<R, C, false, true, false>(geo, start, goal, o, t0);
    case 3:
      return run_search<R, C, false, true, true>(geo, start, goal, o, t0);
    case 4:
      return run_search<R, C, true, false, false>(geo, start, goal, o, t0);
    case 5:
      return run_search<R, C, true, false, true>(geo, start, goal, o, t0);
    case 6:
      return run_search<R, C, true, true, false>(geo, start, goal, o, t0);
    default:
      return run_search<R, C, true, true, true>(geo, start, goal, o, t0);
  }
}

}  // namespace

Status verify_solution(BoardSize size, const Position& start, const Position& goal,
                       SolveResult& result) {
  Position p = start;
  auto tiles = replay(size, p, result.moves);
  if (!tiles) return tiles.error();
  if (p != goal) {
    return make_error("internal error: the solution found does not reach the goal when replayed",
                      {}, Error::NO_POSITION, ErrorKind::Internal);
  }
  result.tiles = std::move(*tiles);
  return Ok{};
}

Status check_solvable(BoardSize size, const Position& start, const Position& goal) {
  Solvability sv = solvability(size, start, goal);
  if (!sv.solvable) {
    return make_error("the position cannot reach the goal: " + sv.reason, format_flat(start),
                      Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  return Ok{};
}

Result<SolveResult> solve(BoardSize size, const Position& start, const Position& goal,
                          const SolveOptions& options) {
  Stopwatch t0;
  if (auto s = check_board_size(size); !s) return s.error();
  if (auto s = check_position(size, start, "start position"); !s) return s.error();
  if (auto s = check_position(size, goal, "goal"); !s) return s.error();
  if (auto s = check_solvable(size, start, goal); !s) return s.error();
  Geometry geo(size);
  Result<SolveResult> r = [&] {
    if (size.rows == 3 && size.cols == 3) return dispatch<3, 3>(geo, start, goal, options, t0);
    if (size.rows == 4 && size.cols == 4) return dispatch<4, 4>(geo, start, goal, options, t0);
    if (size.rows == 5 && size.cols == 5) return dispatch<5, 5>(geo, start, goal, options, t0);
    return dispatch<0, 0>(geo, start, goal, options, t0);
  }();
  if (!r) return r;
  if (auto s = verify_solution(size, start, goal, *r); !s) return s.error();
  r->seconds = t0.seconds();
  return r;
}

}  // namespace permuzzle::sliding
