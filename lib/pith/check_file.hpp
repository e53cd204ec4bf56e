#pragma once
// What pith-check does with one input file, as a library call so every
// front end (and later issues: PDFs, identifiers) shares one dispatch.
// The kind of file is detected from its content, never from its name.
#include "pith/report.hpp"
#include "pith/trust_store.hpp"

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace pith {

inline constexpr std::size_t max_registry_file_bytes = 8u * 1024u * 1024u;

// A registry document (bundle, state, bare canonical record, resolver
// answer) verified with `trust`. An unreadable or oversized file, or one that
// is not a registry document, gives a report with `error` set (verdict error).
[[nodiscard]] Report check_registry_file(const std::filesystem::path& path, const TrustStore& trust);

// Any file pith-check is given: a PDF (`%PDF-` in its first 1024 bytes) is
// checked by check_pdf_file (pdf_check.hpp) in a child process with limits
// (run_isolated), anything else as a registry file.
[[nodiscard]] Report check_file(const std::filesystem::path& path, const TrustStore& trust);
[[nodiscard]] Report check_registry_bytes(std::string_view bytes, const TrustStore& trust, std::string_view name);

}  // namespace pith
