#include "permuzzle/core/perm.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <numeric>
#include <unordered_map>

namespace permuzzle {

namespace {

// A tiny cursor over the text being parsed, for precise error positions.
struct Cursor {
  std::string_view text;
  std::size_t pos = 0;

  void skip_space() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  bool at_end() const { return pos >= text.size(); }
  char peek() const { return at_end() ? '\0' : text[pos]; }

  Error error(const std::string& what, std::size_t at) const {
    return make_error(what, std::string(text), at);
  }

  // Parses a 1-based point number (decimal). On success returns the 0-based point.
  Result<Point> point() {
    skip_space();
    std::size_t start = pos;
    if (at_end() || !std::isdigit(static_cast<unsigned char>(peek()))) {
      return error(at_end() ? "unexpected end of input: expected a point number (1, 2, ...)"
                            : std::string("unexpected '") + peek() +
                                  "': expected a point number (1, 2, ...)",
                   pos);
    }
    std::uint64_t value = 0;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) {
      value = value * 10 + static_cast<std::uint64_t>(peek() - '0');
      if (value > MAX_PARSE_DEGREE) {
        return error("point number too large (at most " + std::to_string(MAX_PARSE_DEGREE) + ")",
                     start);
      }
      ++pos;
    }
    if (value == 0) return error("point 0 is not allowed: points are numbered from 1", start);
    return static_cast<Point>(value - 1);
  }
};

}  // namespace

Perm::Perm(std::size_t degree) : images_(degree) {
  std::iota(images_.begin(), images_.end(), Point{0});
}

Result<Perm> Perm::from_images(std::vector<Point> images) {
  std::vector<bool> seen(images.size(), false);
  for (std::size_t i = 0; i < images.size(); ++i) {
    Point p = images[i];
    if (p >= images.size()) {
      return make_error("image " + std::to_string(p + 1) + " of point " + std::to_string(i + 1) +
                        " is outside 1.." + std::to_string(images.size()));
    }
    if (seen[p]) {
      return make_error("point " + std::to_string(p + 1) +
                        " is the image of two points: not a permutation");
    }
    seen[p] = true;
  }
  return Perm(std::move(images));
}

Result<Perm> Perm::from_cycles(const std::vector<std::vector<Point>>& cycles_one_based,
                               std::size_t degree) {
  std::size_t n = degree;
  for (const auto& cycle : cycles_one_based) {
    for (Point p : cycle) {
      if (p == 0) return make_error("point 0 is not allowed: points are numbered from 1");
      n = std::max<std::size_t>(n, p);
    }
  }
  Perm result(n);
  std::vector<bool> used(n, false);
  for (const auto& cycle : cycles_one_based) {
    for (std::size_t i = 0; i < cycle.size(); ++i) {
      Point from = cycle[i] - 1;
      if (used[from]) {
        return make_error("point " + std::to_string(from + 1) + " appears twice in the cycles");
      }
      used[from] = true;
      result.images_[from] = cycle[(i + 1) % cycle.size()] - 1;
    }
  }
  return result;
}

Result<Perm> Perm::parse(std::string_view text) {
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return make_error(
        "empty permutation: expected cycle notation like (1,2,3) or a list like "
        "[2,3,1]",
        std::string(text), 0);
  }
  if (text[first] == '[') return parse_list(text);
  return parse_cycles(text);
}

