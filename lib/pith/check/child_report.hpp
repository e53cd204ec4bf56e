// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A report from the child that parsed a hostile file (isolation.hpp) is a
// claim, not a verdict: a parser exploit in the child could write any report.
// The parent therefore never takes the child's trust anchors: it verifies the
// carried record again itself (CarriedCopy::evidence: the registry document
// bytes, or the record and its receipt parts) with its own trust store, and
// only that re-verification anchors the verdict. A child that claims a
// verified record the parent cannot verify gets a failure.
//
// What stays the child's word: the PDF-side findings (which numbers the PDF
// carries, the byte and title binding). The sandbox (base/sandbox.hpp) limits
// what a compromised child can do; docs/security.md says what is left.
#include "pith/check/carried.hpp"
#include "pith/registry/trust_store.hpp"

namespace pith::check {

// `from_child` with every trust anchor removed, then `isolation.parent.verified`
// (pass, the only anchor) when the carried evidence verifies here and names
// the report's number, or `isolation.child.rejected` (fail) when the child
// claimed an anchored verdict that does not hold. An error report (the child
// crashed, hit a limit) passes through unchanged.
[[nodiscard]] FileCheck judged_in_parent(FileCheck from_child, const registry::TrustStore& trust);

}  // namespace pith::check
