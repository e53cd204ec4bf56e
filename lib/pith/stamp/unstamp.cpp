// SPDX-License-Identifier: GPL-3.0-or-later
// pith-stamp --remove (unstamp.hpp): the proof that the first originalLength
// bytes are the paper before stamping, and their atomic, read-back write.
#include "pith/stamp/unstamp.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/check_codes.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/check/pdf.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/runner/isolation.hpp"

#include <algorithm>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace pith::stamp {
namespace {

namespace fs = std::filesystem;

// What the child reads: the metadata as the file reads now (the newest
// XMP packet, its span) and, for an encrypted file, the key the parent
// confirms the packet with. The wire is pith-check's (pdf/facts.hpp).
std::string read_metadata_in_child(const OpenFile& file, const std::string& name) {
  pdf::PdfFacts facts;
  const auto mapped = MappedFile::map(file);
  if (!mapped) {
    facts.error = mapped.error().message;
    return facts.to_wire();
  }
  pdf::ReaderLimits limits;
  limits.recover_damaged_xref = true;  // what readers open: the proof is in the bytes, not in the xref
  limits.read_encrypted_with_empty_password = true;
  auto reader = pdf::Reader::open(mapped->bytes(), name, limits);
  if (!reader) {
    facts.error = reader.error().message;
    return facts.to_wire();
  }
  facts.metadata = pdf::read_pdf_metadata(*reader);
  facts.file_key = reader->file_key();
  return facts.to_wire();
}

Result<pdf::PdfFacts> read_metadata(const UnstampOptions& opt, const OpenFile& file) {
  ChildLimits limits = opt.children.limits(file.size());
  limits.keep_descriptor = file.fd();
  auto sent = runner::run_isolated("reading the PDF", [&] { return read_metadata_in_child(file, opt.input); }, limits);
  if (!sent) return fail(ErrorKind::malformed, opt.input, sent.error().message + "; nothing written");
  auto facts = pdf::PdfFacts::from_wire(*sent);
  if (!facts) return fail(ErrorKind::internal, opt.input, "the reading child's answer: " + facts.error().describe());
  if (facts->error) return fail(ErrorKind::malformed, opt.input, *facts->error + "; nothing written");
  return facts;
}

std::string range(std::uint64_t from, std::uint64_t to) { return "bytes " + std::to_string(from) + "-" + std::to_string(to); }

// What follows pith's update (the first revision after the stamped bytes):
// each later revision by its bytes, and bytes after the last `%%EOF` that
// end no revision (not blank).
std::vector<std::string> after_the_update(std::string_view bytes, const std::vector<std::size_t>& ends) {
  std::vector<std::string> later;
  for (std::size_t i = 1; i < ends.size(); ++i)
    later.push_back("a revision appended after the stamp (" + range(ends[i - 1], ends[i]) + ")");
  const std::size_t last = ends.empty() ? bytes.size() : ends.back();
  const auto rest = bytes.substr(last);
  if (rest.find_first_not_of(std::string_view(" \t\r\n\f\0", 6)) != std::string_view::npos)
    later.push_back(std::to_string(rest.size()) + " bytes after the last %%EOF (" + range(last, bytes.size()) + ")");
  return later;
}

std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : "; ") + item;
  return out;
}

