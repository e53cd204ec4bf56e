// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One error type for the whole library: what kind of failure, where it
// happened and what went wrong. `where` names the input (a file, a URL, a
// JSON path such as `$.events[1]`, or a byte offset in a PDF) so a reader of
// the message knows where to look. `kind` is for code: callers decide what
// happened (and the tools their exit code, exit_codes.hpp) from it, never
// from the message text.
#include <expected>
#include <optional>
#include <string>
#include <string_view>
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
  limit,         // the work was stopped by its budget (a child's memory, CPU or wall time, output): not judged within it
  crashed,       // a limited child ended without an answer: a signal, the sandbox's kill, a broken or missing envelope
  internal,      // a bug or an unexpected failure inside pith
};

// A kind's name as its enumerator is spelled ("not_served"): what a message
// between processes carries, never the enum's number.
[[nodiscard]] constexpr const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::usage: return "usage";
    case ErrorKind::malformed: return "malformed";
    case ErrorKind::io: return "io";
    case ErrorKind::network: return "network";
    case ErrorKind::not_found: return "not_found";
    case ErrorKind::not_served: return "not_served";
    case ErrorKind::rejected: return "rejected";
    case ErrorKind::conflict: return "conflict";
    case ErrorKind::unverifiable: return "unverifiable";
    case ErrorKind::limit: return "limit";
    case ErrorKind::crashed: return "crashed";
    case ErrorKind::internal: return "internal";
  }
  return "internal";  // not reached: the switch covers every kind
}

// The kind a name spells, or nullopt for any other text (range-checked: a
// message from another process cannot make up a kind).
[[nodiscard]] constexpr std::optional<ErrorKind> error_kind_named(std::string_view name) {
  for (const ErrorKind kind : {ErrorKind::usage, ErrorKind::malformed, ErrorKind::io, ErrorKind::network,
                               ErrorKind::not_found, ErrorKind::not_served, ErrorKind::rejected, ErrorKind::conflict,
                               ErrorKind::unverifiable, ErrorKind::limit, ErrorKind::crashed, ErrorKind::internal}) {
    if (name == to_string(kind)) return kind;
  }
  return std::nullopt;
}

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
  friend bool operator==(const Error&, const Error&) = default;
};

template <class T>
using Result = std::expected<T, Error>;

[[nodiscard]] inline std::unexpected<Error> fail(ErrorKind kind, std::string where, std::string message) {
  return std::unexpected<Error>(Error{kind, std::move(where), std::move(message)});
}

}  // namespace pith
