// SPDX-License-Identifier: GPL-3.0-or-later
// pith-check's command line: its options and its help (check/job.cpp runs them).
#include "pith/base/command_line.hpp"
#include "pith/check/job.hpp"
#include "pith/check/job_options.hpp"
#include "pith/resolver/command_line.hpp"
#include "pith/runner/corpus.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>

namespace pith::check {

namespace {

constexpr const char* exit_code_help = R"(Exit codes and verdicts (with several files the worst wins: 1 > 5 > 2 > 4 > 3 > 0):
  0 verified       the record verifies with a trusted key (and, for a PDF,
                   something the reader sees ties it to that record)
  1 failed         a check failed (tampered, forged or inconsistent data)
  5 altered        a PDF whose genuine record page 1 shows, but whose text
                   changed after it was stamped (the pages are named)
  2 error          usage error or unreadable input (not a registry document,
                   bad key file, a PDF the parser gave up on)
  3 not_found      no Pith Number found
  4 unverifiable   nothing trusted to verify with (e.g. a bare record, or
                   data signed only by keys not in the trust store)
  4 unbound        a PDF whose genuine record nothing on the page ties to it
                   (no matching title, abstract or arXiv id)
  130 interrupted  stopped by SIGINT (143: SIGTERM, 129: SIGHUP) after writing
                   the partial report; continue with --joblog FILE --resume

Trust store: the registry key pith-v1-2026-05 (pinned), key files in
$XDG_CONFIG_HOME/pith/keys/*.json (default ~/.config/pith/keys), and every
--trust-key FILE. Keys shipped inside the data are never trusted.

Online (the default; --offline skips it): for each number found, the
registry's current bundle is fetched, verified and compared with the file's
copy: newer events, corrections, superseded or equivocating events, a record
no longer served are warnings (online.*), with the record-completeness panel.

Each file is checked in its own process with CPU-time, memory and wall-clock
limits: a crash, a hang or a limit is that file's verdict `error`, and the
run goes on. JSON Lines schema: docs/pith-check-json.md.)";

}  // namespace

void CheckJob::declare(CLI::App& app) {
  Options& o = *options_;
  CheckRunOptions& run = o.run;
  app.description(
      "pith-check: verify the Pith Number in PDFs, and Pith registry files (bundle, state, canonical record), against "
      "trusted keys");
  app.footer(exit_code_help);
  app.name("");  // "Usage:" names the program as it was called (argv[0]), as it always has
  auto* json = app.add_flag("--json", o.json, "one JSON object per input per line (JSON Lines, in input order)");
  auto* csv = app.add_flag("--csv", o.csv,
                           "a CSV table (RFC 4180): a header row, then a row per input in input order (file, archive, member, "
                           "kind, verdict, exit_code, pith_number, title, reason, warnings, error), each cell safe for a spreadsheet");
  auto* tsv = app.add_flag("--tsv", o.tsv, "the --csv table as tab-separated values (tab, newline, CR and \\ escaped as \\t \\n \\r \\\\)");
  json->excludes(csv, tsv);
  csv->excludes(json, tsv);
  tsv->excludes(json, csv);
  cli::add_trust_key_option(app, o.trust_keys);
  app.add_option("inputs", o.files, "PDFs, registry files, Pith Numbers or arXiv ids to check")
      ->type_name("FILE|NUMBER...");
  app.add_option("-j,--jobs", run.jobs, "check N files at once, each in its own process (default 1)")
      ->check(CLI::Range(1u, runner::max_corpus_jobs))
      ->type_name("N");
  app.add_flag("-r,--recursive", o.recursive,
               "check the PDFs (*.pdf, any case) under each directory given, walked depth first in name order; "
               "symbolic links are not followed");
  app.add_option("--extract", o.extract_dir,
                 "write the Pith parts one PDF carries, exactly as carried, to DIR (pith-bundle.json, pith-record.json, "
                 "metadata.xmp) and show its record; nothing is verified (pith-check FILE.pdf does that)")
      ->type_name("DIR");
  app.add_flag("--force", o.force, "with --extract: replace the files already in DIR");
  app.add_option("--files-from", o.files_from, "also check the files listed in FILE, one path a line ('-': stdin)")
      ->type_name("FILE");
  app.add_flag("-q,--quiet", run.quiet, "print nothing: the exit code says it all");
  app.add_flag("--problems-only", run.problems_only,
               "print the reports of the inputs that are not verified only (the summary, --html and --joblog still count every input)");
  // Corpus runs (docs/corpus.md).
  app.add_flag("-0,--null", o.null_separated, "the --files-from names are separated by NUL, not newlines (find -print0)");
  app.add_option("--tar", o.archives, "check the regular members (and hard links, as the files they link to) of the tar archive FILE ('-': stdin; gzip, bzip2, xz, zstd too), read into memory, never unpacked; other members are counted and named (repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--max-member-size", run.max_member_bytes, "with --tar: a larger member is that member's error, unread (default 268435456)")
      ->type_name("BYTES");
  app.add_option("--file-timeout", run.limits.wall_seconds, "per-file wall-clock limit in seconds (CPU: the same, at most 30; default 60)")
      ->check(CLI::Range(1u, 86400u))
      ->type_name("SECONDS");
  app.add_option("--child-memory,--file-memory", o.file_memory_mb,
                 "per-file address-space limit in MiB, the mapped file included (default 3072)")
      ->check(CLI::Range(std::uint64_t{16}, std::uint64_t{1} << 20))
      ->type_name("MIB");
  app.add_option("--workers", o.workers, "pool: long-lived worker processes, each replaced after 500 inputs or a crash (default); fork: a process forked per input")
      ->check(CLI::IsMember({"pool", "fork"}))
      ->type_name("pool|fork");
  app.add_option("--summary", run.summary_file, "write counts per verdict and per failing check, and the slowest inputs, to FILE (JSON)")
      ->type_name("FILE");
  app.add_option("--html", run.html_file, "write a self-contained HTML report to FILE: counts, the inputs not verified, their reports")
      ->type_name("FILE");
  app.add_option("--evidence", run.evidence_dir, "write DIR/NAME.page1.png for each PDF that binds: the crop of page 1 where a reader sees the record's title, abstract or arXiv watermark")
      ->type_name("DIR");
  app.add_option("--joblog", run.joblog, "append a line to FILE for each input once its report is out")->type_name("FILE");
  app.add_flag("--resume", run.resume, "skip the inputs the --joblog FILE already holds (continue a killed run)");
  app.add_option("--shard", o.shard, "check only shard K of N (1 <= K <= N): a stable split by a hash of each input's name")
      ->type_name("K/N");
  cli::add_resolver_options(app, o.resolver);
}

}  // namespace pith::check
