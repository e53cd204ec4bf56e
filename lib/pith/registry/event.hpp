// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One open-graph event checked on its own: its content hash and id, its
// signature by a trusted key, its subject. (References to other events are
// the merge's business: state_merge.hpp.)
//   content_sha256 = sha256(canon(event minus signature, event_id, content_sha256))
//   event_id       = "sha256:" + content_sha256
//   signature      = Ed25519 over the raw content digest, signed_message
//                    "open_graph_event_sha256_bytes", by a trusted key whose
//                    key_id/fingerprint also match the signed `signer` block.
#include "pith/base/report.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/signature.hpp"
#include "pith/registry/trust_store.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::registry {

struct EventVerdict {
  std::size_t index = 0;
  bool valid = false;
  std::string reason;          // first problem, when invalid
  std::string event_type;
  std::string event_id;        // as claimed (may be wrong when invalid)
  std::string created_at;
  std::optional<std::string> prev_event;  // as read (the merge checks the references)
  std::vector<std::string> supersedes;
  std::string content_sha256;  // recomputed
  std::vector<Check> checks;   // for the report, in order
  std::vector<Check> untrusted;  // key.untrusted findings (status set by the caller)
  bool signature_trusted = false;  // verified with a trusted key
  std::string key_id;
};

// "events[1] graph_snapshot": how reports name an event.
[[nodiscard]] std::string event_label(const nlohmann::json& event, std::size_t index);

[[nodiscard]] EventVerdict verify_event(const nlohmann::json& event, std::size_t index,
                                        std::string_view subject_pith_number, const TrustStore& trust);

}  // namespace pith::registry
