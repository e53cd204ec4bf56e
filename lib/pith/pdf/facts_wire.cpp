// SPDX-License-Identifier: GPL-3.0-or-later
// The wire form of PdfFacts (pdf/facts.hpp): what the parsing child sends
// the checking process, on base/wire (a tag, then every field as length and
// bytes or a count), decoded strictly; and page 1's text alone, as the child
// reading it beside the facts sends it. Fuzzed: fuzz/pdf_facts_wire_fuzz.cpp.
#include "pith/pdf/facts.hpp"

#include "pith/base/crypto.hpp"
#include "pith/base/wire.hpp"

#include <algorithm>
#include <bit>

namespace pith::pdf {
namespace {

// --- The wire -------------------------------------------------------------

constexpr std::string_view facts_tag = "pith-pdf-facts/5";

void put_span(WireWriter& w, const std::optional<pdf::StreamSpan>& span) {
  w.flag(span.has_value());
  if (!span) return;
  w.count(span->offset);
  w.count(span->length);
}

// Real numbers travel as their bits: exact both ways.
std::uint64_t bits_of(double value) { return std::bit_cast<std::uint64_t>(value); }
double from_bits(std::uint64_t bits) { return std::bit_cast<double>(bits); }

void put_seen(WireWriter& w, const pdf::PageText& page) {
  w.bytes_list(page.seen);
  w.counts(std::vector<std::uint64_t>(page.hidden.begin(), page.hidden.end()));
  std::vector<std::uint64_t> boxes;
  for (const pdf::Box& b : page.boxes) {
    for (const double v : {b.x0, b.y0, b.x1, b.y1}) boxes.push_back(bits_of(v));
  }
  w.counts(boxes);
  w.counts({bits_of(page.page_width), bits_of(page.page_height), page.measure.glyphs, page.measure.hidden,
            page.measure.ink_renders, page.measure.bare_renders});
}

// The lines told by their glyphs: per line whether told and how many
// glyphs, then every glyph's key and claimed letters, then the keys.
void put_shapes(WireWriter& w, const pdf::PageText& page) {
  std::vector<std::uint64_t> told, counts, keys;
  std::vector<std::string> claimed;
  for (const pdf::LineShapes& line : page.shapes) {
    told.push_back(line.told ? 1 : 0);
    counts.push_back(line.glyphs.size());
    for (const pdf::ShapedGlyph& g : line.glyphs) {
      keys.push_back(g.key);
      claimed.push_back(g.claimed);
    }
  }
  w.counts(told);
  w.counts(counts);
  w.counts(keys);
  w.bytes_list(claimed);
  w.bytes_list(page.shape_keys);
}

// What put_shapes wrote; a field of the wrong form leaves `page` inconsistent.
void take_shapes(WireReader& r, pdf::PageText& page) {
  const std::vector<std::uint64_t> told = r.counts("shapes_told");
  const std::vector<std::uint64_t> counts = r.counts("shapes_counts");
  const std::vector<std::uint64_t> keys = r.counts("shapes_keys");
  std::vector<std::string> claimed = r.bytes_list("shapes_claimed");
  page.shape_keys = r.bytes_list("shape_keys");
  const auto inconsistent = [&] { page.shapes.assign(pdf::max_shaped_lines + 1, {}); };
  if (told.size() != counts.size() || keys.size() != claimed.size() || told.size() > pdf::max_shaped_lines) return inconsistent();
  std::size_t next = 0;
  for (std::size_t l = 0; l < told.size(); ++l) {
    if (told[l] > 1 || counts[l] > pdf::max_shaped_glyphs || counts[l] > keys.size() - next) return inconsistent();
    pdf::LineShapes line{told[l] == 1, {}};
    for (std::uint64_t i = 0; i < counts[l]; ++i, ++next) {
      if (keys[next] > 0xFFFFFFFFu) return inconsistent();
      line.glyphs.push_back({static_cast<std::uint32_t>(keys[next]), std::move(claimed[next])});
    }
    page.shapes.push_back(std::move(line));
  }
  if (next != keys.size()) return inconsistent();
}

// What put_seen wrote; a field of the wrong form leaves `page` inconsistent
// (PageText::inconsistency), which from_wire refuses.
void take_seen(WireReader& r, pdf::PageText& page) {
  page.seen = r.bytes_list("page_seen");
  for (const std::uint64_t h : r.counts("page_hidden")) {
    if (h > 0xFF) {  // no reason bits a child writes: refused, not mended (a message that decodes has one encoding)
      page.hidden.assign(page.lines.size() + 1, 0);
      break;
    }
    page.hidden.push_back(static_cast<std::uint8_t>(h));
  }
  const std::vector<std::uint64_t> boxes = r.counts("page_boxes");
  if (boxes.size() % 4 != 0) {
    page.boxes.assign(page.lines.size() + 1, {});  // not a whole number of boxes: inconsistent
  } else {
    for (std::size_t i = 0; i < boxes.size(); i += 4) {
      page.boxes.push_back({from_bits(boxes[i]), from_bits(boxes[i + 1]), from_bits(boxes[i + 2]), from_bits(boxes[i + 3])});
    }
  }
  const std::vector<std::uint64_t> sizes = r.counts("page_size");
  if (sizes.size() == 6) {
    page.page_width = from_bits(sizes[0]);
    page.page_height = from_bits(sizes[1]);
    page.measure = {sizes[2], sizes[3], sizes[4], sizes[5]};
  } else {
    page.page_width = -1;  // inconsistent
  }
}

// Page 1's text, as read_page_text read it (its links travel with the metadata).
void put_page(WireWriter& w, const pdf::PageText& page) {
  w.bytes_list(page.lines);
  put_seen(w, page);
  w.optional_bytes(page.problem);
  put_shapes(w, page);
}

// What put_page wrote; an inconsistent page is the caller's to refuse.
pdf::PageText take_page(WireReader& r) {
  pdf::PageText page;
  page.lines = r.bytes_list("page_lines");
  take_seen(r, page);
  page.problem = r.optional_bytes("page_problem");
  take_shapes(r, page);
  return page;
}

constexpr std::string_view page_text_tag = "pith-page-text/1";

std::optional<pdf::StreamSpan> take_span(WireReader& r, const char* field) {
  if (!r.flag(field)) return std::nullopt;
  const std::uint64_t offset = r.count(field);
  const std::uint64_t length = r.count(field);
  return pdf::StreamSpan{offset, length};
}

constexpr std::string_view signature_tag = "sig";

std::string signature_to_wire(const pdf::PdfSignature& s) {
  WireWriter w(signature_tag);
  w.bytes(s.field);
  w.bytes(s.signer);
  w.bytes(s.signed_at);
  w.bytes(s.sub_filter);
  w.optional_count(s.signed_length);
  w.optional_count(s.certification ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*s.certification))
                                   : std::nullopt);
  return w.take();
}

