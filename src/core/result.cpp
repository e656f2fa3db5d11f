#include "permuzzle/core/result.hpp"

namespace permuzzle {

std::string Error::describe() const {
  std::string out = message;
  if (!input.empty()) {
    out += "\n  input: " + input;
    if (position != NO_POSITION && position <= input.size()) {
      out += "\n         " + std::string(position, ' ') + "^ at character " +
             std::to_string(position + 1);
    }
  }
  return out;
}

}  // namespace permuzzle
