// `permuzzle perm ...`: single permutations in GAP notation.
#include <fmt/format.h>

#include <memory>

#include "cli.hpp"
#include "permuzzle/core/perm.hpp"

namespace permuzzle::cli {

namespace {

Result<Perm> parse_arg(const std::string& text, const std::string& what) {
  auto p = Perm::parse(text);
  if (!p) {
    Error e = p.error();
    e.message = what + ": " + e.message;
    return e;
  }
  return p;
}

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
CommandOutput describe_perm(const Perm& p) {
  CommandOutput out;
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

CommandOutput perm_result(const std::string& key, const Perm& p) {
  CommandOutput out;
  out.text = p.to_cycle_string() + "\n";
  out.json = {{key, p.to_cycle_string()}, {"list", p.to_list_string(p.largest_moved_point())}};
  return out;
}

}  // namespace

void add_perm_command(CLI::App& app, Context& ctx) {
  auto* perm = app.add_subcommand("perm",
                                  "Permutations in GAP cycle notation: products, orders, "
                                  "signs, conjugates");
  perm->require_subcommand(1);

  // Argument storage: CLI11 writes through references while parsing, and the handlers read it
  // afterwards, so it is shared by both and lives as long as the app.
  struct Args {
    std::vector<std::string> perms;
    std::string first, second;
    long long exponent = 1;
  };
  auto a = std::make_shared<Args>();

  auto* product = perm->add_subcommand(
      "product", "Product p1*p2*...: apply p1 first, then p2, ... (GAP order)");
  product->add_option("perms", a->perms, "Permutations, e.g. \"(1,2,3)\" \"(3,4)\"")->required();
  set_action(ctx, product, [a]() -> Result<CommandOutput> {
    Perm acc;
    for (std::size_t i = 0; i < a->perms.size(); ++i) {
      auto p = parse_arg(a->perms[i], "permutation " + std::to_string(i + 1));
      if (!p) return p.error();
      acc *= *p;
    }
    return perm_result("product", acc);
  });

  auto* inverse = perm->add_subcommand("inverse", "Inverse permutation");
  inverse->add_option("perm", a->first, "Permutation")->required();
  set_action(ctx, inverse, [a]() -> Result<CommandOutput> {
    auto p = parse_arg(a->first, "permutation");
    if (!p) return p.error();
    return perm_result("inverse", p->inverse());
  });

  auto* power = perm->add_subcommand("power", "p^k for an integer k (negative allowed)");
  power->add_option("perm", a->first, "Permutation")->required();
  power->add_option("k", a->exponent, "Exponent")->required()->allow_extra_args(false);
  set_action(ctx, power, [a]() -> Result<CommandOutput> {
    auto p = parse_arg(a->first, "permutation");
    if (!p) return p.error();
    return perm_result("power", p->pow(a->exponent));
  });

  auto* order = perm->add_subcommand("order", "Order: the least k >= 1 with p^k = ()");
  order->add_option("perm", a->first, "Permutation")->required();
  set_action(ctx, order, [a]() -> Result<CommandOutput> {
    auto p = parse_arg(a->first, "permutation");
    if (!p) return p.error();
    CommandOutput out;
    out.text = p->order().get_str() + "\n";
    out.json = {{"order", p->order().get_str()}, {"perm", p->to_cycle_string()}};
    return out;
  });

  auto* sign = perm->add_subcommand("sign", "Sign: +1 even, -1 odd");
  sign->add_option("perm", a->first, "Permutation")->required();
  set_action(ctx, sign, [a]() -> Result<CommandOutput> {
    auto p = parse_arg(a->first, "permutation");
    if (!p) return p.error();
    CommandOutput out;
    out.text = std::string(p->sign() > 0 ? "+1 (even)" : "-1 (odd)") + "\n";
    out.json = {{"sign", p->sign()}, {"even", p->sign() > 0}, {"perm", p->to_cycle_string()}};
    return out;
  });

  auto* cycles = perm->add_subcommand("cycles", "Cycles, list form, order, sign, cycle type");
  cycles->add_option("perm", a->first, "Permutation (cycle or list notation)")->required();
  set_action(ctx, cycles, [a]() -> Result<CommandOutput> {
    auto p = parse_arg(a->first, "permutation");
    if (!p) return p.error();
    return describe_perm(*p);
  });

  auto* conjugate = perm->add_subcommand("conjugate", "p^q = q^-1 * p * q");
  conjugate->add_option("p", a->first, "Permutation p")->required();
  conjugate->add_option("q", a->second, "Permutation q")->required();
  set_action(ctx, conjugate, [a]() -> Result<CommandOutput> {
    auto p = parse_arg(a->first, "permutation p");
    if (!p) return p.error();
    auto q = parse_arg(a->second, "permutation q");
    if (!q) return q.error();
    return perm_result("conjugate", p->conjugate(*q));
  });

  auto* comm = perm->add_subcommand("commutator", "Comm(p,q) = p^-1 * q^-1 * p * q");
  comm->add_option("p", a->first, "Permutation p")->required();
  comm->add_option("q", a->second, "Permutation q")->required();
  set_action(ctx, comm, [a]() -> Result<CommandOutput> {
    auto p = parse_arg(a->first, "permutation p");
    if (!p) return p.error();
    auto q = parse_arg(a->second, "permutation q");
    if (!q) return q.error();
    return perm_result("commutator", commutator(*p, *q));
  });
}

}  // namespace permuzzle::cli
