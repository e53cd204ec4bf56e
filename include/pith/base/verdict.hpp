// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The verdict on one input, derived from its report (report.hpp); its exit
// code is in the one table, exit_codes.hpp.
namespace pith {

// unbound: a PDF whose record is genuine and trusted, but nothing in the PDF
// a reader sees (title on page 1, title metadata, arXiv id) ties it to that
// record: the record proves itself, not that this PDF is that paper.
enum class Verdict { verified, failed, not_found, unverifiable, error, unbound };

[[nodiscard]] const char* to_string(Verdict v);

}  // namespace pith
