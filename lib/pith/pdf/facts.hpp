// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What pith-check's parsing child reads from a PDF (issue 13, "the child
// only extracts"), the message it sends, and what the checking process
// confirms of it in the file's own bytes.
//
// The isolated child (runner/isolation.hpp) opens the hostile PDF with PoDoFo and
// poppler and sends back only what it read: PdfFacts, raw bytes and strings
// (read_pdf_facts). The checking process judges them (check/file.hpp:
// judge_pdf_facts): strict parsing of the XMP packet and of the embedded
// bundle, every signature check, the bindings and the verdict. No report,
// verdict or trust anchor crosses the pipe.
//
// A child taken over by a parser exploit can still lie about what it read,
// so the parent confirms in the file's bytes (which it maps itself) what a
// `verified` verdict rests on:
//   - the XMP packet and the embedded pith-bundle.json: their undecoded
//     stream data must lie at the reported spans and be, or inflate (zlib,
//     FlateDecode) to, exactly the reported bytes (in an encrypted file,
//     once decrypted with the reported file key: AES-256 directly, RC4 and
//     AES-128 with the object's key, derived from the file key and the
//     `N G obj` the parent finds before the stream); else the part is
//     dropped (confirm_in_file) and isolation.child.rejected fails the file;
//   - the cross-reference section offsets must each point at a section
//     (`xref` or `N G obj`); else they are ignored and the revisions are
//     counted from the file's `startxref … %%EOF` tails;
//   - the stamped bytes' SHA-256 is computed here, from the file.
// What stays the child's word (docs/security.md): the Info strings, page 1's
// text and links, the stamped revision's titles, whether page 1 changed
// after stamping and the list of digital signatures (informational). A lying child can therefore bind a record the file really
// carries to the wrong paper, but never make a record verify that the file's
// bytes do not carry, signed by a trusted key.
#include "pith/base/error.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/signatures.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

// Everything the child reads from a PDF.
struct PdfFacts {
  std::optional<std::string> error;  // the PDF could not be opened: why (names no file)
  PdfMetadata metadata;
  // Page 1 as a viewer shows it now; read when the metadata hints at a Pith
  // Number (otherwise nothing is bound to it and poppler is not run).
  std::optional<PageText> page;
  // Read when the XMP names a pith:originalLength and revisions follow it:
  // the title metadata of the first stamped_length bytes (the stamped
  // revision; the parent parses its XMP) and page 1's objects redefined at or
  // after them.
  std::optional<std::uint64_t> stamped_length;
  std::optional<std::string> stamped_xmp_packet;
  std::optional<std::string> stamped_info_title;
  std::vector<std::string> page_one_changes;
  // An encrypted file opened with the empty password: its file key and
  // cipher (RC4, AES-128 or AES-256), so the parent can decrypt the stream
  // data it confirms in the file's bytes (a wrong key decrypts them to
  // noise, never to a validly signed record).
  std::optional<FileKey> file_key;
  // The digital signatures the PDF carries (informational: listed beside
  // the verdict, never validated by pith; the child's word).
  std::vector<PdfSignature> signatures;
  // Read only when the XMP carries a page text fingerprint and the stamped
  // bytes no longer end a revision (a full rewrite) or someone's revision
  // follows pith's update (an edit; check/pdf.hpp's check_page_text): every
  // page's fingerprint as the file reads now.
  std::optional<PageFingerprints> page_fingerprints;

  // The wire form (base/wire.hpp): every string read from the PDF travels
  // as length and bytes, so bytes that are not UTF-8 arrive exactly as read.
  [[nodiscard]] std::string to_wire() const;
  // Strict: a message cut short, a field of the wrong form, a length past the
  // end or bytes after the last field are an error, not a default.
  [[nodiscard]] static Result<PdfFacts> from_wire(std::string_view message);
  friend bool operator==(const PdfFacts&, const PdfFacts&);
};

// The child's half: opens `bytes` with the lazy reader (recovering a
// damaged xref as common readers do) and reads the facts. Never throws.
[[nodiscard]] PdfFacts read_pdf_facts(std::string_view bytes, std::string_view name,
                                      PageOneText page_one = PageOneText::read);
// The same facts of a PDF already open on `bytes` (pith-stamp's examining
// worker: the reader it stamps with, opened as above less what pith-stamp
// refuses, a rebuilt xref and encryption): the file is parsed once.
[[nodiscard]] PdfFacts read_pdf_facts(const Reader& reader, std::string_view bytes,
                                      PageOneText page_one = PageOneText::read);

// Page 1's text alone on the wire (what the child reading it beside the
// facts sends), as PdfFacts carries it: strict, and without its links,
// which are the metadata's (`link_uris`, from the facts).
[[nodiscard]] std::string page_text_to_wire(const PageText& page);
[[nodiscard]] Result<PageText> page_text_from_wire(std::string_view message, std::vector<std::string> link_uris);

// The parent's confirmation, in `bytes` (the same file), of what a verdict
// rests on, as above: an XMP packet or embedded bundle that is not the
// stream data at its span is dropped from `facts.metadata` and named in the
// result ("an XMP packet", "an embedded pith-bundle.json"); cross-reference
// offsets that do not all point at a section are dropped (the revisions are
// then counted from the file's `startxref … %%EOF` tails).
[[nodiscard]] std::vector<std::string> confirm_in_file(std::string_view bytes, PdfFacts& facts);

// --- Revisions, as the bytes end them ----------------------------------------

// Revisions that end in bytes[from, end): a `startxref <offset> %%EOF` tail
// (not `startxref 0`: a linearized file's first-page trailer).
[[nodiscard]] std::size_t count_revision_ends(std::string_view bytes, std::size_t from = 0);
// The same tails, each as the offset just past its `%%EOF` and the end of
// line after it: where each revision ends (pith-stamp --remove names the
// revisions a removal would drop by them).
[[nodiscard]] std::vector<std::size_t> revision_ends(std::string_view bytes, std::size_t from = 0);
// The stamped bytes end with a revision (`%%EOF`, then an end of line):
// pith-stamp appends its update right there. A file rewritten as a whole
// has other bytes at that offset.
[[nodiscard]] bool ends_a_revision(std::string_view prefix);

}  // namespace pith::pdf
