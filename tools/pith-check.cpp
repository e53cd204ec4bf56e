// pith-check: verifies the Pith Number carried by a PDF, and Pith registry
// files (bundle, state.json, canonical record, resolver answer), each kind
// detected by content, with keys from the trust store only. Human text by
// default, one JSON object per file with --json.
#include "pith/check_file.hpp"
#include "pith/exit_codes.hpp"
#include "pith/trust_store.hpp"
#include "pith/version.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pith-check: verify the Pith Number in PDFs, and Pith registry files (bundle, state, canonical record), against trusted keys"};
  app.footer(exit_code_help);
  app.set_version_flag("--version", std::string(pith::version_string));
  bool offline = false;
  bool json_output = false;
  std::vector<std::string> trust_keys;
  std::vector<std::string> files;
  app.add_flag("--offline", offline, "never use the network (registry files are always checked offline)");
  app.add_flag("--json", json_output, "one JSON object per file per line");
  app.add_option("--trust-key", trust_keys, "also trust the key in FILE (pith-signing-key.json format)")
      ->type_name("FILE");
  app.add_option("files", files, "PDFs or registry files to check")->required()->type_name("FILE");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : pith::exit_code::usage_or_io;
  }
  (void)offline;

  std::vector<std::string> warnings;
  pith::TrustStore trust = pith::TrustStore::with_defaults(&warnings);
  for (const auto& w : warnings) std::cerr << "pith-check: warning: " << w << "\n";
  for (const auto& file : trust_keys) {
    if (auto added = trust.add_key_file(file); !added) {
      std::cerr << "pith-check: --trust-key " << added.error().describe() << "\n";
      return pith::exit_code::usage_or_io;
    }
  }

  const bool colour = !json_output && use_colour();
  int worst = pith::exit_code::ok;
  for (const auto& file : files) {
    const pith::Report report = pith::check_file(file, trust);
    if (json_output) {
      std::cout << report.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else if (!report.error) {
      std::cout << report.to_text(colour);
    }
    // Input that could not be processed: one line naming the file, on stderr.
    if (report.error) std::cerr << "pith-check: " << file << ": " << *report.error << "\n";
    worst = pith::exit_code::worst(worst, pith::exit_code_for(report.verdict()));
  }
  std::cout.flush();
  return worst;
}
