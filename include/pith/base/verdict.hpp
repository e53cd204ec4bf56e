// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The verdict on one input, derived from its report (report.hpp); its exit
// code is in the one table, exit_codes.hpp.
#include <array>
#include <cstddef>

namespace pith {

// unbound: a PDF whose record is genuine and trusted, but nothing in the PDF
// a reader sees (title on page 1, title metadata, arXiv id) ties it to that
// record: the record proves itself, not that this PDF is that paper.
// altered: a PDF whose record is genuine and whose page 1 binds to it, but
// whose content demonstrably changed after it was stamped (the text of the
// pages named is not the text pith-stamp fingerprinted): it is the
// registered paper's first page on something else than the registered paper.
// Not `failed` (nothing signed was broken: the fingerprint is unsigned) and
// never `verified` (docs/verification.md, docs/security.md).
enum class Verdict { verified, failed, not_found, unverifiable, error, unbound, altered };

// Every verdict, in the order people read a tally: the good, then the worst
// first (a batch's counts, the HTML report, pith-serve's metrics).
inline constexpr std::array all_verdicts{Verdict::verified,     Verdict::failed,  Verdict::altered, Verdict::error,
                                         Verdict::unbound,      Verdict::unverifiable, Verdict::not_found};
inline constexpr std::size_t verdict_count = all_verdicts.size();

[[nodiscard]] const char* to_string(Verdict v);

}  // namespace pith
