// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What pith-check does with one input file, as a library call so every
// front end (and later issues: PDFs, identifiers) shares one dispatch.
// The kind of file is detected from its content, never from its name.
#include "pith/base/report.hpp"
#include "pith/check/carried.hpp"
#include "pith/registry/trust_store.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace pith::pdf {
struct PdfFacts;  // pdf/facts.hpp: what the parsing child read
}

namespace pith::check {

inline constexpr std::size_t max_registry_file_bytes = 8u * 1024u * 1024u;

// A registry document (bundle, state, bare canonical record, resolver
// answer) verified with `trust`. An unreadable or oversized file, or one that
// is not a registry document, gives a report with `error` set (verdict error).
// A verified document is its own carried copy (the online check compares it).
[[nodiscard]] FileCheck check_registry_file(const std::filesystem::path& path, const registry::TrustStore& trust);

[[nodiscard]] FileCheck check_registry_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name);

// Any file pith-check is given: a PDF (`%PDF-` in its first 1024 bytes) is
// read in a child process with limits (pdf/facts.hpp: read_pdf_facts) and
// judged here (judge_pdf_message), anything else checked as a registry file.
[[nodiscard]] FileCheck check_file(const std::filesystem::path& path, const registry::TrustStore& trust);

// The same dispatch for an input already in memory (a tar member, an upload):
// `name` is what reports call it. The bytes are shared with the child by
// fork, not copied.
[[nodiscard]] FileCheck check_bytes(std::string_view bytes, std::string_view name, const registry::TrustStore& trust);

// The same check in two halves, for a caller that runs the isolated child
// itself (pith-check's corpus runs, pith-serve's broker): the child's half
// reads a PDF and returns the facts to send back (an empty message for
// anything else: registry files are judged by the parent alone); the
// parent's half judges what arrived (or the child's failure) against the
// input's bytes and checks a non-PDF itself. Nothing the child sends is a
// verdict (pdf/facts.hpp). With `bytes`, those bytes named `name`; without,
// the file at path `name` (mapped by each half).
[[nodiscard]] std::string read_input_in_child(std::string_view name, std::optional<std::string_view> bytes);
[[nodiscard]] FileCheck judge_input_from_child(std::string_view name, std::optional<std::string_view> bytes,
                                               const Result<std::string>& sent, const registry::TrustStore& trust);

// --- A PDF: the facts the child read, judged here -------------------------------

// The parent's half for a PDF: confirms the facts in `bytes`, the same file
// (pdf::confirm_in_file: a part that is not there is dropped and
// isolation.child.rejected fails the file), then the whole check
// (check/pdf.hpp: check_pdf_metadata) and the signatures the PDF lists.
[[nodiscard]] FileCheck judge_pdf_facts(std::string_view bytes, pdf::PdfFacts facts, const registry::TrustStore& trust,
                                        std::string_view name);

// The parent's judgement of what the child sent for `bytes` (PdfFacts::to_wire;
// a crash or a limit: the report's error). A record verified from the
// file's own bytes adds isolation.parent.verified.
[[nodiscard]] FileCheck judge_pdf_message(std::string_view bytes, const Result<std::string>& sent,
                                          const registry::TrustStore& trust, std::string_view name);

// Both halves in this process, for a caller that needs no isolation (tests,
// fuzzing): an unreadable, damaged or encrypted PDF gives a report with
// `error` set.
[[nodiscard]] FileCheck check_pdf_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name);

}  // namespace pith::check
