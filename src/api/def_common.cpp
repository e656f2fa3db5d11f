// Reading `def` inputs: definition files (text or KPuzzle JSON), scramble files, --moves and
// --state; the JSON form of a state.
#include "def_common.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "permuzzle/puzzles/def/reader.hpp"

namespace permuzzle::api {

namespace {

using nlohmann::json;

// Errors of the KPuzzle reader name the file and the JSON path of the offending value.
struct JsonReader {
  std::string file;
  Error at(const std::string& path, const std::string& message) const {
    return make_error(file + ": " + path + ": " + message);
  }
  // A list of `n` integers in [0, limit) at `path` (limit 0: no bound check).
  Result<std::vector<std::uint8_t>> small_ints(const json& v, const std::string& path,
                                               std::size_t n, std::size_t limit,
                                               bool nulls_ignored = false) const {
    if (!v.is_array() || v.size() != n) {
      return at(path, "expected an array of " + std::to_string(n) + " integers");
    }
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < n; ++i) {
      const json& x = v[i];
      if (nulls_ignored && x.is_null()) {
        out.push_back(def::ORIENTATION_IGNORED);
        continue;
      }
      if (!x.is_number_integer() || x.get<std::int64_t>() < 0 ||
          static_cast<std::uint64_t>(x.get<std::int64_t>()) >= limit) {
        return at(path + "[" + std::to_string(i) + "]",
                  "expected an integer from 0 to " + std::to_string(limit - 1));
      }
      out.push_back(static_cast<std::uint8_t>(x.get<std::int64_t>()));
    }
    return out;
  }
};

Result<def::State> json_move_effect(const JsonReader& r, const def::Definition& d, const json& mv,
                                    const std::string& path) {
  if (!mv.is_object()) return r.at(path, "expected an object of orbits");
  def::State e = d.identity();
  for (const auto& [orbit, data] : mv.items()) {
    auto it = std::find_if(d.sets.begin(), d.sets.end(),
                           [&orbit = orbit](const def::PieceSet& s) { return s.name == orbit; });
    const std::string p = path + "." + orbit;
    if (it == d.sets.end()) return r.at(p, "unknown orbit: expected one of the orbits");
    const auto k = static_cast<std::size_t>(it - d.sets.begin());
    const auto n = static_cast<std::size_t>(it->pieces);
    if (!data.is_object() || !data.contains("permutation")) {
      return r.at(p, "expected {\"permutation\": [...], \"orientationDelta\": [...]}");
    }
    auto perm = r.small_ints(data["permutation"], p + ".permutation", n, n);
    if (!perm) return perm.error();
    std::vector<bool> seen(n, false);
    for (auto x : *perm) {
      if (seen[x]) return r.at(p + ".permutation", "expected a permutation (a piece repeats)");
      seen[x] = true;
    }
    e.sets[k].perm = *perm;
    const char* key = data.contains("orientationDelta") ? "orientationDelta" : "orientation";
    if (data.contains(key)) {
      auto ori =
          r.small_ints(data[key], p + "." + key, n, static_cast<std::size_t>(it->orientations));
      if (!ori) return ori.error();
      e.sets[k].ori = *ori;
    }
  }
  return e;
}

def::State inverse_state(const def::Definition& d, const def::State& m) {
  def::State inv = m;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    const auto& a = m.sets[k];
    auto& b = inv.sets[k];
    for (std::size_t i = 0; i < a.perm.size(); ++i) {
      b.perm[a.perm[i]] = static_cast<std::uint8_t>(i);
      b.ori[a.perm[i]] = static_cast<std::uint8_t>((o - a.ori[i]) % o);
    }
  }
  return inv;
}

// m^k for any integer k (negative: the inverse), by squaring.
def::State state_power(const def::Definition& d, const def::State& m, long long k) {
  def::State base = k < 0 ? inverse_state(d, m) : m;
  unsigned long long e =
      k < 0 ? static_cast<unsigned long long>(-(k + 1)) + 1 : static_cast<unsigned long long>(k);
  def::State out = d.identity();
  while (e > 0) {
    if (e & 1) out = def::apply(d, out, base);
    base = def::apply(d, base, base);
    e >>= 1;
  }
  return out;
}

