#include "permuzzle/core/result.hpp"

#include <algorithm>
#include <vector>

namespace permuzzle {

namespace {

// At most this many characters of the input are echoed, centred on the error position, so that
// an error in a 10 MB argument prints one short line.
constexpr std::size_t ECHO_CHARACTERS = 200;

bool is_continuation(unsigned char byte) {
  return (byte & 0xC0) == 0x80;
}

// Byte offsets where each UTF-8 character of `text` starts (continuation bytes are not
// characters), plus text.size() at the end.
std::vector<std::size_t> character_starts(const std::string& text) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!is_continuation(static_cast<unsigned char>(text[i]))) starts.push_back(i);
  }
  starts.push_back(text.size());
  return starts;
}

}  // namespace

std::string Error::describe() const {
  std::string out = message;
  if (input.empty()) return out;
  const std::vector<std::size_t> starts = character_starts(input);
  const std::size_t characters = starts.size() - 1;
  // The character that holds the error's byte position.
  std::size_t at = characters;
  if (position != NO_POSITION && position < input.size()) {
    at = 0;
    while (at + 1 < starts.size() && starts[at + 1] <= position) ++at;
  }
  std::size_t first = 0;
  std::size_t last = characters;
  if (characters > ECHO_CHARACTERS) {
    std::size_t centre = position == NO_POSITION ? 0 : at;
    first = centre > ECHO_CHARACTERS / 2 ? centre - ECHO_CHARACTERS / 2 : 0;
    last = std::min(characters, first + ECHO_CHARACTERS);
    first = last - ECHO_CHARACTERS;
  }
  std::string echo = first > 0 ? "..." : "";
  const std::size_t lead = echo.size();
  for (std::size_t c = first; c < last; ++c) {
    std::string ch = input.substr(starts[c], starts[c + 1] - starts[c]);
    // Control characters would break the line and the caret's column: show them as spaces.
    if (ch.size() == 1 && (static_cast<unsigned char>(ch[0]) < 0x20 || ch[0] == 0x7f)) ch = " ";
    echo += ch;
  }
  if (last < characters) echo += "...";
  out += "\n  input: " + echo;
  if (position != NO_POSITION && position <= input.size()) {
    out += "\n         " + std::string(lead + (at - first), ' ') + "^ at character " +
           std::to_string(at + 1);
  }
  return out;
}

}  // namespace permuzzle
