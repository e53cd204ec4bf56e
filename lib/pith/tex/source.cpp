// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/tex/source.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <set>
#include <vector>

namespace pith::tex {
namespace fs = std::filesystem;

std::string TexNumber::location() const { return file.filename().string() + ":" + std::to_string(line); }

namespace {

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The text as TeX sees it without comments: from an unescaped % to the end
// of its line is dropped (the newline stays, so line numbers still hold).
// A backslash escapes the next character, so \% is text and \\% a comment.
std::string strip_comments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_comment = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      in_comment = false;
      out.push_back(c);
    } else if (in_comment) {
      continue;
    } else if (c == '%') {
      in_comment = true;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
      out.push_back(c);
      out.push_back(text[++i]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

int line_at(std::string_view text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

Result<std::string> read_bounded(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return fail(ErrorKind::io, path.string(), "cannot read: " + ec.message());
  const auto too_large = [&]() -> Result<std::string> {
    return fail(ErrorKind::malformed, path.string(), "larger than " + std::to_string(tex_max_file_bytes) + " bytes; not a LaTeX source");
  };
  if (size > tex_max_file_bytes) return too_large();
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(ErrorKind::io, path.string(), "cannot open for reading");
  // No more than the limit and one byte is read: a file that grew after its
  // size was asked (or whose size a file system does not tell) is refused as
  // one that was too large.
  std::string text;
  char chunk[65536];
  while (text.size() <= tex_max_file_bytes && in.read(chunk, sizeof chunk).gcount() > 0)
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) return fail(ErrorKind::io, path.string(), "cannot read");
  if (text.size() > tex_max_file_bytes) return too_large();
  return text;
}

// A braced argument starting at text[pos] (after optional spaces); returns
// the content and moves pos past the closing brace. Bounded: a \pithnumber
// or file name is short, so a long "argument" is not one.
std::optional<std::string> braced_argument(std::string_view text, std::size_t& pos) {
  constexpr std::size_t max_argument = 1024;
  std::size_t i = pos;
  while (i < text.size() && is_space(text[i])) ++i;
  if (i >= text.size() || text[i] != '{') return std::nullopt;
  int depth = 0;
  const std::size_t start = i + 1;
  for (; i < text.size() && i <= start + max_argument; ++i) {
    if (text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && --depth == 0) {
      pos = i + 1;
      return std::string(text.substr(start, i - start));
    }
  }
  return std::nullopt;
}

// \input file (plain TeX form): the name runs to the next space.
std::optional<std::string> bare_file_name(std::string_view text, std::size_t& pos) {
  std::size_t i = pos;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  const std::size_t start = i;
  while (i < text.size() && !is_space(text[i]) && text[i] != '\\' && text[i] != '{' && text[i] != '}') ++i;
  if (i == start) return std::nullopt;
  pos = i;
  return std::string(text.substr(start, i - start));
}

// Where LaTeX would find an \input/\include of `name` among the paper's files.
std::optional<fs::path> resolve_input(const fs::path& base_dir, const std::string& name) {
  if (name.find_first_of("\\#$") != std::string::npos) return std::nullopt;  // macros: cannot know
  const fs::path given = fs::path(name).is_absolute() ? fs::path(name) : base_dir / name;
  std::error_code ec;
  if (fs::is_regular_file(given.string() + ".tex", ec)) return fs::path(given.string() + ".tex");
  if (given.has_extension() && fs::is_regular_file(given, ec)) return given;
  return std::nullopt;
}

class Scanner {
 public:
  // `base_dir`: where \input files are looked for; nullopt: not followed.
  explicit Scanner(std::optional<fs::path> base_dir) : base_dir_(std::move(base_dir)) {}

  Result<std::vector<TexNumber>> scan(const fs::path& file, int depth) {
    if (depth > tex_max_input_depth) {
      return fail(ErrorKind::malformed, file.string(), "\\input nesting deeper than " + std::to_string(tex_max_input_depth));
    }
    std::error_code ec;
    const fs::path key = fs::weakly_canonical(file, ec);
    if (!visited_.insert(ec ? file : key).second) return std::vector<TexNumber>{};  // loop or repeat
    auto raw = read_bounded(file);
    if (!raw) return std::unexpected(raw.error());
    return scan_text(*raw, file, depth);
  }

  Result<std::vector<TexNumber>> scan_text(std::string_view source, const fs::path& file, int depth) {
    const std::string text = strip_comments(source);
    std::vector<TexNumber> found;
    std::size_t end = text.size();
    for (std::size_t pos = 0; pos < end;) {
      if (text[pos] != '\\') {
        ++pos;
        continue;
      }
      const std::size_t start = pos++;
      while (pos < text.size() && is_letter(text[pos])) ++pos;
      const std::string_view name(text.data() + start + 1, pos - start - 1);
      if (name.empty()) {
        ++pos;  // a control symbol such as \% or \\: skip its character
      } else if (name == "pithnumber") {
        auto argument = braced_argument(text, pos);
        if (!argument) continue;  // \pithnumber not used as a command (e.g. \renewcommand)
        auto number = parse_tex_number_argument(*argument);
        const int line = line_at(text, start);
        if (!number) return fail(number.error().kind, file.string() + ":" + std::to_string(line), number.error().message);
        number->file = file;
        number->line = line;
        found.push_back(std::move(*number));
      } else if (name == "input" || name == "include") {
        auto target = braced_argument(text, pos);
        if (!target && name == "input") target = bare_file_name(text, pos);
        if (!target || !base_dir_) continue;
        auto path = resolve_input(*base_dir_, *target);
        if (!path) continue;
        auto inner = scan(*path, depth + 1);
        if (!inner) return inner;
        found.insert(found.end(), inner->begin(), inner->end());
      } else if (name == "endinput") {
        // TeX still reads the rest of this line, then stops reading the file.
        end = std::min(end, text.find('\n', pos));
      }
    }
    return found;
  }

 private:
  std::optional<fs::path> base_dir_;
  std::set<fs::path> visited_;
};

std::string remove_whitespace(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (!is_space(c)) out.push_back(c);
  }
  return out;
}

}  // namespace

Result<TexNumber> parse_tex_number_argument(std::string_view argument) {
  const std::string where = "\\pithnumber{" + std::string(argument) + "}";
  auto number = registry::parse_pith_number(remove_whitespace(argument));
  if (!number) return fail(number.error().kind, where, number.error().message);
  if (!number->has_whole_body()) {
    return fail(ErrorKind::malformed, where, "has " + std::to_string(number->body.size()) +
                           " characters; a paper names its number in full (a Pith Number body has 26)");
  }
  TexNumber out;
  out.number = std::move(*number);
  out.as_written = std::string(argument);
  return out;
}

namespace {

// The one number of a paper from every \pithnumber found in it (in order).
Result<TexNumber> the_number(const Result<std::vector<TexNumber>>& found, const fs::path& main_tex) {
  if (!found) return std::unexpected(found.error());
  if (found->empty()) {
    return fail(ErrorKind::not_found, main_tex.string(), "no \\pithnumber{...} (outside comments) in it or the files it inputs");
  }
  TexNumber result = found->front();
  for (const TexNumber& other : *found) {
    if (!other.number.matches(result.number)) {
      return fail(ErrorKind::malformed, main_tex.string(), "two different Pith Numbers: " + result.number.to_string() + " at " +
                                         result.location() + " and " + other.number.to_string() + " at " +
                                         other.location());
    }
    if (!result.number.year && other.number.year) result.number = other.number;  // the year, where one place gives it
  }
  return result;
}

}  // namespace

Result<TexNumber> find_pith_number(const fs::path& main_tex) {
  Scanner scanner(main_tex.parent_path().empty() ? fs::path(".") : main_tex.parent_path());
  return the_number(scanner.scan(main_tex, 0), main_tex);
}

namespace {

// Commands whose one argument is typeset as plain text in a title.
bool is_text_style(std::string_view name) {
  static constexpr std::array<std::string_view, 12> names = {"emph",   "textbf", "textit", "textsc", "textrm", "textsf",
                                                             "texttt", "textup", "textmd", "textsl", "mbox",   "textnormal"};
  return std::find(names.begin(), names.end(), name) != names.end();
}
// Commands (with one argument) that put nothing into the title's text.
bool is_dropped_with_argument(std::string_view name) {
  return name == "thanks" || name == "footnote" || name == "label" || name == "footnotetext";
}
// Commands without an argument that put nothing (or a space) into it.
bool is_dropped(std::string_view name) { return name == "protect" || name == "relax" || name == "footnotemark"; }

// A [..] argument at text[pos] (after spaces), skipped; false when there is none.
bool skip_optional_argument(std::string_view text, std::size_t& pos) {
  std::size_t i = pos;
  while (i < text.size() && is_space(text[i])) ++i;
  if (i >= text.size() || text[i] != '[') return false;
  const std::size_t close = text.find(']', i);
  if (close == std::string_view::npos) return false;
  pos = close + 1;
  return true;
}

class TitleReader {
 public:
  explicit TitleReader(std::string_view argument) : text_(argument) {}

