// pith-check: verifies the Pith Number carried by a PDF, and Pith registry files (bundle, state.json, canonical
// record, resolver answer), detected by content, with keys from the trust
// store only. An argument that is not an existing file but is a Pith Number
// (full, body, short form) or an arXiv id is resolved from the registry,
// its mirrors or the cache, and verified the same way. Human text by
// default, one JSON object per input with --json.
#include "pith/check_file.hpp"
#include "pith/exit_codes.hpp"
#include "pith/identifier.hpp"
#include "pith/resolver.hpp"
#include "pith/trust_store.hpp"
#include "pith/version.hpp"
#include "resolver_cli.hpp"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace {

constexpr const char* exit_code_help = R"(Exit codes (with several files the worst wins: 1 > 2 > 4 > 3 > 0):
  0  every file verified
  1  a check failed (tampered, forged or inconsistent data)
  2  usage error or unreadable input (not a registry document, bad key file)
  3  no Pith Number found
  4  unverifiable: nothing trusted to verify with (e.g. a bare record, or
     data signed only by keys not in the trust store)

Trust store: the registry key pith-v1-2026-05 (pinned), key files in
$XDG_CONFIG_HOME/pith/keys/*.json (default ~/.config/pith/keys), and every
--trust-key FILE. Keys shipped inside the data are never trusted.)";

bool use_colour() {
  const char* no_colour = std::getenv("NO_COLOR");
  return ::isatty(STDOUT_FILENO) == 1 && (no_colour == nullptr || *no_colour == '\0');
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

// A file that exists is checked as a file, even if its name looks like a
// number. Otherwise a number or arXiv id is resolved; so is anything written
// `pith:...` or `arXiv:...`, so that a typo gets the parser's message (which
// character, where) instead of "no such file".
bool is_identifier_argument(const std::string& arg) {
  std::error_code ec;
  if (std::filesystem::exists(arg, ec)) return false;
  return pith::looks_like_identifier(arg) || starts_with_ci(arg, "pith:") || starts_with_ci(arg, "arxiv:");
}

// The verification report of a resolved record, with where it came from.
pith::Report report_for(const std::string& input, pith::Result<pith::Resolution> resolved) {
  pith::Report report;
  if (!resolved) {
    report.input = input;
    report.input_kind = "identifier";
    if (pith::is_rejection(resolved.error())) {
      // Something was served but was forged, tampered or another paper's record.
      report.fail("resolver.rejected", resolved.error().message);
    } else {
      report.error = resolved.error().message;
    }
    return report;
  }
  pith::Resolution& r = *resolved;
  report = std::move(r.record.report);
  report.merge(r.report);
  report.input = input;
  report.input_kind = "identifier";
  report.pith_number = r.record.pith_number;
  report.extra["resolved_number"] = r.record.pith_number;
  report.extra["resolved_from"] = r.source;
  report.extra["origin"] = pith::to_string(r.origin);
  report.extra["document_kind"] = pith::to_string(r.record.kind);
  if (!r.failures.empty()) report.extra["failed_attempts"] = r.failures;
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pith-check: verify the Pith Number in PDFs, and Pith registry files (bundle, state, canonical record), against trusted keys"};
  app.footer(exit_code_help);
  app.set_version_flag("--version", std::string(pith::version_string));
  pith::ResolverOptions resolver_options = pith::ResolverOptions::from_environment();
  bool json_output = false;
  std::vector<std::string> trust_keys;
  std::vector<std::string> files;
  app.add_flag("--json", json_output, "one JSON object per file per line");
  app.add_option("--trust-key", trust_keys, "also trust the key in FILE (pith-signing-key.json format)")
      ->type_name("FILE");
  app.add_option("inputs", files, "PDFs, registry files, Pith Numbers or arXiv ids to check")
      ->required()
      ->type_name("FILE|NUMBER...");
  pith::cli::add_resolver_options(app, resolver_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : pith::exit_code::usage_or_io;
  }

  std::vector<std::string> warnings;
  pith::TrustStore trust = pith::TrustStore::with_defaults(&warnings);
  for (const auto& w : warnings) std::cerr << "pith-check: warning: " << w << "\n";
  for (const auto& file : trust_keys) {
    if (auto added = trust.add_key_file(file); !added) {
      std::cerr << "pith-check: --trust-key " << added.error().describe() << "\n";
      return pith::exit_code::usage_or_io;
    }
  }

  // Arguments that are not files but name a paper are resolved together
  // (one batch over reused connections), then reported in argument order.
  std::vector<std::string> identifiers;
  for (const auto& arg : files) {
    if (is_identifier_argument(arg)) identifiers.push_back(arg);
  }
  std::vector<pith::Result<pith::Resolution>> resolved;
  if (!identifiers.empty()) {
    pith::Resolver resolver(resolver_options, pith::verifier_using(trust));
    resolved = resolver.resolve_many(identifiers);
  }

  const bool colour = !json_output && use_colour();
  int worst = pith::exit_code::ok;
  std::size_t next_identifier = 0;
  for (const auto& file : files) {
    const pith::Report report = is_identifier_argument(file)
                                    ? report_for(file, std::move(resolved[next_identifier++]))
                                    : pith::check_file(file, trust);
    if (json_output) {
      std::cout << report.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else if (!report.error) {
      std::cout << report.to_text(colour);
    }
    // Input that could not be processed: one line naming it, on stderr.
    if (report.error) std::cerr << "pith-check: " << file << ": " << *report.error << "\n";
    worst = pith::exit_code::worst(worst, pith::exit_code_for(report.verdict()));
  }
  std::cout.flush();
  return worst;
}
