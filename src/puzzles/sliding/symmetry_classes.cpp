#include "permuzzle/puzzles/sliding/symmetry_classes.hpp"

#include <algorithm>
#include <cassert>

namespace permuzzle::sliding {

// Data layout. maps[g][c] = the cell that map g sends cell c to; relabel[g][t] = the tile that
// tile t becomes (0 stays 0). Cells in the same orbit share orbit_of[c]; representative[o] is
// the orbit's smallest cell; to_representative[c] lists the maps g with g(c) = the representative
// of c's orbit (a coset of the representative's stabiliser; for the representative itself, the
// stabiliser, the identity first). Maps are indexed as goal_symmetries lists them: 0 = identity.
struct SlidingClassesData {
  SlidingRanking ranking{BoardSize{2, 2}};
  int klass = 0;
  int cells = 0;
  std::uint64_t per_blank = 0;
  std::vector<std::vector<std::uint8_t>> maps;
  std::vector<std::vector<std::uint8_t>> relabel;
  std::vector<int> orbit_of;
  std::vector<int> representative;
  std::vector<std::vector<int>> to_representative;

  // A position of `cells` entries (tile per cell) conjugated by map g into `out`.
  void conjugate(const std::uint8_t* p, int g, std::uint8_t* out) const {
    const auto& map = maps[static_cast<std::size_t>(g)];
    const auto& rel = relabel[static_cast<std::size_t>(g)];
    for (int c = 0; c < cells; ++c) out[map[static_cast<std::size_t>(c)]] = rel[p[c]];
  }

  int blank_of(const std::uint8_t* p) const {
    return static_cast<int>(std::find(p, p + cells, 0) - p);
  }

  // The canonical index of a position of class `klass` (no allocation: the BFS's hot path).
  std::uint64_t index(const std::uint8_t* p) const {
    const int blank = blank_of(p);
    const int orbit = orbit_of[static_cast<std::size_t>(blank)];
    const auto rep = static_cast<std::uint64_t>(representative[static_cast<std::size_t>(orbit)]);
    std::uint64_t best = ~std::uint64_t{0};
    std::uint8_t image[BFS_MAX_CELLS];
    for (int g : to_representative[static_cast<std::size_t>(blank)]) {
      if (g == 0) {  // the identity
        best = std::min(best, ranking.rank(p));
      } else {
        conjugate(p, g, image);
        best = std::min(best, ranking.rank(image));
      }
    }
    return static_cast<std::uint64_t>(orbit) * per_blank + (best - rep * per_blank);
  }

