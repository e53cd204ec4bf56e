// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/page_fingerprint.hpp"

#include "pith/base/crypto.hpp"
#include "pith/base/utf8.hpp"
#include "pith/pdf/poppler_document.hpp"

#include <PDFDoc.h>
#include <TextOutputDev.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <regex>
#include <utf8proc.h>

namespace pith::pdf {
namespace {

// TextOutputDev's sink: the page's text, appended as poppler writes it.
void append_text(void* stream, const char* text, int length) {
  static_cast<std::string*>(stream)->append(text, static_cast<std::size_t>(length));
}

// One page's text and the operators it took (PageFingerprintLimits), read
// whole or not at all.
struct PageRead {
  std::string text;
  std::uint64_t operators = 0;
  bool whole = true;  // false: stopped at the page's operator limit
};

// One page's text in the content stream's order (pdftotext -raw; what
// poppler-cpp's page::text(raw_order_layout) gave pith 0.x's stamps), at 72
// dpi over the CropBox, within `budget` (untimed: the same page always
// stops at the same operator).
PageRead raw_order_text(PDFDoc& document, int page, DrawBudget& budget) {
  PageRead read;
  TextOutputDev device(append_text, &read.text, /*physLayout=*/false, /*fixedPitch=*/0, /*rawOrder=*/true, /*append=*/false);
  read.whole = display_page(document, device, page, 72, budget);
  read.operators = budget.pass_operators();
  return read;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const Utf8Step step = next_utf8(text);
    out.append(step.code_point < 0 ? std::string_view("\xEF\xBF\xBD") : text.substr(0, step.length));
    text.remove_prefix(step.length);
  }
  return out;
}

std::string nfkc(const std::string& text) {
  utf8proc_uint8_t* mapped = nullptr;
  const utf8proc_ssize_t length =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()), static_cast<utf8proc_ssize_t>(text.size()),
                   &mapped, static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT));
  if (length < 0 || mapped == nullptr) return text;  // not reached: the text is valid UTF-8
  std::string out(reinterpret_cast<const char*>(mapped), static_cast<std::size_t>(length));
  std::free(mapped);
  return out;
}

// Unicode White_Space: the separators (Zs, Zl, Zp) and the C0/C1 controls
// TAB, LF, VT, FF, CR and NEL.
bool is_white_space(std::int32_t cp) {
  if ((cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85) return true;
  if (cp < 0x80) return false;  // of ASCII, only those
  const auto category = utf8proc_category(cp);
  return category == UTF8PROC_CATEGORY_ZS || category == UTF8PROC_CATEGORY_ZL || category == UTF8PROC_CATEGORY_ZP;
}

bool is_ascii(char c) { return static_cast<unsigned char>(c) < 0x80; }

// Steps 1-2 of the rule (valid UTF-8, then NFKC), with utf8proc only where
// the text is not ASCII: a page of a paper is mostly ASCII, and utf8proc
// was a fifth of a stamp's fingerprinting. Exact, because NFKC is the same
// on either side of a boundary before an ASCII character (a starter that no
// canonical composition takes as its second part, NFKC_QC=Yes): each
// stretch of non-ASCII bytes is normalised with the one ASCII character
// before it (a base that a combining mark may compose with, e + U+0301 =
// é), up to the next ASCII character. page_fingerprint_test holds this
// against the whole-text form.
std::string valid_nfkc(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t stretch = static_cast<std::size_t>(
        std::find_if_not(text.begin() + static_cast<std::ptrdiff_t>(at), text.end(), is_ascii) - text.begin());
    if (stretch == text.size()) break;
    const std::size_t base = stretch > at ? stretch - 1 : stretch;  // the ASCII character before, if this run has one
    out.append(text.substr(at, base - at));
    const std::size_t end = static_cast<std::size_t>(
        std::find_if(text.begin() + static_cast<std::ptrdiff_t>(stretch), text.end(), is_ascii) - text.begin());
    out += nfkc(valid_utf8(text.substr(base, end - base)));
    at = end;
  }
  out.append(text.substr(std::min(at, text.size())));
  return out;
}

std::string collapse_white_space(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  while (!text.empty()) {
    const Utf8Step step = is_ascii(text.front()) ? Utf8Step{static_cast<unsigned char>(text.front()), 1} : next_utf8(text);
    if (step.code_point >= 0 && is_white_space(step.code_point)) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out.push_back(' ');
      pending_space = false;
      out.append(text.substr(0, step.length));
    }
    text.remove_prefix(step.length);
  }
  return out;
}

