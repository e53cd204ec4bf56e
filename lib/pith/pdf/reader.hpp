// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Lazy, bounded reading of a PDF: the trailer, the cross-reference data and
// only the objects asked for. Opening a 1,000-page thesis costs what its
// metadata costs, not what its pages cost (PoDoFo's PdfMemDocument::Load reads
// every object: ~20 µs each).
//
// What is understood: classic xref tables, xref streams (/W, /Index, PNG
// predictors via PoDoFo's filters), hybrid files (/XRefStm), /Prev chains
// (bounded, loop-safe, newest entry wins), linearized files (their first-page
// section is just one more section of the chain), objects inside object
// streams (only the object stream holding the object is inflated, then kept).
// PoDoFo supplies the pieces: its tokenizer parses objects, its filters decode
// streams. A damaged cross-reference section is an Error naming the byte
// offset, unless ReaderLimits::recover_damaged_xref asks for the objects to be
// found by scanning the file (as qpdf and poppler do; for reading only: an
// update must not be written on top of a guess); the scan also takes the
// keys of a trailer with junk in it one by one, and the last catalog when no
// trailer is readable. Encrypted files are refused with advice, unless
// ReaderLimits::read_encrypted_with_empty_password asks for those any viewer
// opens (empty user password: RC4, AES-128, AES-256; /Identity crypt
// filters; a file without /ID) to be decrypted as they are read (PoDoFo's
// security handlers, RC4 through OpenSSL's legacy provider; for reading only,
// as for checking). A classic entry's generation 65536 is read as 65535.
//
// Bytes before `%PDF-` (up to 1,024 of them; readers accept them): offsets in
// the file count from the header (ISO 32000-2 7.5.2, what poppler and qpdf
// do), falling back to counting from byte 0 when that is what the file's
// writer did. offset_base() says which; an update must write offsets the same
// way. A file without `%PDF-` is read with offsets from byte 0.
//
// Every PDF is hostile input: sizes, counts, depths and reference chains are
// bounded by ReaderLimits.
//
// One source file per facet, each readable alone (reader_internal.hpp holds
// what they share): reader_xref.cpp (opening, the cross-reference chain),
// reader_recovery.cpp (the scan of a damaged file), reader_decrypt.cpp (the
// empty password), reader_objects.cpp (objects, streams, object streams,
// references), reader_document.cpp (catalog, Info, XMP, name trees, pages).
#include "pith/base/error.hpp"

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <podofo/base/PdfArray.h>
#include <podofo/base/PdfDictionary.h>
#include <podofo/base/PdfObject.h>
#include <podofo/base/PdfString.h>

namespace PoDoFo {
class PdfEncrypt;
class PdfError;
}

