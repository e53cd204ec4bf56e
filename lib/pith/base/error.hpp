#pragma once
// One error type for the whole library: where it happened and what went wrong.
// `where` names the input (a file, a URL, a JSON path such as `$.events[1]`,
// or a byte offset in a PDF) so a reader of the message knows where to look.
#include <expected>
#include <string>
#include <utility>

namespace pith {

struct Error {
  std::string where;
  std::string message;

  // "where: message", or just the message when there is no location.
  [[nodiscard]] std::string describe() const {
    return where.empty() ? message : where + ": " + message;
  }
  // The same error, located inside a larger input (prefix the location).
  [[nodiscard]] Error within(const std::string& outer) const {
    return Error{where.empty() ? outer : outer + ": " + where, message};
  }
};

template <class T>
using Result = std::expected<T, Error>;

[[nodiscard]] inline std::unexpected<Error> fail(std::string where, std::string message) {
  return std::unexpected<Error>(Error{std::move(where), std::move(message)});
}

}  // namespace pith