// arXiv's margin line, normalised: `arXiv:2106.02679v1 [cs.LG] 4 Jun 2021`
// (old-style ids too: `arXiv:hep-th/9901001v2 [hep-th] 1 Jan 1999`).
const std::regex& watermark_pattern() {
  static const std::regex pattern(
      R"(arXiv:([0-9]{4}\.[0-9]{4,5}|[a-z-]+(\.[A-Z]{2})?/[0-9]{7})(v[0-9]+)? \[[^\]]{1,40}\] [0-9]{1,2} [A-Z][a-z]{2} [0-9]{4})");
  return pattern;
}
// Page 1's text longer than this is not searched for a watermark.
constexpr std::size_t max_watermark_search_bytes = 256 * 1024;

// `collapsed` (white space runs as one space) without arXiv's watermark
// line, or nullopt when it has none. The first match regex_search would find
// is tried only where "arXiv:" stands, in order (every match begins there):
// the same match, without compiling the pattern for a page that has none or
// running it from every byte of a long one (issue 32).
std::optional<std::string> without_watermark(const std::string& collapsed) {
  if (collapsed.size() > max_watermark_search_bytes) return std::nullopt;
  for (std::size_t at = collapsed.find("arXiv:"); at != std::string::npos; at = collapsed.find("arXiv:", at + 1)) {
    std::smatch match;
    const auto from = collapsed.begin() + static_cast<std::ptrdiff_t>(at);
    if (!std::regex_search(from, collapsed.end(), match, watermark_pattern(),
                           std::regex_constants::match_continuous | std::regex_constants::match_prev_avail))
      continue;
    return collapsed.substr(0, at) + collapsed.substr(at + static_cast<std::size_t>(match.length(0)));
  }
  return std::nullopt;
}

std::string without_spaces(std::string text) {
  std::erase(text, ' ');
  return text;
}

// Steps 1-2 of the rule, with white space runs as one space (the form the
// watermark is searched in).
std::string collapsed_text(std::string_view text) { return collapse_white_space(valid_nfkc(text)); }

std::optional<std::uint64_t> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 12 || (text.size() > 1 && text.front() == '0')) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::string normalise_page_text(std::string_view text) { return without_spaces(collapsed_text(text)); }

std::string PageFingerprints::to_property() const {
  std::string out(page_text_rule);
  out += " " + std::to_string(page_count);
  for (const auto& hash : sha256) out += " " + hash;
  return out;
}

Result<PageFingerprints> PageFingerprints::from_property(std::string_view value) {
  const auto bad = [](std::string why) { return fail(ErrorKind::malformed, "XMP pith:pageTextSha256", std::move(why)); };
  std::vector<std::string_view> fields;
  for (std::size_t at = 0;;) {
    const auto space = value.find(' ', at);
    fields.push_back(value.substr(at, space == std::string_view::npos ? std::string_view::npos : space - at));
    if (space == std::string_view::npos) break;
    at = space + 1;
  }
  if (fields.front() != page_text_rule) {
    return bad("does not start with the rule " + std::string(page_text_rule) + " (written by a newer pith?)");
  }
  if (fields.size() < 3) return bad("holds no page hash");
  const auto pages = parse_count(fields[1]);
  if (!pages) return bad("has no decimal page count");
  PageFingerprints out;
  out.page_count = *pages;
  if (fields.size() - 2 > *pages) return bad("holds more page hashes than pages");
  for (std::size_t i = 2; i < fields.size(); ++i) {
    if (!is_sha256_hex(fields[i])) return bad("page " + std::to_string(i - 1) + "'s hash is not a lower-case hex SHA-256");
    out.sha256.emplace_back(fields[i]);
  }
  return out;
}

