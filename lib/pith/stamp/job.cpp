// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/job.hpp"

#include "pith/base/command_line.hpp"
#include "pith/base/exit_codes.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/resolver/command_line.hpp"
#include "pith/stamp/arxiv.hpp"
#include "pith/stamp/run.hpp"
#include "pith/stamp/unstamp.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace pith::stamp {

// One options declaration for both modes: --arxiv makes the same options
// (the paper, -o, --trust-key) the upload's.
struct StampJob::Options {
  StampRunOptions run;
  std::vector<std::string> files;  // what to stamp: one PDF or .tex, or several PDFs
  StampPrintOptions print;
  bool arxiv = false;
  bool remove = false;   // --remove: write the original back (stamp/unstamp.hpp)
  std::string compiler;  // --arxiv --compiler
};

namespace {

std::optional<std::int64_t> source_date_epoch() {
  const char* v = std::getenv("SOURCE_DATE_EPOCH");
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || n < 0) return std::nullopt;
  return n;
}

bool fs_is_tex(const std::string& file) { return file.size() >= 4 && file.ends_with(".tex"); }

// A .tex among several files: each paper's pith.sty is its own run.
StampRunOutcome tex_refused(const std::string& file) {
  StampRunOutcome outcome;
  outcome.status = StampRunStatus::error;
  outcome.failure = ErrorKind::usage;
  outcome.message = file + ": several files are stamped only when they are PDFs; run `pith-stamp " + file +
                    "` on its own to write its pith.sty";
  return outcome;
}

// One file's run: its outcome whatever happens in it (an exception is that
// file's error, never the end of the others).
StampRunOutcome stamp_one(const StampRunOptions& opt) {
  try {
    return run_stamp(opt);
  } catch (const std::exception& e) {
    StampRunOutcome outcome;
    outcome.status = StampRunStatus::error;
    outcome.failure = ErrorKind::internal;
    outcome.message = opt.input + ": " + e.what() + "; nothing written";
    return outcome;
  }
}

// --remove: the options that only stamping reads are refused, and the
// output must be named (-o FILE itself replaces it).
Result<UnstampOutcome> remove_stamp_with(const StampRunOptions& opt, const StampPrintOptions& print, bool arxiv) {
  const std::string only_for_stamping = arxiv             ? "--arxiv"
                                        : !opt.pith.empty()   ? "--pith"
                                        : !opt.bundle.empty() ? "--bundle"
                                        : opt.append          ? "--append"
                                        : opt.badge           ? "--badge"
                                        : print.json          ? "--json"
                                        : opt.dry_run         ? "--dry-run"
                                                              : "";
  if (!only_for_stamping.empty()) return fail(ErrorKind::usage, "", "--remove cannot be combined with " + only_for_stamping);
  if (opt.output.empty() || opt.output == "-")
    return fail(ErrorKind::usage, opt.input,
                "--remove writes a file: give -o OUT for the original beside it, or -o " + opt.input + " to replace it");
  return remove_stamp(UnstampOptions{opt.input, opt.output, opt.force, opt.children});
}

void print_removed(const StampRunOptions& opt, const UnstampOutcome& removed) {
  std::cerr << "pith-stamp: " << terminal_safe(opt.input) << ": removed the stamp"
            << (removed.number.empty() ? "" : " of " + terminal_safe(removed.number)) << " (" << removed.update_bytes
            << " bytes): wrote the " << removed.original_length << " original bytes (SHA-256 "
            << removed.original_sha256 << ") to " << terminal_safe(opt.output) << "\n";
}

}  // namespace

StampJob::StampJob() : Job("pith-stamp"), options_(std::make_unique<Options>()) {
  options_->run.registry = resolver::ResolverOptions::from_environment();  // + the shared registry flags
}

StampJob::~StampJob() = default;

