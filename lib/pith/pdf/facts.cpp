// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/facts.hpp"

#include "pith/base/crypto.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/carrier/vocabulary.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <set>
#include <climits>
#include <span>
#include <memory>
#include <openssl/evp.h>
#include <zlib.h>

namespace pith::pdf {
namespace {

// --- The child's half -----------------------------------------------------

// The error as a message about the file `name` (front ends print the file
// name themselves: "pith-check: paper.pdf: …").
std::string message_about(const Error& error, std::string_view name) {
  std::string text = error.describe();
  const std::string prefix = std::string(name) + ": ";
  if (text.starts_with(prefix)) text.erase(0, prefix.size());
  return text;
}

// Whether the metadata may name a Pith Number: only then is page 1 worth
// reading (poppler is the child's largest cost). A hint, not a judgement.
bool hints_at_number(const pdf::PdfMetadata& m) {
  if (m.info_number || m.info_url || m.embedded_bundle) return true;
  if (m.xmp_packet && m.xmp_packet->find("pith") != std::string::npos) return true;
  return std::any_of(m.link_uris.begin(), m.link_uris.end(),
                     [](const std::string& uri) { return pdf::resolver_url_id(uri).has_value(); });
}

// The decimal after `originalLength` in the packet (element or attribute
// form), without parsing the XMP: the child only decides what to read; the
// parent parses the packet and uses what was read only for the same length.
std::optional<std::uint64_t> original_length_hint(std::string_view packet) {
  const std::string_view name = carrier::xmp_original_length;
  const auto at = packet.find(name);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = packet.substr(at + name.size());
  std::size_t skip = 0;
  while (skip < rest.size() && skip < 4 && std::string_view(">=\"' ").find(rest[skip]) != std::string_view::npos) ++skip;
  rest.remove_prefix(skip);
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + std::min<std::size_t>(rest.size(), 20), value);
  if (ec != std::errc() || end == rest.data()) return std::nullopt;
  return value;
}

bool revisions_follow(const pdf::Reader& reader, std::uint64_t length) {
  const auto& sections = reader.section_offsets();
  if (std::any_of(sections.begin(), sections.end(), [&](std::uint64_t s) { return s >= length; })) return true;
  return count_revision_ends(reader.bytes(), static_cast<std::size_t>(length)) > 0;
}

// Where pith's own update ends: the revision right after the stamped bytes
// (the first `length`) is the one pith-stamp appended (its badge, its
// metadata); its `%%EOF` ends it. Changes after that are someone else's.
std::uint64_t end_of_pith_update(const pdf::Reader& reader, std::uint64_t length) {
  const std::string_view bytes = reader.bytes();
  std::uint64_t section = bytes.size();
  for (const std::uint64_t s : reader.section_offsets()) {
    if (s >= length) section = std::min(section, s);
  }
  if (section >= bytes.size()) section = length;  // the sections were not read: the tails count
  const auto eof = bytes.find("%%EOF", static_cast<std::size_t>(section));
  if (eof == std::string_view::npos) return bytes.size();
  std::size_t end = eof + 5;
  while (end < bytes.size() && (bytes[end] == '\r' || bytes[end] == '\n')) ++end;
  return end;
}

// Everything page 1 draws, as objects: the page, its contents, resources
// (fonts and their programs, form and image XObjects, graphics states,
// colour spaces, patterns, shadings, optional-content properties, nested
// form resources), its annotations with their appearance streams, and the
// page tree nodes above it (inherited resources and boxes). Those whose
// current definition lies at or after `end` were changed by a later
// revision; named by what they are to page 1. Bounded: a hostile file's
// object graph is walked at most `max_objects` deep.
std::vector<std::string> page_one_objects_after(const pdf::Reader& reader, std::uint64_t end) {
  constexpr std::size_t max_objects = 4000;
  const auto defined_after = [&](pdf::ObjectId id) {
    pdf::XrefEntry e = reader.entry(id.number);
    if (e.kind == pdf::XrefEntry::Kind::in_object_stream) e = reader.entry(e.stream_number);
    return e.kind == pdf::XrefEntry::Kind::in_file && e.offset >= end;
  };
  // Keys that lead away from what page 1 draws: other pages, actions,
  // structure, outlines, thumbnails, metadata.
  static const std::set<std::string, std::less<>> skipped = {
      "Parent", "P", "Dest", "A", "AA", "PA", "Next", "Prev", "First", "Last", "Kids", "Popup", "IRT", "B",
      "Thumb", "Metadata", "PieceInfo", "StructParent", "StructParents", "Threads", "SE", "Sound", "Movie"};
  std::set<std::uint32_t> seen;
  std::vector<std::pair<std::string, std::vector<std::string>>> changed;  // what, in first-met order
  const auto note = [&](const std::string& what, pdf::ObjectId id) {
    if (!defined_after(id)) return;
    auto it = std::find_if(changed.begin(), changed.end(), [&](const auto& c) { return c.first == what; });
    if (it == changed.end()) it = changed.insert(changed.end(), {what, {}});
    it->second.push_back(pdf::to_string(id));
  };
  // "its annotations (46 0 R, 47 0 R)"
  const auto named = [&] {
    std::vector<std::string> out;
    for (const auto& [what, ids] : changed) {
      std::string list;
      for (const auto& id : ids) list += (list.empty() ? "" : ", ") + id;
      out.push_back(what + " (" + list + ")");
    }
    return out;
  };
  // Depth-first over the values below `value`, naming each object by the
  // page-1 key it hangs from.
  std::function<void(const PoDoFo::PdfObject&, const std::string&, int)> walk = [&](const PoDoFo::PdfObject& value,
                                                                                  const std::string& what, int depth) {
    if (depth > 64 || seen.size() >= max_objects) return;
    if (const auto id = pdf::reference_of(value)) {
      if (!seen.insert(id->number).second) return;
      note(what, *id);
      auto object = reader.object(*id);
      if (object) walk(*object, what, depth + 1);
      return;
    }
    if (value.IsArray()) {
      for (const auto& item : value.GetArray()) walk(item, what, depth + 1);
    } else if (value.IsDictionary()) {
      for (const auto& [key, item] : value.GetDictionary().GetKeys()) {
        if (!skipped.contains(key.GetName())) walk(*item, what, depth + 1);
      }
    }
  };
  auto page = reader.first_page();
  if (!page) return {};
  note("page 1", page->id);
  seen.insert(page->id.number);
  const std::pair<const char*, const char*> parts[] = {{"Contents", "its contents"},
                                                       {"Resources", "its resources"},
                                                       {"Annots", "its annotations"},
                                                       {"Group", "its transparency group"}};
  for (const auto& [key, what] : parts) {
    if (const PoDoFo::PdfObject* part = page->dictionary.GetKey(PoDoFo::PdfName(key))) walk(*part, what, 0);
  }
  // The page tree above page 1: its nodes and what page 1 inherits from them.
  const PoDoFo::PdfObject* parent = page->dictionary.GetKey(PoDoFo::PdfName("Parent"));
  for (int depth = 0; parent && depth < 64; ++depth) {
    const auto id = pdf::reference_of(*parent);
    if (!id || !seen.insert(id->number).second) break;
    note("the page tree", *id);
    auto node = reader.object(*id);
    if (!node || !node->IsDictionary()) break;
    if (const PoDoFo::PdfObject* resources = node->GetDictionary().GetKey(PoDoFo::PdfName("Resources")))
      walk(*resources, "its inherited resources", 0);
    parent = node->GetDictionary().GetKey(PoDoFo::PdfName("Parent"));
  }
  // Which optional content is shown.
  if (auto catalog = reader.catalog()) {
    if (const PoDoFo::PdfObject* oc = catalog->GetKey(PoDoFo::PdfName("OCProperties"))) walk(*oc, "the optional content settings", 0);
  }
  return named();
}

// Whether the stamped bytes (the first `length`) may have been rewritten as
// a whole: they no longer end a revision, or the file is not longer than
// them. The parent decides from their hash; the child only reads the pages'
// text when this holds (it costs a pass over every page).
bool maybe_rewritten(std::string_view bytes, std::uint64_t length) {
  return length >= bytes.size() || !ends_a_revision(bytes.substr(0, static_cast<std::size_t>(length)));
}

// Someone else's revision follows pith's own update (exiftool, a form
// filler, an editor saving incrementally): its pages may say something else
// than the pages stamped, so their text is fingerprinted again. A file that
// pith's update ends is not: the common case pays nothing.
bool edited_after_pith_update(const pdf::Reader& reader, std::uint64_t length) {
  return length < reader.bytes().size() && end_of_pith_update(reader, length) < reader.bytes().size();
}

// What the stamped revision (the first `length` bytes, a complete PDF: the
// paper before stamping) carried as title metadata, read the same lazy way.
void read_stamped_revision(const pdf::Reader& reader, std::uint64_t length, std::string_view name, PdfFacts& facts) {
  facts.stamped_length = length;
  facts.page_one_changes = page_one_objects_after(reader, end_of_pith_update(reader, length));
  auto original = pdf::Reader::open(reader.bytes().substr(0, static_cast<std::size_t>(length)),
                                    std::string(name) + " (as stamped)");
  if (!original) return;
  pdf::PdfMetadata then = pdf::read_pdf_metadata(*original);
  facts.stamped_xmp_packet = std::move(then.xmp_packet);
  facts.stamped_info_title = std::move(then.info_title);
}

// --- The parent's half ----------------------------------------------------

// True when `raw` is `expected`, or inflates (FlateDecode: zlib) to exactly it.
bool decodes_to(std::string_view raw, std::string_view expected) {
  if (raw == expected) return true;
  if (raw.size() > UINT_MAX || expected.size() >= UINT_MAX) return false;
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return false;
  std::string out(expected.size() + 1, '\0');  // one byte more: a longer stream does not match
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  (void)inflate(&z, Z_FINISH);
  const std::size_t produced = out.size() - z.avail_out;
  inflateEnd(&z);
  return produced == expected.size() && std::string_view(out).substr(0, produced) == expected;
}

// Stream data of an AES file: AES-CBC (a 16- or 32-byte key) with PKCS#5
// padding, the IV its first 16 bytes (ISO 32000-2 7.6.3). nullopt when it
// does not decrypt.
std::optional<std::string> aes_decrypt(std::string_view data, std::string_view key) {
  constexpr std::size_t iv_size = 16;
  if ((key.size() != 32 && key.size() != 16) || data.size() < 2 * iv_size || data.size() % iv_size != 0 ||
      data.size() > INT_MAX) {
    return std::nullopt;
  }
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  const auto* k = reinterpret_cast<const unsigned char*>(key.data());
  const auto* iv = reinterpret_cast<const unsigned char*>(data.data());
  const EVP_CIPHER* cipher = key.size() == 32 ? EVP_aes_256_cbc() : EVP_aes_128_cbc();
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), cipher, nullptr, k, iv) != 1) return std::nullopt;
  std::string out(data.size(), '\0');
  int written = 0;
  int last = 0;
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  const auto* in = reinterpret_cast<const unsigned char*>(data.data() + iv_size);
  if (EVP_DecryptUpdate(ctx.get(), o, &written, in, static_cast<int>(data.size() - iv_size)) != 1) return std::nullopt;
  if (EVP_DecryptFinal_ex(ctx.get(), o + written, &last) != 1) return std::nullopt;
  out.resize(static_cast<std::size_t>(written + last));
  return out;
}