namespace {

// How many pages the first of two shares reads of `read`: half, rounded
// up, moved by the difference of their heads; at least page 1.
std::uint64_t first_of_two(std::uint64_t read, const std::array<unsigned, 2>& head) {
  const auto pages = static_cast<std::int64_t>(read);
  const std::int64_t lead = static_cast<std::int64_t>(std::min(head[1], max_share_head)) -
                            static_cast<std::int64_t>(std::min(head[0], max_share_head));
  const std::int64_t wanted = pages + lead;
  const std::int64_t half = wanted >= 0 ? (wanted + 1) / 2 : -((-wanted) / 2);
  return static_cast<std::uint64_t>(std::clamp<std::int64_t>(half, std::min<std::int64_t>(pages, 1), pages));
}

// The first and one-past-last page (1-based) of `share` among `pages`.
std::pair<std::uint64_t, std::uint64_t> pages_of_share(std::uint64_t pages, PageShare share,
                                                       const PageFingerprintLimits& limits) {
  const std::uint64_t read = std::min<std::uint64_t>(pages, limits.max_pages);
  const unsigned of = std::max(share.of, 1u);
  if (of == 2) {
    const std::uint64_t split = 1 + first_of_two(read, share.head);
    return share.index == 0 ? std::pair{std::uint64_t{1}, split} : std::pair{split, 1 + read};
  }
  // Rounded up: the first share holds page 1 whenever a page is read.
  const auto start = [&](unsigned i) { return 1 + (read * std::min(i, of) + of - 1) / of; };
  return {start(share.index), start(share.index + 1)};
}

// Pages [first, end) of `document` read into `run` (page 1's watermark-free
// hash into `page_one_without_watermark`, when it is read).
void read_pages(PDFDoc& document, std::uint64_t first, std::uint64_t end, const PageFingerprintLimits& limits,
                PageTextRun& run, std::string& page_one_without_watermark) {
  DrawBudget budget(limits.max_page_operators, /*time=*/std::nullopt);
  std::uint64_t text_bytes = 0, operators = 0;
  for (std::uint64_t page = first; page < end && text_bytes < limits.max_text_bytes && operators < limits.max_operators;
       ++page) {
    const PageRead read = raw_order_text(document, static_cast<int>(page), budget);
    if (!read.whole) break;  // a page too heavy to read: neither it nor a later one is fingerprinted
    const std::string& text = read.text;
    text_bytes += text.size();
    operators += read.operators;
    const std::string collapsed = collapsed_text(text);
    run.sha256.push_back(sha256_hex(without_spaces(collapsed)));
    run.text_bytes.push_back(text.size());
    run.work.push_back(read.operators);
    if (page == 1) {
      if (const auto rest = without_watermark(collapsed)) page_one_without_watermark = sha256_hex(without_spaces(*rest));
    }
  }
}

PageTextRun read_share(std::string_view bytes, PageShare share, const PageFingerprintLimits& limits,
                       std::string& page_one_without_watermark) {
  PageTextRun run;
  try {
    const Result<std::unique_ptr<PDFDoc>> opened = open_for_text(bytes);
    if (!opened) {
      run.problem = opened.error().message;
      return run;
    }
    PDFDoc& document = **opened;
    run.page_count = static_cast<std::uint64_t>(document.getNumPages());
    const auto [first, end] = pages_of_share(run.page_count, share, limits);
    run.first_page = first;
    read_pages(document, first, end, limits, run, page_one_without_watermark);
  } catch (const std::exception& e) {
    run.problem = std::string("the pages' text could not be read: ") + e.what();
  }
  return run;
}

}  // namespace

PageTextRun fingerprint_page_share(std::string_view bytes, PageShare share, const PageFingerprintLimits& limits) {
  std::string unused;
  return read_share(bytes, share, limits, unused);
}

PageFingerprints join_page_runs(const std::vector<PageTextRun>& runs, const PageFingerprintLimits& limits) {
  PageFingerprints out;
  std::uint64_t next = 1, text_bytes = 0, operators = 0;
  for (const PageTextRun& run : runs) {
    if (&run == &runs.front()) out.page_count = run.page_count;
    if (run.first_page != next || run.page_count != out.page_count) break;
    for (std::size_t i = 0; i < run.sha256.size(); ++i) {
      if (out.sha256.size() >= limits.max_pages || text_bytes >= limits.max_text_bytes || operators >= limits.max_operators)
        return out;
      out.sha256.push_back(run.sha256[i]);
      text_bytes += i < run.text_bytes.size() ? run.text_bytes[i] : 0;
      operators += i < run.work.size() ? run.work[i] : 0;
      ++next;
    }
    if (run.problem) {  // the pages read before it went wrong are kept, as one reading keeps them
      out.problem = run.problem;
      break;
    }
  }
  if (out.sha256.empty() && !out.problem) out.problem = "no page's text could be read";
  return out;
}

PageFingerprints fingerprint_pages(std::string_view bytes, const PageFingerprintLimits& limits) {
  std::string page_one_without_watermark;
  PageFingerprints out = join_page_runs({read_share(bytes, PageShare{}, limits, page_one_without_watermark)}, limits);
  out.page_one_without_watermark = std::move(page_one_without_watermark);
  return out;
}

PageTextComparison compare_page_text(const PageFingerprints& stamped, const PageFingerprints& now) {
  PageTextComparison c;
  c.page_count_changed = stamped.page_count != now.page_count;
  const std::size_t common = std::min(stamped.sha256.size(), now.sha256.size());
  c.pages_compared = common;
  for (std::size_t i = 0; i < common; ++i) {
    if (stamped.sha256[i] == now.sha256[i]) continue;
    if (i == 0 && !now.page_one_without_watermark.empty() && stamped.sha256[0] == now.page_one_without_watermark) {
      c.watermark_only_on_page_one = true;
      continue;
    }
    c.changed_pages.push_back(i + 1);
  }
  return c;
}

}  // namespace pith::pdf
