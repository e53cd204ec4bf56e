// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/tex/build_log.hpp"

#include <algorithm>

namespace pith::tex {
namespace {

namespace fs = std::filesystem;

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return lines;
}

}  // namespace

RecordedFiles read_fls(std::string_view text) {
  RecordedFiles r;
  fs::path pwd;
  std::set<fs::path> seen;
  for (std::string_view line : lines_of(text)) {
    if (line.starts_with("PWD ")) {
      pwd = fs::path(line.substr(4));
      continue;
    }
    const bool input = line.starts_with("INPUT ");
    if (!input && !line.starts_with("OUTPUT ")) continue;
    const std::string_view written = line.substr(input ? 6 : 7);
    fs::path file(written);
    const bool relative = file.is_relative();
    if (relative) file = pwd / file;
    file = file.lexically_normal();
    if (!input) r.outputs.insert(file);
    else if (seen.insert(file).second) {
      r.inputs.push_back(file);
      if (relative) r.relative.emplace_back(file, std::string(written));
    }
  }
  return r;
}

LogFindings read_log(std::string_view log, std::string_view stem) {
  LogFindings f;
  const std::string no_bbl = "No file " + std::string(stem) + ".bbl.";
  const std::string no_ind = "No file " + std::string(stem) + ".ind.";
  for (std::string_view line : lines_of(log)) {
    if (line.starts_with("! ") && f.first_error.empty()) f.first_error = std::string(line.substr(2));
    for (std::string_view marker : {std::string_view("! LaTeX Error: File `"), std::string_view("! I can't find file `")}) {
      if (!line.starts_with(marker)) continue;
      const auto rest = line.substr(marker.size());
      const auto end = rest.find('\'');
      if (end != std::string_view::npos) f.missing_files.emplace_back(rest.substr(0, end));
    }
    if (line.find("Rerun to get cross-references right.") != std::string_view::npos) f.rerun = true;
    if (line.find(no_bbl) != std::string_view::npos) f.no_bbl = true;
    if (line.find(no_ind) != std::string_view::npos) f.no_ind = true;
  }
  return f;
}

}  // namespace pith::tex
