// SPDX-License-Identifier: GPL-3.0-or-later
// pith-stamp: write a verified, signed Pith record into a compiled PDF as one
// incremental update (or, for a .tex file, into a generated pith.sty). The
// work is pith::stamp::run_stamp (lib/pith/stamp/run.hpp); this is the
// command line: argv → options → run → print → exit code.
//
// Exit codes (lib/pith/base/exit_codes.hpp): 0 stamped, or already stamped
// (the PDF carries the record and pith-check says verified); 1 verification
// failed, the record is not for this number, the PDF already carries a
// different Pith Number (use --force to replace it), or it carries this one
// but pith-check says failed; 2 usage, unreadable/encrypted/damaged PDF,
// write failure; 3 no Pith Number given or found; 4 nothing trusted to
// verify the record with, or the PDF carries it but pith-check says unbound.
// --arxiv paper.tex (pith::stamp::prepare_arxiv_upload, stamp/arxiv.hpp):
// 0 what arXiv will build verifies; 1 it builds but does not verify (or is
// another number's); 2 something is missing, the build fails, or I/O;
// 3 no Pith Number; 4 its record is signed by no trusted key.
#include "pith/base/exit_codes.hpp"
#include "pith/base/version.hpp"
#include "pith/stamp/arxiv.hpp"
#include "pith/stamp/run.hpp"
#include "main_guard.hpp"
#include "tool_cli.hpp"
#include "resolver_cli.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

namespace {

std::optional<std::int64_t> source_date_epoch() {
  const char* v = std::getenv("SOURCE_DATE_EPOCH");
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || n < 0) return std::nullopt;
  return n;
}

// --arxiv: the upload archive and the verdict on what arXiv will build.
int arxiv_command(const pith::stamp::StampRunOptions& opt, const std::string& compiler,
                  const pith::stamp::StampPrintOptions& print) {
  pith::stamp::ArxivOptions arxiv;
  arxiv.tex = opt.input;
  arxiv.archive = opt.output;
  arxiv.compiler = pith::stamp::arxiv_compiler_from_string(compiler);
  arxiv.trust_keys = opt.trust_keys;
  arxiv.source_date_epoch = opt.source_date_epoch;
  const pith::stamp::ArxivOutcome outcome = pith::stamp::prepare_arxiv_upload(arxiv);
  pith::stamp::print_arxiv_outcome(outcome, print.json, print.verbose, std::cout, std::cerr);
  return outcome.exit_code();
}

int stamp_command(int argc, char** argv) {
  pith::stamp::StampRunOptions opt;
  opt.registry = pith::resolver::ResolverOptions::from_environment();  // + the shared registry flags
  pith::stamp::StampPrintOptions print;
  CLI::App app{"Write a verified, signed Pith record into a PDF (one incremental update) or a LaTeX paper's pith.sty.\n"
               "Exit codes: 0 stamped, or already stamped and verified; 1 verification failed, conflicting\n"
               "number, or already stamped but pith-check says failed; 2 usage or I/O error; 3 no Pith Number;\n"
               "4 nothing trusted to verify with, or already stamped but pith-check says unbound.\n"
               "--arxiv: 0 what arXiv will build verifies, 1 it does not verify, 2 something missing or\n"
               "the build fails, 3 no Pith Number, 4 signed by no trusted key (docs/arxiv.md).",
               "pith-stamp"};
  pith::cli::add_common_options(app, "pith-stamp");  // --version, and the options listing for completions
  // Not ->required(): CLI11 checks that before unknown options, so `--bogus`
  // alone would say "file is required" instead of naming --bogus.
  app.add_option("file", opt.input, "the PDF (or .tex) to stamp");
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
  app.add_flag("--badge", opt.badge, "add a linked badge to page 1 (top right) unless page 1 already links to this number");
  bool arxiv = false;
  std::string compiler;
  app.add_flag("--arxiv", arxiv,
               "paper.tex: pack what the build reads (with pith.sty and the .bbl) into <paper>-arxiv.tar.gz (or -o), "
               "rebuild it as arXiv does and check the PDF offline");
  app.add_option("--compiler", compiler,
                 "with --arxiv: pdflatex, latex or xelatex, the engines arXiv runs (default: the paper's last build; "
                 "after lualatex, xelatex); lualatex is refused")
      ->check(CLI::IsMember({"pdflatex", "latex", "xelatex", "lualatex"}));
  pith::cli::add_trust_key_option(app, opt.trust_keys);
  pith::cli::add_resolver_options(app, opt.registry);
  app.add_flag("-v,--verbose", print.verbose, "say what was done");
  app.add_flag("--json", print.json, "print the outcome as JSON on stdout");
  if (const auto done = pith::cli::parse_or_exit_code(app, argc, argv)) return *done;
  if (opt.input.empty()) {
    std::cerr << "pith-stamp: nothing to stamp (give a PDF or a .tex file)\nRun with --help for more information.\n";
    return pith::exit_code_for(pith::ErrorKind::usage);
  }
  opt.source_date_epoch = source_date_epoch();
  if (arxiv) return arxiv_command(opt, compiler, print);
  if (opt.output == "-" && print.json) {
    std::cerr << "pith-stamp: -o - writes the PDF to standard output; it cannot be combined with --json\n";
    return pith::exit_code_for(pith::ErrorKind::usage);
  }

  const pith::stamp::StampRunOutcome outcome = pith::stamp::run_stamp(opt);
  pith::stamp::print_stamp_outcome(opt.input, outcome, print, std::cout, std::cerr);
  return outcome.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  return pith::cli::run_guarded("pith-stamp", [&] { return stamp_command(argc, argv); });
}