Result<pdf::PdfSignature> signature_from_wire(std::string_view item) {
  WireReader r(item, signature_tag);
  pdf::PdfSignature s;
  s.field = r.bytes("signature field");
  s.signer = r.bytes("signature signer");
  s.signed_at = r.bytes("signature time");
  s.sub_filter = r.bytes("signature subfilter");
  s.signed_length = r.optional_count("signature signed_length");
  const auto p = r.optional_count("signature certification");
  if (auto problem = r.finish()) return fail(ErrorKind::malformed, "the child's PDF facts", std::move(*problem));
  if (p && (*p < 1 || *p > 3)) return fail(ErrorKind::malformed, "the child's PDF facts", "signature certification: no such /P");
  if (p) s.certification = static_cast<int>(*p);
  return s;
}

void put_fingerprints(WireWriter& w, const std::optional<pdf::PageFingerprints>& pages) {
  w.flag(pages.has_value());
  if (!pages) return;
  w.count(pages->page_count);
  w.bytes_list(pages->sha256);
  w.bytes(pages->page_one_without_watermark);
  w.optional_bytes(pages->problem);
}

// Strict: hashes are lower-case hex SHA-256 (the watermark-free one may be
// empty), no more of them than pages, nor than a stamp ever records.
std::optional<pdf::PageFingerprints> take_fingerprints(WireReader& r, std::optional<std::string>& problem) {
  if (!r.flag("page_fingerprints")) return std::nullopt;
  pdf::PageFingerprints pages;
  pages.page_count = r.count("page_count");
  pages.sha256 = r.bytes_list("page_sha256");
  pages.page_one_without_watermark = r.bytes("page_one_without_watermark");
  pages.problem = r.optional_bytes("page_fingerprint_problem");
  const auto is_hash = [](const std::string& h) { return is_sha256_hex(h); };
  const bool hashes_ok = std::all_of(pages.sha256.begin(), pages.sha256.end(), is_hash) &&
                         (pages.page_one_without_watermark.empty() || is_hash(pages.page_one_without_watermark));
  if (!hashes_ok) problem = "page_sha256: not a lower-case hex SHA-256";
  if (pages.sha256.size() > pages.page_count || pages.sha256.size() > pdf::PageFingerprintLimits{}.max_pages)
    problem = "page_sha256: more hashes than pages";
  return pages;
}

}  // namespace

