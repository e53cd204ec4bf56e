// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The boundary between a corpus run and its workers (child_scheduler.hpp): the
// one message the parent sends, which input to read. The worker's answer is
// the Judge's (corpus.hpp: pdf/facts.hpp, what the child reads, for pith-check), inside the
// child envelope every child shares (base/child_process.hpp). On base/wire:
// a tag and a version, strict decoding (docs/fuzzing.md: `worker_request`).
#include "pith/base/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pith::runner {

// One input to read: its name, and its content when the parent holds it in
// memory (an archive member); without content the worker opens the path.
struct InputRequest {
  std::string_view name;                  // a path, or "ARCHIVE:MEMBER"
  std::optional<std::string_view> bytes;  // a member's content; nullopt: read the file `name`
};

inline constexpr std::string_view input_request_tag = "pith-input-request";
inline constexpr std::uint64_t input_request_version = 1;
// A name longer than this is no input's (PATH_MAX is 4096; an archive path and
// a member name together stay far below).
inline constexpr std::size_t max_input_name_bytes = 64 * 1024;

[[nodiscard]] std::string encode_input_request(const InputRequest& request);
// Views into `message`, which must outlive them. A message that is not a
// request of this version, a name past its bound or bytes after the last
// field is an Error of kind malformed naming the field.
[[nodiscard]] Result<InputRequest> decode_input_request(std::string_view message);

}  // namespace pith::runner
