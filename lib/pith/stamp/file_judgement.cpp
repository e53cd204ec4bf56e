// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/file_judgement.hpp"

#include <optional>
#include <utility>

namespace pith::stamp {

check::FileCheck judge_as_pith_check(Examiner& examiner, const std::string& input, const registry::TrustStore& trust) {
  Result<std::string> sent = examiner.facts();
  // A worker that gave no answer is worded as pith-check's child would be:
  // the report names the input itself.
  if (!sent) sent = std::unexpected(Error{sent.error().kind, {}, std::move(sent.error().message)});
  return check::judge_input_from_child(input, std::nullopt, sent, trust);
}

}  // namespace pith::stamp
