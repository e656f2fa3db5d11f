// `fifteen code|toroidal`: the 15-puzzle as permutations (spec section 3).
#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/fifteen/groupoid.hpp"
#include "permuzzle/puzzles/fifteen/toroidal.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::fifteen;

// `toroidal --check N` samples N positions and N group elements (about 10 us each).
constexpr std::uint64_t MAX_CHECK_SAMPLES = 100'000'000;

Error prefixed(const std::string& what, Error e) {
  e.message = what + ": " + e.message;
  return e;
}

Result<Board16> position_param(const Request& q) {
  auto b = parse_position(q.string("position"));
  if (!b) return prefixed("--position", b.error());
  return b;
}

Result<PermGroup> toroidal_group() {
  const auto& g = toroidal_generators();
  return PermGroup::from_generators({g[0], g[1], g[2], g[3]}, {"L", "R", "U", "D"});
}

Result<Output> code_command(const Request& q, Session&) {
  Output out;
  if (q.has("code")) {
    auto p = Perm::parse(q.string("code"));
    if (!p) return prefixed("--code", p.error());
    auto b = position_of(*p);
    if (!b) return b.error();
    out.json = {{"code", p->to_cycle_string()},
                {"position", format_position(*b)},
                {"solvable", is_solvable(*b)}};
    out.text = fmt::format("position: {}\nsolvable: {}\n", format_position(*b),
                           is_solvable(*b) ? "yes" : "no");
    return out;
  }
  Board16 start = goal_board();
  if (q.has("position")) {
    auto b = position_param(q);
    if (!b) return b.error();
    start = *b;
  }
  if (!q.has("path")) {
    Perm c = code_of(start);
    out.json = {{"code", c.to_cycle_string()},
                {"position", format_position(start)},
                {"solvable", is_solvable(start)}};
    out.text = fmt::format("code: {}\nsolvable: {}\n", c.to_cycle_string(),
                           is_solvable(start) ? "yes" : "no");
    return out;
  }
  const std::string path = q.string("path");
  auto cells = parse_path(path);
  if (!cells) return prefixed("--path", cells.error());
  auto r = apply_blank_path(start, *cells);
  if (!r) return Error{r.error().kind, "--path: " + r.error().message, path, Error::NO_POSITION};
  nlohmann::json ts = nlohmann::json::array();
  std::string ttext;
  for (const auto& t : r->transpositions) {
    ts.push_back(t.to_cycle_string());
    ttext += t.to_cycle_string();
  }
  out.json = {{"code", r->code.to_cycle_string()},
              {"transpositions", ts},
              {"product", r->product.to_cycle_string()},
              {"start", format_position(start)},
              {"position", format_position(r->end)}};
  out.text = fmt::format(
      "transpositions: {}\nproduct:        {}\ncode:           {}\nposition:       {}\n",
      ttext.empty() ? "()" : ttext, r->product.to_cycle_string(), r->code.to_cycle_string(),
      format_position(r->end));
  return out;
}

