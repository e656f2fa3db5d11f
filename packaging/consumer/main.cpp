// A program outside the project built against an installed permuzzle (packaging/install_test.sh
// builds it with CMake's find_package and with pkg-config): the core library directly, then one
// command through the API registry. Prints (1,3,2) 6 {"list":"[3,1,2]","product":"(1,3,2)"}.
#include <iostream>
#include <nlohmann/json.hpp>
#include <permuzzle/api/registry.hpp>
#include <permuzzle/core/perm.hpp>

int main() {
  auto a = permuzzle::Perm::parse("(1,2)");
  auto b = permuzzle::Perm::parse("(2,3)");
  auto c = permuzzle::Perm::parse("(1,2,3)(4,5)");
  if (!a || !b || !c) return 1;
  const permuzzle::api::Registry registry = permuzzle::api::make_registry();
  permuzzle::TableStore tables;  // no directory: tables in memory only
  permuzzle::api::Session session{tables, permuzzle::RunContext{}, ""};
  auto out = registry.call("perm", "product", {{"perms", {"(1,2)", "(2,3)"}}}, session);
  if (!out) {
    std::cerr << out.error().describe() << "\n";
    return 1;
  }
  std::cout << (*a * *b).to_cycle_string() << " " << c->order().get_str() << " " << out->json.dump()
            << "\n";
  return 0;
}