// cubing.js alg notation as far as derived moves use it: moves with an amount and a prime
// (R, R2, R2', x'), groups (A)n, conjugates [A: B] = A B A', commutators [A, B] = A B A' B'.
class AlgReader {
 public:
  AlgReader(const def::Definition& d, std::string_view text) : d_(d), text_(text) {}

  Result<def::State> run() {
    auto e = sequence(0);
    if (!e) return e;
    if (i_ < text_.size()) return fail("unexpected '" + std::string(1, text_[i_]) + "'");
    return e;
  }

 private:
  Error fail(const std::string& what) const {
    return make_error("alg \"" + std::string(text_) + "\" at character " + std::to_string(i_ + 1) +
                      ": " + what + " (expected move names, (A)n, [A: B] or [A, B])");
  }
  void blanks() {
    while (i_ < text_.size() && (text_[i_] == ' ' || text_[i_] == '\t' || text_[i_] == '\n')) ++i_;
  }
  static bool stop(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '(' || c == ')' || c == '[' || c == ']' ||
           c == ':' || c == ',';
  }
  // Amount and prime after a group: (A)2', (A)'.
  long long suffix() {
    long long n = 1;
    std::size_t start = i_;
    while (i_ < text_.size() && text_[i_] >= '0' && text_[i_] <= '9' && i_ - start < 6) ++i_;
    if (i_ > start) n = std::stoll(std::string(text_.substr(start, i_ - start)));
    if (i_ < text_.size() && text_[i_] == '\'') {
      ++i_;
      n = -n;
    }
    return n;
  }
  Result<def::State> sequence(int depth) {
    if (depth > 32) return fail("nested too deeply");
    def::State e = d_.identity();
    while (true) {
      blanks();
      if (i_ >= text_.size() || text_[i_] == ')' || text_[i_] == ']' || text_[i_] == ':' ||
          text_[i_] == ',') {
        return e;
      }
      auto item = unit(depth);
      if (!item) return item;
      e = def::apply(d_, e, *item);
    }
  }
  Result<def::State> unit(int depth) {
    if (text_[i_] == '(') {
      ++i_;
      auto inner = sequence(depth + 1);
      if (!inner) return inner;
      if (i_ >= text_.size() || text_[i_] != ')') return fail("expected ')'");
      ++i_;
      return state_power(d_, *inner, suffix());
    }
    if (text_[i_] == '[') {
      ++i_;
      auto a = sequence(depth + 1);
      if (!a) return a;
      if (i_ >= text_.size() || (text_[i_] != ':' && text_[i_] != ',')) {
        return fail("expected ':' or ','");
      }
      const bool conjugate = text_[i_] == ':';
      ++i_;
      auto b = sequence(depth + 1);
      if (!b) return b;
      if (i_ >= text_.size() || text_[i_] != ']') return fail("expected ']'");
      ++i_;
      const def::State ai = inverse_state(d_, *a);
      def::State e = def::apply(d_, def::apply(d_, *a, *b), ai);
      if (!conjugate) e = def::apply(d_, e, inverse_state(d_, *b));
      return state_power(d_, e, suffix());
    }
    const std::size_t start = i_;
    while (i_ < text_.size() && !stop(text_[i_])) ++i_;
    const std::string_view token = text_.substr(start, i_ - start);
    if (auto m = def::named_effect(d_, token)) return *m;
    // NAME, amount, prime: R2' = R^-2.
    std::string_view base = token;
    bool prime = false;
    if (!base.empty() && base.back() == '\'') {
      prime = true;
      base.remove_suffix(1);
    }
    std::size_t digits = base.size();
    while (digits > 0 && base[digits - 1] >= '0' && base[digits - 1] <= '9') --digits;
    long long amount = 1;
    if (digits < base.size() && base.size() - digits <= 6) {
      amount = std::stoll(std::string(base.substr(digits)));
      base = base.substr(0, digits);
    }
    auto m = base.empty() ? std::nullopt : def::named_effect(d_, base);
    if (!m) {
      i_ = start;
      return fail("unknown move '" + std::string(token) + "'");
    }
    return state_power(d_, *m, prime ? -amount : amount);
  }

