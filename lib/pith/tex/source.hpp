// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Finding the \pithnumber{...} in effect in a LaTeX paper, the way TeX would
// read it: comments are ignored (an unescaped % to the end of the line),
// \input{...} and \include{...} are followed relative to the main file's
// directory (bounded depth, each file once, so include loops end).
//
// Policy: a paper names one number. The same number given several times is
// fine; two different numbers are an error naming both places, so that
// pith-stamp never silently bakes the record of the wrong paper.
// Not followed: \input with macros in the file name, \subfile, \import, and
// files that do not exist beside the paper (kpathsea may find those in TeX
// Live; they are not the paper's own files). Verbatim environments are not
// recognised: a \pithnumber inside one still counts.
#include "pith/base/error.hpp"
#include "pith/registry/number.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace pith::tex {

inline constexpr int tex_max_input_depth = 16;
inline constexpr std::size_t tex_max_file_bytes = 16 * 1024 * 1024;

struct TexNumber {
  registry::PithNumber number;  // the whole 26-character body; the year when written as pith:YYYY:<26>
  std::filesystem::path file;   // where it was found
  int line = 0;                 // 1-based
  std::string as_written;       // the argument as in the source

  // "paper.tex:12" for messages.
  [[nodiscard]] std::string location() const;
};

// The number in effect in `main_tex`. Errors: unreadable main file, no
// \pithnumber at all, a malformed number (naming character and position),
// or two different numbers (naming both locations).
[[nodiscard]] Result<TexNumber> find_pith_number(const std::filesystem::path& main_tex);

// The same for a source already in memory, named `file` in locations and
// messages. Its \input and \include are not followed (there are no files
// beside it); find_pith_number scans each file's text with this same scanner.
[[nodiscard]] Result<TexNumber> find_pith_number_in_text(std::string_view text, const std::filesystem::path& file);

// Reads a \pithnumber argument: spaces inside it are removed (TeX ignores
// them in the argument too), then registry::parse_pith_number reads it. A
// paper names its number in full, so a short form is refused. Errors name
// the offending character and its position (after spaces are removed).
[[nodiscard]] Result<TexNumber> parse_tex_number_argument(std::string_view argument);

// The paper's \title{...} in `main_tex` (not followed into \input files) as
// the text it typesets, when that is certain, so it can be compared with the
// record's title hash before pith-stamp writes pith.sty. Read: line breaks
// (\\, \\*, \\[1ex], \newline) and `~` as spaces; \thanks, \footnote and
// \label dropped; groups and the text of \emph, \textbf and the like; the
// escaped characters \& \% \# \_ \$; an optional [short title]. Anything
// else (math, accents, other macros) is an error naming what stopped it, as
// is a paper without \title: the caller then compares nothing.
[[nodiscard]] Result<std::string> read_plain_title(const std::filesystem::path& main_tex);
// The same on a \title argument already extracted (for tests).
[[nodiscard]] Result<std::string> title_argument_as_text(std::string_view argument);

// read_plain_title's text, or nullopt.
[[nodiscard]] std::optional<std::string> find_plain_title(const std::filesystem::path& main_tex);

}  // namespace pith::tex
