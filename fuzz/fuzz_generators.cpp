// libFuzzer harness: generator lists (group/generator_text.hpp: GAP's list syntax, cycle
// notation one or many per line, NAME=PERM) on arbitrary bytes must never crash, hang or leak;
// every list it accepts, printed back as a GAP list, must parse to the same permutations.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "permuzzle/group/generator_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using permuzzle::fuzz::check;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)permuzzle::looks_like_generator_list(text);
  auto parsed = permuzzle::parse_generator_text(text, "input");
  if (!permuzzle::fuzz::accepted(parsed)) return 0;
  check(!parsed->empty());
  // 1. Printed as GAP prints a list, the generators parse back to the same permutations.
  std::string list = "[ ";
  for (std::size_t i = 0; i < parsed->size(); ++i) {
    list += (i ? ", " : "") + (*parsed)[i].perm.to_cycle_string();
  }
  list += " ]";
  auto again = permuzzle::parse_generator_text(list, "printed");
  check(again.ok() && again->size() == parsed->size());
  for (std::size_t i = 0; i < parsed->size(); ++i) {
    check((*again)[i].perm == (*parsed)[i].perm && (*again)[i].name.empty());
  }
  // 2. One generator a line, names kept, parses back too.
  std::string lines;
  for (const auto& g : *parsed) {
    lines += (g.name.empty() ? "" : g.name + "=") + g.perm.to_cycle_string() + "\n";
  }
  auto by_line = permuzzle::parse_generator_text(lines, "lines");
  check(by_line.ok() && by_line->size() == parsed->size());
  for (std::size_t i = 0; i < parsed->size(); ++i) {
    check((*by_line)[i].perm == (*parsed)[i].perm && (*by_line)[i].name == (*parsed)[i].name);
  }
  return 0;
}