  const def::Definition& d_;
  std::string_view text_;
  std::size_t i_ = 0;
};

Result<def::State> evaluate_alg(const def::Definition& d, std::string_view text) {
  return AlgReader(d, text).run();
}

}  // namespace

Result<def::Definition> parse_kpuzzle_json(std::string_view text, std::string_view file_name) {
  JsonReader r{std::string(file_name)};
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    // Byte offset to line:column.
    std::size_t byte = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    std::size_t line = 1, col = 1, line_start = 0;
    for (std::size_t i = 0; i < byte; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
        line_start = i + 1;
      } else {
        ++col;
      }
    }
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    return make_error(r.file + ":" + std::to_string(line) + ":" + std::to_string(col) +
                          ": not valid JSON: expected a KPuzzle definition (" + e.what() + ")",
                      std::string(text.substr(line_start, line_end - line_start)), col - 1);
  } catch (const json::out_of_range& e) {
    // A number no double holds (1e999999): the reader gives no position for it.
    return make_error(r.file + ": not valid JSON: a number is too large for JSON's numbers (" +
                      e.what() + ")");
  }
  if (!j.is_object()) return r.at("(top)", "expected a JSON object");
  def::Definition d;
  d.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>()
                                                       : def::file_stem(file_name);
  // Step 1. Orbits: an array of {orbitName, numPieces, numOrientations} or an object by name.
  if (!j.contains("orbits")) return r.at("orbits", "missing: expected the puzzle's orbits");
  std::vector<std::pair<std::string, json>> orbits;
  if (j["orbits"].is_array()) {
    for (const json& o : j["orbits"]) {
      if (!o.is_object() || !o.contains("orbitName") || !o["orbitName"].is_string()) {
        return r.at("orbits", "expected objects with orbitName, numPieces, numOrientations");
      }
      orbits.emplace_back(o["orbitName"].get<std::string>(), o);
    }
  } else if (j["orbits"].is_object()) {
    for (const auto& [name, o] : j["orbits"].items()) orbits.emplace_back(name, o);
  } else {
    return r.at("orbits", "expected an array or an object");
  }
  if (orbits.empty() || orbits.size() > def::MAX_SETS) {
    return r.at("orbits", "expected 1 to " + std::to_string(def::MAX_SETS) + " orbits");
  }
  for (const auto& [name, o] : orbits) {
    const std::string p = "orbits." + name;
    // Init-captures: clang 14 (the fuzz build) cannot capture a structured binding.
    auto count = [&, &o = o](const char* key, int max) -> Result<int> {
      if (!o.is_object() || !o.contains(key) || !o[key].is_number_integer() ||
          o[key].get<std::int64_t>() < 1 || o[key].get<std::int64_t>() > max) {
        return r.at(p + "." + key, "expected an integer from 1 to " + std::to_string(max));
      }
      return static_cast<int>(o[key].get<std::int64_t>());
    };
    auto pieces = count("numPieces", def::MAX_PIECES);
    if (!pieces) return pieces.error();
    auto oris = count("numOrientations", def::MAX_ORIENTATIONS);
    if (!oris) return oris.error();
    for (const auto& s : d.sets) {
      if (s.name == name) return r.at(p, "the orbit is defined twice");
    }
    d.sets.push_back({name, *pieces, *oris});
  }
  // Step 2. The default pattern (orientationMod 1 = orientation ignored).
  d.solved = d.identity();
  const char* pattern_key = j.contains("defaultPattern") ? "defaultPattern" : "startStateData";
  if (j.contains(pattern_key)) {
    const json& pat = j[pattern_key];
    if (!pat.is_object()) return r.at(pattern_key, "expected an object of orbits");
    for (const auto& [orbit, data] : pat.items()) {
      const std::string p = std::string(pattern_key) + "." + orbit;
      auto it = std::find_if(d.sets.begin(), d.sets.end(),
                             [&orbit = orbit](const def::PieceSet& s) { return s.name == orbit; });
      if (it == d.sets.end()) return r.at(p, "unknown orbit");
      const auto k = static_cast<std::size_t>(it - d.sets.begin());
      const auto n = static_cast<std::size_t>(it->pieces);
      if (!data.is_object() || !data.contains("pieces")) {
        return r.at(p, "expected {\"pieces\": [...], \"orientation\": [...]}");
      }
      auto pieces = r.small_ints(data["pieces"], p + ".pieces", n, n);
      if (!pieces) return pieces.error();
      d.solved.sets[k].perm = *pieces;
      if (data.contains("orientation")) {
        auto ori = r.small_ints(data["orientation"], p + ".orientation", n,
                                static_cast<std::size_t>(it->orientations));
        if (!ori) return ori.error();
        d.solved.sets[k].ori = *ori;
      }
      if (data.contains("orientationMod")) {
        const json& mod = data["orientationMod"];
        if (!mod.is_array() || mod.size() != n) {
          return r.at(p + ".orientationMod", "expected an array of " + std::to_string(n));
        }
        for (std::size_t i = 0; i < n; ++i) {
          if (!mod[i].is_number_integer()) {
            return r.at(p + ".orientationMod", "expected integers");
          }
          const auto m = mod[i].get<std::int64_t>();
          if (m == 1) {
            d.solved.sets[k].ori[i] = def::ORIENTATION_IGNORED;
          } else if (m != 0 && m != it->orientations) {
            return r.at(p + ".orientationMod[" + std::to_string(i) + "]",
                        "only 0, 1 (ignored) or numOrientations are supported");
          }
        }
      }
    }
  }
  // Step 3. Moves, then derived moves (plain sequences of move names).
  if (!j.contains("moves") || !j["moves"].is_object()) {
    return r.at("moves", "missing: expected an object of moves");
  }
  for (const auto& [name, mv] : j["moves"].items()) {
    auto e = json_move_effect(r, d, mv, "moves." + name);
    if (!e) return e.error();
    auto& list = def::is_rotation_name(name) ? d.rotations : d.base_moves;
    if (list.size() >= def::MAX_BASE_MOVES) return r.at("moves", "too many moves");
    list.push_back({name, 1, std::move(*e)});
  }
  if (auto ok = def::finish_definition(d, file_name); !ok) return ok.error();
  // Derived moves may refer to each other in any order (JSON objects are read sorted by name):
  // resolve them in passes until none is left or a pass makes no progress.
  std::vector<std::pair<std::string, std::string>> pending;  // (path, alg)
  std::vector<std::string> pending_names;
  for (const char* key : {"derivedMoves", "experimentalDerivedMoves"}) {
    if (!j.contains(key)) continue;
    if (!j[key].is_object()) return r.at(key, "expected an object of NAME: \"alg\"");
    for (const auto& [name, alg] : j[key].items()) {
      const std::string p = std::string(key) + "." + name;
      if (!alg.is_string()) return r.at(p, "expected a string (an alg of move names)");
      if (def::named_effect(d, name)) return r.at(p, "the move name is already defined");
      pending.emplace_back(p, alg.get<std::string>());
      pending_names.push_back(name);
    }
  }
  while (!pending.empty()) {
    std::optional<Error> first_error;
    std::vector<std::pair<std::string, std::string>> still;
    std::vector<std::string> still_names;
    for (std::size_t i = 0; i < pending.size(); ++i) {
      auto e = evaluate_alg(d, pending[i].second);
      if (!e) {
        if (!first_error) first_error = r.at(pending[i].first, e.error().message);
        still.push_back(pending[i]);
        still_names.push_back(pending_names[i]);
        continue;
      }
      const std::string& name = pending_names[i];
      auto& list = def::is_rotation_name(name) ? d.rotations : d.base_moves;
      if (list.size() >= def::MAX_BASE_MOVES) return r.at(pending[i].first, "too many moves");
      list.push_back({name, 1, std::move(*e)});
      if (auto ok = def::finish_definition(d, file_name); !ok) return ok.error();
    }
    if (still.size() == pending.size()) return *first_error;
    pending = std::move(still);
    pending_names = std::move(still_names);
  }
  return d;
}

