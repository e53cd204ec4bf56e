// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Test helpers for the LaTeX side: compiling a paper with one engine, and
// reading back what the PDF holds with independent tools (qpdf, poppler,
// exiftool). The records to compile with: support/records.hpp.
#include "support/command.hpp"  // run, quote, CommandResult
#include "support/records.hpp"  // fixture_record, signed_record_with_title
#include "support/test_data.hpp"  // fresh_temp_dir

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pith::test {

// dvipdfmx: latex + dvipdfmx (the paper needs the class option dvipdfmx).
enum class Engine { pdflatex, lualatex, xelatex, dvips, dvipdfmx };
[[nodiscard]] const char* to_string(Engine e);

struct Compiled {
  bool ok = false;            // every step exited 0, no "! " error line in the log
  std::string log;            // the .log file
  std::string output;         // what the commands printed
  std::filesystem::path pdf;
};
// Runs the engine twice (references), in `dir`, on `dir/<name>.tex`.
[[nodiscard]] Compiled compile(const std::filesystem::path& dir, const std::string& name, Engine engine);

// qpdf --json (objects), parsed.
[[nodiscard]] nlohmann::json qpdf_json(const std::filesystem::path& pdf);
// Number of stream objects with /Type /Metadata.
[[nodiscard]] int metadata_stream_count(const nlohmann::json& qpdf);
// `qpdf --check` exit status 0 and no warnings.
[[nodiscard]] bool qpdf_check_clean(const std::filesystem::path& pdf, std::string* output = nullptr);
// A custom Info value as pdfinfo -custom prints it (empty when absent).
[[nodiscard]] std::string info_value(const std::filesystem::path& pdf, const std::string& key);
// An XMP property through exiftool (-b, exact value; empty when absent).
[[nodiscard]] std::string xmp_value(const std::filesystem::path& pdf, const std::string& tag);
// The embedded file named `name`, extracted with pdfdetach.
[[nodiscard]] std::optional<std::string> detached(const std::filesystem::path& pdf, const std::string& name);

// `pith-check --offline [--trust-key KEY] pdf` (the built tool): its exit
// status and output (stdout and stderr).
[[nodiscard]] CommandResult pith_check_offline(const std::filesystem::path& pdf,
                                               const std::optional<std::filesystem::path>& trust_key = std::nullopt);

// Link annotations on page 1 as [llx, lly, urx, ury] with their URI.
struct LinkAnnot {
  std::vector<double> rect;
  std::string uri;
};
[[nodiscard]] std::vector<LinkAnnot> page1_links(const nlohmann::json& qpdf);

// Words on page 1 with their boxes (pdftotext -bbox; y grows downwards from
// the top of the page, as pdftotext reports it).
struct Word {
  std::string text;
  double x_min, y_min, x_max, y_max;
};
[[nodiscard]] std::vector<Word> page1_words(const std::filesystem::path& pdf);
[[nodiscard]] double page1_height(const std::filesystem::path& pdf);

}  // namespace pith::test
