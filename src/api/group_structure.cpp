// `group conjugacy-classes`, `group blocks`: structure commands over the group library
// (classes.hpp, blocks.hpp). Registered by register_group (group.cpp).
#include <limits>

#include "common.hpp"
#include "group_common.hpp"
#include "permuzzle/group/blocks.hpp"
#include "permuzzle/group/classes.hpp"
#include "permuzzle/group/composition.hpp"
#include "permuzzle/group/naming.hpp"
#include "permuzzle/group/sylow.hpp"

namespace permuzzle::api {

namespace {

// Default listing limit of `conjugacy-classes` (the cube group's 81,120 fit).
constexpr std::uint64_t DEFAULT_CLASS_LIST_LIMIT = 100000;
// `blocks` prints block systems in full as text up to this many points per system.
constexpr std::size_t MAX_TEXT_SYSTEM_POINTS = 200;

// The conformance examples of a structure command (group_examples).
Command with_structure_contract(const nlohmann::json& hard, Command c, const nlohmann::json& extra,
                                const std::vector<nlohmann::json>& invalid_extra) {
  Contract k = group_examples(hard, extra, invalid_extra);
  c.cost = k.cost;
  c.hard_example = std::move(k.hard_example);
  c.invalid_examples = std::move(k.invalid_examples);
  return c;
}

std::vector<Param> params_with(std::vector<Param> extra) {
  std::vector<Param> params = group_base_params();
  params.insert(params.end(), extra.begin(), extra.end());
  return params;
}

Result<Output> conjugacy_classes_command(const Request& q, Session& s) {
  auto g = build_request_group(q, s);
  if (!g) return g.error();
  ClassOptions options;
  options.count_only = q.flag("count-only");
  options.list_limit = q.unsigned_integer("limit");
  auto classes = conjugacy_classes(*g, options, &s.run);
  if (!classes) return classes.error();
  Output out;
  out.json = {{"count", classes->count.get_str()},
              {"order", g->order().get_str()},
              {"method", classes->method}};
  out.text = fmt::format("{} conjugacy classes (group order {}; method: {})\n",
                         classes->count.get_str(), g->order().get_str(), classes->method);
  if (options.count_only) return out;
  // The answer: each representative's cycle string, its size and order, in text and JSON.
  std::uint64_t chars = 0;
  for (const auto& c : classes->classes) chars += c.representative.to_cycle_string().size() + 64;
  if (auto st = check_answer_size(
          s, classes->classes.size(), chars,
          "listing " + classes->count.get_str() + " classes (--count-only gives their number)");
      !st) {
    return st.error();
  }
  nlohmann::json list = nlohmann::json::array();
  out.text += "order  size  representative\n";
  for (std::size_t i = 0; i < classes->classes.size(); ++i) {
    if ((i & 1023) == 1023 && s.run.should_stop()) return s.run.stop_error();
    const auto& c = classes->classes[i];
    std::string rep = c.representative.to_cycle_string();
    out.text += fmt::format("{}  {}  {}\n", c.element_order.get_str(), c.size.get_str(), rep);
    list.push_back({{"representative", std::move(rep)},
                    {"size", c.size.get_str()},
                    {"order", c.element_order.get_str()}});
  }
  out.json["classes"] = std::move(list);
  return out;
}

Result<Output> blocks_command(const Request& q, Session& s) {
  auto g = build_request_group(q, s);
  if (!g) return g.error();
  auto all = minimal_block_systems(*g, &s.run);
  if (!all) return all.error();
  // The answer: every system lists its orbit's points once.
  std::uint64_t points = 0, systems = 0;
  for (const auto& o : *all) {
    points += (o.minimal_systems.size() + 1) * o.orbit.size();
    systems += o.minimal_systems.size() + 1;
  }
  if (auto st = check_answer_size(s, points, points * 8, "listing the block systems"); !st) {
    return st.error();
  }
  Output out;
  nlohmann::json orbits = nlohmann::json::array();
  const bool transitive = all->size() == 1;
  for (const auto& o : *all) {
    nlohmann::json list = nlohmann::json::array();
    out.text += fmt::format("orbit of {} points {}: {}\n", o.orbit.size(),
                            o.orbit.size() <= 30 ? points_text(o.orbit, "{", "}") : "",
                            o.primitive() ? "primitive" : "imprimitive");
    for (const auto& system : o.minimal_systems) {
      if (!is_block_system(g->generators(), system)) {
        return make_error("internal error: a computed block system is not one", {},
                          Error::NO_POSITION, ErrorKind::Internal);
      }
      nlohmann::json blocks = nlohmann::json::array();
      std::string text;
      for (const auto& block : system) {
        blocks.push_back(points_json(block));
        text += points_text(block, "{", "}");
      }
      out.text += fmt::format(
          "  {} blocks of {}: {}\n", system.size(), system[0].size(),
          o.orbit.size() <= MAX_TEXT_SYSTEM_POINTS ? text : std::string("(see --json)"));
      list.push_back({{"block_size", system[0].size()}, {"blocks", std::move(blocks)}});
    }
    orbits.push_back({{"orbit", points_json(o.orbit)},
                      {"primitive", o.primitive()},
                      {"minimal_systems", std::move(list)}});
  }
  if (all->empty()) out.text = "no moved points\n";
  out.json = {{"transitive", transitive},
              {"primitive", transitive && (*all)[0].primitive()},
              {"orbits", std::move(orbits)},
              {"order", g->order().get_str()}};
  (void)systems;
  return out;
}

// Generators printed per group of a series.
constexpr std::size_t MAX_SERIES_GENERATORS = 50;

Result<Output> composition_series_command(const Request& q, Session& s) {
  auto g = build_request_group(q, s);
  if (!g) return g.error();
  auto series = composition_series(*g, &s.run);
  if (!series) return series.error();
  std::uint64_t chars = 0, items = 0;
  for (const auto& h : series->groups) {
    for (std::size_t i = 0; i < h.generators().size() && i < MAX_SERIES_GENERATORS; ++i) {
      chars += h.generators()[i].to_cycle_string().size() + 4;
      ++items;
    }
  }
  if (auto st = check_answer_size(s, items, chars, "listing the composition series"); !st) {
    return st.error();
  }
  Output out;
  nlohmann::json groups = nlohmann::json::array();
  out.text = "factors (top first):";
  for (const auto& f : series->factors) out.text += " " + f;
  out.text += "\n";
  for (std::size_t i = 0; i < series->groups.size(); ++i) {
    const PermGroup& h = series->groups[i];
    nlohmann::json gens = nlohmann::json::array();
    for (std::size_t j = 0; j < h.generators().size() && j < MAX_SERIES_GENERATORS; ++j) {
      if (!h.generators()[j].is_identity()) gens.push_back(h.generators()[j].to_cycle_string());
    }
    nlohmann::json entry = {{"order", h.order().get_str()}, {"generators", std::move(gens)}};
    if (i + 1 < series->groups.size()) entry["factor"] = series->factors[i];
    out.text += fmt::format("G{}: order {}{}\n", i, h.order().get_str(),
                            i + 1 < series->groups.size() ? ", factor " + series->factors[i] : "");
    groups.push_back(std::move(entry));
  }
  out.json = {{"order", g->order().get_str()},
              {"length", series->factors.size()},
              {"factors", series->factors},
              {"series", std::move(groups)}};
  return out;
}

}  // namespace

void register_group_structure(Registry& r, const nlohmann::json& hard) {
  r.add(with_structure_contract(
      hard,
      {"group", "sylow",
       "A Sylow p-subgroup (GAP: SylowSubgroup): a p-subgroup grown inside its normaliser "
       "(backtrack) until its order is the p-part of |G|",
       params_with({required(option("prime", ParamType::Unsigned, "The prime p, e.g. 2"))}),
       [](const Request& q, Session& s) -> Result<Output> {
         auto g = build_request_group(q, s);
         if (!g) return g.error();
         const std::uint64_t p = q.unsigned_integer("prime");
         auto sylow = sylow_subgroup(*g, p, &s.run);
         if (!sylow) return sylow.error();
         Output out =
             subgroup_answer(*sylow, {{"prime", p}, {"group_order", g->order().get_str()}});
         // The name in GAP's spelling where naming.hpp proves one ("C3 x C3", not "A3 x A3").
         if (auto name = structure_name(*sylow, &s.run)) {
           const std::string old_name = out.json["structure"].get<std::string>();
           out.json["structure"] = *name;
           const std::size_t at = out.text.find(", " + old_name + "\n");  // "order N, NAME"
           if (at != std::string::npos) out.text.replace(at + 2, old_name.size(), *name);
         }
         return out;
       }},
      {{"prime", 2}}, {{{"prime", 4}}, {{"prime", 0}}, {{"prime", -2}}}));

  r.add(with_structure_contract(
      hard,
      {"group", "composition-series",
       "Composition series G = G0 > G1 > ... > 1 with the factors named (GAP: "
       "CompositionSeries): derived series refined to prime steps, then a simple named group, "
       "a direct product of them on the orbits, or a puzzle group's twists and alternating "
       "groups; other perfect groups are refused",
       params_with({}), composition_series_command},
      nlohmann::json::object(), {}));

  r.add(with_structure_contract(
      hard,
      {"group", "conjugacy-classes",
       "Conjugacy classes (GAP: ConjugacyClasses): count, and with each class its "
       "representative, size and element order. Puzzle groups, S_n, A_n and their products "
       "from their piece structure (any size: the cube group's 81,120 classes), wreath products "
       "from their base group's classes, groups up to 200,000 elements by enumeration, larger "
       "ones (M24, PSL(2,q)) by random elements until the class sizes add up to the order",
       params_with({flag("count-only", "Only the number of classes"),
                    option("limit", ParamType::Unsigned,
                           "Refuse to list more classes than this (--count-only has no limit)",
                           DEFAULT_CLASS_LIST_LIMIT)}),
       conjugacy_classes_command},
      {{"count-only", true}}, {{{"limit", -1}}}));

  r.add(with_structure_contract(
      hard,
      {"group", "blocks",
       "Minimal block systems of the group on each orbit (GAP: RepresentativesMinimalBlocks, "
       "as systems): primitive or not",
       params_with({}), blocks_command},
      nlohmann::json::object(), {}));
}

}  // namespace permuzzle::api