// The `N G obj` whose stream data starts at `data_at`: the last object
// header in the bytes before it (a stream's dictionary is short; 64 KiB is
// far more than any real one). nullopt when there is none.
std::optional<pdf::ObjectId> object_before(std::string_view file, std::uint64_t data_at) {
  constexpr std::size_t window = 64 * 1024;
  const std::size_t end = static_cast<std::size_t>(std::min<std::uint64_t>(data_at, file.size()));
  const std::size_t begin = end > window ? end - window : 0;
  const std::string_view before = file.substr(begin, end - begin);
  for (std::size_t at = before.rfind("obj"); at != std::string_view::npos && at > 0; at = before.rfind("obj", at - 1)) {
    std::size_t p = at;
    const auto digits_back = [&](std::size_t& q) {
      const std::size_t stop = q;
      while (q > 0 && before[q - 1] >= '0' && before[q - 1] <= '9' && stop - q < 10) --q;
      return q < stop;
    };
    const auto spaces_back = [&](std::size_t& q) {
      const std::size_t stop = q;
      while (q > 0 && std::string_view(" \t\r\n\f").find(before[q - 1]) != std::string_view::npos) --q;
      return q < stop;
    };
    std::size_t gen_end = p;
    if (!spaces_back(p)) continue;
    gen_end = p;
    if (!digits_back(p)) continue;
    const std::size_t gen_begin = p;
    if (!spaces_back(p)) continue;
    const std::size_t num_end = p;
    if (!digits_back(p)) continue;
    std::uint32_t number = 0;
    std::uint32_t generation = 0;
    if (std::from_chars(before.data() + p, before.data() + num_end, number).ec != std::errc() ||
        std::from_chars(before.data() + gen_begin, before.data() + gen_end, generation).ec != std::errc() ||
        generation > 65535)
      continue;
    return pdf::ObjectId{number, static_cast<std::uint16_t>(generation)};
  }
  return std::nullopt;
}

