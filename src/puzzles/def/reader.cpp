// The text format of definition and scramble files (spec: definition-files.md).
//
// The text is split into tokens (runs of non-blank characters) that remember their line and
// column; a line whose first character is '#' is a comment. Keywords must start a line. Inside a
// state or move block, values are read as runs of `pieces` tokens: in files a run must sit on
// one line (so that a short line is reported where it is short), in `--state` text runs may
// continue on the next line.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>

#include "permuzzle/puzzles/def/reader.hpp"

namespace permuzzle::def {

std::size_t first_bad_byte(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return i;
      ++i;
      continue;
    }
    // A UTF-8 sequence: its length from the lead byte, continuation bytes 10xxxxxx, no overlong
    // forms, surrogates or code points past U+10FFFF.
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + n > text.size()) return i;
    for (std::size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0x80 && cp < 0xA0)) {
      return i;  // overlong, surrogate, out of range, or a C1 control character
    }
    i += n;
  }
  return std::string_view::npos;
}

std::string escape_bytes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t bad = first_bad_byte(text);
    if (bad == std::string_view::npos) {
      out += text;
      break;
    }
    out += text.substr(0, bad);
    out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[bad]));
    text.remove_prefix(bad + 1);
  }
  return out;
}

namespace {

struct Token {
  std::string_view text;
  std::size_t line = 0;    // 0-based index into Source::lines
  std::size_t column = 0;  // 1-based
  bool first = false;      // first token of its line
};

// The tokens of a text with what error messages need.
class Source {
 public:
  // A UTF-8 byte order mark is skipped; lines end at "\n", "\r\n" or a lone "\r" (old Mac).
  Source(std::string_view text, std::string_view file) : file_(file) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find_first_of("\r\n", start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      if (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n') ++end;
      const std::size_t index = lines_.size();
      lines_.push_back(line);
      if (line.empty() || line[0] != '#') {
        bool first = true;
        std::size_t i = 0;
        while (i < line.size()) {
          while (i < line.size() && is_blank(line[i])) ++i;
          if (i >= line.size()) break;
          std::size_t j = i;
          while (j < line.size() && !is_blank(line[j])) ++j;
          tokens_.push_back({line.substr(i, j - i), index, i + 1, first});
          first = false;
          i = j;
        }
      }
      if (end == text.size()) break;
      start = end + 1;
    }
  }

  static bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
  }

  const std::vector<Token>& tokens() const { return tokens_; }

  // Every token is UTF-8 text without control characters (names reach JSON and terminals).
  Status check_text() const {
    for (const Token& t : tokens_) {
      const std::size_t bad = first_bad_byte(t.text);
      if (bad == std::string_view::npos) continue;
      const auto byte = static_cast<unsigned char>(t.text[bad]);
      Token at_byte = t;
      at_byte.column += bad;
      return at(at_byte, fmt::format("byte \\x{:02X} in '{}' is {}: names and values must be "
                                     "UTF-8 text without control characters",
                                     byte, escape_bytes(t.text),
                                     byte < 0x20 || byte == 0x7F ? "a control character"
                                                                 : "not valid UTF-8"));
    }
    return Ok{};
  }

  // Errors quote the line escaped (escape_bytes), the position counted in the escaped text.
  Error at(const Token& t, const std::string& message) const {
    const std::string_view line = lines_[t.line];
    return make_error(escape_bytes(location(t.line, t.column) + ": " + message), escape_bytes(line),
                      escape_bytes(line.substr(0, t.column - 1)).size());
  }
  // Just past the last character of the token's line.
  Error after(const Token& t, const std::string& message) const {
    const std::string_view line = lines_[t.line];
    const std::size_t col = line.size() + 1;
    return make_error(escape_bytes(location(t.line, col) + ": " + message), escape_bytes(line),
                      escape_bytes(line).size());
  }
  Error at_end(const std::string& message) const {
    const std::size_t line = lines_.empty() ? 0 : lines_.size() - 1;
    const std::size_t col = lines_.empty() ? 1 : lines_[line].size() + 1;
    return make_error(location(line, col) + ": unexpected end of the text: " + message);
  }
  std::string location(std::size_t line, std::size_t column) const {
    return std::string(file_) + ":" + std::to_string(line + 1) + ":" + std::to_string(column);
  }

 private:
  std::string_view file_;
  std::vector<std::string_view> lines_;
  std::vector<Token> tokens_;
};

std::optional<std::uint64_t> parse_number(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v;
}

bool is_value_token(std::string_view s) {
  return s == "?" || (!s.empty() && s[0] >= '0' && s[0] <= '9');
}

}  // namespace

bool is_rotation_name(std::string_view name) {
  if (name == "x" || name == "y" || name == "z") return true;
  if (name.size() < 2 || name.back() != 'v') return false;
  return std::all_of(name.begin(), name.end() - 1, [](char c) { return c >= 'A' && c <= 'Z'; });
}

std::string power_name(const std::string& base, int power, int order) {
  if (power <= order - power) return power == 1 ? base : base + std::to_string(power);
  const int q = order - power;
  return (q == 1 ? base : base + std::to_string(q)) + "'";
}

namespace {

std::size_t state_bytes(const Definition& d) {
  std::size_t n = 0;
  for (const PieceSet& s : d.sets) n += 2 * static_cast<std::size_t>(s.pieces) + sizeof(SetState);
  return n;
}

bool is_identity(const State& s) {
  for (const SetState& set : s.sets) {
    for (std::size_t i = 0; i < set.perm.size(); ++i) {
      if (set.perm[i] != i || set.ori[i] != 0) return false;
    }
  }
  return true;
}

// The order of a move effect, or 0 past MAX_MOVE_ORDER, or 1 for the identity.
int effect_order(const Definition& d, const State& effect) {
  if (is_identity(effect)) return 1;
  State s = effect;
  for (int k = 2; k <= MAX_MOVE_ORDER; ++k) {
    s = apply(d, s, effect);
    if (is_identity(s)) return k;
  }
  return 0;
}

State power(const Definition& d, const State& effect, int p) {
  State s = d.identity();
  for (int i = 0; i < p; ++i) s = apply(d, s, effect);
  return s;
}

enum class Numbering { OneBased, ZeroBased };

enum class BlockKind {
  Pattern,    // Solved / StartState: pieces may repeat, '?' orientations allowed
  Move,       // Move: a permutation, orientation per piece
  Transform,  // MoveTransformation: a permutation, orientation in state form
  Scramble,   // a scramble state: checked against the solved pattern afterwards
};

struct BlockSet {
  const Token* name = nullptr;
  std::vector<const Token*> values;      // pieces tokens
  std::vector<const Token*> ori_values;  // orientation tokens (empty if absent)
  std::vector<std::uint8_t> perm;        // 0-based
  std::vector<std::uint8_t> ori;         // as read (ORIENTATION_IGNORED for '?'); empty if absent
};

// Reads the body of a block starting at tokens[i]. With `until_end` the block ends at a token
// "End" that starts a line; otherwise at the end of the text. Fills one entry per set named.
class BlockReader {
 public:
  BlockReader(const Source& src, const Definition& d) : src_(src), d_(d) {}