  Result<std::string> read() {
    if (auto ok = read_until(text_.size()); !ok) return std::unexpected(ok.error());
    return out_;
  }

 private:
  static Result<void> stop(const std::string& what) {
    return fail(ErrorKind::malformed, "\\title", "holds " + what + ", which pith-stamp does not read as text");
  }

  // Reads text_[pos_, end) into out_.
  Result<void> read_until(std::size_t end) {
    while (pos_ < end) {
      const char c = text_[pos_];
      if (c == '\\') {
        if (auto ok = command(); !ok) return ok;
      } else if (c == '{' || c == '}') {
        ++pos_;  // a group: its text is the title's
      } else if (c == '~') {
        out_ += ' ';
        ++pos_;
      } else if (c == '$') {
        return stop("math ($...$)");
      } else if (c == '^' || c == '_' || c == '&' || c == '#') {
        return stop(std::string("a '") + c + "' outside math");
      } else {
        out_ += c;
        ++pos_;
      }
    }
    return {};
  }

  Result<void> command() {
    const std::size_t start = pos_++;
    if (pos_ >= text_.size()) return stop("a lone backslash");
    const char next = text_[pos_];
    if (next == '\\') {  // \\, \\*, \\[1ex]: a line break
      ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '*') ++pos_;
      skip_optional_argument(text_, pos_);
      out_ += ' ';
      return {};
    }
    if (!is_letter(next)) {
      ++pos_;
      if (std::string_view("&%#_$").find(next) != std::string_view::npos) {
        out_ += next;
        return {};
      }
      if (next == ' ' || next == '\n') {
        out_ += ' ';
        return {};
      }
      return stop(std::string("\\") + next);
    }
    while (pos_ < text_.size() && is_letter(text_[pos_])) ++pos_;
    const std::string_view name = text_.substr(start + 1, pos_ - start - 1);
    if (name == "newline") {
      out_ += ' ';
      return {};
    }
    if (is_dropped(name)) return {};
    if (is_dropped_with_argument(name)) {
      skip_optional_argument(text_, pos_);
      if (!braced_argument(text_, pos_)) return stop("\\" + std::string(name) + " without a braced argument");
      return {};
    }
    if (is_text_style(name)) {
      std::size_t after = pos_;
      auto argument = braced_argument(text_, after);
      if (!argument) return stop("\\" + std::string(name) + " without a braced argument");
      TitleReader inner(*argument);
      auto text = inner.read();
      if (!text) return std::unexpected(text.error());
      out_ += *text;
      pos_ = after;
      return {};
    }
    return stop("\\" + std::string(name));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string out_;
};

}  // namespace

Result<std::string> title_argument_as_text(std::string_view argument) {
  auto text = TitleReader(argument).read();
  if (!text) return text;
  std::string collapsed;  // runs of spaces as one, none at the ends
  for (char c : *text) {
    if (is_space(c)) {
      if (!collapsed.empty() && collapsed.back() != ' ') collapsed += ' ';
    } else {
      collapsed += c;
    }
  }
  while (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
  if (collapsed.empty()) return fail(ErrorKind::not_found, "\\title", "is empty");
  return collapsed;
}

Result<std::string> read_plain_title(const fs::path& main_tex) {
  auto raw = read_bounded(main_tex);
  if (!raw) return std::unexpected(raw.error());
  const std::string text = strip_comments(*raw);
  constexpr std::string_view command = "\\title";
  for (auto at = text.find(command); at != std::string::npos; at = text.find(command, at + 1)) {
    std::size_t pos = at + command.size();
    if (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos]))) continue;  // \titlepage
    skip_optional_argument(text, pos);                                                   // \title[short]{long}
    const auto argument = braced_argument(text, pos);
    if (!argument) continue;  // \title used otherwise (e.g. in a definition)
    auto title = title_argument_as_text(*argument);
    if (!title) return fail(title.error().kind, main_tex.filename().string() + ": \\title", title.error().message);
    return title;
  }
  return fail(ErrorKind::not_found, main_tex.filename().string(), "has no \\title{...} (outside comments)");
}

std::optional<std::string> find_plain_title(const fs::path& main_tex) {
  auto title = read_plain_title(main_tex);
  if (!title) return std::nullopt;
  return *title;
}

Result<TexNumber> find_pith_number_in_text(std::string_view text, const fs::path& file) {
  Scanner scanner(std::nullopt);
  return the_number(scanner.scan_text(text, file, 0), file);
}

}  // namespace pith::tex