std::string PdfFacts::to_wire() const {
  const pdf::PdfMetadata& m = metadata;
  WireWriter w(facts_tag);
  w.optional_bytes(error);
  w.optional_bytes(m.xmp_packet);
  put_span(w, m.xmp_span);
  w.optional_bytes(m.info_number);
  w.optional_bytes(m.info_url);
  w.optional_bytes(m.info_title);
  w.optional_bytes(m.embedded_bundle);
  put_span(w, m.embedded_bundle_span);
  w.count(m.embedded_bundle_count);
  w.bytes_list(m.link_uris);
  w.flag(m.xref_section_offsets.has_value());
  if (m.xref_section_offsets) w.counts(*m.xref_section_offsets);
  w.bytes_list(m.read_problems);
  w.flag(m.pith_parts_unreadable);
  w.flag(page.has_value());
  if (page) put_page(w, *page);
  w.optional_count(stamped_length);
  w.optional_bytes(stamped_xmp_packet);
  w.optional_bytes(stamped_info_title);
  w.bytes_list(page_one_changes);
  w.flag(file_key.has_value());
  if (file_key) {
    w.count(static_cast<std::uint64_t>(file_key->cipher));
    w.bytes(file_key->key);
  }
  std::vector<std::string> signature_items;
  for (const auto& s : signatures) signature_items.push_back(signature_to_wire(s));
  w.bytes_list(signature_items);
  put_fingerprints(w, page_fingerprints);
  return w.take();
}

Result<PdfFacts> PdfFacts::from_wire(std::string_view message) {
  WireReader r(message, facts_tag);
  PdfFacts f;
  pdf::PdfMetadata& m = f.metadata;
  f.error = r.optional_bytes("error");
  m.xmp_packet = r.optional_bytes("xmp_packet");
  m.xmp_span = take_span(r, "xmp_span");
  m.info_number = r.optional_bytes("info_number");
  m.info_url = r.optional_bytes("info_url");
  m.info_title = r.optional_bytes("info_title");
  m.embedded_bundle = r.optional_bytes("embedded_bundle");
  m.embedded_bundle_span = take_span(r, "embedded_bundle_span");
  m.embedded_bundle_count = static_cast<std::size_t>(r.count("embedded_bundle_count"));
  m.link_uris = r.bytes_list("link_uris");
  if (r.flag("xref_section_offsets")) m.xref_section_offsets = r.counts("xref_section_offsets");
  m.read_problems = r.bytes_list("read_problems");
  m.pith_parts_unreadable = r.flag("pith_parts_unreadable");
  if (r.flag("page")) {
    pdf::PageText page = take_page(r);
    if (auto why = page.inconsistency()) return fail(ErrorKind::malformed, "the child's PDF facts", "page 1: " + *why);
    page.link_uris = m.link_uris;  // page 1's links are the metadata's (read_page_text copies them)
    f.page = std::move(page);
  }
  f.stamped_length = r.optional_count("stamped_length");
  f.stamped_xmp_packet = r.optional_bytes("stamped_xmp_packet");
  f.stamped_info_title = r.optional_bytes("stamped_info_title");
  f.page_one_changes = r.bytes_list("page_one_changes");
  // A value no reader writes is refused, not mended: a message that decodes
  // has one encoding.
  std::optional<std::string> invalid;
  if (r.flag("file_key")) {
    const std::uint64_t cipher = r.count("file_key_cipher");
    pdf::FileKey key{static_cast<pdf::FileKey::Cipher>(cipher), r.bytes("file_key")};
    if (cipher < 1 || cipher > 3 || key.key.empty() || key.key.size() > 32) invalid = "file_key: no such cipher or key length";
    f.file_key = std::move(key);
  }
  const std::vector<std::string> signature_items = r.bytes_list("signatures");
  std::optional<std::string> bad_fingerprints;
  f.page_fingerprints = take_fingerprints(r, bad_fingerprints);
  if (auto problem = r.finish()) return fail(ErrorKind::malformed, "the child's PDF facts", std::move(*problem));
  if (invalid) return fail(ErrorKind::malformed, "the child's PDF facts", std::move(*invalid));
  if (bad_fingerprints) return fail(ErrorKind::malformed, "the child's PDF facts", std::move(*bad_fingerprints));
  for (const auto& item : signature_items) {
    auto signature = signature_from_wire(item);
    if (!signature) return std::unexpected(signature.error());
    f.signatures.push_back(std::move(*signature));
  }
  return f;
}

bool operator==(const PdfFacts& a, const PdfFacts& b) { return a.to_wire() == b.to_wire(); }

std::string page_text_to_wire(const PageText& page) {
  WireWriter w(page_text_tag);
  put_page(w, page);
  return w.take();
}

Result<PageText> page_text_from_wire(std::string_view message, std::vector<std::string> link_uris) {
  WireReader r(message, page_text_tag);
  PageText page = take_page(r);
  if (auto problem = r.finish()) return fail(ErrorKind::malformed, "the child's page 1 text", std::move(*problem));
  if (auto why = page.inconsistency()) return fail(ErrorKind::malformed, "the child's page 1 text", *why);
  page.link_uris = std::move(link_uris);
  return page;
}

}  // namespace pith::pdf