  // Returns the blocks per set (index = set) and advances i past "End".
  Result<std::vector<std::optional<BlockSet>>> read(std::size_t& i, BlockKind kind,
                                                    Numbering numbering, bool lines_strict,
                                                    bool until_end, const Token& header) {
    const auto& toks = src_.tokens();
    std::vector<std::optional<BlockSet>> sets(d_.sets.size());
    while (true) {
      if (i >= toks.size()) {
        if (!until_end) break;
        return src_.at_end("expected a set name or End to close the block opened at line " +
                           std::to_string(header.line + 1));
      }
      const Token& t = toks[i];
      if (until_end && t.text == "End") {
        if (i + 1 < toks.size() && !toks[i + 1].first) {
          return src_.at(toks[i + 1], "expected nothing after End on its line");
        }
        ++i;
        break;
      }
      std::size_t k = find_set(t.text);
      if (k == d_.sets.size()) {
        std::string names;
        for (const auto& s : d_.sets) names += (names.empty() ? "" : ", ") + s.name;
        return src_.at(t, "unknown set '" + std::string(t.text) + "': expected a set name (" +
                              names + ")" + (until_end ? " or End" : ""));
      }
      if (sets[k]) {
        return src_.at(t, "set '" + d_.sets[k].name + "' appears twice in this block");
      }
      ++i;
      BlockSet b;
      b.name = &t;
      const int n = d_.sets[k].pieces;
      const int o = d_.sets[k].orientations;
      const std::string what = "set '" + d_.sets[k].name + "'";
      // Step 1. The pieces.
      auto perm_run = read_run(i, n, t, lines_strict,
                               what + " has " + std::to_string(n) + " pieces: expected " +
                                   std::to_string(n) + " piece numbers");
      if (!perm_run) return perm_run.error();
      const int base = numbering == Numbering::OneBased ? 1 : 0;
      for (const Token* v : *perm_run) {
        auto x = parse_number(v->text);
        if (!x || *x < static_cast<std::uint64_t>(base) ||
            *x >= static_cast<std::uint64_t>(n + base)) {
          return src_.at(*v, "'" + std::string(v->text) + "' is not a piece number of " + what +
                                 ": expected " + std::to_string(base) + ".." +
                                 std::to_string(n - 1 + base));
        }
        b.perm.push_back(static_cast<std::uint8_t>(*x - base));
      }
      b.values = *perm_run;
      if (kind == BlockKind::Move || kind == BlockKind::Transform) {
        std::vector<const Token*> seen(n, nullptr);
        for (std::size_t j = 0; j < b.perm.size(); ++j) {
          if (seen[b.perm[j]]) {
            return src_.at(*b.values[j], "piece " + std::string(b.values[j]->text) +
                                             " appears twice in " + what +
                                             ": a move must be a permutation");
          }
          seen[b.perm[j]] = b.values[j];
        }
      }
      // Step 2. The orientations, when the next token is a value.
      if (i < toks.size() && is_value_token(toks[i].text) &&
          !(lines_strict && !toks[i].first && toks[i].line == perm_run->front()->line)) {
        const Token& first = toks[i];
        auto ori_run = read_run(i, n, first, lines_strict,
                                what + " has " + std::to_string(n) + " pieces: expected " +
                                    std::to_string(n) + " orientations");
        if (!ori_run) return ori_run.error();
        b.ori_values = *ori_run;
        const bool ignored_ok = kind == BlockKind::Pattern || kind == BlockKind::Scramble;
        for (const Token* v : *ori_run) {
          if (v->text == "?") {
            if (!ignored_ok) {
              return src_.at(*v,
                             "'?' is only allowed in a solved pattern or a scramble: "
                             "expected an orientation 0.." +
                                 std::to_string(o - 1));
            }
            b.ori.push_back(ORIENTATION_IGNORED);
            continue;
          }
          auto x = parse_number(v->text);
          if (!x || *x >= static_cast<std::uint64_t>(o)) {
            return src_.at(*v, "'" + std::string(v->text) + "' is not an orientation of " + what +
                                   ": expected 0.." + std::to_string(o - 1) +
                                   (ignored_ok ? " or ?" : ""));
          }
          b.ori.push_back(static_cast<std::uint8_t>(*x));
        }
      }
      sets[k] = std::move(b);
    }
    return sets;
  }

  std::size_t find_set(std::string_view name) const {
    for (std::size_t k = 0; k < d_.sets.size(); ++k) {
      if (d_.sets[k].name == name) return k;
    }
    return d_.sets.size();
  }

 private:
  // n value tokens from tokens[i]; in strict mode all on one line, the line holding nothing else.
  Result<std::vector<const Token*>> read_run(std::size_t& i, int n, const Token& before,
                                             bool strict, const std::string& expected) {
    const auto& toks = src_.tokens();
    std::vector<const Token*> run;
    const Token* last = &before;
    while (static_cast<int>(run.size()) < n) {
      if (i >= toks.size() || !is_value_token(toks[i].text) ||
          (strict && !run.empty() && toks[i].line != run.front()->line)) {
        std::string found = ", found " + std::to_string(run.size());
        if (i < toks.size() && !(strict && !run.empty() && toks[i].line != run.front()->line)) {
          return src_.at(toks[i], expected + found + " before '" + std::string(toks[i].text) + "'");
        }
        if (i >= toks.size() && run.empty()) return src_.at_end(expected);
        return src_.after(*last, expected + found);
      }
      run.push_back(&toks[i]);
      last = &toks[i];
      ++i;
    }
    if (strict && i < toks.size() && toks[i].line == run.front()->line) {
      return src_.at(toks[i], expected + ", found more");
    }
    return run;
  }

  const Source& src_;
  const Definition& d_;
};

// Per label: does the solved pattern ignore that piece's orientation?
std::vector<bool> ignored_labels(const SetState& solved) {
  std::vector<bool> ignored(256, false);
  for (std::size_t j = 0; j < solved.perm.size(); ++j) {
    if (solved.ori[j] == ORIENTATION_IGNORED) ignored[solved.perm[j]] = true;
  }
  return ignored;
}

// A scramble block's sets as a state of the solved pattern (see reader.hpp).
Result<State> scramble_state(const Source& src, const Definition& d,
                             const std::vector<std::optional<BlockSet>>& sets) {
  State s = d.solved;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    if (!sets[k]) continue;
    const BlockSet& b = *sets[k];
    const SetState& solved = d.solved.sets[k];
    const auto n = solved.perm.size();
    const int o = d.sets[k].orientations;
    std::vector<std::uint8_t> ori = b.ori.empty() ? std::vector<std::uint8_t>(n, 0) : b.ori;
    std::vector<std::uint8_t> sorted_given = b.perm;
    std::vector<std::uint8_t> sorted_solved = solved.perm;
    std::sort(sorted_given.begin(), sorted_given.end());
    std::sort(sorted_solved.begin(), sorted_solved.end());
    std::vector<bool> ignored = ignored_labels(solved);
    SetState& out = s.sets[k];
    if (sorted_given == sorted_solved) {
      // The pattern's labels rearranged.
      for (std::size_t i = 0; i < n; ++i) {
        out.perm[i] = b.perm[i];
        if (ignored[b.perm[i]]) {
          out.ori[i] = ORIENTATION_IGNORED;
        } else if (ori[i] == ORIENTATION_IGNORED) {
          return src.at(*b.values[i],
                        "'?' orientation for a piece whose orientation the solved "
                        "pattern does not ignore: expected a number");
        } else {
          out.ori[i] = ori[i];
        }
      }
      continue;
    }
    bool is_perm = true;
    std::vector<bool> seen(n, false);
    for (auto v : b.perm) {
      if (seen[v]) is_perm = false;
      seen[v] = true;
    }
    if (!is_perm) {
      return src.at(*b.name, "set '" + d.sets[k].name +
                                 "': the piece numbers are neither a rearrangement of the solved "
                                 "pattern's pieces nor a permutation of all " +
                                 std::to_string(n) + " pieces");
    }
    // A permutation: applied to the solved pattern.
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t from = b.perm[i];
      out.perm[i] = solved.perm[from];
      if (solved.ori[from] == ORIENTATION_IGNORED) {
        out.ori[i] = ORIENTATION_IGNORED;
      } else if (ori[i] == ORIENTATION_IGNORED) {
        return src.at(*b.values[i],
                      "'?' orientation for a piece whose orientation the solved "
                      "pattern does not ignore: expected a number");
      } else {
        out.ori[i] = static_cast<std::uint8_t>((solved.ori[from] + ori[i]) % o);
      }
    }
  }
  return s;
}

