// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One error type for the whole library: what kind of failure, where it
// happened and what went wrong. `where` names the input (a file, a URL, a
// JSON path such as `$.events[1]`, or a byte offset in a PDF) so a reader of
// the message knows where to look. `kind` is for code: callers decide what
// happened (and the tools their exit code, exit_codes.hpp) from it, never
// from the message text.
#include <expected>
#include <string>
#include <utility>

namespace pith {

enum class ErrorKind {
  usage,         // the caller asked for something that cannot be done as asked (bad option, bad key file)
  malformed,     // the input is not what it claims: bad JSON, PDF structure, number, XMP, hex
  io,            // a file could not be read or written
  network,       // the registry could not be reached or asked (transport, timeout, offline)
  not_found,     // no Pith Number in the input
  not_served,    // the registry answered, and said it does not serve the record (HTTP 404)
  rejected,      // data that is forged, tampered or substituted (fails verification)
  conflict,      // the data names another paper's number than the one asked for
  unverifiable,  // intact, but nothing trusted signed it
  internal,      // a bug or an unexpected failure inside pith
};

struct Error {
  ErrorKind kind = ErrorKind::internal;
  std::string where;
  std::string message;

  // "where: message", or just the message when there is no location.
  [[nodiscard]] std::string describe() const {
    return where.empty() ? message : where + ": " + message;
  }
  // The same error, located inside a larger input (prefix the location).
  [[nodiscard]] Error within(const std::string& outer) const {
    return Error{kind, where.empty() ? outer : outer + ": " + where, message};
  }
};

template <class T>
using Result = std::expected<T, Error>;

[[nodiscard]] inline std::unexpected<Error> fail(ErrorKind kind, std::string where, std::string message) {
  return std::unexpected<Error>(Error{kind, std::move(where), std::move(message)});
}

}  // namespace pith
