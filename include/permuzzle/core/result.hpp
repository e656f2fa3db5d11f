// Errors as values at the library boundary.
//
// Every function that parses user input or can fail on user data returns Result<T>: either the
// value or an Error that says what was wrong, where, and what was expected. The library never
// throws for bad input and never exits; front ends (the CLI's main) map Error to exit codes.
#pragma once

#include <cassert>
#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace permuzzle {

// Broad classes of failure; front ends map them (CLI: exit 2 for bad input and unsolvable, 3 over
// a limit, 1 I/O, internal or cancelled; HTTP: 400, 422, 500, 499).
enum class ErrorKind {
  InvalidInput,   // malformed text, out-of-range values, inconsistent arguments
  Unsolvable,     // well-formed position that cannot reach the goal
  LimitExceeded,  // request too large for the chosen method, or past its time or node limit
  Cancelled,      // the caller asked to stop (RunContext's stop token)
  Io,             // file could not be read or written
  Internal,       // a broken invariant detected at run time
};

struct Error {
  static constexpr std::size_t NO_POSITION = static_cast<std::size_t>(-1);

  ErrorKind kind = ErrorKind::InvalidInput;
  std::string message;                 // what was wrong and what is expected
  std::string input;                   // the offending text (may be empty)
  std::size_t position = NO_POSITION;  // 0-based character offset into `input`, if known

  // One line for humans: message, then the input with a caret under the position.
  std::string describe() const;
};

inline Error make_error(std::string message, std::string input = {},
                        std::size_t position = Error::NO_POSITION,
                        ErrorKind kind = ErrorKind::InvalidInput) {
  return Error{kind, std::move(message), std::move(input), position};
}

// An invariant that failed ("internal error: ..."): a bug, reported as a value.
inline Error internal_error(const std::string& what) {
  return make_error("internal error: " + what, {}, Error::NO_POSITION, ErrorKind::Internal);
}

// A value or an Error. Deliberately tiny (C++20 has no std::expected).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : data_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(data_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(data_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(data_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const {
    assert(!ok());
    return std::get<1>(data_);
  }

 private:
  std::variant<T, Error> data_;
};

// Result<void> equivalent.
struct Ok {};
using Status = Result<Ok>;

}  // namespace permuzzle