// Names of every move, power, rotation and alias seen so far: what MoveSequence and MoveAlias
// may refer to.
struct NameTable {
  struct Entry {
    bool rotation = false;
    std::size_t base = 0;
    int power = 1;
    std::string alias_of;  // non-empty for an alias
  };
  std::unordered_map<std::string, Entry> names;

  // Registers a base move's powers; returns the clashing name or "".
  std::string add_base(const BaseMove& b, std::size_t index, bool rotation) {
    for (int p = 1; p < b.order; ++p) {
      std::string name = power_name(b.name, p, b.order);
      if (names.count(name)) return name;
    }
    for (int p = 1; p < b.order; ++p) {
      names[power_name(b.name, p, b.order)] = Entry{rotation, index, p, {}};
    }
    return {};
  }

  // The names of a finished definition: its moves', rotations' and aliases'.
  static NameTable of(const Definition& d) {
    NameTable t;
    for (std::size_t i = 0; i < d.base_moves.size(); ++i) t.add_base(d.base_moves[i], i, false);
    for (std::size_t i = 0; i < d.rotations.size(); ++i) t.add_base(d.rotations[i], i, true);
    for (const auto& [alias, target] : d.aliases) t.names[alias] = Entry{false, 0, 1, target};
    return t;
  }

  std::optional<State> effect(const Definition& d, const std::string& name) const {
    std::string current = name;
    for (int hops = 0; hops < 64; ++hops) {
      auto it = names.find(current);
      if (it == names.end()) return std::nullopt;
      if (!it->second.alias_of.empty()) {
        current = it->second.alias_of;
        continue;
      }
      const BaseMove& b =
          it->second.rotation ? d.rotations[it->second.base] : d.base_moves[it->second.base];
      return power(d, b.effect, it->second.power);
    }
    return std::nullopt;
  }
};

bool valid_set_name(std::string_view name) {
  return !name.empty() && !is_value_token(name) && name != "End";
}

// The converted state of a Move / MoveTransformation block (sets left out: identity).
State move_effect(const Definition& d, const std::vector<std::optional<BlockSet>>& sets,
                  BlockKind kind) {
  State e = d.identity();
  for (std::size_t k = 0; k < sets.size(); ++k) {
    if (!sets[k]) continue;
    const BlockSet& b = *sets[k];
    e.sets[k].perm = b.perm;
    if (b.ori.empty()) continue;
    for (std::size_t i = 0; i < b.perm.size(); ++i) {
      // ksolve's Move blocks give the orientation change per piece: the state form wants it per
      // slot, and slot i receives piece perm[i].
      e.sets[k].ori[i] = kind == BlockKind::Move ? b.ori[b.perm[i]] : b.ori[i];
    }
  }
  return e;
}

}  // namespace

Status finish_definition(Definition& d, std::string_view file_name) {
  const std::string file(file_name);
  if (d.sets.empty())
    return make_error(file + ": no Set: expected at least one `Set NAME PIECES ORIENTATIONS`");
  if (d.solved.sets.empty()) d.solved = d.identity();
  if (auto ok = check_state_shape(d, d.solved, file + ": the solved pattern"); !ok) return ok;
  if (d.illegal.empty()) {
    d.illegal.resize(d.sets.size());
    for (std::size_t k = 0; k < d.sets.size(); ++k) d.illegal[k].resize(d.sets[k].pieces);
  }
  d.moves.clear();
  for (auto* list : {&d.base_moves, &d.rotations}) {
    for (BaseMove& b : *list) {
      if (auto ok = check_state_shape(d, b.effect, file + ": move '" + b.name + "'"); !ok)
        return ok;
      for (const SetState& s : b.effect.sets) {
        for (auto o : s.ori) {
          if (o == ORIENTATION_IGNORED) {
            return make_error(file + ": move '" + b.name + "' has an ignored orientation");
          }
        }
        std::vector<bool> seen(s.perm.size(), false);
        for (auto p : s.perm) {
          if (seen[p]) return make_error(file + ": move '" + b.name + "' is not a permutation");
          seen[p] = true;
        }
      }
      b.order = effect_order(d, b.effect);
      if (b.order == 1) return make_error(file + ": move '" + b.name + "' does not move anything");
      if (b.order == 0) {
        return make_error(file + ": move '" + b.name + "' has an order above " +
                          std::to_string(MAX_MOVE_ORDER) + ": not supported");
      }
    }
  }
  std::size_t powers = d.base_moves.size() + d.rotations.size();
  for (const BaseMove& b : d.base_moves) powers += static_cast<std::size_t>(b.order - 1);
  if (powers > MAX_SEARCH_MOVES + d.base_moves.size() + d.rotations.size() ||
      powers * state_bytes(d) > MAX_MOVE_BYTES) {
    return make_error(file + ": the moves and their powers would take more than " +
                      std::to_string(MAX_MOVE_BYTES >> 20) + " MiB or exceed " +
                      std::to_string(MAX_SEARCH_MOVES) + " search moves: not supported");
  }
  for (std::size_t bi = 0; bi < d.base_moves.size(); ++bi) {
    const BaseMove& b = d.base_moves[bi];
    State s = b.effect;
    for (int p = 1; p < b.order; ++p) {
      if (d.moves.size() >= MAX_SEARCH_MOVES) {
        return make_error(file + ": more than " + std::to_string(MAX_SEARCH_MOVES) +
                          " search moves (all powers of all moves): not supported");
      }
      Move m;
      m.name = power_name(b.name, p, b.order);
      m.base = bi;
      m.power = p;
      m.qtm_cost = std::min(p, b.order - p);
      m.effect = s;
      d.moves.push_back(std::move(m));
      if (p + 1 < b.order) s = apply(d, s, b.effect);
    }
  }
  if (d.moves.empty()) return make_error(file + ": no moves: expected at least one Move");
  return Ok{};
}