void StampJob::declare(CLI::App& app) {
  StampRunOptions& opt = options_->run;
  app.description(
      "Write a verified, signed Pith record into a PDF (one incremental update) or a LaTeX paper's pith.sty.\n"
      "Several PDFs are stamped one after another, each on its own, one line each; the worst exit code wins\n"
      "(1 > 2 > 4 > 3 > 0).\n"
      "Exit codes: 0 stamped, or already stamped and verified; 1 verification failed, conflicting\n"
      "number, or already stamped but pith-check says failed or altered; 2 usage or I/O error; 3 no Pith Number;\n"
      "4 nothing trusted to verify with, or already stamped but pith-check says unbound.\n"
      "--arxiv: 0 what arXiv will build verifies, 1 it does not verify, 2 something missing or\n"
      "the build fails, 3 no Pith Number, 4 signed by no trusted key (docs/arxiv.md).\n"
      "--remove: 0 the original written, 1 the bytes do not prove it or (no --force) revisions follow the stamp,\n"
      "2 usage or I/O error, 3 no stamp to remove (docs/pdf-stamping.md).");
  // Not ->required(): CLI11 checks that before unknown options, so `--bogus`
  // alone would say "file is required" instead of naming --bogus.
  app.add_option("file", options_->files, "the PDF (or .tex) to stamp; several PDFs are stamped one after another");
  app.add_option("--pith", opt.pith, "the Pith Number (default: from the PDF's metadata or the .tex beside it)");
  app.add_option("--bundle", opt.bundle,
                 "registry bundle or state file to stamp with, instead of asking the resolver (fully verified)")
      ->type_name("FILE");
  app.add_option("-o,--output", opt.output,
                 "write a stamped copy here instead of updating FILE in place (- for standard output)")
      ->type_name("FILE");
  app.add_flag("--append", opt.append,
               "append the update to FILE directly (cost independent of size; a crash can leave a partial "
               "update after the intact original bytes)");
  app.add_flag("--force", opt.force,
               "replace a stamp for a different Pith Number; stamp although the title is not the record's, or "
               "again although the PDF already carries the record but does not verify");
  app.add_flag("--dry-run", opt.dry_run,
               "do everything but write: resolve, verify, plan and check the update, say what would be written, "
               "exit as a real run would; no file is changed");
  app.add_flag("--badge", opt.badge, "add a linked badge to page 1 (top right) unless page 1 already links to this number");
  app.add_flag("--arxiv", options_->arxiv,
               "paper.tex: pack what the build reads (with pith.sty and the .bbl) into <paper>-arxiv.tar.gz (or -o), "
               "rebuild it as arXiv does and check the PDF offline");
  app.add_flag("--remove", options_->remove,
               "write FILE as it was before pith-stamp stamped it to -o OUT (-o FILE replaces it), when its bytes "
               "prove it; --force also drops revisions appended after the stamp");
  app.add_option("--compiler", options_->compiler,
                 "with --arxiv: pdflatex, latex or xelatex, the engines arXiv runs (default: the paper's last build; "
                 "after lualatex, xelatex); lualatex is refused")
      ->check(CLI::IsMember({"pdflatex", "latex", "xelatex", "lualatex"}));
  app.add_option("--child-memory", opt.children.memory_mib,
                 "address space each child that reads the PDF may use beside the file it maps, in MiB (default 512)")
      ->check(CLI::Range(std::uint64_t{16}, std::uint64_t{1} << 20))
      ->type_name("MIB");
  app.add_option("--child-time", opt.children.wall_seconds,
                 "seconds each child that reads the PDF may take (CPU: the same, at most 30; default 60)")
      ->check(CLI::Range(1u, 86400u))
      ->type_name("SECONDS");
  cli::add_trust_key_option(app, opt.trust_keys);
  cli::add_resolver_options(app, opt.registry);
  app.add_flag("-v,--verbose", options_->print.verbose, "say what was done");
  app.add_flag("--json", options_->print.json, "print the outcome as JSON on stdout");
}

Result<int> StampJob::run() {
  StampRunOptions& opt = options_->run;
  const StampPrintOptions& print = options_->print;
  const std::vector<std::string>& files = options_->files;
  if (files.empty() || files.front().empty()) return usage_with_help("nothing to stamp (give a PDF or a .tex file)");
  opt.input = files.front();
  opt.source_date_epoch = source_date_epoch();
  opt.children.cpu_seconds = std::min(opt.children.cpu_seconds, opt.children.wall_seconds);
  if (options_->remove) {
    if (files.size() > 1) return fail(ErrorKind::usage, "", "--remove takes one file at a time");
    auto removed = remove_stamp_with(opt, print, options_->arxiv);
    if (!removed) return std::unexpected(removed.error());
    for (const auto& dropped : removed->dropped) warn(opt.input + ": dropped with the stamp (--force): " + dropped);
    if (print.verbose) print_removed(opt, *removed);
    return exit_code::ok;
  }
  if (files.size() > 1) return stamp_several(files);
  if (options_->arxiv && opt.dry_run)
    return fail(ErrorKind::usage, "", "--dry-run is for PDFs; --arxiv builds its archive to check it");
  if (options_->arxiv) {
    // The upload archive and the verdict on what arXiv will build.
    ArxivOptions arxiv;
    arxiv.tex = opt.input;
    arxiv.archive = opt.output;
    arxiv.compiler = arxiv_compiler_from_string(options_->compiler);
    arxiv.trust_keys = opt.trust_keys;
    arxiv.source_date_epoch = opt.source_date_epoch;
    const ArxivOutcome outcome = prepare_arxiv_upload(arxiv);
    print_arxiv_outcome(outcome, print.json, print.verbose, std::cout, std::cerr);
    return outcome.exit_code();
  }
  if (opt.output == "-" && print.json)
    return fail(ErrorKind::usage, "", "-o - writes the PDF to standard output; it cannot be combined with --json");
  const StampRunOutcome outcome = run_stamp(opt);
  print_stamp_outcome(opt.input, outcome, print, std::cout, std::cerr);
  return outcome.exit_code();
}

// Several PDFs, each on its own (a failure neither stops nor touches the
// others): one line each (one JSON object a line with --json), the worst
// exit code (base/exit_codes.hpp).
Result<int> StampJob::stamp_several(const std::vector<std::string>& files) {
  StampRunOptions opt = options_->run;
  if (options_->arxiv) return fail(ErrorKind::usage, "", "--arxiv makes one paper's upload: give one .tex");
  if (!opt.output.empty())
    return fail(ErrorKind::usage, "", "-o names one output, and " + std::to_string(files.size()) +
                                          " files were given: stamp them in place, or one at a time with -o");
  StampPrintOptions print = options_->print;
  print.each_in_a_line = true;
  int worst = exit_code::ok;
  for (const std::string& file : files) {
    opt.input = file;
    const StampRunOutcome outcome = fs_is_tex(file) ? tex_refused(file) : stamp_one(opt);
    print_stamp_outcome(file, outcome, print, std::cout, std::cerr);
    worst = exit_code::worst(worst, outcome.exit_code());
  }
  return worst;
}

}  // namespace pith::stamp