// The key of object `id` in an RC4 or AES-128 file (ISO 32000-2 7.6.3.2,
// algorithm 1): MD5 of the file key, the object number's low three bytes and
// the generation's two, and "sAlT" for AES, cut to the file key's length + 5
// (at most 16 bytes).
std::string object_key(const pdf::FileKey& file_key, pdf::ObjectId id) {
  std::string input = file_key.key;
  for (int i = 0; i < 3; ++i) input += static_cast<char>((id.number >> (8 * i)) & 0xff);
  for (int i = 0; i < 2; ++i) input += static_cast<char>((id.generation >> (8 * i)) & 0xff);
  if (file_key.cipher == pdf::FileKey::Cipher::aes128) input += "sAlT";
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(input.data(), input.size(), digest, &length, EVP_md5(), nullptr) != 1 || length != 16) return {};
  return std::string(reinterpret_cast<const char*>(digest), std::min<std::size_t>(file_key.key.size() + 5, 16));
}

// `raw`, the stream data of the object before it in `file`, decrypted with
// the file's key.
std::optional<std::string> decrypt_stream(std::string_view file, std::uint64_t raw_at, std::string_view raw,
                                          const pdf::FileKey& file_key) {
  if (file_key.cipher == pdf::FileKey::Cipher::aes256) return aes_decrypt(raw, file_key.key);
  const auto id = object_before(file, raw_at);
  if (!id) return std::nullopt;
  const std::string key = object_key(file_key, *id);
  if (key.empty()) return std::nullopt;
  if (file_key.cipher == pdf::FileKey::Cipher::aes128) return aes_decrypt(raw, key);
  return rc4(key, raw);
}

