// SPDX-License-Identifier: GPL-3.0-or-later
// pith-check: verifies the Pith Number carried by a PDF, and Pith registry
// files (bundle, state.json, canonical record, resolver answer), detected by
// content, with keys from the trust store only. An argument that is not an
// existing file but is a Pith Number (full, body, short form) or an arXiv id
// is resolved from the registry, its mirrors or the cache, and verified the
// same way. Each file is checked in a child process with limits, -j N at a
// time (a corpus: --files-from); unless --offline, the registry is asked what
// changed since. Human text by default, JSON Lines with --json
// (docs/pith-check-json.md). The work is in the check library: identifiers are
// looked up by pith::check::look_up_identifiers (check/lookup.hpp), every input
// is checked and printed by pith::check::run_checks (check/run.hpp).
#include "pith/base/exit_codes.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/base/version.hpp"
#include "pith/check/corpus_input.hpp"
#include "pith/check/lookup.hpp"
#include "pith/check/run.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/resolver.hpp"
#include "main_guard.hpp"
#include "tool_cli.hpp"
#include "resolver_cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace {

constexpr const char* exit_code_help = R"(Exit codes and verdicts (with several files the worst wins: 1 > 2 > 4 > 3 > 0):
  0  verified      the record verifies with a trusted key (and, for a PDF,
                   something the reader sees ties it to that record)
  1  failed        a check failed (tampered, forged or inconsistent data)
  2  error         usage error or unreadable input (not a registry document,
                   bad key file, a PDF the parser gave up on)
  3  not_found     no Pith Number found
  4  unverifiable  nothing trusted to verify with (e.g. a bare record, or
                   data signed only by keys not in the trust store)
  4  unbound       a PDF whose genuine record nothing on the page ties to it
                   (no matching title, abstract or arXiv id)

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

bool use_colour() {
  const char* no_colour = std::getenv("NO_COLOR");
  return ::isatty(STDOUT_FILENO) == 1 && (no_colour == nullptr || *no_colour == '\0');
}