Result<Output> toroidal_command(const Request& q, Session& s) {
  Output out;
  std::string text;
  const bool order = q.flag("order");
  const std::uint64_t samples = q.unsigned_integer("check");
  if (!order && samples == 0 && !q.has("position") && !q.has("element")) {
    return make_error("toroidal needs --order, --position, --element or --check");
  }
  if (q.has("position")) {
    auto b = position_param(q);
    if (!b) return b.error();
    if (!is_solvable(*b)) {
      return make_error(
          "--position: not solvable (not reachable from the goal), so it has no "
          "element in the toroidal group",
          q.string("position"), Error::NO_POSITION, ErrorKind::Unsolvable);
    }
    Perm g = to_toroidal(*b);
    out.json["element"] = g.to_cycle_string();
    text += "element: " + g.to_cycle_string() + "\n";
  }
  if (q.has("element")) {
    auto p = Perm::parse(q.string("element"));
    if (!p) return prefixed("--element", p.error());
    auto b = from_toroidal(*p);
    if (!b) return b.error();
    out.json["position"] = format_position(*b);
    text += "position: " + format_position(*b) + "\n";
  }
  if (order || samples > 0) {
    s.note("Schreier-Sims on <L,R,U,D>...");
    auto group = toroidal_group();
    if (!group) return group.error();
    if (order) {
      mpz_class half_factorial = 1;
      for (int i = 2; i <= 16; ++i) half_factorial *= i;
      half_factorial /= 2;
      out.json["order"] = group->order().get_str();
      out.json["solvable_positions"] = half_factorial.get_str();
      out.json["equal"] = group->order() == half_factorial;
      text += fmt::format("order of <L,R,U,D>: {}\nsolvable positions (16!/2): {} ({})\n",
                          group->order().get_str(), half_factorial.get_str(),
                          group->order() == half_factorial ? "equal" : "DIFFERENT");
    }
    if (samples > 0) {
      Rng rng(q.unsigned_integer("seed"));
      std::uint64_t ok = 0, checked = 0;
      for (std::uint64_t i = 0; i < samples; ++i, ++checked) {
        // Stopped: what was checked so far, marked incomplete.
        if ((i & 1023) == 1023 && s.run.should_stop()) {
          out.stopped = s.run.stop_error();
          break;
        }
        Board16 b = random_solvable(rng);
        Perm g = to_toroidal(b);
        auto back = from_toroidal(g);
        Perm e = group->random_element(rng);
        auto pos = from_toroidal(e);
        ok += group->contains(g) && back && *back == b && pos && is_solvable(*pos) &&
              to_toroidal(*pos) == e;
      }
      out.json["checked"] = checked;
      out.json["bijection_ok"] = ok;
      text += fmt::format(
          "bijection checked both ways on {} random positions and {} random "
          "elements: {} ok\n",
          checked, checked, ok);
      if (out.stopped) {
        out.json["complete"] = false;
        text += fmt::format("(stopped after {} of {} samples)\n", checked, samples);
      }
    }
  }
  out.text = std::move(text);
  return out;
}

std::string demo_fifteen() {
  std::string out = "15-puzzle as permutations\n";
  auto r = apply_blank_path(goal_board(), {12, 11, 7, 6, 2});
  if (r) out += "  blank path 12,11,7,6,2 from the goal: code " + r->code.to_cycle_string() + "\n";
  auto group = toroidal_group();
  if (group) {
    out += "  toroidal group <L,R,U,D> on 23 points: order " + group->order().get_str() +
           " = 16!/2 solvable positions\n";
  }
  return out;
}

}  // namespace

void register_fifteen(Registry& r) {
  r.add_family("fifteen", "The 15-puzzle as permutations: groupoid codes, toroidal group");

  r.add(
      {"fifteen",
       "code",
       "Groupoid codes in S16 (16 = blank): of a blank path (--path), of a position "
       "(--position), or the position of a code (--code)",
       {option("path", ParamType::String,
               "Cells the blank visits, e.g. 12,11,7,6,2 (from the goal or --position)"),
        option("position", ParamType::String, "Position: 16 labels, 0 = blank (default: the goal)"),
        option("code", ParamType::String, "A code in cycle notation, e.g. \"(2,16,12,11,7,6)\"")},
       code_command,
       false,
       Cost::Cheap,
       nullptr,
       {{{"path", "1,x"}}, {{"position", "1 2 3"}}, {{"code", "(1,2"}}}});

  r.add({"fifteen",
         "toroidal",
         "Toroidal model: positions <-> elements of <L,R,U,D> on 23 points; --order "
         "computes the group order with the group core",
         {flag("order", "Group order of <L,R,U,D>, compared with 16!/2"),
          option("position", ParamType::String, "Position to convert (16 labels, 0 = blank)"),
          option("element", ParamType::String, "Element (cycle notation) to convert back"),
          with_range(option("check", ParamType::Unsigned,
                            "Check the bijection on this many random positions both ways", 0),
                     0, MAX_CHECK_SAMPLES),
          option("seed", ParamType::Unsigned, "Random seed for --check", 1)},
         toroidal_command,
         false,
         Cost::Expensive,
         // A million samples both ways: about 10 s.
         {{"check", MAX_CHECK_SAMPLES}},
         {nlohmann::json::object(),
          {{"check", MAX_CHECK_SAMPLES + 1}},
          {{"position", "1 2 3"}},
          {{"element", "(1,2"}}}});

  r.add_demo("fifteen", demo_fifteen);
}

}  // namespace permuzzle::api
