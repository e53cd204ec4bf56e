// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-check's word on the PDF pith-stamp examines, as `pith-check --offline
// FILE` says it ("already stamped" is pith-check's word, not the plan's;
// a stamp kept while the registry is unreachable), without a child of its
// own: the examining worker, which holds the PDF parsed, sends the facts
// pith-check's parsing child would send (Examiner::facts, pdf/facts.hpp),
// and this process judges them as pith-check does, confirming the spans in
// the file's bytes it maps itself (check::judge_input_from_child).
#include "pith/check/file.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/stamp/examine.hpp"

#include <string>

namespace pith::stamp {

[[nodiscard]] check::FileCheck judge_as_pith_check(Examiner& examiner, const std::string& input,
                                                   const registry::TrustStore& trust);

}  // namespace pith::stamp