Result<Perm> Perm::parse_cycles(std::string_view text) {
  // Grammar: cycle* where cycle = '(' [point (',' point)*] ')'. Successive cycles multiply
  // left to right like GAP, so "(1,2)(2,3)" is the product; a point may not repeat inside
  // one cycle.
  Cursor cur{text};
  // The result is built in one array of its final size (the text's largest point: a larger
  // number is refused by the cursor below), each cycle applied in place: O(text + degree) time
  // and one allocation, never a product per cycle ("(1,2)(3,4)...(39999,40000)" would be
  // 20,000 products on 40,000 points). `preimage` holds, for each point that some cycle has
  // moved, the point now mapped to it (every other point is its own preimage).
  std::size_t largest = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] < '0' || text[i] > '9') {
      ++i;
      continue;
    }
    std::size_t value = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      value = std::min<std::size_t>(value * 10 + std::size_t(text[i] - '0'), MAX_PARSE_DEGREE + 1);
    }
    largest = std::max(largest, value);
  }
  Perm result(std::min<std::size_t>(largest, MAX_PARSE_DEGREE));
  std::unordered_map<Point, Point> preimage;
  auto preimage_of = [&](Point y) {
    auto it = preimage.find(y);
    return it == preimage.end() ? y : it->second;
  };
  std::vector<Point> sources;
  std::size_t degree = 0;
  cur.skip_space();
  if (cur.at_end()) {
    return cur.error("empty permutation: expected cycle notation like (1,2,3) or ()", 0);
  }
  while (true) {
    cur.skip_space();
    if (cur.at_end()) break;
    if (cur.peek() != '(') {
      return cur.error(
          std::string("unexpected '") + cur.peek() + "': expected '(' to start a cycle", cur.pos);
    }
    std::size_t cycle_start = cur.pos;
    ++cur.pos;
    cur.skip_space();
    std::vector<Point> cycle;
    std::vector<std::size_t> where;
    if (cur.peek() != ')') {
      while (true) {
        cur.skip_space();
        std::size_t at = cur.pos;
        auto p = cur.point();
        if (!p) return p.error();
        for (std::size_t i = 0; i < cycle.size(); ++i) {
          if (cycle[i] == *p) {
            return cur.error("point " + std::to_string(*p + 1) +
                                 " is repeated inside one cycle (first at character " +
                                 std::to_string(where[i] + 1) + ")",
                             at);
          }
        }
        cycle.push_back(*p);
        where.push_back(at);
        cur.skip_space();
        if (cur.peek() == ',') {
          ++cur.pos;
          continue;
        }
        if (cur.peek() == ')') break;
        if (cur.at_end()) {
          return cur.error("unclosed cycle: expected ',' or ')' (cycle opened at character " +
                               std::to_string(cycle_start + 1) + ")",
                           cur.pos);
        }
        return cur.error(std::string("unexpected '") + cur.peek() + "': expected ',' or ')'",
                         cur.pos);
      }
    }
    ++cur.pos;  // ')'
    if (cycle.size() >= 2) {
      // result * cycle: the points whose images lie on the cycle move on along it.
      degree = std::max<std::size_t>(degree, *std::max_element(cycle.begin(), cycle.end()) + 1);
      sources.clear();
      for (Point y : cycle) sources.push_back(preimage_of(y));
      for (std::size_t i = 0; i < cycle.size(); ++i) {
        const Point to = cycle[(i + 1) % cycle.size()];
        result.images_[sources[i]] = to;
        if (sources[i] == to) {
          preimage.erase(to);
        } else {
          preimage[to] = sources[i];
        }
      }
    }
  }
  // The degree is the largest point of a cycle of two or more points (points of 1-cycles only,
  // as in "(5)", do not count), as for a product of the cycles.
  result.images_.resize(degree);
  return result;
}

Result<Perm> Perm::parse_list(std::string_view text) {
  Cursor cur{text};
  cur.skip_space();
  if (cur.peek() != '[') return cur.error("expected '[' to start a list of images", cur.pos);
  ++cur.pos;
  std::vector<Point> images;
  std::vector<std::size_t> where;
  cur.skip_space();
  if (cur.peek() != ']') {
    while (true) {
      cur.skip_space();
      where.push_back(cur.pos);
      auto p = cur.point();
      if (!p) return p.error();
      images.push_back(*p);
      cur.skip_space();
      if (cur.peek() == ',') {
        ++cur.pos;
        continue;
      }
      if (cur.peek() == ']') break;
      if (cur.at_end()) return cur.error("unclosed list: expected ',' or ']'", cur.pos);
      return cur.error(std::string("unexpected '") + cur.peek() + "': expected ',' or ']'",
                       cur.pos);
    }
  }
  ++cur.pos;
  cur.skip_space();
  if (!cur.at_end()) {
    return cur.error("unexpected text after the list", cur.pos);
  }
  std::vector<std::size_t> first_at(images.size(), Error::NO_POSITION);
  for (std::size_t i = 0; i < images.size(); ++i) {
    if (images[i] >= images.size()) {
      return cur.error("image " + std::to_string(images[i] + 1) + " is outside 1.." +
                           std::to_string(images.size()) + " (a list of " +
                           std::to_string(images.size()) + " images must be a permutation of 1.." +
                           std::to_string(images.size()) + ")",
                       where[i]);
    }
    if (first_at[images[i]] != Error::NO_POSITION) {
      return cur.error("image " + std::to_string(images[i] + 1) + " appears twice in the list",
                       where[i]);
    }
    first_at[images[i]] = i;
  }
  return Perm(std::move(images));
}