std::optional<State> named_effect(const Definition& d, std::string_view name) {
  for (const Move& m : d.moves) {
    if (m.name == name) return m.effect;
  }
  for (const auto& [alias, target] : d.aliases) {
    if (alias == name && target != name) return named_effect(d, target);
  }
  for (const BaseMove& b : d.rotations) {
    for (int p = 1; p < b.order; ++p) {
      if (power_name(b.name, p, b.order) == name) return power(d, b.effect, p);
    }
  }
  return std::nullopt;
}

Status check_state_shape(const Definition& d, const State& s, std::string_view what) {
  if (s.sets.size() != d.sets.size()) {
    return make_error(std::string(what) + ": expected " + std::to_string(d.sets.size()) +
                      " sets, found " + std::to_string(s.sets.size()));
  }
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto n = static_cast<std::size_t>(d.sets[k].pieces);
    const SetState& set = s.sets[k];
    if (set.perm.size() != n || set.ori.size() != n) {
      return make_error(std::string(what) + ": set '" + d.sets[k].name + "' should have " +
                        std::to_string(n) + " pieces");
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (set.perm[i] >= n) {
        return make_error(std::string(what) + ": set '" + d.sets[k].name + "': piece " +
                          std::to_string(set.perm[i]) + " out of range 0.." +
                          std::to_string(n - 1));
      }
      if (set.ori[i] != ORIENTATION_IGNORED && set.ori[i] >= d.sets[k].orientations) {
        return make_error(std::string(what) + ": set '" + d.sets[k].name + "': orientation " +
                          std::to_string(set.ori[i]) + " out of range 0.." +
                          std::to_string(d.sets[k].orientations - 1));
      }
    }
  }
  return Ok{};
}