  void position(std::uint64_t index, std::uint8_t* out) const {
    const auto orbit = static_cast<std::size_t>(index / per_blank);
    const auto rep = static_cast<std::uint64_t>(representative[orbit]);
    ranking.position(rep * per_blank + index % per_blank, klass, out);
  }
};

std::vector<std::vector<std::uint8_t>> goal_symmetries(BoardSize size, const Position& goal) {
  const int rows = size.rows, cols = size.cols;
  const int blank = static_cast<int>(std::find(goal.begin(), goal.end(), 0) - goal.begin());
  std::vector<std::vector<std::uint8_t>> out;
  // The 8 maps (r, c) -> (r', c') of a square's dihedral group: optional transpose, then
  // optional flips of the rows and of the columns; a rectangle keeps the 4 without transpose.
  for (int transpose = 0; transpose < (rows == cols ? 2 : 1); ++transpose) {
    for (int flip_rows = 0; flip_rows < 2; ++flip_rows) {
      for (int flip_cols = 0; flip_cols < 2; ++flip_cols) {
        std::vector<std::uint8_t> map(static_cast<std::size_t>(size.cells()));
        for (int r = 0; r < rows; ++r) {
          for (int c = 0; c < cols; ++c) {
            int r2 = transpose != 0 ? c : r, c2 = transpose != 0 ? r : c;
            if (flip_rows != 0) r2 = rows - 1 - r2;
            if (flip_cols != 0) c2 = cols - 1 - c2;
            map[static_cast<std::size_t>(r * cols + c)] = static_cast<std::uint8_t>(r2 * cols + c2);
          }
        }
        if (map[static_cast<std::size_t>(blank)] == blank) out.push_back(std::move(map));
      }
    }
  }
  return out;  // the identity (no transpose, no flips) comes first
}

namespace {

// A map's relabelling of the tiles: the tile at goal cell g becomes the tile at map(g) (0 stays 0:
// the map fixes the goal's blank cell).
std::vector<std::uint8_t> relabelling(const std::vector<std::uint8_t>& map, const Position& goal) {
  std::vector<std::uint8_t> goal_cell(goal.size());
  for (std::size_t c = 0; c < goal.size(); ++c) goal_cell[goal[c]] = static_cast<std::uint8_t>(c);
  std::vector<std::uint8_t> rel(goal.size());
  for (std::size_t t = 0; t < goal.size(); ++t) rel[t] = goal[map[goal_cell[t]]];
  return rel;
}

}  // namespace

Position conjugate_position(const Position& position, const std::vector<std::uint8_t>& map,
                            const Position& goal) {
  const std::vector<std::uint8_t> rel = relabelling(map, goal);
  Position out(position.size(), 0);
  for (std::size_t c = 0; c < position.size(); ++c) out[map[c]] = rel[position[c]];
  return out;
}

SlidingSymmetryClasses::SlidingSymmetryClasses(const SlidingRanking& ranking, const Position& goal,
                                               int klass) {
  auto d = std::make_shared<SlidingClassesData>();
  d->ranking = ranking;
  d->klass = klass;
  d->cells = ranking.size().cells();
  d->per_blank = ranking.per_blank();
  d->maps = goal_symmetries(ranking.size(), goal);
  // Step 1. The relabelling of each map.
  for (const auto& map : d->maps) d->relabel.push_back(relabelling(map, goal));
  // Step 2. The cells' orbits, each represented by its smallest cell, and for every cell the
  // maps that take it to its representative.
  const auto n = static_cast<std::size_t>(d->cells);
  d->orbit_of.assign(n, -1);
  d->to_representative.resize(n);
  for (std::size_t c = 0; c < n; ++c) {
    if (d->orbit_of[c] < 0) {
      const int orbit = static_cast<int>(d->representative.size());
      d->representative.push_back(static_cast<int>(c));
      for (const auto& map : d->maps) d->orbit_of[map[c]] = orbit;
    }
  }
  for (std::size_t c = 0; c < n; ++c) {
    const auto rep =
        static_cast<std::uint8_t>(d->representative[static_cast<std::size_t>(d->orbit_of[c])]);
    for (std::size_t g = 0; g < d->maps.size(); ++g) {
      if (d->maps[g][c] == rep) d->to_representative[c].push_back(static_cast<int>(g));
    }
  }
  data_ = std::move(d);
}

std::uint64_t SlidingSymmetryClasses::states() const {
  return data_->representative.size() * data_->per_blank;
}

std::uint64_t SlidingSymmetryClasses::group_order() const {
  return data_->maps.size();
}

int SlidingSymmetryClasses::parity_class() const {
  return data_->klass;
}

std::uint64_t SlidingSymmetryClasses::index(const Position& position) const {
  assert(position.size() == static_cast<std::size_t>(data_->cells));
  return data_->index(position.data());
}

Position SlidingSymmetryClasses::position(std::uint64_t index) const {
  Position p(static_cast<std::size_t>(data_->cells), 0);
  data_->position(index, p.data());
  return p;
}

bool SlidingSymmetryClasses::canonical(std::uint64_t index) const {
  return data_->index(position(index).data()) == index;
}

std::uint64_t SlidingSymmetryClasses::orbit_size(std::uint64_t index) const {
  // |G| / |the maps fixing the position|; those fix its blank's cell, the orbit's
  // representative, so they are among the maps that take the representative to itself (only
  // the identity for most cells). No allocation: the BFS weighs every class it claims.
  const SlidingClassesData& d = *data_;
  const auto rep = static_cast<std::size_t>(d.representative[index / d.per_blank]);
  if (d.to_representative[rep].size() == 1) return d.maps.size();
  std::uint8_t p[BFS_MAX_CELLS], image[BFS_MAX_CELLS];
  d.position(index, p);
  std::uint64_t fixing = 0;
  for (int g : d.to_representative[rep]) {
    d.conjugate(p, g, image);
    fixing += std::equal(p, p + d.cells, image) ? 1 : 0;
  }
  return d.maps.size() / fixing;
}

std::vector<Position> SlidingSymmetryClasses::orbit(std::uint64_t index) const {
  const Position p = position(index);
  std::vector<Position> out;
  for (std::size_t g = 0; g < data_->maps.size(); ++g) {
    out.emplace_back(p.size(), 0);
    data_->conjugate(p.data(), static_cast<int>(g), out.back().data());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

SlidingSymmetryClasses::Expander::Expander(const SlidingClassesData* data)
    : d_(data), cursor_(data->ranking, data->klass) {}

void SlidingSymmetryClasses::Expander::load(std::uint64_t index) {
  have_ = index;
  count_ = 0;
  // Step 1. The class's position with the blank at its orbit's representative cell.
  const auto orbit = static_cast<std::size_t>(index / d_->per_blank);
  const auto rep = static_cast<std::uint64_t>(d_->representative[orbit]);
  cursor_.load(rep * d_->per_blank + index % d_->per_blank);
  std::uint8_t p[BFS_MAX_CELLS];
  const int blank = cursor_.blank();
  for (int c = 0, i = 0; c < d_->cells; ++c) p[c] = c == blank ? 0 : cursor_.tiles()[i++];
  // Step 2. Not canonical (a smaller index of the class exists): never claimed, never expanded.
  // Only a representative with symmetries of its own can hold such positions.
  if (d_->to_representative[static_cast<std::size_t>(blank)].size() > 1 && d_->index(p) != index) {
    return;
  }
  // Step 3. The neighbours' classes.
  const int cols = d_->ranking.size().cols, rows = d_->ranking.size().rows;
  const int row = blank / cols, col = blank % cols;
  const int steps[4] = {col > 0 ? -1 : 0, col + 1 < cols ? 1 : 0, row > 0 ? -cols : 0,
                        row + 1 < rows ? cols : 0};
  for (int step : steps) {
    if (step == 0) continue;
    const int to = blank + step;
    std::swap(p[blank], p[to]);
    neighbours_[static_cast<std::size_t>(count_++)] = d_->index(p);
    std::swap(p[blank], p[to]);
  }
}

}  // namespace permuzzle::sliding