Error escaped(Error e) {
  if (e.position != Error::NO_POSITION && e.position <= e.input.size()) {
    e.position = def::escape_bytes(std::string_view(e.input).substr(0, e.position)).size();
  }
  e.input = def::escape_bytes(e.input);
  e.message = def::escape_bytes(e.message);
  return e;
}

Status check_names(const def::Definition& d, const std::string& file) {
  auto bad = [&](const std::string& what, const std::string& name) -> Status {
    if (def::first_bad_byte(name) == std::string::npos) return Ok{};
    return make_error(def::escape_bytes(file + ": " + what + " '" + name +
                                        "' is not UTF-8 text without control characters"));
  };
  for (const def::PieceSet& s : d.sets) {
    if (auto ok = bad("set name", s.name); !ok) return ok;
  }
  for (const def::BaseMove& b : d.base_moves) {
    if (auto ok = bad("move name", b.name); !ok) return ok;
  }
  for (const def::BaseMove& b : d.rotations) {
    if (auto ok = bad("move name", b.name); !ok) return ok;
  }
  return Ok{};
}

Result<def::Definition> read_definition_param(const Request& q, const std::string& name) {
  const InputText in = q.input_file(name);
  // A UTF-8 byte order mark is no part of the text (editors on Windows write one).
  std::string_view text = in.text;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  auto d = first != std::string::npos && text[first] == '{' ? parse_kpuzzle_json(text, in.name)
                                                            : def::parse_definition(text, in.name);
  if (!d) return escaped(d.error());
  if (auto ok = check_names(*d, in.name); !ok) return ok.error();
  d->name = def::escape_bytes(d->name);  // a name from the file's name, or JSON's \u escapes
  return d;
}