Perm Perm::extended(std::size_t degree) const {
  assert(degree >= largest_moved_point());
  Perm result(degree);
  for (std::size_t i = 0; i < std::min(degree, images_.size()); ++i) result.images_[i] = images_[i];
  return result;
}

std::size_t Perm::largest_moved_point() const {
  for (std::size_t i = images_.size(); i > 0; --i) {
    if (images_[i - 1] != i - 1) return i;
  }
  return 0;
}

Perm Perm::operator*(const Perm& then) const {
  std::size_t n = std::max(images_.size(), then.images_.size());
  Perm result(n);
  for (std::size_t i = 0; i < n; ++i) result.images_[i] = then.image(image(static_cast<Point>(i)));
  return result;
}

Perm& Perm::operator*=(const Perm& then) {
  return *this = *this * then;
}

Perm Perm::inverse() const {
  Perm result(images_.size());
  for (std::size_t i = 0; i < images_.size(); ++i)
    result.images_[images_[i]] = static_cast<Point>(i);
  return result;
}

template <class ShiftOf>
Perm Perm::shift_cycles(ShiftOf shift_of) const {
  // Reduce the exponent by the cycle length per cycle: exact and O(n) for any exponent.
  Perm result(images_.size());
  std::vector<bool> seen(images_.size(), false);
  std::vector<Point> cycle;
  for (std::size_t start = 0; start < images_.size(); ++start) {
    if (seen[start]) continue;
    cycle.clear();
    for (Point p = static_cast<Point>(start); !seen[p]; p = images_[p]) {
      seen[p] = true;
      cycle.push_back(p);
    }
    const std::size_t len = cycle.size();
    const std::size_t shift = shift_of(len);
    for (std::size_t i = 0; i < len; ++i) result.images_[cycle[i]] = cycle[(i + shift) % len];
  }
  return result;
}

Perm Perm::pow(long long exponent) const {
  return shift_cycles([exponent](std::size_t len) {
    const long long n = static_cast<long long>(len);
    return static_cast<std::size_t>(((exponent % n) + n) % n);
  });
}

Perm Perm::pow(const mpz_class& exponent) const {
  if (exponent.fits_slong_p()) return pow(static_cast<long long>(exponent.get_si()));
  return shift_cycles([&exponent](std::size_t len) {
    mpz_class reduced = exponent % static_cast<unsigned long>(len);  // sign of the dividend
    if (reduced < 0) reduced += static_cast<unsigned long>(len);
    return static_cast<std::size_t>(reduced.get_ui());
  });
}

Perm Perm::conjugate(const Perm& by) const {
  return by.inverse() * *this * by;
}

Perm commutator(const Perm& a, const Perm& b) {
  return a.inverse() * b.inverse() * a * b;
}

bool Perm::is_identity() const {
  return largest_moved_point() == 0;
}

bool Perm::operator==(const Perm& other) const {
  std::size_t n = std::max(images_.size(), other.images_.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (image(static_cast<Point>(i)) != other.image(static_cast<Point>(i))) return false;
  }
  return true;
}

bool Perm::operator<(const Perm& other) const {
  // Same degree (every element of one group): the images' lexicographic order, vectorised.
  if (images_.size() == other.images_.size()) return images_ < other.images_;
  std::size_t n = std::max(images_.size(), other.images_.size());
  for (std::size_t i = 0; i < n; ++i) {
    Point a = image(static_cast<Point>(i)), b = other.image(static_cast<Point>(i));
    if (a != b) return a < b;
  }
  return false;
}

std::vector<std::vector<Point>> Perm::cycles() const {
  std::vector<std::vector<Point>> result;
  std::vector<bool> seen(images_.size(), false);
  for (std::size_t start = 0; start < images_.size(); ++start) {
    if (seen[start] || images_[start] == start) continue;
    std::vector<Point> cycle;
    for (Point p = static_cast<Point>(start); !seen[p]; p = images_[p]) {
      seen[p] = true;
      cycle.push_back(p);
    }
    result.push_back(std::move(cycle));
  }
  return result;
}

