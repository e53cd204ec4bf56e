// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/examine_wire.hpp"

#include "pith/base/crypto.hpp"
#include "pith/base/wire.hpp"
#include "pith/signed_json/strict.hpp"

#include <algorithm>

namespace pith::stamp {
namespace {

constexpr WireNames<pdf::StampOutcome, 3> outcome_names{{
    {pdf::StampOutcome::stamped, "stamped"},
    {pdf::StampOutcome::already_stamped, "already_stamped"},
    {pdf::StampOutcome::conflict, "conflict"},
}};

constexpr WireNames<ExamineAsk, 6> ask_names{{
    {ExamineAsk::read, "read"},
    {ExamineAsk::plan, "plan"},
    {ExamineAsk::pages, "pages"},
    {ExamineAsk::finish, "finish"},
    {ExamineAsk::check, "check"},
    {ExamineAsk::facts, "facts"},
}};

// A page 1 no screen could show: larger sides are a child making things up.
constexpr std::uint64_t max_page_pixels_side = 1u << 16;

// Where decoding is: the input the children read, for the messages.
struct Decoding {
  std::string_view input;
  [[nodiscard]] Error malformed(const std::string& problem) const {
    return Error{ErrorKind::internal, std::string(input), "reading the PDF sent back a malformed result (" + problem + ")"};
  }
};

void put_rect(WireWriter& w, const std::optional<pdf::PdfRect>& rect) {
  w.flag(rect.has_value());
  if (!rect) return;
  for (const double v : *rect) w.real(v);
}

std::optional<pdf::PdfRect> take_rect(WireReader& r, const char* field) {
  if (!r.flag(field)) return std::nullopt;
  pdf::PdfRect rect{};
  for (double& v : rect) v = r.real(field);
  return rect;
}

void put_page_one(WireWriter& w, const std::optional<pdf::PageFingerprint>& page) {
  w.flag(page.has_value());
  if (!page) return;
  w.count(static_cast<std::uint64_t>(page->width));
  w.count(static_cast<std::uint64_t>(page->height));
  w.bytes(page->sha256);
}

// Strict: sides 1..2^16, the hash 64 lower-case hex digits.
std::optional<pdf::PageFingerprint> take_page_one(WireReader& r, std::optional<std::string>& problem) {
  if (!r.flag("page_one")) return std::nullopt;
  const std::uint64_t width = r.count("page_one width");
  const std::uint64_t height = r.count("page_one height");
  std::string sha256 = r.bytes("page_one sha256", 64);
  if (r.problem()) return std::nullopt;
  if (width == 0 || height == 0 || width > max_page_pixels_side || height > max_page_pixels_side) {
    if (!problem) problem = "page_one has no such size";
    return std::nullopt;
  }
  if (!is_sha256_hex(sha256)) {
    if (!problem) problem = "page_one sha256 is not a SHA-256 in hex";
    return std::nullopt;
  }
  return pdf::PageFingerprint{static_cast<int>(width), static_cast<int>(height), std::move(sha256)};
}

void put_run(WireWriter& w, const pdf::PageTextRun& run) {
  w.count(run.page_count);
  w.count(run.first_page);
  w.bytes_list(run.sha256);
  w.counts(run.text_bytes);
  w.counts(run.work);
  w.optional_bytes(run.problem);
}

// Strict: a first page from 1, no more hashes than pages nor than are ever
// read, each a lower-case hex SHA-256 with its text's size beside it.
pdf::PageTextRun take_run(WireReader& r, std::optional<std::string>& problem) {
  pdf::PageTextRun run;
  run.page_count = r.count("pages page_count");
  run.first_page = r.count("pages first_page");
  run.sha256 = r.bytes_list("pages sha256");
  run.text_bytes = r.counts("pages text_bytes");
  run.work = r.counts("pages work");
  if (r.flag("pages problem")) run.problem = r.bytes("pages problem", max_examine_text_bytes);
  if (r.problem() || problem) return run;
  const std::uint64_t most = pdf::PageFingerprintLimits{}.max_pages;
  if (run.first_page == 0 || run.sha256.size() > most || run.sha256.size() != run.text_bytes.size() || run.sha256.size() != run.work.size() ||
      run.sha256.size() > run.page_count || run.first_page - 1 > run.page_count - run.sha256.size()) {
    problem = "pages holds no such run of pages";
  } else if (!std::all_of(run.sha256.begin(), run.sha256.end(), [](const std::string& h) { return is_sha256_hex(h); })) {
    problem = "pages holds a hash that is not a SHA-256 in hex";
  }
  return run;
}

void put_texts(WireWriter& w, const std::vector<std::string>& texts) { w.bytes_list(texts); }

std::vector<std::string> take_texts(WireReader& r, const char* field, std::optional<std::string>& problem) {
  std::vector<std::string> texts = r.bytes_list(field);
  for (const auto& t : texts) {
    if (t.size() > max_examine_text_bytes && !problem) problem = std::string(field) + " holds a text past its bound";
  }
  return texts;
}

// The first problem of `r` (trailing bytes included) or of the checks made on the side.
std::optional<std::string> problem_of(WireReader& r, std::optional<std::string>& side) {
  if (auto problem = r.finish()) return problem;
  return side;
}

Result<ExamineRead> decode_read(std::string_view message, const Decoding& d) {
  WireReader r(message, examine_read_tag, examine_wire_version);
  std::optional<std::string> side;
  ExamineRead read;
  if (r.flag("number")) read.number = r.bytes("number", max_examine_text_bytes);
  read.from = r.bytes("from", max_examine_text_bytes);
  const std::uint64_t titles = r.count("titles");
  for (std::uint64_t i = 0; i < titles && !r.problem(); ++i) {
    std::string where = r.bytes("title where", max_examine_text_bytes);
    std::string title = r.bytes("title", max_examine_text_bytes);
    read.titles.push_back({std::move(where), std::move(title)});
  }
  if (r.flag("outcome")) read.outcome = r.named("outcome", outcome_names);
  read.badge_rect = take_rect(r, "badge_rect");
  if (auto problem = problem_of(r, side)) return std::unexpected(d.malformed(*problem));
  return read;
}

Result<ExaminePlan> decode_plan(std::string_view message, const Decoding& d) {
  WireReader r(message, examine_plan_tag, examine_wire_version);
  std::optional<std::string> side;
  ExaminePlan plan;
  plan.original_sha256 = r.bytes("original_sha256", 64);
  plan.original_length = r.count("original_length");
  plan.notes = take_texts(r, "notes", side);
  plan.warnings = take_texts(r, "warnings", side);
  plan.page_lines = take_texts(r, "page_lines", side);
  if (r.flag("previous_number")) plan.previous_number = r.bytes("previous_number", max_examine_text_bytes);
  plan.pages = r.optional_count("pages");
  plan.badge_rect = take_rect(r, "badge_rect");
  plan.page_one = take_page_one(r, side);
  plan.update = r.bytes("update");
  if (auto problem = problem_of(r, side)) return std::unexpected(d.malformed(*problem));
  // Empty for a plan that writes nothing (already stamped, a conflict).
  if (!plan.original_sha256.empty() && !is_sha256_hex(plan.original_sha256))
    return std::unexpected(d.malformed("original_sha256 is not a SHA-256 in hex"));
  return plan;
}

// A message that is the child's error: that error (or why it is malformed).
std::optional<Error> sent_error(std::string_view message, const Decoding& d) {
  if (wire_tag(message) != error_message_tag) return std::nullopt;
  auto error = decode_error_message(message);
  return error ? *error : d.malformed(error.error().message);
}

// The next framed message of `rest`, as a T decoded by `decode`, or the child's error.
template <class T, class Decode>
Result<T> next_message(std::string_view& rest, const Decoding& d, const Decode& decode) {
  const auto message = take_framed(rest);
  if (!message) return std::unexpected(d.malformed("a message is cut short"));
  if (auto error = sent_error(*message, d)) return std::unexpected(*error);
  return decode(*message, d);
}

}  // namespace

std::string encode(const ExamineRead& read) {
  WireWriter w(examine_read_tag, examine_wire_version);
  w.optional_bytes(read.number);
  w.bytes(read.from);
  w.count(read.titles.size());
  for (const auto& t : read.titles) {
    w.bytes(t.where);
    w.bytes(t.title);
  }
  w.flag(read.outcome.has_value());
  if (read.outcome) w.named(*read.outcome, outcome_names);
  put_rect(w, read.badge_rect);
  return w.take();
}

std::string encode(const ExaminePlan& plan) {
  WireWriter w(examine_plan_tag, examine_wire_version);
  w.bytes(plan.original_sha256);
  w.count(plan.original_length);
  put_texts(w, plan.notes);
  put_texts(w, plan.warnings);
  put_texts(w, plan.page_lines);
  w.optional_bytes(plan.previous_number);
  w.optional_count(plan.pages);
  put_rect(w, plan.badge_rect);
  put_page_one(w, plan.page_one);
  w.bytes(plan.update);
  return w.take();
}

std::string encode(const PageOneDrawn& drawn) {
  WireWriter w(page_one_tag, examine_wire_version);
  put_page_one(w, drawn.page_one);
  w.flag(drawn.pages.has_value());
  if (drawn.pages) put_run(w, *drawn.pages);
  return w.take();
}

std::string encode_written_checked() { return WireWriter(written_checked_tag, examine_wire_version).take(); }

std::string encode(const pdf::PageTextRun& pages) {
  WireWriter w(pages_read_tag, examine_wire_version);
  put_run(w, pages);
  return w.take();
}

std::string encode(const ExamineRequest& request) {
  WireWriter w(examine_request_tag, examine_wire_version);
  w.named(request.ask, ask_names);
  w.flag(request.printed_number_wanted);
  w.bytes(request.document);
  w.flag(request.restamp);
  w.flag(request.draw_page_one);
  w.count(request.share.index);
  w.count(request.share.of);
  w.count(request.share.head[0]);
  w.count(request.share.head[1]);
  w.bytes(request.original_sha256);
  w.bytes(request.page_text_sha256);
  w.bytes(request.written_path);
  w.bytes(request.name);
  put_page_one(w, request.page_one);
  return w.take();
}

Result<ExamineRequest> decode_examine_request(std::string_view message) {
  WireReader r(message, examine_request_tag, examine_wire_version);
  ExamineRequest request;
  request.ask = r.named("ask", ask_names);
  request.printed_number_wanted = r.flag("printed_number_wanted");
  request.document = r.bytes("document", signed_json::StrictJsonLimits{}.max_bytes);
  request.restamp = r.flag("restamp");
  request.draw_page_one = r.flag("draw_page_one");
  const std::uint64_t share_index = r.count("share index"), share_of = r.count("share of");
  const std::uint64_t head_first = r.count("share head first"), head_second = r.count("share head second");
  request.original_sha256 = r.bytes("original_sha256", 64);
  request.page_text_sha256 = r.bytes("page_text_sha256", max_examine_text_bytes);
  request.written_path = r.bytes("written_path", max_examine_text_bytes);
  request.name = r.bytes("name", max_examine_text_bytes);
  std::optional<std::string> side;
  request.page_one = take_page_one(r, side);
  if (!side && !request.original_sha256.empty() && !is_sha256_hex(request.original_sha256))
    side = "original_sha256 is not a SHA-256 in hex";
  if (!side && (share_of == 0 || share_of > 2 || share_index >= share_of)) side = "share names no share of the pages";
  if (!side && (head_first > pdf::max_share_head || head_second > pdf::max_share_head)) side = "a share's head is out of range";
  request.share = pdf::PageShare{static_cast<unsigned>(share_index), static_cast<unsigned>(share_of),
                                 {static_cast<unsigned>(std::min<std::uint64_t>(head_first, pdf::max_share_head)),
                                  static_cast<unsigned>(std::min<std::uint64_t>(head_second, pdf::max_share_head))}};
  if (auto problem = problem_of(r, side)) return fail(ErrorKind::internal, "", "a malformed request to the examining worker (" + *problem + ")");
  return request;
}

Result<ExamineAnswer> decode_examine_answer(std::string_view sent, std::string_view input) {
  const Decoding d{input};
  std::string_view rest = sent;
  auto read = next_message<ExamineRead>(rest, d, decode_read);
  if (!read) return std::unexpected(read.error());
  ExamineAnswer answer{std::move(*read), std::nullopt};
  if (answer.read.outcome) {
    auto plan = next_message<ExaminePlan>(rest, d, decode_plan);
    if (!plan) return std::unexpected(plan.error());
    answer.plan = std::move(*plan);
  }
  if (!rest.empty()) return std::unexpected(d.malformed(std::to_string(rest.size()) + " bytes follow the last message"));
  return answer;
}

std::optional<ExamineRead> decode_early_read(std::string_view received) {
  const auto message = take_framed(received);
  if (!message) return std::nullopt;
  auto read = decode_read(*message, Decoding{});
  if (!read || !read->outcome) return std::nullopt;
  return std::move(*read);
}

PageOneDrawn decode_page_one(std::string_view sent) {
  WireReader r(sent, page_one_tag, examine_wire_version);
  std::optional<std::string> side;
  PageOneDrawn drawn{take_page_one(r, side), std::nullopt};
  if (r.flag("pages")) drawn.pages = take_run(r, side);
  if (problem_of(r, side)) return PageOneDrawn{};
  return drawn;
}

Result<void> decode_written_checked(std::string_view sent, std::string_view input) {
  const Decoding d{input};
  if (auto error = sent_error(sent, d)) return std::unexpected(*error);
  WireReader r(sent, written_checked_tag, examine_wire_version);
  if (auto problem = r.finish()) return std::unexpected(d.malformed(*problem));
  return {};
}

Result<pdf::PageTextRun> decode_pages_read(std::string_view sent, std::string_view input) {
  const Decoding d{input};
  if (auto error = sent_error(sent, d)) return std::unexpected(*error);
  WireReader r(sent, pages_read_tag, examine_wire_version);
  std::optional<std::string> side;
  auto run = take_run(r, side);
  if (auto problem = problem_of(r, side)) return std::unexpected(d.malformed(*problem));
  return run;
}

}  // namespace pith::stamp
