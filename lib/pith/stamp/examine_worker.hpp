// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The two halves of stamp/examine.hpp meet here: the examining worker's
// handler (examine_worker.cpp, the child's half) and what both halves ask
// of a record. Private to stamp/.
#include "pith/base/mapped_file.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/registry/title.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "pith/runner/child_scheduler.hpp"
#include "pith/stamp/run.hpp"

#include <vector>

namespace pith::stamp::detail {

// Whether page 1's text can tell anything the title metadata does not: the
// record has a title hash and the metadata does not match it (stamp/run's
// refuse_other_paper reads the text only then).
[[nodiscard]] bool page_text_needed(const std::vector<registry::TitleCandidate>& titles,
                                    const registry::VerifiedRecord& record);

// The examining worker's answer to each request (examine_wire.hpp), in the
// child, for the PDF `file` of `opt.input`; `trust` verifies the record it
// is handed, `base` the stamp's options.
[[nodiscard]] runner::ChildScheduler::Handler examining_worker(const StampRunOptions& opt, const OpenFile& file,
                                                               const registry::TrustStore* trust,
                                                               const pdf::StampOptions& base);

}  // namespace pith::stamp::detail