namespace pith::pdf {

struct ObjectId {
  std::uint32_t number = 0;
  std::uint16_t generation = 0;
  friend auto operator<=>(const ObjectId&, const ObjectId&) = default;
};
[[nodiscard]] std::string to_string(ObjectId id);  // "12 0 R"

struct ReaderLimits {
  std::size_t max_xref_sections = 512;          // length of the /Prev chain
  std::uint32_t max_objects = 8'388'607;        // the PDF limit on object numbers
  std::size_t max_stream_bytes = 256u << 20;    // one decoded stream
  std::size_t max_cached_object_streams = 16;   // inflated object streams kept
  std::size_t max_cached_bytes = 64u << 20;     // ... and their total decoded size
  int max_depth = 64;                           // page tree, name trees, reference chains
  int max_nesting = 256;                        // arrays/dictionaries inside each other in one object
  std::size_t max_tree_nodes = 100'000;         // nodes visited in one tree walk
  bool allow_encrypted = false;                 // true: open anyway (structure only)
  bool recover_damaged_xref = false;            // true: rebuild a damaged xref by scanning for objects
  bool read_encrypted_with_empty_password = false;  // true: decrypt what opens without a password; refuse the rest
};

// Where an object lives, from the cross-reference data.
struct XrefEntry {
  enum class Kind : std::uint8_t { absent, free, in_file, in_object_stream };
  Kind kind = Kind::absent;
  std::uint16_t generation = 0;
  std::uint64_t offset = 0;         // in_file: position of "N G obj" in the bytes (offset_base() added)
  std::uint32_t stream_number = 0;  // in_object_stream: the object stream
  std::uint32_t index = 0;          //                    index inside it
};

// The key of the standard security handler (ISO 32000-2 7.6.4) and the
// cipher of the file's streams. AES-256 (V5) uses the file key for every
// object; RC4 and AES-128 derive each object's key from it, its number and
// generation (7.6.3.2, algorithm 1).
struct FileKey {
  enum class Cipher : std::uint8_t { rc4 = 1, aes128 = 2, aes256 = 3 };
  Cipher cipher = Cipher::aes256;
  std::string key;
  friend bool operator==(const FileKey&, const FileKey&) = default;
};

struct StreamObject {
  PoDoFo::PdfDictionary dictionary;
  std::string data;  // decoded (all filters applied)
  // Where the undecoded stream data lies in Reader::bytes(): lets a process
  // that never parsed the PDF confirm that `data` is in the file
  // (pdf/facts.hpp: confirm_in_file).
  std::uint64_t raw_offset = 0;
  std::uint64_t raw_length = 0;
};

struct NameTreeEntry {
  std::string key;            // raw key bytes as in the file (PDF string bytes)
  std::string key_utf8;       // the key decoded for display and comparison
  PoDoFo::PdfString key_string;  // the key as parsed (to write it back unchanged)
  PoDoFo::PdfObject value;    // as stored (often a reference)
};

struct Page {
  ObjectId id;
  PoDoFo::PdfDictionary dictionary;
};

class Reader {
 public:
  // Reads the cross-reference chain. `bytes` must outlive the Reader (a
  // MappedFile or a string the caller keeps). `name` prefixes error locations.
  [[nodiscard]] static Result<Reader> open(std::string_view bytes, std::string name,
                                           ReaderLimits limits = {});