// The proof (unstamp.hpp) in the file's bytes, from the confirmed metadata.
Result<UnstampOutcome> prove_original(const UnstampOptions& opt, std::string_view bytes, pdf::PdfFacts& facts) {
  (void)pdf::confirm_in_file(bytes, facts);  // an XMP packet that is not at its span is dropped: no stamp then
  auto extraction = pdf::extract_pith_numbers(facts.metadata);
  if (!extraction) return fail(ErrorKind::rejected, opt.input, extraction.error().message + "; nothing written");
  const auto& xmp = extraction->xmp;
  const std::optional<std::string> none;
  const check::ByteBinding binding =
      check::bind_bytes(bytes, xmp ? xmp->original_sha256 : none, xmp ? xmp->original_length : none);
  if (binding.code == check_code::pdf_bytes_unbound) {
    return fail(ErrorKind::not_found, opt.input,
                "carries no pith-stamp update (its XMP names no pith:originalLength and pith:originalSha256); "
                "nothing to remove, nothing written");
  }
  if (binding.status != CheckStatus::pass) {
    return fail(ErrorKind::rejected, opt.input,
                "the bytes do not prove the paper before stamping: " + binding.detail +
                    "; nothing written (the original is not in this file: use the copy you stamped)");
  }
  const std::uint64_t length = binding.original_length;
  if (!facts.metadata.xmp_span || facts.metadata.xmp_span->offset < length) {
    return fail(ErrorKind::rejected, opt.input,
                "the XMP packet that names the stamped bytes lies inside them (at byte " +
                    std::to_string(facts.metadata.xmp_span ? facts.metadata.xmp_span->offset : 0) + " of " +
                    std::to_string(length) + "), not in an update after them: not pith-stamp's; nothing written");
  }
  const auto ends = pdf::revision_ends(bytes, static_cast<std::size_t>(length));
  UnstampOutcome outcome;
  if (const auto number = extraction->number()) outcome.number = number->to_string();
  outcome.original_length = length;
  outcome.original_sha256 = *xmp->original_sha256;
  outcome.update_bytes = (ends.empty() ? bytes.size() : ends.front()) - length;
  outcome.dropped = after_the_update(bytes, ends);
  if (!outcome.dropped.empty() && !opt.force) {
    return fail(ErrorKind::conflict, opt.input,
                "was changed after stamping: " + listed(outcome.dropped) +
                    "; removing the stamp would lose those changes too, nothing written (--force removes them "
                    "with the stamp)");
  }
  return outcome;
}

bool same_path(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) || fs::absolute(a) == fs::absolute(b);
}

// The written file is the original: its length and SHA-256, read back.
WrittenCheck original_check(const std::string& target, const UnstampOutcome& outcome) {
  return [target, &outcome](const std::string& written_path) -> Result<void> {
    auto written = OpenFile::open(written_path);
    if (!written) return std::unexpected(written.error());
    auto hash = written->sha256_hex();
    if (!hash) return std::unexpected(hash.error());
    if (written->size() == outcome.original_length && *hash == outcome.original_sha256) return {};
    return fail(ErrorKind::io, target,
                "what was written is not the original (" + std::to_string(written->size()) + " bytes, SHA-256 " +
                    *hash + "): the file changed while it was copied? Nothing written; run again");
  };
}

// In place replaces the file under this name: read-only files and files
// with other names (hard links, which would keep the stamp) are refused.
Result<void> refuse_in_place(const UnstampOptions& opt) {
  struct stat st {};
  if (::stat(opt.input.c_str(), &st) != 0) return {};
  if ((st.st_mode & 0222) == 0 || ::access(opt.input.c_str(), W_OK) != 0)
    return fail(ErrorKind::io, opt.input, "the file is read-only; nothing written (make it writable with `chmod u+w`, or -o OUT)");
  if (st.st_nlink > 1)
    return fail(ErrorKind::usage, opt.input,
                "the file has " + std::to_string(st.st_nlink) +
                    " names (hard links), and replacing it would keep the stamp under the others; nothing written "
                    "(write the original with -o OUT)");
  return {};
}

Result<void> write_original(const UnstampOptions& opt, const OpenFile& file, const UnstampOutcome& outcome) {
  const bool in_place = same_path(opt.output, opt.input);
  if (in_place) {
    if (auto ok = refuse_in_place(opt); !ok) return ok;
  }
  FileAttributes attrs{file.mode()};
  if (in_place) {
    attrs.owner = file.owner();
    attrs.group = file.group();
    attrs.extended_attributes_from = opt.input;
  }
  const std::string& target = in_place ? opt.input : opt.output;
  return write_atomically(target, opt.input, outcome.original_length, {}, attrs, original_check(target, outcome),
                          in_place ? AtTargetLink::follow : AtTargetLink::replace);
}

}  // namespace

Result<UnstampOutcome> remove_stamp(const UnstampOptions& opt) {
  auto file = OpenFile::open(opt.input);
  if (!file) return std::unexpected(file.error());
  auto facts = read_metadata(opt, *file);
  if (!facts) return std::unexpected(facts.error());
  auto mapped = MappedFile::map(*file);  // scanned for the proof, never parsed here
  if (!mapped) return std::unexpected(mapped.error());
  auto outcome = prove_original(opt, mapped->bytes(), *facts);
  if (!outcome) return outcome;
  if (auto written = write_original(opt, *file, *outcome); !written) return std::unexpected(written.error());
  return outcome;
}

}  // namespace pith::stamp