// The reported stream data is at the reported span of the file, as stored
// or, in an encrypted file, decrypted with the reported key.
bool carried_in_file(std::string_view file, const std::optional<pdf::StreamSpan>& span, std::string_view data,
                     const std::optional<pdf::FileKey>& file_key) {
  if (!span || span->offset > file.size() || span->length > file.size() - span->offset) return false;
  const auto raw = file.substr(static_cast<std::size_t>(span->offset), static_cast<std::size_t>(span->length));
  if (decodes_to(raw, data)) return true;
  if (!file_key || file_key->key.empty()) return false;
  const auto plain = decrypt_stream(file, span->offset, raw, *file_key);
  return plain && decodes_to(*plain, data);
}

// A cross-reference section starts at `at`: a classic table or an xref stream object.
bool section_at(std::string_view file, std::uint64_t at) {
  if (at >= file.size()) return false;
  std::string_view rest = file.substr(static_cast<std::size_t>(at));
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\r' || rest.front() == '\n')) rest.remove_prefix(1);
  return rest.starts_with("xref") || (!rest.empty() && rest.front() >= '0' && rest.front() <= '9');
}

}  // namespace

PdfFacts read_pdf_facts(std::string_view bytes, std::string_view name, PageOneText page_one) {
  PdfFacts facts;
  // Read what common readers open: damaged cross-reference data is rebuilt
  // by scanning for the objects (pith-stamp refuses such files instead).
  pdf::ReaderLimits limits;
  limits.recover_damaged_xref = true;
  limits.read_encrypted_with_empty_password = true;  // what any viewer opens without asking (never written to)
  auto reader = pdf::Reader::open(bytes, std::string(name), limits);
  if (!reader) {
    facts.error = message_about(reader.error(), name);
    return facts;
  }
  return read_pdf_facts(*reader, bytes, page_one);
}

