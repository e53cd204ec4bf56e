// SPDX-License-Identifier: GPL-3.0-or-later
// Decryption, when ReaderLimits::read_encrypted_with_empty_password asks for
// it: the standard security handler authenticated with the empty user
// password, as a viewer opens a file without asking (RC4 through OpenSSL's
// legacy provider, AES-128, AES-256; /Identity crypt filters; a file without
// /ID), and each object's strings and stream data decrypted as the object
// parser reads them (PoDoFo's security handlers; for reading only).
#include "pith/pdf/reader_internal.hpp"

#include "pith/base/crypto.hpp"

#include <memory>

#include <podofo/base/PdfEncrypt.h>
#include <podofo/base/PdfReference.h>
#include <podofo/base/PdfString.h>

namespace pith::pdf {
using namespace detail;

namespace detail {

// `data` decrypted by the file's security handler (set to the object's
// reference), for strings and streams alike (PoDoFo 0.9.8's tokenizer
// would decrypt strings itself, keeping the AES padding).
std::string decrypted(std::string_view data, const PoDoFo::PdfEncrypt& handler) {
  const auto algorithm = handler.GetEncryptAlgorithm();
  // RC4 is a stream cipher: its output is as long as its input, and PoDoFo
  // 0.9.8 refuses ("Error initializing RC4 encryption engine") any other length.
  const bool rc4 = algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_RC4V1 ||
                   algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_RC4V2;
  std::string plain(data.size() + (rc4 ? 0 : 16), '\0');  // AES (16-byte IV in front) never grows it
  PoDoFo::pdf_long length = static_cast<PoDoFo::pdf_long>(plain.size());
  handler.Decrypt(reinterpret_cast<const unsigned char*>(data.data()), static_cast<PoDoFo::pdf_long>(data.size()),
                  reinterpret_cast<unsigned char*>(plain.data()), length);
  plain.resize(static_cast<std::size_t>(std::clamp<PoDoFo::pdf_long>(length, 0, static_cast<PoDoFo::pdf_long>(plain.size()))));
  // AES: PoDoFo 0.9.8 returns the PKCS#7 padding with the text (all but the
  // 16-byte IV); drop it when it is there and well formed.
  const bool aes = algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV2 ||
                   algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV3 ||
                   algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV3R6;
  if (aes && data.size() >= 16 && plain.size() == data.size() - 16 && !plain.empty()) {
    const auto pad = static_cast<unsigned char>(plain.back());
    if (pad >= 1 && pad <= 16 && pad <= plain.size() &&
        std::all_of(plain.end() - pad, plain.end(), [pad](char c) { return static_cast<unsigned char>(c) == pad; }))
      plain.resize(plain.size() - pad);
  }
  return plain;
}

// Every string in `value` (an object of an encrypted file) decrypted in
// place; nesting is bounded by check_nesting before parsing.
void decrypt_strings(PdfObject& value, const PoDoFo::PdfEncrypt& handler) {
  if (value.IsString() || value.IsHexString()) {
    const std::string plain = decrypted(string_bytes(value.GetString()), handler);
    value = PdfObject(PoDoFo::PdfString(plain.data(), static_cast<PoDoFo::pdf_long>(plain.size()), value.IsHexString()));
  } else if (value.IsArray()) {
    for (PdfObject& item : value.GetArray()) decrypt_strings(item, handler);
  } else if (value.IsDictionary()) {
    for (const auto& [name, item] : value.GetDictionary().GetKeys()) decrypt_strings(*item, handler);
  }
}

// Cross-reference streams are never encrypted, nor the metadata stream
// when the file says so (/EncryptMetadata false).
bool stream_is_encrypted(const PdfDictionary& dict, const PoDoFo::PdfEncrypt& handler) {
  const PdfObject* type = dict.GetKey(PoDoFo::PdfName("Type"));
  if (type && type->IsName() && type->GetName().GetName() == "XRef") return false;
  if (type && type->IsName() && type->GetName().GetName() == "Metadata" && !handler.IsMetadataEncrypted()) return false;
  return true;
}

}  // namespace detail

namespace {

// "the security handler /Standard /V 2 /R 3" and the like, from the
// /Encrypt dictionary's own values, for messages.
std::string security_handler_name(const PdfDictionary& d) {
  const PdfObject* filter = d.GetKey(PdfName("Filter"));
  const std::string handler = filter && filter->IsName() ? filter->GetName().GetName() : std::string("?");
  const PdfObject* v = d.GetKey(PdfName("V"));
  const PdfObject* r = d.GetKey(PdfName("R"));
  std::string out = "the security handler /" + handler;
  if (v && v->IsNumber()) out += " /V " + std::to_string(v->GetNumber());
  if (r && r->IsNumber()) out += " /R " + std::to_string(r->GetNumber());
  return out;
}

bool is_standard_security_handler(const PdfDictionary& d) {
  const PdfObject* filter = d.GetKey(PdfName("Filter"));
  return filter && filter->IsName() && filter->GetName().GetName() == "Standard";
}

// Whether the strings (/StrF) or streams (/StmF) of a document are
// encrypted: always below V 4; from V 4 on, unless the filter is /Identity
// or absent (ISO 32000-2 7.6.6, table 27: Identity is the default).
bool uses_crypt_filter(const PdfDictionary& d, const char* which) {
  const PdfObject* v = d.GetKey(PdfName("V"));
  if (!v || !v->IsNumber() || v->GetNumber() < 4) return true;
  const PdfObject* filter = d.GetKey(PdfName(which));
  return filter && filter->IsName() && filter->GetName().GetName() != "Identity";
}

// V5 (AES-256, revisions 5 and 6): no RC4 anywhere.
bool is_aes256_handler(const PdfDictionary& d) {
  const PdfObject* v = d.GetKey(PdfName("V"));
  return v && v->IsNumber() && v->GetNumber() == 5;
}

}  // namespace

// What a viewer does when it opens an encrypted file without asking: the
// security handler authenticated with the empty user password. Its
// dictionary is read before decryption is on (its strings are the keys).
Result<void> Reader::open_with_empty_password() {
  const std::string needs_password =
      "the PDF is encrypted with a user password (readers ask for it before they show the file): checking it "
      "needs the password. Decrypt it with the password (`qpdf --decrypt --password=PASSWORD in.pdf out.pdf`) "
      "and check the decrypted copy";
  const PdfObject* value = key(trailer_, "Encrypt");
  PdfObject dict;
  if (value->IsReference()) {
    encryption_dict_ = reference_of(*value);
    auto resolved = object(*encryption_dict_);
    if (resolved) dict = *resolved;
  } else {
    dict = *value;
  }
  // An /Encrypt that is not a readable dictionary naming its handler
  // (damaged, or null) names no way to decrypt: poppler then reads the file
  // as it is, and so do we (pdf.js's PDFBOX-4352-0.pdf). Encrypted data
  // reads as noise.
  if (!dict.IsDictionary() || !key(dict.GetDictionary(), "Filter") || !key(dict.GetDictionary(), "Filter")->IsName())
    return {};
  const std::string handler_name = security_handler_name(dict.GetDictionary());
  const auto cannot_read = [&](const std::string& why) {
    return fail(ErrorKind::usage, name_,
                "the PDF is encrypted with " + handler_name + ", which pith cannot read (" + why +
                    "); decrypt it (`qpdf --decrypt in.pdf out.pdf`) and check the decrypted copy");
  };
  if (!is_standard_security_handler(dict.GetDictionary())) return cannot_read("not the standard password handler");
  // Crypt filters (V 4 and 5): /StrF and /StmF /Identity (the default) leave
  // strings and streams as they are. A file that encrypts only its embedded
  // files (/EFF, often behind their own password: /AuthEvent /EFOpen) is
  // read as it is, without a password; those files stay unread.
  strings_encrypted_ = uses_crypt_filter(dict.GetDictionary(), "StrF");
  streams_encrypted_ = uses_crypt_filter(dict.GetDictionary(), "StmF");
  if (!strings_encrypted_ && !streams_encrypted_) return {};
  // Revisions 2-4 (RC4, and AESV2's key check) need RC4: OpenSSL 3's legacy provider.
  if (!enable_legacy_ciphers() && !is_aes256_handler(dict.GetDictionary()))
    return cannot_read("RC4 needs OpenSSL's legacy provider, which is not installed");
  // The first /ID enters the key of revisions 2-4; a file without one is
  // read with an empty id, as poppler and qpdf do.
  const PdfObject* id = key(trailer_, "ID");
  PoDoFo::PdfString first_id("");
  if (id && id->IsArray() && !id->GetArray().empty() && (id->GetArray()[0].IsString() || id->GetArray()[0].IsHexString()))
    first_id = id->GetArray()[0].GetString();
  try {
    std::shared_ptr<PoDoFo::PdfEncrypt> handler(PoDoFo::PdfEncrypt::CreatePdfEncrypt(&dict));
    if (!handler->Authenticate(std::string(), first_id)) return fail(ErrorKind::usage, name_, needs_password);
    decryption_ = std::move(handler);
  } catch (const PoDoFo::PdfError& e) {
    return cannot_read(e.GetError() == PoDoFo::ePdfError_UnsupportedFilter ? "an unsupported encryption method"
                                                                             : "its /Encrypt dictionary is malformed");
  }
  return {};
}

std::optional<FileKey> Reader::file_key() const {
  if (!decryption_) return std::nullopt;
  FileKey out;
  switch (decryption_->GetEncryptAlgorithm()) {
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_RC4V1:
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_RC4V2: out.cipher = FileKey::Cipher::rc4; break;
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV2: out.cipher = FileKey::Cipher::aes128; break;
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV3:
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV3R6: out.cipher = FileKey::Cipher::aes256; break;
    default: return std::nullopt;
  }
  const int length = out.cipher == FileKey::Cipher::aes256 ? 32 : decryption_->GetKeyLength() / 8;
  if (length <= 0 || length > 32) return std::nullopt;
  out.key.assign(reinterpret_cast<const char*>(decryption_->GetEncryptionKey()), static_cast<std::size_t>(length));
  return out;
}

PoDoFo::PdfEncrypt* Reader::decryption_for(ObjectId id) const {
  if (!decryption_ || (encryption_dict_ && *encryption_dict_ == id)) return nullptr;
  decryption_->SetCurrentReference(PoDoFo::PdfReference(id.number, id.generation));
  return decryption_.get();
}

}  // namespace pith::pdf
