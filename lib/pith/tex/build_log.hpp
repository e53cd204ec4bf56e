// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a TeX build says about itself, read from the text of two files it
// writes: the -recorder file (<stem>.fls) lists what the build read and
// wrote; the log (<stem>.log) holds its first error, the files it could not
// find, and whether it asks for another run. Text in, values out: the
// caller reads the files (pith-stamp --arxiv, stamp/arxiv.cpp). Both are
// written by a build of files the user does not control, so both readers
// take any bytes.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pith::tex {

// The files a build read and wrote, from its .fls.
struct RecordedFiles {
  std::vector<std::filesystem::path> inputs;  // absolute, lexically normal, in order of first reading
  std::set<std::filesystem::path> outputs;    // absolute, lexically normal
  // Inputs named by a relative path (the paper's own \input, \includegraphics),
  // as written: TeX Live's files are named by absolute paths.
  std::vector<std::pair<std::filesystem::path, std::string>> relative;
};

// The -recorder file: PWD, then INPUT and OUTPUT lines (relative to PWD).
[[nodiscard]] RecordedFiles read_fls(std::string_view text);

// What a TeX log says: its first "! ..." line, the files it says are
// missing, whether it asks for a rerun, and whether the paper's .bbl (.ind)
// was missing.
struct LogFindings {
  // The first error, whole: its "! " line and the lines TeX wrapped it onto
  // (at 79 columns) or a package continued it on ("(fontspec)   LuaTeX."),
  // joined by spaces, up to the blank line that ends it. Only a hostile log
  // is cut (at ~600 bytes), and then at the end of a sentence.
  std::string first_error;
  // "TeX Live 2022" from the banner's "(TeX Live 2022/Debian)": which TeX
  // Live ran the build; empty when the banner names none (MiKTeX, a log cut short).
  std::string tex_live;
  std::vector<std::string> missing_files;
  bool rerun = false;
  bool no_bbl = false;
  bool no_ind = false;
  // biblatex could not read the .bbl: "File 'main.bbl' is wrong format version".
  bool bbl_wrong_format = false;
};

// The engine whose format the build loaded, from the .fls (INPUT
// …/pdflatex.fmt, xelatex.fmt, lualatex.fmt, latex.fmt — latex.fmt is pdfTeX
// writing DVI): "pdflatex", "xelatex", "lualatex", "latex", or empty.
[[nodiscard]] std::string engine_of_fls(std::string_view fls);

// The format version an uploaded biblatex .bbl says it is in, from its line
// `% $ biblatex bbl format version 3.3 $`; empty for a BibTeX .bbl.
[[nodiscard]] std::string bbl_format_version(std::string_view bbl);

// `stem`: the main file's name without .tex (the .bbl and .ind are <stem>.bbl, <stem>.ind).
[[nodiscard]] LogFindings read_log(std::string_view log, std::string_view stem);

}  // namespace pith::tex