Result<Definition> parse_definition(std::string_view text, std::string_view file_name) {
  Source src(text, file_name);
  if (auto ok = src.check_text(); !ok) return ok.error();
  const auto& toks = src.tokens();
  Definition d;
  NameTable names;
  BlockReader blocks(src, d);
  bool have_name = false, have_solved = false;
  // Tokens on the same line as tokens[i], from i on.
  auto line_end = [&](std::size_t i) {
    std::size_t j = i + 1;
    while (j < toks.size() && !toks[j].first) ++j;
    return j;
  };
  auto move_name_ok = [&](const Token& t) -> Status {
    // Names may start with digits ("2F", "3Rw" on big cubes); only End is taken.
    if (t.text == "End") {
      return src.at(t, "'" + std::string(t.text) + "' is not a usable move name");
    }
    auto it = names.names.find(std::string(t.text));
    if (it != names.names.end()) {
      const auto& e = it->second;
      std::string what = "";
      if (e.alias_of.empty() && e.power > 1) {
        const BaseMove& b = e.rotation ? d.rotations[e.base] : d.base_moves[e.base];
        what = " (as the power " + std::to_string(e.power) + " of '" + b.name +
               "': powers are named X, X2, ..., X2', X'); rename one of the two moves so that "
               "no move's name is another's followed by a number, e.g. '" +
               std::string(t.text) + "' to '" + std::string(t.text) + "_' or '" + b.name +
               "' to '" + b.name + "_'";
      }
      return src.at(t, "the move name '" + std::string(t.text) + "' is already defined" + what);
    }
    return Ok{};
  };
  auto add_base = [&](const Token& name_token, State effect) -> Status {
    BaseMove b;
    b.name = std::string(name_token.text);
    b.effect = std::move(effect);
    b.order = effect_order(d, b.effect);
    if (b.order == 1) return src.at(name_token, "move '" + b.name + "' does not move anything");
    if (b.order == 0) {
      return src.at(name_token, "move '" + b.name + "' has an order above " +
                                    std::to_string(MAX_MOVE_ORDER) + ": not supported");
    }
    const bool rotation = is_rotation_name(b.name);
    auto& list = rotation ? d.rotations : d.base_moves;
    if ((d.base_moves.size() + d.rotations.size() + 1) * state_bytes(d) > MAX_MOVE_BYTES / 2) {
      return src.at(name_token, "the moves would take more than " +
                                    std::to_string(MAX_MOVE_BYTES >> 21) +
                                    " MiB: too many moves for the size of the puzzle");
    }
    if (list.size() >= MAX_BASE_MOVES) {
      return src.at(name_token, "more than " + std::to_string(MAX_BASE_MOVES) + " moves");
    }
    std::string clash = names.add_base(b, list.size(), rotation);
    if (!clash.empty()) {
      // Powers are named by appending the exponent (X2, X2'): a move named like another move
      // followed by digits can collide with them (M11 squared is M112, as is M1 to the power 12).
      const auto& e = names.names.at(clash);
      const std::string other =
          !e.alias_of.empty() ? clash
                              : (e.rotation ? d.rotations[e.base] : d.base_moves[e.base]).name;
      return src.at(name_token,
                    "move '" + b.name + "' generates the power '" + clash +
                        "', a name that is already defined (by '" + other +
                        "'): powers are named X, X2, ..., X2', X'; rename one of the two moves "
                        "so that no move's name is another's followed by a number, e.g. '" +
                        b.name + "' to '" + b.name + "_'");
    }
    list.push_back(std::move(b));
    return Ok{};
  };
  auto need_sets = [&](const Token& t) -> Status {
    if (d.sets.empty()) {
      return src.at(t, "'" + std::string(t.text) + "' before any Set: expected Set lines first");
    }
    return Ok{};
  };

  std::size_t i = 0;
  while (i < toks.size()) {
    const Token& kw = toks[i];
    if (!kw.first) return src.at(kw, "expected a keyword at the start of a line");
    const std::size_t end = line_end(i);
    const std::size_t args = end - i - 1;
    auto arg_count = [&](std::size_t want, const char* usage) -> Status {
      if (args < want) return src.after(toks[end - 1], std::string("expected ") + usage);
      if (args > want) return src.at(toks[i + 1 + want], std::string("expected only ") + usage);
      return Ok{};
    };
    const std::string_view k = kw.text;
    if (k == "Name") {
      if (auto ok = arg_count(1, "`Name NAME`"); !ok) return ok.error();
      if (have_name) return src.at(kw, "a second Name line: expected one");
      d.name = std::string(toks[i + 1].text);
      have_name = true;
      i = end;
    } else if (k == "Set") {
      if (auto ok = arg_count(3, "`Set NAME PIECES ORIENTATIONS`"); !ok) return ok.error();
      if (have_solved || !d.base_moves.empty() || !d.rotations.empty()) {
        return src.at(kw, "Set after the solved state or a move: expected every Set first");
      }
      const Token& nt = toks[i + 1];
      if (!valid_set_name(nt.text)) {
        return src.at(nt, "'" + std::string(nt.text) +
                              "' is not a usable set name: expected a "
                              "name that does not start with a digit");
      }
      if (blocks.find_set(nt.text) != d.sets.size()) {
        return src.at(nt, "set '" + std::string(nt.text) + "' is defined twice");
      }
      if (d.sets.size() >= MAX_SETS) {
        return src.at(kw, "more than " + std::to_string(MAX_SETS) + " sets: not supported");
      }
      auto pieces = parse_number(toks[i + 2].text);
      if (!pieces || *pieces < 1 || *pieces > MAX_PIECES) {
        return src.at(toks[i + 2],
                      "expected a number of pieces from 1 to " + std::to_string(MAX_PIECES));
      }
      auto oris = parse_number(toks[i + 3].text);
      if (!oris || *oris < 1 || *oris > MAX_ORIENTATIONS) {
        return src.at(toks[i + 3], "expected a number of orientations from 1 to " +
                                       std::to_string(MAX_ORIENTATIONS));
      }
      d.sets.push_back({std::string(nt.text), static_cast<int>(*pieces), static_cast<int>(*oris)});
      i = end;
    } else if (k == "Solved" || k == "StartState") {
      if (auto ok = need_sets(kw); !ok) return ok.error();
      if (auto ok = arg_count(0, std::string("`" + std::string(k) + "` alone on its line").c_str());
          !ok) {
        return ok.error();
      }
      if (have_solved) return src.at(kw, "a second solved state: expected one Solved block");
      if (!d.base_moves.empty() || !d.rotations.empty()) {
        return src.at(kw, "the solved state after a move: expected it before the moves");
      }
      i = end;
      auto sets =
          blocks.read(i, BlockKind::Pattern,
                      k == "Solved" ? Numbering::OneBased : Numbering::ZeroBased, true, true, kw);
      if (!sets) return sets.error();
      d.solved = d.identity();
      for (std::size_t s = 0; s < sets->size(); ++s) {
        if (!(*sets)[s]) continue;
        d.solved.sets[s].perm = (*sets)[s]->perm;
        if (!(*sets)[s]->ori.empty()) d.solved.sets[s].ori = (*sets)[s]->ori;
      }
      have_solved = true;
    } else if (k == "Move" || k == "MoveTransformation") {
      if (auto ok = need_sets(kw); !ok) return ok.error();
      if (auto ok = arg_count(1, (std::string("`") + std::string(k) + " NAME`").c_str()); !ok) {
        return ok.error();
      }
      const Token& nt = toks[i + 1];
      if (auto ok = move_name_ok(nt); !ok) return ok.error();
      i = end;
      const BlockKind kind = k == "Move" ? BlockKind::Move : BlockKind::Transform;
      auto sets =
          blocks.read(i, kind, kind == BlockKind::Move ? Numbering::OneBased : Numbering::ZeroBased,
                      true, true, kw);
      if (!sets) return sets.error();
      if (auto ok = add_base(nt, move_effect(d, *sets, kind)); !ok) return ok.error();
    } else if (k == "MoveAlias") {
      if (auto ok = need_sets(kw); !ok) return ok.error();
      if (auto ok = arg_count(2, "`MoveAlias NAME EXISTING`"); !ok) return ok.error();
      const Token& nt = toks[i + 1];
      if (auto ok = move_name_ok(nt); !ok) return ok.error();
      const Token& target = toks[i + 2];
      if (!names.names.count(std::string(target.text))) {
        return src.at(target, "unknown move '" + std::string(target.text) +
                                  "': expected a move defined above");
      }
      d.aliases.emplace_back(std::string(nt.text), std::string(target.text));
      names.names[std::string(nt.text)] = NameTable::Entry{false, 0, 1, std::string(target.text)};
      i = end;
    } else if (k == "MoveSequence") {
      if (auto ok = need_sets(kw); !ok) return ok.error();
      if (args < 2) return src.after(toks[end - 1], "expected `MoveSequence NAME MOVE MOVE ...`");
      const Token& nt = toks[i + 1];
      if (auto ok = move_name_ok(nt); !ok) return ok.error();
      State e = d.identity();
      for (std::size_t j = i + 2; j < end; ++j) {
        auto m = names.effect(d, std::string(toks[j].text));
        if (!m) {
          return src.at(toks[j], "unknown move '" + std::string(toks[j].text) +
                                     "': expected a move defined above");
        }
        e = apply(d, e, *m);
      }
      if (auto ok = add_base(nt, std::move(e)); !ok) return ok.error();
      i = end;
    } else if (k == "Illegal") {
      if (auto ok = need_sets(kw); !ok) return ok.error();
      if (args < 3) return src.after(toks[end - 1], "expected `Illegal SET SLOT PIECE ...`");
      std::size_t set = blocks.find_set(toks[i + 1].text);
      if (set == d.sets.size()) {
        return src.at(toks[i + 1], "unknown set '" + std::string(toks[i + 1].text) + "'");
      }
      if (d.illegal.empty()) {
        d.illegal.resize(d.sets.size());
        for (std::size_t s = 0; s < d.sets.size(); ++s) d.illegal[s].resize(d.sets[s].pieces);
      }
      const auto n = static_cast<std::uint64_t>(d.sets[set].pieces);
      std::vector<std::uint64_t> values;
      for (std::size_t j = i + 2; j < end; ++j) {
        auto x = parse_number(toks[j].text);
        if (!x || *x < 1 || *x > n) {
          return src.at(toks[j], "expected a " + std::string(j == i + 2 ? "slot" : "piece") +
                                     " number from 1 to " + std::to_string(n));
        }
        values.push_back(*x - 1);
      }
      auto& list = d.illegal[set][values[0]];
      for (std::size_t j = 1; j < values.size(); ++j) {
        auto p = static_cast<std::uint8_t>(values[j]);
        if (std::find(list.begin(), list.end(), p) == list.end()) list.push_back(p);
      }
      i = end;
    } else {
      return src.at(kw, "unknown keyword '" + std::string(k) +
                            "': expected Name, Set, Solved, StartState, Move, "
                            "MoveTransformation, MoveAlias, MoveSequence or Illegal");
    }
  }
  if (!have_name) d.name = file_stem(file_name);
  if (d.sets.empty()) return src.at_end("expected at least one `Set NAME PIECES ORIENTATIONS`");
  if (d.base_moves.empty()) return src.at_end("expected at least one Move");
  if (auto ok = finish_definition(d, file_name); !ok) return ok.error();
  return d;
}

Result<std::vector<Scramble>> parse_scrambles(const Definition& d, std::string_view text,
                                              std::string_view file_name) {
  Source src(text, file_name);
  const auto& toks = src.tokens();
  BlockReader blocks(src, d);
  std::vector<Scramble> out;
  std::size_t i = 0;
  while (i < toks.size()) {
    const Token& kw = toks[i];
    if (!kw.first) return src.at(kw, "expected a keyword at the start of a line");
    const std::string_view k = kw.text;
    const bool state_block = k == "Scramble" || k == "ScrambleState" || k == "StartState";
    if (!state_block && k != "ScrambleAlg") {
      return src.at(kw, "unknown keyword '" + std::string(k) +
                            "': expected Scramble, ScrambleState, StartState or ScrambleAlg");
    }
    if (i + 1 >= toks.size() || toks[i + 1].first) {
      return src.after(kw, "expected `" + std::string(k) + " NAME`");
    }
    if (i + 2 < toks.size() && !toks[i + 2].first) {
      return src.at(toks[i + 2], "expected only `" + std::string(k) + " NAME`");
    }
    Scramble s;
    s.name = std::string(toks[i + 1].text);
    i += 2;
    if (state_block) {
      auto sets =
          blocks.read(i, BlockKind::Scramble,
                      k == "Scramble" ? Numbering::OneBased : Numbering::ZeroBased, true, true, kw);
      if (!sets) return sets.error();
      auto st = scramble_state(src, d, *sets);
      if (!st) return st.error();
      s.state = std::move(*st);
    } else {
      s.state = d.solved;
      bool closed = false;
      while (i < toks.size()) {
        const Token& t = toks[i++];
        if (t.first && t.text == "End") {
          closed = true;
          break;
        }
        auto m = d.find_move(t.text);
        if (!m) return src.at(t, m.error().message);
        s.state = apply(d, s.state, d.moves[*m]);
      }
      if (!closed) {
        return src.at_end("expected End to close the ScrambleAlg opened at line " +
                          std::to_string(kw.line + 1));
      }
    }
    out.push_back(std::move(s));
  }
  if (out.empty())
    return src.at_end("expected at least one Scramble, ScrambleState or ScrambleAlg");
  return out;
}

