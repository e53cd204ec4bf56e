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

constexpr std::size_t max_error_bytes = 600;

// A line that goes on with the error above it: not blank, not TeX's help
// and context that follow an error ("Type <return>", "l.45 ...", " ...").
bool continues_error(std::string_view line) {
  const auto first = line.find_first_not_of(' ');
  if (first == std::string_view::npos) return false;
  for (std::string_view stop : {"Type ", "See the ", "l.", "! ", "<", "For immediate help"})
    if (line.substr(first).starts_with(stop)) return false;
  return !line.starts_with(" ...");
}

// "(fontspec)                      LuaTeX." -> "LuaTeX."
std::string_view without_package_prefix(std::string_view line) {
  if (line.starts_with('(')) {
    const auto close = line.find(')');
    if (close != std::string_view::npos && close < 40) line.remove_prefix(close + 1);
  }
  const auto first = line.find_first_not_of(' ');
  return first == std::string_view::npos ? std::string_view{} : line.substr(first);
}

// A hostile log's endless error, cut at the end of its last whole sentence.
std::string bounded(std::string text) {
  if (text.size() <= max_error_bytes) return text;
  text.resize(max_error_bytes);
  const auto end = text.rfind(". ");
  if (end != std::string::npos && end > 0) text.resize(end + 1);
  return text + " [the rest is in the log]";
}

// The error starting at lines[at], its wrapped and continued lines joined.
std::string error_at(const std::vector<std::string_view>& lines, std::size_t at) {
  std::string text(lines[at].substr(2));
  // TeX wraps log lines at 79 columns: a line that long goes on, unspaced, on the next one.
  bool wrapped = lines[at].size() == 79;
  for (std::size_t i = at + 1; i < lines.size() && i < at + 12 && text.size() <= max_error_bytes; ++i) {
    if (!continues_error(lines[i])) break;
    const std::string_view part = without_package_prefix(lines[i]);
    if (part.empty()) continue;  // "(fontspec)   " between paragraphs of the message
    text += wrapped ? "" : " ";
    text += part;
    wrapped = lines[i].size() == 79;
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return bounded(std::move(text));
}

std::string tex_live_of_banner(std::string_view first_line) {
  const auto at = first_line.find("(TeX Live ");
  if (at == std::string_view::npos) return {};
  std::string_view rest = first_line.substr(at + 1);
  const auto end = rest.find_first_of("/)");
  return std::string(rest.substr(0, std::min(end, std::size_t{16})));
}

}  // namespace

std::string engine_of_fls(std::string_view fls) {
  for (std::string_view line : lines_of(fls)) {
    if (!line.starts_with("INPUT ") || !line.ends_with(".fmt")) continue;
    const auto slash = line.rfind('/');
    const std::string_view format = line.substr(slash == std::string_view::npos ? 6 : slash + 1);
    for (std::string_view engine : {"pdflatex", "xelatex", "lualatex", "latex"})
      if (format == std::string(engine) + ".fmt") return std::string(engine);
    if (format == "luahblatex.fmt") return "lualatex";
  }
  return {};
}

std::string bbl_format_version(std::string_view bbl) {
  constexpr std::string_view marker = "biblatex bbl format version ";
  const auto at = bbl.substr(0, 4096).find(marker);
  if (at == std::string_view::npos) return {};
  std::string_view rest = bbl.substr(at + marker.size());
  std::size_t n = 0;
  while (n < rest.size() && n < 8 && ((rest[n] >= '0' && rest[n] <= '9') || rest[n] == '.')) ++n;
  return std::string(rest.substr(0, n));
}

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
  const auto lines = lines_of(log);
  if (!lines.empty()) f.tex_live = tex_live_of_banner(lines.front());
  for (std::size_t at = 0; at < lines.size(); ++at) {
    const std::string_view line = lines[at];
    if (line.starts_with("! ") && f.first_error.empty()) f.first_error = error_at(lines, at);
    for (std::string_view marker : {std::string_view("! LaTeX Error: File `"), std::string_view("! I can't find file `")}) {
      if (!line.starts_with(marker)) continue;
      const auto rest = line.substr(marker.size());
      const auto end = rest.find('\'');
      if (end != std::string_view::npos) f.missing_files.emplace_back(rest.substr(0, end));
    }
    if (line.find("Rerun to get cross-references right.") != std::string_view::npos) f.rerun = true;
    if (line.find(no_bbl) != std::string_view::npos) f.no_bbl = true;
    if (line.find(no_ind) != std::string_view::npos) f.no_ind = true;
    if (line.find("is wrong format version") != std::string_view::npos) f.bbl_wrong_format = true;
  }
  return f;
}

}  // namespace pith::tex
