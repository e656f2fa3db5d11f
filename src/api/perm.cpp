// `perm ...`: single permutations in GAP notation.
#include "common.hpp"

namespace permuzzle::api {

namespace {

nlohmann::json cycles_json(const Perm& p) {
  nlohmann::json cycles = nlohmann::json::array();
  for (const auto& cycle : p.cycles()) {
    nlohmann::json c = nlohmann::json::array();
    for (Point x : cycle) c.push_back(x + 1);
    cycles.push_back(c);
  }
  return cycles;
}

// Everything a user may want to know about one permutation.
Output describe_perm(const Perm& p) {
  Output out;
  auto type = p.cycle_type();
  std::string type_text;
  for (std::size_t i = 0; i < type.size(); ++i)
    type_text += (i ? "," : "") + std::to_string(type[i]);
  std::size_t degree = std::max<std::size_t>(p.largest_moved_point(), 1);
  out.text = fmt::format(
      "cycles:      {}\nlist:        {}\norder:       {}\nsign:        {} ({})\ncycle type:  "
      "[{}]\nsupport:     {} points\n",
      p.to_cycle_string(), p.to_list_string(p.largest_moved_point()), p.order().get_str(),
      p.sign() > 0 ? "+1" : "-1", p.sign() > 0 ? "even" : "odd", type_text, p.support().size());
  out.json = {{"perm", p.to_cycle_string()},
              {"list", p.to_list_string(degree)},
              {"order", p.order().get_str()},
              {"sign", p.sign()},
              {"cycle_type", type},
              {"cycles", cycles_json(p)},
              {"support_size", p.support().size()}};
  return out;
}

Output perm_result(const std::string& key, const Perm& p) {
  Output out;
  out.text = p.to_cycle_string() + "\n";
  out.json = {{key, p.to_cycle_string()}, {"list", p.to_list_string(p.largest_moved_point())}};
  return out;
}

Param perm_param(std::string name = "perm", std::string help = "Permutation") {
  return positional(std::move(name), ParamType::String, std::move(help));
}

// Parameters written as JSON text (the conformance examples).
nlohmann::json params(const char* text) {
  return nlohmann::json::parse(text);
}

// Every perm command is Cheap: parsing and a few passes over at most MAX_PARSE_DEGREE points
// (powers of any size are reduced modulo each cycle length). `invalid` must be refused.
void add_cheap(Registry& r, Command c, std::vector<nlohmann::json> invalid) {
  r.add(cheap(std::move(c), std::move(invalid)));
}

}  // namespace

void register_perm(Registry& r) {
  r.add_family("perm", "Permutations in GAP cycle notation: products, orders, signs, conjugates");

  add_cheap(r,
            {"perm",
             "product",
             "Product p1*p2*...: apply p1 first, then p2, ... (GAP order)",
             {positional("perms", ParamType::Strings, "Permutations, e.g. \"(1,2,3)\" \"(3,4)\"")},
             [](const Request& q, Session&) -> Result<Output> {
               Perm acc;
               auto perms = q.strings("perms");
               for (std::size_t i = 0; i < perms.size(); ++i) {
                 auto p = parse_perm_param(perms[i], "permutation " + std::to_string(i + 1));
                 if (!p) return p.error();
                 acc *= *p;
               }
               return perm_result("product", acc);
             }},
            {params(R"j({"perms": ["(1,2)", "(1,2"]})j"),
             params(R"j({"perms": ["[2,3,1]", "[1,1]"]})j")});

  add_cheap(r,
            {"perm",
             "inverse",
             "Inverse permutation",
             {perm_param()},
             [](const Request& q, Session&) -> Result<Output> {
               auto p = parse_perm_param(q.string("perm"), "permutation");
               if (!p) return p.error();
               return perm_result("inverse", p->inverse());
             }},
            {params(R"j({"perm": "(1,2"})j")});

  add_cheap(
      r,
      {"perm",
       "power",
       "p^k for an integer k of any size (negative allowed)",
       {perm_param(), positional("k", ParamType::BigInteger, "Exponent")},
       [](const Request& q, Session&) -> Result<Output> {
         auto p = parse_perm_param(q.string("perm"), "permutation");
         if (!p) return p.error();
         return perm_result("power", p->pow(mpz_class(q.big_integer("k"), 10)));
       }},
      {params(R"j({"perm": "(1,2)", "k": "2x"})j"), params(R"j({"perm": "(1,2,2)", "k": 3})j")});

  add_cheap(r,
            {"perm",
             "order",
             "Order: the least k >= 1 with p^k = ()",
             {perm_param()},
             [](const Request& q, Session&) -> Result<Output> {
               auto p = parse_perm_param(q.string("perm"), "permutation");
               if (!p) return p.error();
               Output out;
               out.text = p->order().get_str() + "\n";
               out.json = {{"order", p->order().get_str()}, {"perm", p->to_cycle_string()}};
               return out;
             }},
            {params(R"j({"perm": "[1,1]"})j")});

  add_cheap(
      r,
      {"perm",
       "sign",
       "Sign: +1 even, -1 odd",
       {perm_param()},
       [](const Request& q, Session&) -> Result<Output> {
         auto p = parse_perm_param(q.string("perm"), "permutation");
         if (!p) return p.error();
         Output out;
         out.text = std::string(p->sign() > 0 ? "+1 (even)" : "-1 (odd)j") + "\n";
         out.json = {{"sign", p->sign()}, {"even", p->sign() > 0}, {"perm", p->to_cycle_string()}};
         return out;
       }},
      {params(R"j({"perm": "(0,1)"})j")});

  add_cheap(r,
            {"perm",
             "cycles",
             "Cycles, list form, order, sign, cycle type",
             {perm_param("perm", "Permutation (cycle or list notation)j")},
             [](const Request& q, Session&) -> Result<Output> {
               auto p = parse_perm_param(q.string("perm"), "permutation");
               if (!p) return p.error();
               return describe_perm(*p);
             }},
            {params(R"j({"perm": "x"})j")});

  auto two = [](const char* key, Perm (*op)(const Perm&, const Perm&)) {
    return [key, op](const Request& q, Session&) -> Result<Output> {
      auto p = parse_perm_param(q.string("p"), "permutation p");
      if (!p) return p.error();
      auto x = parse_perm_param(q.string("q"), "permutation q");
      if (!x) return x.error();
      return perm_result(key, op(*p, *x));
    };
  };
  add_cheap(r,
            {"perm",
             "conjugate",
             "p^q = q^-1 * p * q",
             {perm_param("p", "Permutation p"), perm_param("q", "Permutation q")},
             two("conjugate", [](const Perm& p, const Perm& q) { return p.conjugate(q); })},
            {params(R"j({"p": "(1,2", "q": "()"})j")});
  add_cheap(r,
            {"perm",
             "commutator",
             "Comm(p,q) = p^-1 * q^-1 * p * q",
             {perm_param("p", "Permutation p"), perm_param("q", "Permutation q")},
             two("commutator", [](const Perm& p, const Perm& q) { return commutator(p, q); })},
            {params(R"j({"p": "()", "q": "[3,1]"})j")});
}

}  // namespace permuzzle::api