PdfFacts read_pdf_facts(const Reader& reader, std::string_view bytes, PageOneText page_one) {
  PdfFacts facts;
  const std::string_view name = reader.name();
  facts.metadata = pdf::read_pdf_metadata(reader);
  facts.file_key = reader.file_key();
  facts.signatures = pdf::read_signatures(reader).value_or(std::vector<pdf::PdfSignature>{});
  // Page 1's text is read even without a hint in the metadata: a copy
  // printed to PDF (pdftocairo, pdftops | ps2pdf) keeps only the badge's
  // printed `pith:YYYY:BODY`, where the parent looks for it
  // (pdf::where_is_the_number).
  if (page_one == PageOneText::read) facts.page = pdf::read_page_text(bytes, facts.metadata.link_uris);
  if (!hints_at_number(facts.metadata)) return facts;
  if (facts.metadata.xmp_packet) {
    const auto length = original_length_hint(*facts.metadata.xmp_packet);
    if (length && *length < bytes.size() && revisions_follow(reader, *length))
      read_stamped_revision(reader, *length, name, facts);
    if (length && (maybe_rewritten(bytes, *length) || edited_after_pith_update(reader, *length)) &&
        facts.metadata.xmp_packet->find(carrier::xmp_page_text_sha256) != std::string::npos)
      facts.page_fingerprints = pdf::fingerprint_pages(bytes);
  }
  return facts;
}

std::vector<std::string> confirm_in_file(std::string_view bytes, PdfFacts& facts) {
  pdf::PdfMetadata& m = facts.metadata;
  std::vector<std::string> not_in_file;
  if (m.xmp_packet && !carried_in_file(bytes, m.xmp_span, *m.xmp_packet, facts.file_key)) {
    not_in_file.emplace_back("an XMP packet");
    m.xmp_packet.reset();
  }
  if (m.embedded_bundle && !carried_in_file(bytes, m.embedded_bundle_span, *m.embedded_bundle, facts.file_key)) {
    not_in_file.push_back(std::string("an embedded ") + carrier::embedded_name);
    m.embedded_bundle.reset();
  }
  if (m.xref_section_offsets &&
      !std::all_of(m.xref_section_offsets->begin(), m.xref_section_offsets->end(),
                   [&](std::uint64_t at) { return section_at(bytes, at); })) {
    m.xref_section_offsets.reset();  // counted from the file's own `startxref … %%EOF` tails instead
  }
  return not_in_file;
}

// --- Revisions, as the bytes end them ----------------------------------------

std::vector<std::size_t> revision_ends(std::string_view bytes, std::size_t from) {
  static constexpr std::string_view keyword = "startxref";
  const auto is_space = [](char c) { return c == ' ' || c == '\r' || c == '\n' || c == '\t' || c == '\f' || c == '\0'; };
  std::vector<std::size_t> ends;
  for (auto at = bytes.find(keyword, from); at != std::string_view::npos; at = bytes.find(keyword, at + 1)) {
    std::size_t i = at + keyword.size();
    const std::size_t before_space = i;
    while (i < bytes.size() && is_space(bytes[i])) ++i;
    if (i == before_space) continue;
    const std::size_t digits = i;
    while (i < bytes.size() && bytes[i] >= '0' && bytes[i] <= '9') ++i;
    if (i == digits) continue;
    // `startxref 0` points at no section: the first-page trailer of a
    // linearized file (qpdf writes it so), not the end of a revision.
    const bool points_at_nothing = bytes.substr(digits, i - digits).find_first_not_of('0') == std::string_view::npos;
    while (i < bytes.size() && is_space(bytes[i])) ++i;
    if (!bytes.substr(i).starts_with("%%EOF") || points_at_nothing) continue;
    std::size_t end = i + 5;
    while (end < bytes.size() && (bytes[end] == '\r' || bytes[end] == '\n')) ++end;
    ends.push_back(end);
  }
  return ends;
}

std::size_t count_revision_ends(std::string_view bytes, std::size_t from) { return revision_ends(bytes, from).size(); }

bool ends_a_revision(std::string_view prefix) {
  while (!prefix.empty() && (prefix.back() == '\n' || prefix.back() == '\r')) prefix.remove_suffix(1);
  return prefix.ends_with("%%EOF");
}

}  // namespace pith::pdf