  [[nodiscard]] std::string_view bytes() const { return bytes_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const ReaderLimits& limits() const { return limits_; }

  // The newest section's trailer (keys missing there are filled from older
  // sections: /Root, /Info, /ID, /Encrypt). For xref streams: the stream dict.
  [[nodiscard]] const PoDoFo::PdfDictionary& trailer() const { return trailer_; }
  // Offset of the newest cross-reference section as the file writes it
  // (counted from offset_base(); what an update's /Prev names).
  [[nodiscard]] std::uint64_t startxref() const { return startxref_; }
  // Where offset 0 of the file's offsets is in bytes(): the position of
  // `%PDF-` when bytes precede it and the offsets count from it, else 0.
  [[nodiscard]] std::uint64_t offset_base() const { return base_; }
  // True when the cross-reference data was damaged and the objects were
  // found by scanning (recover_damaged_xref): readable, not to be updated.
  [[nodiscard]] bool recovered() const { return recovered_; }
  // Why recovery was needed (the error reading the cross-reference data).
  [[nodiscard]] const std::string& recovery_reason() const { return recovery_reason_; }
  // Trailer /Size: one more than the highest object number in use.
  [[nodiscard]] std::uint32_t size() const { return size_; }
  [[nodiscard]] bool uses_xref_streams() const { return uses_xref_streams_; }
  // Whether the newest cross-reference section (where startxref points) is
  // an xref stream: an update is written in the same form (update.hpp).
  [[nodiscard]] bool newest_section_is_stream() const { return newest_is_stream_; }
  [[nodiscard]] bool is_encrypted() const { return encrypted_; }
  // The file key of an encrypted file opened with the empty password, and
  // how its streams are encrypted: with it a process that never parsed the
  // PDF decrypts a stream's data (pdf/facts.hpp). nullopt otherwise.
  [[nodiscard]] std::optional<FileKey> file_key() const;
  [[nodiscard]] std::size_t section_count() const { return section_offsets_.size(); }
  // Positions in bytes() of the cross-reference sections read, newest first
  // (the /Prev chain). Sections at or after a byte length L are revisions
  // added after the first L bytes (how pith-check counts updates after a stamp).
  [[nodiscard]] const std::vector<std::uint64_t>& section_offsets() const { return section_offsets_; }
  [[nodiscard]] std::optional<ObjectId> root_id() const { return root_; }
  [[nodiscard]] std::optional<ObjectId> info_id() const { return info_; }
  // /ID [first second] as raw bytes; nullopt when the file has none.
  [[nodiscard]] std::optional<std::pair<std::string, std::string>> file_id() const { return file_id_; }
  [[nodiscard]] XrefEntry entry(std::uint32_t number) const;

  // An object by number. A free or absent object is the null object (PDF
  // semantics). Streams come back as their dictionary; use stream() for data.
  [[nodiscard]] Result<PoDoFo::PdfObject> object(ObjectId id) const;
  [[nodiscard]] Result<StreamObject> stream(ObjectId id) const;
  // Follows references (bounded) until a direct value.
  [[nodiscard]] Result<PoDoFo::PdfObject> resolve(const PoDoFo::PdfObject& value) const;
  // resolve() of a dictionary's key; nullopt when the key is absent or null.
  [[nodiscard]] Result<std::optional<PoDoFo::PdfObject>> resolve_key(const PoDoFo::PdfDictionary& dict,
                                                                     std::string_view key) const;

  // Document-level views.
  [[nodiscard]] Result<PoDoFo::PdfDictionary> catalog() const;
  [[nodiscard]] Result<std::optional<PoDoFo::PdfDictionary>> info() const;
  // Info string value as UTF-8 (PDFDocEncoding / UTF-16 decoded).
  [[nodiscard]] Result<std::optional<std::string>> info_string(std::string_view key) const;
  // The catalog's /Metadata stream, decoded (the XMP packet), if any.
  [[nodiscard]] Result<std::optional<std::string>> xmp_metadata() const;
  // The same stream with where its data lies in the file.
  [[nodiscard]] Result<std::optional<StreamObject>> xmp_metadata_stream() const;
  // Every entry of a name tree (bounded), in tree order.
  [[nodiscard]] Result<std::vector<NameTreeEntry>> name_tree(const PoDoFo::PdfObject& root) const;
  // The catalog's /Names /EmbeddedFiles tree (empty when there is none).
  [[nodiscard]] Result<std::vector<NameTreeEntry>> embedded_files() const;
  // The decoded contents of the embedded file named `name` (name tree key,
  // compared after decoding to UTF-8), or nullopt.
  [[nodiscard]] Result<std::optional<std::string>> embedded_file(std::string_view name) const;
  [[nodiscard]] Result<std::optional<StreamObject>> embedded_file_stream(std::string_view name) const;
  // The decoded /EF stream of a file specification (dict or reference).
  [[nodiscard]] Result<std::optional<std::string>> file_spec_contents(const PoDoFo::PdfObject& spec) const;
  [[nodiscard]] Result<std::optional<StreamObject>> file_spec_stream(const PoDoFo::PdfObject& spec) const;
  // The page tree root's /Count (what viewers show as the number of pages).
  [[nodiscard]] Result<std::uint64_t> page_count() const;
  // Page 1: walks /Pages down the first kids.
  [[nodiscard]] Result<Page> first_page() const;
  // Page 1's /Annots, each resolved (reference → dictionary), with its id
  // when the annotation is an indirect object: the first `max_count` of them
  // (ask for one more than you use to learn that there are more); the rest
  // are never read.
  static constexpr std::size_t default_max_page_annotations = 4096;
  [[nodiscard]] Result<std::vector<std::pair<std::optional<ObjectId>, PoDoFo::PdfDictionary>>>
  page_annotations(const Page& page, std::size_t max_count = default_max_page_annotations) const;

 private:
  struct ObjectStream;  // an inflated object stream: offsets + data
  struct Parsed;        // one parsed indirect object
  Reader() = default;

  [[nodiscard]] static Result<Reader> open_with_base(std::string_view bytes, const std::string& name,
                                                     const ReaderLimits& limits, std::uint64_t base);
  [[nodiscard]] Result<void> read_xref_chain();
  [[nodiscard]] Result<void> recover_by_scanning();
  [[nodiscard]] Result<void> take_trailer_keys();
  // The trailer keys a reader needs (/Root, /Info, /ID, /Encrypt, /Size),
  // each parsed alone, from a trailer dictionary that does not parse whole.
  [[nodiscard]] PoDoFo::PdfDictionary trailer_keys_around_junk(std::uint64_t from) const;
  // The catalog of a file whose trailers are all unreadable: the object
  // latest in the file whose /Type is /Catalog (objects by offset, last first).
  [[nodiscard]] std::optional<ObjectId> last_catalog(
      const std::vector<std::pair<std::uint32_t, XrefEntry>>& by_offset_desc) const;
  [[nodiscard]] Result<void> open_with_empty_password();
  // The security handler for the strings and streams of object `id`, or null.
  [[nodiscard]] PoDoFo::PdfEncrypt* decryption_for(ObjectId id) const;
  // A file offset (counted from base_) as a position in bytes_, or nullopt past the end.
  [[nodiscard]] std::optional<std::uint64_t> position(std::uint64_t file_offset) const;
  [[nodiscard]] Result<std::uint64_t> find_startxref() const;
  [[nodiscard]] Result<std::optional<std::uint64_t>> read_section(std::uint64_t offset, std::size_t section,
                                                                  bool newest);
  [[nodiscard]] Result<PoDoFo::PdfDictionary> read_classic_table(std::uint64_t offset, std::size_t section);
  [[nodiscard]] Result<PoDoFo::PdfDictionary> read_xref_stream(std::uint64_t offset, std::size_t section,
                                                               bool hybrid);
  void set_entry(std::uint32_t number, const XrefEntry& e, std::size_t section, bool may_replace_free);
  [[nodiscard]] Result<Parsed> parse_at(std::uint64_t offset, std::optional<ObjectId> expected,
                                        bool with_stream, int depth) const;
  [[nodiscard]] Result<std::string> decode(const PoDoFo::PdfDictionary& dict, std::string_view raw,
                                           const std::string& where) const;
  [[nodiscard]] Result<std::shared_ptr<const ObjectStream>> object_stream(std::uint32_t number, int depth) const;
  [[nodiscard]] Result<void> check_nesting(std::string_view data, std::uint64_t position, const std::string& where) const;
  [[nodiscard]] Result<PoDoFo::PdfObject> object_at_depth(ObjectId id, int depth) const;
  [[nodiscard]] Result<void> walk_name_tree(const PoDoFo::PdfObject& node, int depth, std::size_t& visited,
                                            std::vector<NameTreeEntry>& out) const;
  [[nodiscard]] std::string at(std::uint64_t offset) const;  // "name@offset"

  std::string_view bytes_;
  std::string name_;
  ReaderLimits limits_;
  PoDoFo::PdfDictionary trailer_;
  std::uint64_t startxref_ = 0;
  std::uint64_t base_ = 0;
  bool recovered_ = false;
  std::string recovery_reason_;
  std::uint32_t size_ = 0;
  bool uses_xref_streams_ = false;
  bool newest_is_stream_ = false;
  bool encrypted_ = false;
  std::shared_ptr<PoDoFo::PdfEncrypt> decryption_;  // set when an encrypted file opened with the empty password
  bool strings_encrypted_ = true;                    // false: /StrF /Identity (crypt filters, V 4 and 5)
  bool streams_encrypted_ = true;                    // false: /StmF /Identity
  std::optional<ObjectId> encryption_dict_;          // the /Encrypt dictionary: never decrypted
  std::vector<std::uint64_t> section_offsets_;
  std::optional<ObjectId> root_;
  std::optional<ObjectId> info_;
  std::optional<std::pair<std::string, std::string>> file_id_;
  struct Slot {
    XrefEntry entry;
    std::uint32_t section = 0;
  };
  std::unordered_map<std::uint32_t, Slot> xref_;  // sparse: hostile /Index values cost nothing
  std::uint32_t highest_number_ = 0;
  mutable std::map<std::uint32_t, std::shared_ptr<const ObjectStream>> object_streams_;
  mutable std::size_t cached_bytes_ = 0;
};

// Helpers on PoDoFo values, shared with the writer and the stamper.
[[nodiscard]] std::optional<ObjectId> reference_of(const PoDoFo::PdfObject& value);
[[nodiscard]] std::string string_bytes(const PoDoFo::PdfString& s);  // raw bytes of a PDF string
// What went wrong in PoDoFo's parser, filters or writer, in words for
// people (its error names and call stack are for PoDoFo's developers). Our
// own raises (a size limit, a seek outside the file) keep their text.
[[nodiscard]] std::string describe_podofo_error(const PoDoFo::PdfError& e);

}  // namespace pith::pdf
