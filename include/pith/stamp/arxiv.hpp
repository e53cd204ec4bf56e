// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `pith-stamp --arxiv paper.tex`: the upload archive for arXiv, and proof
// that what arXiv will build from it carries a verifiable record.
//
//  1. the paper's pith.sty must be a generated one whose record verifies for
//     the paper's \pithnumber (tex/stamp.hpp: verify_existing_sty);
//  2. a discovery build (the paper's engine, -recorder, output in a
//     temporary directory, no shell escape) lists the files it reads: those
//     inside the paper's directory, minus what LaTeX writes (.aux, .toc, ...),
//     are the upload, with every other file of the tree the build opened
//     (fonts loaded by path: tree_watch.hpp); the .bbl (.ind) must be among
//     them, since arXiv runs no BibTeX (makeindex);
//  3. they go into a tar.gz (libarchive; relative paths, sorted, no owner),
//     with a 00README.json naming the compiler when it is not pdflatex;
//  4. the archive is unpacked into a clean temporary directory and built the
//     way arXiv's tex2pdf does: `<engine> -interaction=batchmode -recorder
//     -no-parse-first-line main.tex`, at least twice and at most 5 times while
//     the log asks for a rerun (or the .aux changes), latex then
//     `dvips -R2` and ps2pdf; no shell escape, a scrubbed environment (no
//     TEXINPUTS, no personal texmf), nothing but the archive's files;
//  5. the PDF is checked offline, like `pith-check --offline`.
// The outcome is one verdict: what arXiv will build verifies as pith:..., or
// exactly what is missing.
#include "pith/base/error.hpp"
#include "pith/base/job.hpp"
#include "pith/base/report.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pith::stamp {

// The engines a paper may be built with (00README.json process.compiler);
// arXiv runs all but lualatex (is_arxiv_processor).
enum class ArxivCompiler { pdflatex, latex, xelatex, lualatex };
[[nodiscard]] const char* to_string(ArxivCompiler compiler);
[[nodiscard]] bool is_arxiv_processor(ArxivCompiler compiler);
[[nodiscard]] std::optional<ArxivCompiler> arxiv_compiler_from_string(std::string_view name);

struct ArxivOptions {
  std::filesystem::path tex;      // the paper's main .tex
  std::filesystem::path archive;  // empty: <paper dir>/<stem>-arxiv.tar.gz
  // Empty: the engine of the paper's last build (<stem>.log beside it), else
  // pdflatex; a last build with lualatex, which arXiv does not run, means
  // xelatex (the closest); lualatex given here is refused (usage).
  std::optional<ArxivCompiler> compiler;
  std::vector<std::string> trust_keys;  // more trusted registry keys (--trust-key)
  std::optional<std::int64_t> source_date_epoch;  // archive entry times (SOURCE_DATE_EPOCH); else each file's
  std::chrono::seconds time_limit{595};            // for the whole rebuild, as arXiv's
};

enum class ArxivStatus {
  verifies,      // the rebuilt PDF verifies as the paper's number
  not_verified,  // it builds, but its record does not verify (or is another number's)
  missing,       // something the upload needs is not there (pith.sty, .bbl, a file LaTeX asked for)
  build_failed,  // the paper (or the rebuild) does not compile
  no_number,     // the paper has no \pithnumber
  error,         // usage, I/O
};
[[nodiscard]] const char* to_string(ArxivStatus status);

// failure: every status but verifies; message: the one verdict line;
// pith_number: the paper's number (full form once the sty verified).
struct ArxivOutcome : JobOutcome<ArxivStatus> {
  ArxivCompiler compiler = ArxivCompiler::pdflatex;  // what the upload is built with
  std::optional<ArxivCompiler> instead_of;             // the paper's last build, when arXiv does not run it
  std::vector<std::string> notes;                      // said before the verdict (e.g. the engine chosen)
  std::filesystem::path archive;       // written (kept even when the rebuild fails: look inside)
  std::vector<std::string> files;      // archive members, in order
  std::vector<std::string> missing;    // what the upload lacks, one item each
  std::uint64_t archive_bytes = 0;
  std::uint64_t source_bytes = 0;      // the members' sizes added up
  int latex_runs = 0;                  // in the rebuild
  std::string tex_live_here;           // the rebuild's TeX Live ("TeX Live 2022"), from its log; arXiv's: arxiv_texlive.hpp
  double seconds = 0;                  // the whole job
  std::optional<Report> verification;  // the rebuilt PDF's offline check

  [[nodiscard]] nlohmann::json to_json() const;
};

[[nodiscard]] ArxivOutcome prepare_arxiv_upload(const ArxivOptions& options);

// Human text on `err` (the archive, then the verdict), or JSON on `out`.
void print_arxiv_outcome(const ArxivOutcome& outcome, bool json, bool verbose, std::ostream& out, std::ostream& err);

}  // namespace pith::stamp
