// `permuzzle fifteen code|toroidal`: the 15-puzzle as permutations (spec section 3).
#include <fmt/format.h>

#include <memory>

#include "cli.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/fifteen/groupoid.hpp"
#include "permuzzle/puzzles/fifteen/toroidal.hpp"

namespace permuzzle::cli {

namespace {

using namespace permuzzle::fifteen;

struct FifteenArgs {
  std::string path, position, code, element;
  bool order = false;
  int samples = 0;
  std::uint64_t seed = 1;
};

Result<Board16> position_arg(const std::string& text, const std::string& what) {
  auto b = parse_position(text);
  if (!b) {
    Error e = b.error();
    e.message = what + ": " + e.message;
    return e;
  }
  return b;
}

Result<PermGroup> toroidal_group() {
  const auto& g = toroidal_generators();
  return PermGroup::from_generators({g[0], g[1], g[2], g[3]}, {"L", "R", "U", "D"});
}

}  // namespace

void add_fifteen_command(CLI::App& app, Context& ctx) {
  auto* fifteen = app.add_subcommand(
      "fifteen", "The 15-puzzle as permutations: groupoid codes, toroidal group");
  fifteen->require_subcommand(1);
  auto a = std::make_shared<FifteenArgs>();

  auto* code = fifteen->add_subcommand(
      "code",
      "Groupoid codes in S16 (16 = blank): of a blank path (--path), of a position "
      "(--position), or the position of a code (--code)");
  code->add_option("--path", a->path,
                   "Cells the blank visits, e.g. 12,11,7,6,2 (from the goal or --position)");
  code->add_option("--position", a->position, "Position: 16 labels, 0 = blank (default: the goal)");
  code->add_option("--code", a->code, "A code in cycle notation, e.g. \"(2,16,12,11,7,6)\"");
  set_action(ctx, code, [a]() -> Result<CommandOutput> {
    CommandOutput out;
    if (!a->code.empty()) {
      auto p = Perm::parse(a->code);
      if (!p)
        return Error{p.error().kind, "--code: " + p.error().message, p.error().input,
                     p.error().position};
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
    if (!a->position.empty()) {
      auto b = position_arg(a->position, "--position");
      if (!b) return b.error();
      start = *b;
    }
    if (a->path.empty()) {
      Perm c = code_of(start);
      out.json = {{"code", c.to_cycle_string()},
                  {"position", format_position(start)},
                  {"solvable", is_solvable(start)}};
      out.text = fmt::format("code: {}\nsolvable: {}\n", c.to_cycle_string(),
                             is_solvable(start) ? "yes" : "no");
      return out;
    }
    auto cells = parse_path(a->path);
    if (!cells)
      return Error{cells.error().kind, "--path: " + cells.error().message, cells.error().input,
                   cells.error().position};
    auto r = apply_blank_path(start, *cells);
    if (!r)
      return Error{r.error().kind, "--path: " + r.error().message, a->path, Error::NO_POSITION};
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
  });

  auto* toroidal = fifteen->add_subcommand(
      "toroidal",
      "Toroidal model: positions <-> elements of <L,R,U,D> on 23 points; --order "
      "computes the group order with the group core");
  toroidal->add_flag("--order", a->order, "Group order of <L,R,U,D>, compared with 16!/2");
  toroidal->add_option("--position", a->position, "Position to convert (16 labels, 0 = blank)");
  toroidal->add_option("--element", a->element, "Element (cycle notation) to convert back");
  toroidal->add_option("--check", a->samples,
                       "Check the bijection on this many random positions both ways");
  toroidal->add_option("--seed", a->seed, "Random seed for --check");
  set_action(ctx, toroidal, [&ctx, a]() -> Result<CommandOutput> {
    CommandOutput out;
    std::string text;
    if (!a->position.empty()) {
      auto b = position_arg(a->position, "--position");
      if (!b) return b.error();
      if (!is_solvable(*b)) {
        return make_error(
            "--position: not solvable (not reachable from the goal), so it has no "
            "element in the toroidal group",
            a->position, Error::NO_POSITION, ErrorKind::Unsolvable);
      }
      Perm g = to_toroidal(*b);
      out.json["element"] = g.to_cycle_string();
      text += "element: " + g.to_cycle_string() + "\n";
    }
    if (!a->element.empty()) {
      auto p = Perm::parse(a->element);
      if (!p)
        return Error{p.error().kind, "--element: " + p.error().message, p.error().input,
                     p.error().position};
      auto b = from_toroidal(*p);
      if (!b) return b.error();
      out.json["position"] = format_position(*b);
      text += "position: " + format_position(*b) + "\n";
    }
    if (a->order || a->samples > 0) {
      progress(ctx, "Schreier-Sims on <L,R,U,D>...");
      auto group = toroidal_group();
      if (!group) return group.error();
      if (a->order) {
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
      if (a->samples > 0) {
        Rng rng(a->seed);
        int ok = 0;
        for (int i = 0; i < a->samples; ++i) {
          Board16 b = random_solvable(rng);
          Perm g = to_toroidal(b);
          auto back = from_toroidal(g);
          Perm e = group->random_element(rng);
          auto pos = from_toroidal(e);
          ok += group->contains(g) && back && *back == b && pos && is_solvable(*pos) &&
                to_toroidal(*pos) == e;
        }
        out.json["checked"] = a->samples;
        out.json["bijection_ok"] = ok;
        text += fmt::format(
            "bijection checked both ways on {} random positions and {} random "
            "elements: {} ok\n",
            a->samples, a->samples, ok);
      }
    }
    if (text.empty()) return make_error("toroidal needs --order, --position, --element or --check");
    out.text = text;
    return out;
  });
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

}  // namespace permuzzle::cli
