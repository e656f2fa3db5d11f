// Generators as text (see generator_text.hpp).
#include "permuzzle/group/generator_text.hpp"

#include <cctype>

#include "permuzzle/group/perm_group.hpp"

namespace permuzzle {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The text with comments replaced by blanks and GAP's "\<newline>" continuations removed; `at`
// maps each kept character to its offset in the original text.
std::string clean(std::string_view text, std::vector<std::size_t>& at) {
  std::string out;
  bool comment = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (comment) {
      if (c == '\n') {
        comment = false;
        out += c;
        at.push_back(i);
      }
      continue;
    }
    if (c == '#') {
      comment = true;
      continue;
    }
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      ++i;
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      continue;
    }
    out += c;
    at.push_back(i);
  }
  at.push_back(text.size());
  return out;
}

std::string where(std::string_view text, std::string_view source, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::string(source) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

bool looks_like_generator_list(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && is_blank(text[i])) ++i;
  if (i < text.size() && text[i] == '[') {
    ++i;
    while (i < text.size() && is_blank(text[i])) ++i;
    return i < text.size() && (text[i] == '(' || text[i] == ']');
  }
  std::size_t end = text.size();
  while (end > i && is_blank(text[end - 1])) --end;
  return text.substr(i, end - i).find('\n') != std::string_view::npos ||
         text.find('#') != std::string_view::npos;
}

std::uint64_t generator_bytes(const Perm& generator) {
  return sizeof(Perm) + generator.degree() * sizeof(Point);
}

Status account_generator(std::uint64_t& bytes, const Perm& generator, const RunContext& run,
                         const std::string& what) {
  if (run.should_stop()) return run.stop_error();
  bytes += generator_bytes(generator);
  return run.check_memory(bytes, what);
}

Result<std::vector<NamedGenerator>> parse_generator_text(std::string_view original,
                                                         std::string_view source,
                                                         const RunContext* run) {
  std::uint64_t bytes = 0;
  std::vector<std::size_t> at;
  const std::string text = clean(original, at);
  std::vector<NamedGenerator> result;
  auto fail = [&](const std::string& what, std::size_t offset) {
    return make_error(where(original, source, at[std::min(offset, at.size() - 1)]) + ": " + what,
                      std::string(original), at[std::min(offset, at.size() - 1)]);
  };
  // One permutation from text[begin, end) with every blank removed.
  auto parse_one = [&](std::size_t begin, std::size_t end, std::string name) -> Status {
    std::string compact;
    for (std::size_t i = begin; i < end; ++i) {
      if (!is_blank(text[i])) compact += text[i];
    }
    auto perm = Perm::parse(compact);
    if (!perm) {
      return fail("generator " + std::to_string(result.size() + 1) + ": " + perm.error().message,
                  begin);
    }
    if (run) {
      if (auto fits = account_generator(bytes, *perm, *run,
                                        "the generator list read so far (" +
                                            std::to_string(result.size() + 1) + " generators)");
          !fits) {
        return fits;
      }
    }
    result.push_back({std::move(name), std::move(*perm)});
    return Ok{};
  };
  std::size_t i = 0;
  while (i < text.size() && is_blank(text[i])) ++i;
  // Step 1. GAP's list syntax: split at commas outside parentheses.
  if (looks_like_generator_list(text) && i < text.size() && text[i] == '[') {
    const std::size_t close = text.rfind(']');
    if (close == std::string::npos || close <= i) {
      return fail("'[' without a matching ']' (a GAP list of generators)", i);
    }
    for (std::size_t j = close + 1; j < text.size(); ++j) {
      if (!is_blank(text[j]) && text[j] != ';') {
        return fail("unexpected text after the closing ']' of the generator list", j);
      }
    }
    std::size_t start = i + 1;
    int depth = 0;
    for (std::size_t j = i + 1; j <= close; ++j) {
      const char c = j == close ? ',' : text[j];
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (depth < 0) return fail("')' without a matching '('", j);
      if (c == ',' && depth == 0) {
        bool empty = true;
        for (std::size_t k = start; k < j; ++k) empty = empty && is_blank(text[k]);
        if (!empty) {
          if (auto st = parse_one(start, j, ""); !st) return st.error();
        } else if (j != close || !result.empty()) {
          return fail("empty element in the generator list", start);
        }
        start = j + 1;
      }
    }
    if (depth != 0) return fail("'(' without a matching ')'", close);
  } else {
    // Step 2. Generators separated by blanks, commas or semicolons, each maybe NAME=PERM.
    while (true) {
      while (i < text.size() && (is_blank(text[i]) || text[i] == ',' || text[i] == ';')) ++i;
      if (i >= text.size()) break;
      std::string name;
      const std::size_t token = i;
      if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
        std::size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) ||
                                   text[j] == '_' || text[j] == '\'')) {
          ++j;
        }
        name = text.substr(i, j - i);
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
        if (text.compare(j, 2, ":=") == 0) {
          j += 2;
        } else if (j < text.size() && text[j] == '=') {
          j += 1;
        } else {
          return fail("expected NAME=PERM or a permutation such as (1,2,3), found '" + name + "'",
                      token);
        }
        if (!valid_generator_name(name))
          return fail("invalid generator name '" + name + "'", token);
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
        i = j;
      }
      const std::size_t begin = i;
      if (i < text.size() && text[i] == '[') {
        std::size_t close = text.find(']', i);
        if (close == std::string::npos) return fail("'[' without a matching ']'", i);
        i = close + 1;
      } else if (i < text.size() && text[i] == '(') {
        // Cycles follow each other without blanks; blanks inside a cycle are allowed.
        while (i < text.size() && text[i] == '(') {
          std::size_t close = text.find(')', i);
          if (close == std::string::npos) return fail("'(' without a matching ')'", i);
          i = close + 1;
        }
      } else {
        return fail(
            "expected a permutation in cycle notation such as (1,2,3) or list notation "
            "such as [2,3,1]",
            i);
      }
      if (auto st = parse_one(begin, i, name); !st) return st.error();
    }
  }
  if (result.empty()) {
    return make_error(std::string(source) +
                      ": no generators: expected GAP's list [ (1,2,3), (1,2) ] or permutations "
                      "in cycle notation, one or many per line");
  }
  return result;
}

}  // namespace permuzzle
