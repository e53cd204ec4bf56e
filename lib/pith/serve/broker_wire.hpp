// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The boundary between pith-serve's HTTP side and its check broker
// (broker.hpp), on base/wire (a tag and a version per message, strict
// decoding: docs/fuzzing.md, `broker_wire`):
// - BrokerJob, HTTP side → broker: the upload's name; its bytes (a memfd)
//   and the socket for the answer travel beside it as descriptors (SCM_RIGHTS);
// - BrokerAnswer, broker → HTTP side: the judged check, length-framed on the
//   reply socket. The FileCheck inside is check/file.hpp's lossless form
//   (file_check_to_wire), decoded field by field there.
#include "pith/base/error.hpp"
#include "pith/check/file.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pith::serve {

// A report name longer than this is cut (it is the client's file name).
inline constexpr std::size_t max_upload_name_bytes = 1024;

struct BrokerJob {
  std::string name;  // what the report calls the upload, at most max_upload_name_bytes
};

struct BrokerAnswer {
  check::FileCheck checked;   // judged in the broker (check/file.hpp: judge_pdf_facts)
  bool child_failed = false;  // the child crashed, hit a limit or sent no report
};

inline constexpr std::string_view broker_job_tag = "pith-broker-job";
inline constexpr std::string_view broker_answer_tag = "pith-broker-answer";
inline constexpr std::uint64_t broker_wire_version = 1;
// The most bytes a BrokerJob message takes (the control socket's buffer).
inline constexpr std::size_t max_broker_job_bytes = max_upload_name_bytes + 64;
// An answer larger than this is refused unread (a report is kilobytes).
inline constexpr std::size_t max_broker_answer_bytes = std::size_t{1} << 31;

[[nodiscard]] std::string encode(const BrokerJob& job);
[[nodiscard]] Result<BrokerJob> decode_broker_job(std::string_view message);
[[nodiscard]] std::string encode(const BrokerAnswer& answer);
// An Error (kind internal, where "check broker") naming what is malformed.
[[nodiscard]] Result<BrokerAnswer> decode_broker_answer(std::string_view message);

}  // namespace pith::serve