std::vector<std::size_t> sequence_power_moves(const PhaseSequence& seq, int power) {
  const bool forward = power <= seq.order / 2;
  const int times = forward ? power : seq.order - power;
  std::vector<std::size_t> out;
  for (int t = 0; t < times; ++t) {
    const auto& part = forward ? seq.moves : seq.inverse;
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

Result<std::vector<PhaseSpec>> parse_phase_file(const Definition& d, std::string_view text,
                                                std::string_view file_name) {
  Source src(text, file_name);
  const auto& toks = src.tokens();
  BlockReader blocks(src, d);
  std::optional<NameTable> names;  // for `Blocks` lines, made at the first
  std::vector<PhaseSpec> out;
  std::size_t i = 0;
  while (i < toks.size()) {
    const Token& kw = toks[i];
    if (!kw.first) return src.at(kw, "expected a keyword at the start of a line");
    if (kw.text != "Phase") {
      return src.at(kw, "unknown keyword '" + std::string(kw.text) + "': expected Phase");
    }
    if (i + 1 >= toks.size() || toks[i + 1].first) return src.after(kw, "expected `Phase NAME`");
    if (i + 2 < toks.size() && !toks[i + 2].first) {
      return src.at(toks[i + 2], "expected only `Phase NAME`");
    }
    PhaseSpec phase;
    phase.name = escape_bytes(toks[i + 1].text);
    phase.line = kw.line + 1;
    i += 2;
    // Step 1. The optional Moves line.
    if (i < toks.size() && toks[i].first && toks[i].text == "Moves") {
      const Token& mk = toks[i++];
      while (i < toks.size() && !toks[i].first) {
        auto m = d.find_move(toks[i].text);
        if (!m) return src.at(toks[i], m.error().message);
        if (std::find(phase.moves.begin(), phase.moves.end(), *m) == phase.moves.end()) {
          phase.moves.push_back(*m);
        }
        ++i;
      }
      // `Moves` alone: no move of the puzzle, only the phase's sequences (checked below).
      if (phase.moves.empty()) {
        phase.only_sequences = true;
        if (i >= toks.size() || toks[i].text != "Sequence") {
          return src.after(mk,
                           "expected moves after Moves (or, with no move, `Sequence` lines "
                           "next: the phase's only search moves)");
        }
      }
    }
    // Step 1b. `Sequence NAME MOVE ...` lines: each one search move of the phase.
    std::size_t search_moves = phase.only_sequences  ? 0
                               : phase.moves.empty() ? d.moves.size()
                                                     : phase.moves.size();
    while (i < toks.size() && toks[i].first && toks[i].text == "Sequence") {
      const Token& sk = toks[i++];
      if (i >= toks.size() || toks[i].first)
        return src.after(sk, "expected `Sequence NAME MOVE ...`");
      const Token& name_tok = toks[i++];
      PhaseSequence seq;
      seq.name = escape_bytes(name_tok.text);
      // Its name and its powers' names (search moves of the phase) must be new.
      auto clashes = [&](const std::string& n) {
        if (d.find_move(n)) return true;
        return std::any_of(phase.sequences.begin(), phase.sequences.end(),
                           [&](const PhaseSequence& o) {
                             for (int k = 1; k < o.order; ++k)
                               if (power_name(o.name, k, o.order) == n) return true;
                             return false;
                           });
      };
      auto bad_name = [&] {
        return src.at(name_tok, "sequence name '" + seq.name +
                                    "' (or one of its powers' names) is a move of the puzzle or "
                                    "another sequence's, or holds ': expected a new name");
      };
      if (seq.name.find('\'') != std::string::npos || clashes(seq.name)) return bad_name();
      while (i < toks.size() && !toks[i].first) {
        auto m = d.find_move(toks[i].text);
        if (!m) return src.at(toks[i], m.error().message);
        seq.moves.push_back(*m);
        ++i;
      }
      if (seq.moves.empty())
        return src.after(name_tok, "expected the sequence's moves after its name");
      // Its net effect, order (all its powers become search moves) and inverse.
      const State identity = d.identity();
      seq.effect = identity;
      for (std::size_t m : seq.moves) seq.effect = apply(d, seq.effect, d.moves[m]);
      State power = seq.effect;
      while (!(power == identity) && seq.order <= MAX_SEQUENCE_ORDER) {
        power = apply(d, power, seq.effect);
        ++seq.order;
      }
      if (seq.effect == identity)
        return src.at(name_tok, "sequence " + seq.name +
                                    " does nothing: expected a sequence that moves some piece");
      if (seq.order > MAX_SEQUENCE_ORDER) {
        return src.at(name_tok, fmt::format("sequence {} has order above {} (its powers are search "
                                            "moves): expected a sequence of smaller order",
                                            seq.name, MAX_SEQUENCE_ORDER));
      }
      for (int k = 2; k < seq.order; ++k) {
        if (clashes(power_name(seq.name, k, seq.order))) return bad_name();
      }
      auto inverse = inverse_sequence(d, seq.moves);
      if (!inverse)
        return src.at(name_tok, "sequence " + seq.name + ": " + inverse.error().message);
      seq.inverse = std::move(*inverse);
      // The phase's search moves (its sequences' powers) within the definition's bounds.
      search_moves += static_cast<std::size_t>(seq.order - 1);
      if (search_moves > MAX_SEARCH_MOVES || search_moves * state_bytes(d) > MAX_MOVE_BYTES) {
        return src.at(name_tok, fmt::format("phase {}: its sequences' powers would take more "
                                            "than {} MiB or exceed {} search moves",
                                            phase.name, MAX_MOVE_BYTES >> 20, MAX_SEARCH_MOVES));
      }
      phase.sequences.push_back(std::move(seq));
    }
    // Step 1c. An optional `Blocks MOVE ...` line and `Together SET n ... [SET n ...]` lines:
    // pieces that end together (where the block moves take them from their home slots).
    std::vector<const Token*> together_tokens;  // each Together line's keyword
    while (i < toks.size() && toks[i].first && toks[i].text == "Blocks") {
      const Token& bk = toks[i++];
      BlockGenerator generator{"", d.identity()};
      while (i < toks.size() && !toks[i].first) {
        // A move, a rotation's power (x, x2, x') or an alias.
        const Token& t = toks[i++];
        if (!names) names = NameTable::of(d);
        const std::optional<State> effect = names->effect(d, std::string(t.text));
        if (!effect) return src.at(t, d.find_move(t.text).error().message + " (or a rotation)");
        generator.effect = apply(d, generator.effect, *effect);
        generator.text += (generator.text.empty() ? "" : " ") + std::string(t.text);
      }
      if (generator.text.empty()) {
        return src.after(bk,
                         "expected after Blocks the moves of one generator of the group "
                         "under which pieces stay together");
      }
      phase.blocks.push_back(std::move(generator));
    }
    while (i < toks.size() && toks[i].first && toks[i].text == "Together") {
      const Token& tk = toks[i++];
      if (phase.blocks.empty()) {
        return src.at(tk,
                      "expected `Blocks MOVE ...` lines before `Together` (the group under "
                      "which the pieces stay together)");
      }
      std::vector<SlotRef> group;
      std::size_t set = d.sets.size();
      while (i < toks.size() && !toks[i].first) {
        const Token& t = toks[i++];
        if (const std::size_t k = blocks.find_set(t.text); k != d.sets.size()) {
          set = k;
          continue;
        }
        if (set == d.sets.size()) {
          return src.at(t, "unknown set '" + std::string(t.text) +
                               "': expected a set name, then its slot numbers");
        }
        const auto x = parse_number(t.text);
        if (!x || *x < 1 || *x > static_cast<std::uint64_t>(d.sets[set].pieces)) {
          return src.at(t, fmt::format("expected a slot number of set '{}' (1 to {})",
                                       d.sets[set].name, d.sets[set].pieces));
        }
        const SlotRef piece{set, static_cast<std::uint8_t>(*x - 1)};
        bool seen = std::find(group.begin(), group.end(), piece) != group.end();
        for (const auto& other : phase.together) {
          seen |= std::find(other.begin(), other.end(), piece) != other.end();
        }
        if (seen) {
          return src.at(t, fmt::format("slot {} of set '{}' is in a together group already: "
                                       "expected each piece in one group",
                                       *x, d.sets[set].name));
        }
        group.push_back(piece);
      }
      if (group.empty()) return src.after(tk, "expected `Together SET n ... [SET n ...]`");
      phase.together.push_back(std::move(group));
      together_tokens.push_back(&tk);
    }
    // Step 1d. `Parity SET [SET ...]` lines: sets whose pieces end in an even permutation.
    while (i < toks.size() && toks[i].first && toks[i].text == "Parity") {
      const Token& pk = toks[i++];
      if (phase.parity.size() == MAX_PARITY_LINES) {
        return src.at(pk, fmt::format("phase {}: more than {} Parity lines (each doubles the "
                                      "phase's tables): expected at most {}",
                                      phase.name, MAX_PARITY_LINES, MAX_PARITY_LINES));
      }
      std::vector<std::size_t> line;
      while (i < toks.size() && !toks[i].first) {
        const Token& t = toks[i++];
        const std::size_t k = blocks.find_set(t.text);
        if (k == d.sets.size()) {
          return src.at(t, "unknown set '" + std::string(t.text) + "': expected a set name");
        }
        if (std::find(line.begin(), line.end(), k) != line.end()) {
          return src.at(t, "set '" + d.sets[k].name + "' is named twice: expected each set once");
        }
        const SetState& solved = d.solved.sets[k];
        std::vector<char> seen(256, 0);
        for (std::uint8_t piece : solved.perm) {
          if (seen[piece]) {
            return src.at(t, fmt::format("set '{}': the puzzle's Solved pattern holds piece {} "
                                         "more than once, so its permutation has no parity: "
                                         "expected a set of distinct pieces",
                                         d.sets[k].name, piece + 1));
          }
          seen[piece] = 1;
        }
        line.push_back(k);
      }
      if (line.empty()) return src.after(pk, "expected `Parity SET [SET ...]`");
      phase.parity.push_back(std::move(line));
    }
    // Step 2. The pattern, checked against the puzzle's solved pattern.
    auto sets = blocks.read(i, BlockKind::Pattern, Numbering::OneBased, true, true, kw);
    if (!sets) return sets.error();
    phase.pattern = d.solved;
    for (std::size_t k = 0; k < sets->size(); ++k) {
      if (!(*sets)[k]) continue;
      const BlockSet& b = *(*sets)[k];
      const SetState& solved = d.solved.sets[k];
      const std::string what = "set '" + d.sets[k].name + "'";
      // The phase's number of each of the puzzle's labels (first slot that set it).
      std::vector<int> number(256, -1), first_slot(256, -1), ignored(256, -1);
      for (std::size_t j = 0; j < b.perm.size(); ++j) {
        const std::uint8_t label = solved.perm[j];
        if (number[label] < 0) {
          number[label] = b.perm[j];
          first_slot[label] = static_cast<int>(j);
        } else if (number[label] != b.perm[j]) {
          return src.at(
              *b.values[j],
              fmt::format("{}: slots {} and {} hold identical pieces in the puzzle's "
                          "Solved pattern, so they need the same number here (found "
                          "{} and {})",
                          what, first_slot[label] + 1, j + 1, number[label] + 1, b.perm[j] + 1));
        }
        phase.pattern.sets[k].perm[j] = b.perm[j];
        if (b.ori.empty()) continue;
        const bool want_ignored = b.ori[j] == ORIENTATION_IGNORED;
        if (solved.ori[j] == ORIENTATION_IGNORED && !want_ignored) {
          return src.at(*b.ori_values[j], fmt::format("{}: the puzzle's Solved pattern ignores the "
                                                      "orientation of slot {}: expected ?",
                                                      what, j + 1));
        }
        if (!want_ignored && b.ori[j] != solved.ori[j]) {
          return src.at(
              *b.ori_values[j],
              fmt::format("{}: orientation {} of slot {} is not the Solved pattern's "
                          "({}): expected {} or ?",
                          what, static_cast<int>(b.ori[j]), j + 1, static_cast<int>(solved.ori[j]),
                          static_cast<int>(solved.ori[j])));
        }
        const int flag = want_ignored ? 1 : 0;
        if (ignored[label] >= 0 && ignored[label] != flag) {
          return src.at(*b.ori_values[j],
                        fmt::format("{}: slot {} holds a piece identical to slot {}'s, so its "
                                    "orientation must be ignored ('?') in both or in neither",
                                    what, j + 1, first_slot[label] + 1));
        }
        ignored[label] = flag;
        phase.pattern.sets[k].ori[j] = want_ignored ? ORIENTATION_IGNORED : solved.ori[j];
      }
    }
    // Step 3. A together piece has a number of its own; beside the together pieces, a set
    // holding some has pieces placed home (a number of their own) and at most one free kind (a
    // number several slots share, orientation '?'): the goal places only the together pieces.
    // Errors point at the Together line of the set's first together piece.
    std::vector<const Token*> set_line(d.sets.size(), nullptr);
    std::vector<std::vector<char>> in_group(d.sets.size());
    for (std::size_t t = 0; t < phase.together.size(); ++t) {
      for (const SlotRef& piece : phase.together[t]) {
        const SetState& pat = phase.pattern.sets[piece.set];
        if (std::count(pat.perm.begin(), pat.perm.end(), pat.perm[piece.slot]) != 1) {
          return src.at(
              *together_tokens[t],
              fmt::format("set '{}': together slot {} has number {} in the pattern, "
                          "shared with other slots: expected a number of its own",
                          d.sets[piece.set].name, piece.slot + 1, pat.perm[piece.slot] + 1));
        }
        if (set_line[piece.set] == nullptr) set_line[piece.set] = together_tokens[t];
        in_group[piece.set].resize(pat.perm.size(), 0);
        in_group[piece.set][piece.slot] = 1;
      }
    }
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      if (set_line[k] == nullptr) continue;
      const SetState& pat = phase.pattern.sets[k];
      int free_number = -1;
      for (std::size_t j = 0; j < pat.perm.size(); ++j) {
        if (in_group[k][j] || std::count(pat.perm.begin(), pat.perm.end(), pat.perm[j]) == 1) {
          continue;
        }
        const bool ori_free = d.sets[k].orientations == 1 || pat.ori[j] == ORIENTATION_IGNORED;
        if ((free_number >= 0 && pat.perm[j] != free_number) || !ori_free) {
          return src.at(*set_line[k],
                        fmt::format("set '{}': beside its together pieces, a slot holds a piece "
                                    "placed home (a number of its own) or a free one (one "
                                    "number the free slots share, orientation ?): slot {} has {}",
                                    d.sets[k].name, j + 1, pat.perm[j] + 1));
        }
        free_number = pat.perm[j];
      }
    }
    out.push_back(std::move(phase));
  }
  if (out.empty()) return src.at_end("expected at least one `Phase NAME` block");
  return out;
}

Result<std::vector<std::size_t>> parse_move_sequence(const Definition& d, std::string_view text) {
  std::vector<std::size_t> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (Source::is_blank(text[i]) || text[i] == '\n')) ++i;
    if (i >= text.size()) break;
    std::size_t j = i;
    while (j < text.size() && !Source::is_blank(text[j]) && text[j] != '\n') ++j;
    auto m = d.find_move(text.substr(i, j - i));
    if (!m) return make_error(m.error().message, std::string(text), i);
    out.push_back(*m);
    i = j;
  }
  return out;
}

