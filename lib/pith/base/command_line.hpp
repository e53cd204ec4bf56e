// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Private to libpith (the jobs' sources: base/job.hpp). What every pith
// tool's command line has besides its own options: one `--version` text,
// and the hidden `--list-options` that the build reads to generate the
// shell completions (cmake/PithToolDocs.cmake), so they are made from the
// CLI11 definitions themselves and cannot drift from them.
#include "pith/base/exit_codes.hpp"
#include "pith/base/linked_libraries.hpp"
#include "pith/base/version.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace pith::cli {

// "<tool> <version>" (what help2man reads), then the libraries it runs with.
inline std::string version_text(const char* tool) {
  return std::string(tool) + " " + version_string + "\nlibraries: " + linked_library_versions();
}

// --version, and --list-options: one line per option, tab-separated: its
// names (space-separated), "flag" or "value", the value's type name, the
// description ("-" for an empty field: shells merge empty tab fields). The listing walks app's options when the flag is seen, at
// parse time, so it sees the options added after this call too.
inline void add_common_options(CLI::App& app, const char* tool) {
  app.set_version_flag("--version", version_text(tool));
  app.add_flag_callback(
         "--list-options",
         [&app] {
           for (const CLI::Option* option : app.get_options()) {
             if (option->get_positional()) continue;
             std::string names;
             for (const auto& name : option->get_snames()) names += (names.empty() ? "-" : " -") + name;
             for (const auto& name : option->get_lnames()) names += (names.empty() ? "--" : " --") + name;
             if (names.empty() || names == "--list-options") continue;
             const std::string type = option->get_type_name();
             const std::string description = option->get_description();
             std::cout << names << '\t' << (option->get_expected_max() == 0 ? "flag" : "value") << '\t'
                       << (type.empty() ? "-" : type) << '\t' << (description.empty() ? "-" : description) << '\n';
           }
           throw CLI::Success();
         })
      ->group("");  // hidden: for the build, not for users
}

// --trust-key FILE, the same in every tool: one FILE per occurrence
// (repeatable), so the arguments after it are inputs whether the option
// comes before or after them (CLI11 would otherwise take them all as keys).
inline CLI::Option* add_trust_key_option(CLI::App& app, std::vector<std::string>& trust_keys) {
  return app
      .add_option("--trust-key", trust_keys, "also trust the key in FILE (pith-signing-key.json format; repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// Parses argv; nullopt when the tool goes on, else its exit code: 0 after
// --help/--version/--list-options, 2 after a usage error (CLI11 has printed it).
[[nodiscard]] inline std::optional<int> parse_or_exit_code(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? exit_code::ok : exit_code_for(ErrorKind::usage);
  }
  return std::nullopt;
}

}  // namespace pith::cli
