// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Verified records for tests, each made by the real verifier (never built
// field by field): the committed fixture bundle with the pinned registry key,
// and bundles the test signer makes with the test trust store.
#include "pith/registry/verify.hpp"  // VerifiedRecord; TrustStore declared

#include <string>

namespace pith::test {

// `bytes` verified with `trust`; throws std::runtime_error with the report
// when it is not a registry document or does not verify.
[[nodiscard]] registry::VerifiedRecord verified_record(const std::string& bytes, const registry::TrustStore& trust,
                                                       const std::string& input_name = "bundle");
// The fixture bundle JFLLIOJUI2M3KX3FLLGP4N2V65 (tests/data), verified with
// the pinned registry key (once per test program).
[[nodiscard]] registry::VerifiedRecord fixture_record();
// A bundle signed by the test signer (key pith-test-2026, tests only) whose
// canonical record and graph snapshot carry `title`, verified with the test
// trust store: hostile data that is nevertheless validly signed.
[[nodiscard]] registry::VerifiedRecord signed_record_with_title(const std::string& title);

}  // namespace pith::test