int check_command(int argc, char** argv) {
  CLI::App app{"pith-check: verify the Pith Number in PDFs, and Pith registry files (bundle, state, canonical record), against trusted keys"};
  app.footer(exit_code_help);
  pith::cli::add_common_options(app, "pith-check");  // --version, and the options listing for completions
  pith::resolver::ResolverOptions resolver_options = pith::resolver::ResolverOptions::from_environment();
  bool json_output = false;
  std::vector<std::string> trust_keys;
  std::vector<std::string> files;
  app.add_flag("--json", json_output, "one JSON object per input per line (JSON Lines, in input order)");
  pith::cli::add_trust_key_option(app, trust_keys);
  app.add_option("inputs", files, "PDFs, registry files, Pith Numbers or arXiv ids to check")
      ->type_name("FILE|NUMBER...");
  pith::check::CheckRunOptions run;
  std::string files_from;
  app.add_option("-j,--jobs", run.jobs, "check N files at once, each in its own process (default 1)")
      ->check(CLI::Range(1u, pith::check::max_corpus_jobs))
      ->type_name("N");
  app.add_option("--files-from", files_from, "also check the files listed in FILE, one path a line ('-': stdin)")
      ->type_name("FILE");
  app.add_flag("-q,--quiet", run.quiet, "print nothing: the exit code says it all");
  // Corpus runs (docs/corpus.md).
  std::vector<std::string> archives;
  bool null_separated = false;
  std::string shard;
  app.add_flag("-0,--null", null_separated, "--files-from names are separated by NUL, not newlines (find -print0)");
  app.add_option("--tar", archives, "check the regular members of the tar archive FILE ('-': stdin; gzip, bzip2, xz, zstd too), read into memory, never unpacked (repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--max-member-size", run.max_member_bytes, "--tar: a larger member is that member's error, unread (default 268435456)")
      ->type_name("BYTES");
  std::uint64_t file_memory_mb = 0;
  app.add_option("--file-timeout", run.limits.wall_seconds, "per-file wall-clock limit in seconds (CPU: the same, at most 30; default 60)")
      ->check(CLI::Range(1u, 86400u))
      ->type_name("SECONDS");
  app.add_option("--file-memory", file_memory_mb, "per-file address-space limit in MiB (default 3072)")
      ->check(CLI::Range(std::uint64_t{16}, std::uint64_t{1} << 20))
      ->type_name("MIB");
  std::string workers = "pool";
  app.add_option("--workers", workers, "pool: long-lived worker processes, each replaced after 500 inputs or a crash (default); fork: a process forked per input")
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
  app.add_option("--shard", shard, "check only shard K of N (1 <= K <= N): a stable split by a hash of each input's name")
      ->type_name("K/N");
  pith::cli::add_resolver_options(app, resolver_options);
  if (const auto done = pith::cli::parse_or_exit_code(app, argc, argv)) return *done;

  if (!files_from.empty()) {
    std::ifstream list_file;
    if (files_from != "-") {
      list_file.open(files_from);
      if (!list_file) {
        std::cerr << "pith-check: --files-from " << pith::terminal_safe(files_from) << ": cannot read\n";
        return pith::exit_code_for(pith::ErrorKind::usage);
      }
    }
    for (auto& path : pith::check::read_path_list(files_from == "-" ? std::cin : list_file, null_separated ? '\0' : '\n'))
      files.push_back(std::move(path));
  }
  run.fork_per_file = workers == "fork";
  if (file_memory_mb != 0) run.limits.memory_bytes = file_memory_mb << 20;
  run.limits.cpu_seconds = std::min(run.limits.cpu_seconds, run.limits.wall_seconds);
  if (!shard.empty()) {
    const auto parsed = pith::check::Shard::parse(shard);
    if (!parsed) {
      std::cerr << "pith-check: " << pith::terminal_safe(parsed.error().describe()) << "\n";
      return pith::exit_code_for(parsed.error());
    }
    run.shard_index = parsed->index;
    run.shard_count = parsed->count;
  }
  if (run.resume && run.joblog.empty()) {
    std::cerr << "pith-check: --resume needs --joblog FILE (the log of the run to continue)\n";
    return pith::exit_code_for(pith::ErrorKind::usage);
  }
  if (std::count(archives.begin(), archives.end(), "-") + (files_from == "-" ? 1 : 0) > 1) {
    std::cerr << "pith-check: stdin ('-') can be read only once: one of --tar - and --files-from -\n";
    return pith::exit_code_for(pith::ErrorKind::usage);
  }
  if (files.empty() && archives.empty()) {
    std::cerr << "pith-check: nothing to check (give files, numbers, --files-from or --tar)\n"
              << "Run with --help for more information.\n";
    return pith::exit_code_for(pith::ErrorKind::usage);
  }

  auto loaded_trust = pith::cli::load_trust_store("pith-check", trust_keys);
  if (!loaded_trust) return pith::exit_code_for(pith::ErrorKind::usage);
  const pith::registry::TrustStore& trust = *loaded_trust;

  // Arguments that are not files but name a paper are resolved together
  // (one batch over reused connections), then reported in argument order.
  pith::check::CheckRunInputs inputs;
  inputs.ready = pith::check::look_up_identifiers(files, resolver_options, trust);
  inputs.names = std::move(files);
  inputs.archives = std::move(archives);
  run.colour = !json_output && use_colour();
  run.json = json_output;
  run.progress = !run.quiet && ::isatty(STDERR_FILENO) == 1;
  run.resolver_bases = resolver_options.mirrors;
  run.resolver_bases.push_back(resolver_options.resolver_url);
  std::optional<pith::resolver::Resolver> online;
  std::optional<pith::resolver::Resolver> local;  // --offline: cache and file:// only, for PDFs carrying only a number
  if (!resolver_options.offline) {
    online.emplace(resolver_options, pith::resolver::verifier_using(trust));
  } else {
    local.emplace(resolver_options, pith::resolver::verifier_using(trust));
    run.local_resolver = &*local;
  }
  return pith::check::run_checks(inputs, trust, online ? &*online : nullptr, run, std::cout, std::cerr);
}

}  // namespace

int main(int argc, char** argv) {
  return pith::cli::run_guarded("pith-check", [&] { return check_command(argc, argv); });
}