Result<std::vector<std::size_t>> inverse_sequence(const Definition& d,
                                                  const std::vector<std::size_t>& moves) {
  std::vector<std::size_t> out;
  for (auto it = moves.rbegin(); it != moves.rend(); ++it) {
    const Move& m = d.moves[*it];
    const int order = d.base_moves[m.base].order;
    const int want = (order - m.power) % order;
    bool found = false;
    for (std::size_t i = 0; i < d.moves.size() && !found; ++i) {
      if (d.moves[i].base == m.base && d.moves[i].power == want) {
        out.push_back(i);
        found = true;
      }
    }
    if (!found) {
      return make_error("the inverse of move " + m.name + " is not a move of the puzzle", {},
                        Error::NO_POSITION, ErrorKind::InvalidInput);
    }
  }
  return out;
}

State apply_moves(const Definition& d, State s, const std::vector<std::size_t>& moves) {
  for (std::size_t m : moves) s = apply(d, s, d.moves[m]);
  return s;
}
State apply_moves(const Definition& d, const std::vector<std::size_t>& moves) {
  return apply_moves(d, d.solved, moves);
}
std::string move_sequence_text(const Definition& d, const std::vector<std::size_t>& moves) {
  std::string out;
  for (std::size_t m : moves) out += (out.empty() ? "" : " ") + d.moves[m].name;
  return out;
}

