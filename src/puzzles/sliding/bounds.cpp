#include "permuzzle/puzzles/sliding/bounds.hpp"

#include <algorithm>
#include <cstdlib>

namespace permuzzle::sliding {

int line_conflict(const int* keys, int k) {
  // O(k^2) longest strictly increasing subsequence; k <= 12.
  int lis[32];
  int best = 0;
  for (int i = 0; i < k; ++i) {
    lis[i] = 1;
    for (int j = 0; j < i; ++j) {
      if (keys[j] < keys[i] && lis[j] + 1 > lis[i]) lis[i] = lis[j] + 1;
    }
    best = std::max(best, lis[i]);
  }
  return 2 * (k - best);
}

BoundReport compute_bounds(BoardSize size, const Position& start, const Position& goal) {
  const int rows = size.rows, cols = size.cols, n = size.cells();
  BoundReport rep;
  std::vector<int> goal_cell(n), cell_of(n);
  for (int c = 0; c < n; ++c) {
    goal_cell[goal[c]] = c;
    cell_of[start[c]] = c;
  }

  // Step 1. Manhattan.
  rep.manhattan_per_tile.assign(n, 0);
  for (int t = 1; t < n; ++t) {
    int a = cell_of[t], b = goal_cell[t];
    rep.manhattan_per_tile[t] = std::abs(a / cols - b / cols) + std::abs(a % cols - b % cols);
    rep.manhattan += rep.manhattan_per_tile[t];
  }

  // Step 2. Linear conflicts per row and per column.
  rep.row_conflicts.assign(rows, 0);
  rep.col_conflicts.assign(cols, 0);
  int keys[32];
  for (int r = 0; r < rows; ++r) {
    int k = 0;
    for (int c = 0; c < cols; ++c) {
      int t = start[r * cols + c];
      if (t != 0 && goal_cell[t] / cols == r) keys[k++] = goal_cell[t] % cols;
    }
    rep.row_conflicts[r] = line_conflict(keys, k);
    rep.linear_conflict += rep.row_conflicts[r];
  }
  for (int c = 0; c < cols; ++c) {
    int k = 0;
    for (int r = 0; r < rows; ++r) {
      int t = start[r * cols + c];
      if (t != 0 && goal_cell[t] % cols == c) keys[k++] = goal_cell[t] / cols;
    }
    rep.col_conflicts[c] = line_conflict(keys, k);
    rep.linear_conflict += rep.col_conflicts[c];
  }

  // Step 3. Last move (see the header for why the combination with conflicts is safe).
  if (rep.manhattan > 0) {
    int b = goal_cell[0];
    int br = b / cols, bc = b % cols;
    bool all_detour = true, all_free = true;
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; ++d) {
      int nr = br + dr[d], nc = bc + dc[d];
      if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
      int t = goal[nr * cols + nc];
      int p = cell_of[t], pr = p / cols, pc = p % cols;
      int via_b = std::abs(pr - br) + std::abs(pc - bc) + 1;
      int direct = std::abs(pr - nr) + std::abs(pc - nc);
      if (via_b - direct < 2) all_detour = false;
      bool horizontal = dr[d] == 0;
      if (horizontal ? (pc == nc && rep.col_conflicts[pc] > 0)
                     : (pr == nr && rep.row_conflicts[pr] > 0)) {
        all_free = false;
      }
    }
    rep.last_move = all_detour ? 2 : 0;
    rep.last_move_with_lc = all_detour && all_free ? 2 : 0;
  }
  return rep;
}

}  // namespace permuzzle::sliding