mpz_class Perm::order() const {
  mpz_class result = 1;
  for (const auto& cycle : cycles()) {
    mpz_class len = static_cast<unsigned long>(cycle.size());
    mpz_lcm(result.get_mpz_t(), result.get_mpz_t(), len.get_mpz_t());
  }
  return result;
}

std::vector<std::size_t> Perm::cycle_type() const {
  std::vector<std::size_t> type;
  for (const auto& cycle : cycles()) type.push_back(cycle.size());
  std::sort(type.rbegin(), type.rend());
  return type;
}

std::vector<Point> Perm::fixed_points() const {
  std::vector<Point> result;
  for (std::size_t i = 0; i < images_.size(); ++i) {
    if (images_[i] == i) result.push_back(static_cast<Point>(i));
  }
  return result;
}

std::vector<Point> Perm::support() const {
  std::vector<Point> result;
  for (std::size_t i = 0; i < images_.size(); ++i) {
    if (images_[i] != i) result.push_back(static_cast<Point>(i));
  }
  return result;
}

int Perm::sign() const {
  // A cycle of length k is a product of k-1 transpositions.
  std::size_t transpositions = 0;
  for (const auto& cycle : cycles()) transpositions += cycle.size() - 1;
  return transpositions % 2 == 0 ? 1 : -1;
}

int Perm::sign_by_inversions() const {
  // Count inversions of the image sequence with a Fenwick tree: O(n log n).
  std::size_t n = images_.size();
  std::vector<std::uint32_t> tree(n + 1, 0);
  std::uint64_t inversions = 0;
  for (std::size_t i = n; i > 0; --i) {
    Point v = images_[i - 1];
    for (std::size_t j = v; j > 0; j -= j & (~j + 1)) inversions += tree[j];  // count < v
    for (std::size_t j = v + 1; j <= n; j += j & (~j + 1)) ++tree[j];
  }
  return inversions % 2 == 0 ? 1 : -1;
}

std::string Perm::to_cycle_string() const {
  // The cycles in the order cycles() gives (by smallest point, each from it), written straight
  // into the string: listing millions of elements makes this a hot loop.
  std::string out;
  std::vector<bool> seen(images_.size(), false);
  char digits[16];
  for (std::size_t start = 0; start < images_.size(); ++start) {
    if (seen[start] || images_[start] == start) continue;
    out += '(';
    for (Point p = static_cast<Point>(start); !seen[p]; p = images_[p]) {
      seen[p] = true;
      if (p != start) out += ',';
      const auto end = std::to_chars(digits, digits + sizeof digits, std::uint64_t(p) + 1).ptr;
      out.append(digits, end);
    }
    out += ')';
  }
  return out.empty() ? "()" : out;
}

std::string Perm::to_list_string(std::size_t degree) const {
  std::size_t n = degree == 0 ? images_.size() : std::max(degree, largest_moved_point());
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out += ',';
    out += std::to_string(image(static_cast<Point>(i)) + 1);
  }
  return out + "]";
}

std::vector<std::vector<Point>> orbits(const std::vector<Perm>& gens, std::size_t degree) {
  // Union–find over the generators' moved points: each generator costs its own degree, never
  // degree x generators (thousands of disjoint cycles are read once each).
  std::vector<Point> parent(degree);
  std::iota(parent.begin(), parent.end(), Point{0});
  auto find = [&](Point x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const Perm& g : gens) {
    const std::vector<Point>& images = g.images();
    const std::size_t n = std::min(images.size(), degree);
    for (std::size_t x = 0; x < n; ++x) {
      const Point y = images[x];
      if (y == x || y >= degree) continue;
      const Point a = find(static_cast<Point>(x)), b = find(y);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  // Points in increasing order: each orbit comes sorted, the orbits by their smallest point.
  std::vector<std::vector<Point>> result;
  std::vector<std::size_t> index(degree);
  for (std::size_t p = 0; p < degree; ++p) {
    const Point root = find(static_cast<Point>(p));
    if (root == p) {
      index[p] = result.size();
      result.emplace_back();
    }
    result[index[root]].push_back(static_cast<Point>(p));
  }
  return result;
}

}  // namespace permuzzle