Result<State> parse_state(const Definition& d, std::string_view text, std::string_view what) {
  Source src(text, what);
  const auto& toks = src.tokens();
  if (toks.empty()) return src.at_end("expected a state: SET numbers [orientations] ...");
  const std::string_view first = toks[0].text;
  if (first == "Scramble" || first == "ScrambleState" || first == "StartState" ||
      first == "ScrambleAlg") {
    auto list = parse_scrambles(d, text, what);
    if (!list) return list.error();
    if (list->size() != 1)
      return make_error(std::string(what) + ": expected one state, found " +
                        std::to_string(list->size()));
    return std::move(list->front().state);
  }
  BlockReader blocks(src, d);
  std::size_t i = 0;
  auto sets = blocks.read(i, BlockKind::Scramble, Numbering::OneBased, false, false, toks[0]);
  if (!sets) return sets.error();
  return scramble_state(src, d, *sets);
}

std::string format_state_body(const Definition& d, const State& s) {
  std::string out;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const SetState& set = s.sets[k];
    out += d.sets[k].name + "\n";
    std::string line;
    for (auto p : set.perm) line += (line.empty() ? "" : " ") + std::to_string(p + 1);
    out += line + "\n";
    bool any_ignored =
        std::find(set.ori.begin(), set.ori.end(), ORIENTATION_IGNORED) != set.ori.end();
    if (d.sets[k].orientations > 1 || any_ignored) {
      line.clear();
      for (auto o : set.ori) {
        line += (line.empty() ? "" : " ") +
                (o == ORIENTATION_IGNORED ? std::string("?") : std::to_string(o));
      }
      out += line + "\n";
    }
  }
  return out;
}

std::string format_definition(const Definition& d, const std::vector<std::string>& comment) {
  std::string out;
  for (const std::string& c : comment) out += "# " + c + "\n";
  out += "Name " + d.name + "\n\n";
  for (const PieceSet& s : d.sets) {
    out += "Set " + s.name + " " + std::to_string(s.pieces) + " " + std::to_string(s.orientations) +
           "\n";
  }
  out += "\nSolved\n" + format_state_body(d, d.solved) + "End\n";
  const State id = d.identity();
  for (const auto* list : {&d.base_moves, &d.rotations}) {
    for (const BaseMove& b : *list) {
      out += "\nMove " + b.name + "\n";
      for (std::size_t k = 0; k < d.sets.size(); ++k) {
        const SetState& m = b.effect.sets[k];
        if (m == id.sets[k]) continue;
        out += d.sets[k].name + "\n";
        std::string line;
        for (auto p : m.perm) line += (line.empty() ? "" : " ") + std::to_string(p + 1);
        out += line + "\n";
        if (d.sets[k].orientations > 1) {
          // ksolve's Move blocks give the orientation per piece: piece perm[i] gets ori[i].
          std::vector<int> by_piece(m.perm.size(), 0);
          for (std::size_t i = 0; i < m.perm.size(); ++i) by_piece[m.perm[i]] = m.ori[i];
          line.clear();
          for (int o : by_piece) line += (line.empty() ? "" : " ") + std::to_string(o);
          out += line + "\n";
        }
      }
      out += "End\n";
    }
  }
  if (!d.aliases.empty()) out += "\n";
  for (const auto& [alias, target] : d.aliases) out += "MoveAlias " + alias + " " + target + "\n";
  return out;
}

std::string format_scramble(const Definition& d, const State& s, std::string_view name) {
  return "Scramble " + std::string(name) + "\n" + format_state_body(d, s) + "End\n";
}

std::string file_stem(std::string_view file) {
  std::size_t slash = file.find_last_of('/');
  if (slash != std::string_view::npos) file.remove_prefix(slash + 1);
  std::size_t dot = file.find_last_of('.');
  if (dot != std::string_view::npos && dot > 0) file = file.substr(0, dot);
  return std::string(file);
}

}  // namespace permuzzle::def
