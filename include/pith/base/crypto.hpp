// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cryptography pith needs, via libsodium: SHA-256, Ed25519 detached
// signature verification, and strict base64/hex codecs (strict so that one
// signature or hash has exactly one accepted spelling).
#include "pith/base/error.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pith {

using Bytes = std::vector<std::uint8_t>;
using Sha256Digest = std::array<std::uint8_t, 32>;
using Ed25519PublicKey = std::array<std::uint8_t, 32>;
using Ed25519Signature = std::array<std::uint8_t, 64>;

[[nodiscard]] Sha256Digest sha256(std::span<const std::uint8_t> data);
[[nodiscard]] Sha256Digest sha256(std::string_view data);
[[nodiscard]] std::string sha256_hex(std::string_view data);
// For processes that hash many inputs (a corpus run, the checking service):
// start OpenSSL's SHA-256 now, and hash every later input with it (SHA-NI)
// instead of keeping short inputs on libsodium to spare OpenSSL's start-up.
// Same digests either way. Idempotent, thread-safe.
void sha256_warm_up();

// SHA-256 of data given in pieces (a whole PDF read in blocks), chosen as
// sha256() chooses: past 512 KiB (or once warm) OpenSSL, which uses the
// CPU's SHA extensions, about 4x libsodium's portable code; shorter, the
// bytes are held and hashed by libsodium, sparing OpenSSL's start.
class Sha256Stream {
 public:
  Sha256Stream();
  Sha256Stream(Sha256Stream&&) noexcept;
  Sha256Stream& operator=(Sha256Stream&&) noexcept;
  ~Sha256Stream();
  void update(std::string_view data);
  [[nodiscard]] Sha256Digest finish();  // once; the stream is spent afterwards

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// SHA-256 of bytes given in pieces, whose digest so far can be read at any
// point and the hashing go on (libsodium's state, copied): the hashes of a
// text and of each of its prefixes for the cost of hashing it once (the
// visible title search hashes a span of lines as the span one line
// shorter, extended). A value: copy it to branch.
class Sha256Prefix {
 public:
  Sha256Prefix();
  void append(std::string_view data);
  [[nodiscard]] Sha256Digest digest() const;

 private:
  alignas(8) std::array<std::uint8_t, 104> state_{};  // crypto_hash_sha256_state
};

// Ed25519 (RFC 8032, libsodium's crypto_sign_verify_detached: canonical S,
// no small-order keys). True only when `signature` is valid for `message`.
[[nodiscard]] bool ed25519_verify(const Ed25519PublicKey& key, std::span<const std::uint8_t> message,
                                  const Ed25519Signature& signature);

// Lower-case hex of `data` (the registry's spelling of hashes and keys).
[[nodiscard]] std::string to_hex(std::span<const std::uint8_t> data);
[[nodiscard]] std::string to_hex(std::string_view bytes);
// True when `text` is the lower-case hex of exactly `byte_count` bytes.
[[nodiscard]] bool is_lower_hex(std::string_view text, std::size_t byte_count);
// A SHA-256 digest as the registry writes it: 64 lower-case hex digits.
[[nodiscard]] inline bool is_sha256_hex(std::string_view text) { return is_lower_hex(text, 32); }

namespace detail {
// What a strict decoder gave, when it is exactly N bytes; `encoding` names
// the spelling in the error ("expected 32 bytes of hex, got 31").
template <std::size_t N>
[[nodiscard]] Result<std::array<std::uint8_t, N>> exactly(Result<Bytes> bytes, const char* encoding) {
  if (!bytes) return std::unexpected(bytes.error());
  if (bytes->size() != N) {
    return fail(ErrorKind::malformed, "",
                "expected " + std::to_string(N) + " bytes of " + encoding + ", got " + std::to_string(bytes->size()));
  }
  std::array<std::uint8_t, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = (*bytes)[i];
  return out;
}
}  // namespace detail

// Strict hex: even length, lower-case [0-9a-f] only (the registry's spelling).
[[nodiscard]] Result<Bytes> from_hex(std::string_view text);
// Strict hex of exactly N bytes.
template <std::size_t N>
[[nodiscard]] Result<std::array<std::uint8_t, N>> from_hex_fixed(std::string_view text) {
  return detail::exactly<N>(from_hex(text), "hex");
}

// Standard base64 (RFC 4648 §4, `+/`), padding required, no whitespace, no
// trailing garbage, no non-zero bits in the padding.
[[nodiscard]] std::string to_base64(std::span<const std::uint8_t> data);
[[nodiscard]] Result<Bytes> from_base64(std::string_view text);
template <std::size_t N>
[[nodiscard]] Result<std::array<std::uint8_t, N>> from_base64_fixed(std::string_view text) {
  return detail::exactly<N>(from_base64(text), "base64");
}

// Makes sure libsodium is initialised (idempotent, thread-safe).
void ensure_sodium();

// RC4, which the PDF standard security handler of revisions 2-4 needs (the
// common owner-password-only "protected" PDF, and the password check of
// AESV2), is in OpenSSL 3's `legacy` provider, which nothing loads by
// default. Loads it into the default library context beside the `default`
// provider (loading one explicitly stops the default from loading itself),
// once; later calls return the first answer. Every other algorithm keeps its
// provider: nothing gets weaker, RC4 becomes available. Call it before a
// sandbox that forbids opening files (the provider is a shared module); in
// pith's sandbox (base/sandbox.hpp) reading files is allowed. False when the
// provider is not installed (the caller says what cannot be read).
[[nodiscard]] bool enable_legacy_ciphers();

// RC4 with `key` (5 to 16 bytes) over `data`: encryption and decryption are
// the same operation. nullopt when RC4 is unavailable (enable_legacy_ciphers).
[[nodiscard]] std::optional<std::string> rc4(std::string_view key, std::string_view data);

}  // namespace pith