Result<std::vector<def::Scramble>> read_scrambles_param(const Request& q, const def::Definition& d,
                                                        const std::string& name) {
  const InputText in = q.input_file(name);
  auto r = def::parse_scrambles(d, in.text, in.name);
  if (!r) return escaped(r.error());
  for (def::Scramble& s : *r) s.name = def::escape_bytes(s.name);
  return r;
}

Result<std::vector<def::Scramble>> read_positions_params(const Request& q,
                                                         const def::Definition& d) {
  const int given =
      (q.has("scramble") ? 1 : 0) + (q.has("moves") ? 1 : 0) + (q.has("state") ? 1 : 0);
  if (given != 1) {
    return make_error(
        "expected exactly one of --scramble FILE, --moves \"...\" or --state \"...\"");
  }
  if (q.has("scramble")) return read_scrambles_param(q, d, "scramble");
  if (q.has("moves")) {
    const std::string text = q.string("moves");
    auto moves = def::parse_move_sequence(d, text);
    if (!moves) {
      Error e = moves.error();
      e.message = "--moves: " + e.message;
      return escaped(std::move(e));
    }
    return std::vector<def::Scramble>{{"moves", def::apply_moves(d, *moves)}};
  }
  auto s = def::parse_state(d, q.string("state"), "--state");
  if (!s) return escaped(s.error());
  return std::vector<def::Scramble>{{"state", std::move(*s)}};
}

json state_json(const def::Definition& d, const def::State& s) {
  json out = json::object();
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    json ori = json::array();
    for (auto o : s.sets[k].ori) {
      if (o == def::ORIENTATION_IGNORED) {
        ori.push_back(nullptr);
      } else {
        ori.push_back(o);
      }
    }
    std::vector<int> pieces(s.sets[k].perm.begin(), s.sets[k].perm.end());
    out[d.sets[k].name] = {{"pieces", pieces}, {"orientation", ori}};
  }
  return out;
}

Result<std::string> read_data_puzzle_file(const Session& s, const std::string& name,
                                          const std::string& who) {
  const std::string path = s.data_dir + "/puzzles/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(who + ": cannot read " + path, {}, Error::NO_POSITION, ErrorKind::Io);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace permuzzle::api
