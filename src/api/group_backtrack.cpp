// `group centralizer|normalizer|set-stabilizer|intersection|center|is-conjugate|is-normal|
// normal-closure` (see group_backtrack.hpp): answers from the backtrack search at any group
// size, each group answer with "order" (decimal string), "structure" and "generators".
#include "group_backtrack.hpp"

#include "permuzzle/group/backtrack.hpp"
#include "permuzzle/group/operations.hpp"

namespace permuzzle::api {

namespace {

Param element_option(bool is_required) {
  Param p =
      with_short(option("element", ParamType::String, "The element, e.g. \"(1,2)(3,4)\""), 'e');
  return is_required ? required(p) : p;
}

Param subgroup_option(bool is_required, const std::string& what) {
  Param p = with_short(option("subgroup", ParamType::Strings,
                              "A generator of the subgroup H" + what +
                                  " in cycle notation (repeatable), e.g. -s \"(1,2,3)\""),
                       's');
  return is_required ? required(p) : p;
}

// The conformance fields: every command builds the group first (Schreier–Sims is unbounded in
// the degree), so each is Expensive with the kit's hard generators; invalid: generators that
// do not parse or are missing, and each command's own parameters malformed.
Command with_contract(Command c, const nlohmann::json& valid, const GroupCommandKit& kit,
                      const std::vector<nlohmann::json>& own_invalid,
                      const nlohmann::json& hard = nullptr) {
  c.cost = Cost::Expensive;
  c.hard_example = valid;
  c.hard_example["generators"] = kit.hard_generators;
  if (!hard.is_null()) c.hard_example = hard;
  auto with = [&](const nlohmann::json& changes) {
    nlohmann::json params = valid;
    params["generators"] = nlohmann::json::array({"(1,2,3)", "(1,2)"});
    for (const auto& [key, value] : changes.items()) params[key] = value;
    return params;
  };
  c.invalid_examples = {with({{"generators", nlohmann::json::array({"(1,2"})}}),
                        with({{"generators", nlohmann::json::array({"(1,0)"})}}),
                        with({{"generators", nlohmann::json::array()}})};
  for (const auto& changes : own_invalid) c.invalid_examples.push_back(with(changes));
  return c;
}

using Body = std::function<Result<Output>(const Request&, const PermGroup&, Session&)>;

void add(Registry& r, const GroupCommandKit& kit, std::string verb, std::string help,
         std::vector<Param> extra, const nlohmann::json& valid,
         const std::vector<nlohmann::json>& invalid, Body body,
         const nlohmann::json& hard = nullptr) {
  std::vector<Param> params = kit.common_params;
  params.insert(params.end(), extra.begin(), extra.end());
  Command c{"group", std::move(verb), std::move(help), std::move(params),
            [build = kit.build_group, body = std::move(body)](const Request& q,
                                                              Session& s) -> Result<Output> {
              auto g = build(q, s);
              if (!g) return g.error();
              return body(q, *g, s);
            }};
  r.add(with_contract(std::move(c), valid, kit, invalid, hard));
}

const nlohmann::json BAD_SUBGROUP = {{"subgroup", nlohmann::json::array({"(1,2"})}};
const nlohmann::json ONE_SUBGROUP = {{"subgroup", nlohmann::json::array({"(1,2)"})}};

}  // namespace

void register_group_backtrack(Registry& r, const GroupCommandKit& kit) {
  const auto output = kit.subgroup_output;

  add(r, kit, "centralizer",
      "Centralizer C_G(x) of an --element, or C_G(H) of the --subgroup H (GAP: Centralizer), "
      "by backtrack search",
      {element_option(false), subgroup_option(false, " to centralize")}, {{"element", "(1,2)"}},
      {{{"element", "(1,2"}}, BAD_SUBGROUP, ONE_SUBGROUP},
      [kit, output](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        if (q.has("element") == q.has("subgroup")) {
          return make_error(
              "give exactly one of --element X (the centralizer of an element) and --subgroup "
              "GEN... (of a subgroup)");
        }
        if (q.has("element")) {
          auto x = parse_perm_param(q.string("element"), "--element");
          if (!x) return x.error();
          auto c = centralizer(g, *x, &s.run);
          if (!c) return c.error();
          return output(*c, {{"element", x->to_cycle_string()}});
        }
        auto h = kit.build_subgroup(q, s);
        if (!h) return h.error();
        auto c = centralizer(g, *h, &s.run);
        if (!c) return c.error();
        return output(*c, {{"subgroup_order", h->order().get_str()}});
      });

  add(r, kit, "normalizer",
      "Normalizer N_G(H) of the --subgroup H (GAP: Normalizer), by backtrack search",
      {subgroup_option(true, "")}, ONE_SUBGROUP, {BAD_SUBGROUP},
      [kit, output](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        auto h = kit.build_subgroup(q, s);
        if (!h) return h.error();
        auto n = normalizer(g, *h, &s.run);
        if (!n) return n.error();
        return output(*n, {{"subgroup_order", h->order().get_str()}});
      },
      // The hard example is a search, not a Schreier–Sims: M24 x M24 on 48 points in S48 (the
      // answer is M24 wr S2). M24 alone in S24 is answered at once (the conjugate test of
      // conjugate_test.hpp); with two orbits the search still runs for minutes.
      {{"generators",
        {"(1,2)",
         "(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,"
         "33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48)"}},
       {"subgroup",
        {"(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)",
         "(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)",
         "(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)",
         "(25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47)",
         "(27,41,34,31,33)(28,37,38,43,29)(32,42,35,36,47)(39,44,46,45,40)",
         "(25,48)(26,47)(27,36)(28,40)(29,42)(30,34)(31,44)(32,38)(33,45)(35,41)(37,46)(39,43)"}}});

  add(r, kit, "set-stabilizer",
      "Stabilizer of a --set of points (GAP: Stabilizer(G, set, OnSets)), by backtrack search",
      {required(option("set", ParamType::String, "Points, comma-separated, e.g. 1,2,3"))},
      {{"set", "1,2"}}, {{{"set", "1,x"}}, {{"set", "0"}}},
      [kit, output](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        auto set = kit.parse_points(q.string("set"), "--set");
        if (!set) return set.error();
        std::sort(set->begin(), set->end());
        set->erase(std::unique(set->begin(), set->end()), set->end());
        auto st = set_stabilizer(g, *set, &s.run);
        if (!st) return st.error();
        return output(*st, {{"set", points_json(*set)}});
      });

  add(r, kit, "intersection",
      "Intersection of the group with the group generated by the --subgroup elements (GAP: "
      "Intersection), by backtrack search",
      {subgroup_option(true, " (any group on the same points)")}, ONE_SUBGROUP, {BAD_SUBGROUP},
      [kit, output](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        auto h = kit.build_subgroup(q, s);
        if (!h) return h.error();
        auto meet = intersection(g, *h, &s.run);
        if (!meet) return meet.error();
        return output(*meet, {{"subgroup_order", h->order().get_str()}});
      });

  add(r, kit, "center", "Centre Z(G) (GAP: Centre), by backtrack search: C_G(G)", {},
      nlohmann::json::object(), {},
      [output](const Request&, const PermGroup& g, Session& s) -> Result<Output> {
        auto z = centre(g, &s.run);  // S_n, A_n and abelian groups at once
        if (!z) return z.error();
        return output(*z, {});
      });

  add(r, kit, "is-conjugate",
      "Are two elements conjugate in the group? With a conjugating element c, c^-1*x*c = y "
      "(GAP: RepresentativeAction), by backtrack search",
      {element_option(true),
       required(option("to", ParamType::String, "The second element y, e.g. \"(2,3)\""))},
      {{"element", "(1,2)"}, {"to", "(3,4)"}}, {{{"element", "(1,2"}}, {{"to", "[1,1]"}}},
      [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        auto x = parse_perm_param(q.string("element"), "--element");
        if (!x) return x.error();
        auto y = parse_perm_param(q.string("to"), "--to");
        if (!y) return y.error();
        // Members of G: S_n and A_n align cycles at once (operations.hpp); otherwise the
        // backtrack search, which takes any x and y.
        auto c = g.contains(*x) && g.contains(*y) ? conjugating_element(g, *x, *y, &s.run)
                                                  : find_conjugator(g, *x, *y, &s.run);
        if (!c) return c.error();
        Output out;
        out.json = {{"conjugate", c->has_value()},
                    {"element", x->to_cycle_string()},
                    {"to", y->to_cycle_string()}};
        if (*c) {
          if (x->conjugate(**c) != *y || !g.contains(**c)) {
            return make_error("internal error: the conjugating element does not conjugate", {},
                              Error::NO_POSITION, ErrorKind::Internal);
          }
          out.json["conjugator"] = (*c)->to_cycle_string();
          out.text =
              fmt::format("yes: c = {} (c^-1 * x * c = y, verified)\n", (*c)->to_cycle_string());
        } else {
          out.text = "no\n";
        }
        return out;
      });

  add(r, kit, "is-normal",
      "Is the group generated by the --subgroup elements a normal subgroup? (GAP: IsNormal)",
      {subgroup_option(true, "")}, ONE_SUBGROUP, {BAD_SUBGROUP},
      [kit](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        auto h = kit.build_subgroup(q, s);
        if (!h) return h.error();
        bool subgroup = true;
        for (const Perm& x : h->generators()) subgroup = subgroup && g.contains(x);
        const bool normal = subgroup && is_normal(g, *h);
        Output out;
        out.json = {{"is_normal", normal},
                    {"is_subgroup", subgroup},
                    {"subgroup_order", h->order().get_str()}};
        out.text = normal ? "yes\n" : subgroup ? "no\n" : "no (not a subgroup)\n";
        return out;
      });

  add(r, kit, "normal-closure",
      "Normal closure of the --subgroup H in G: the smallest normal subgroup containing it "
      "(GAP: NormalClosure)",
      {subgroup_option(true, " (inside G)")}, ONE_SUBGROUP, {BAD_SUBGROUP},
      [kit, output](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        auto h = kit.build_subgroup(q, s);
        if (!h) return h.error();
        auto n = normal_closure(g, *h, &s.run);
        if (!n) return n.error();
        return output(*n, {{"subgroup_order", h->order().get_str()}});
      });
}

}  // namespace permuzzle::api
