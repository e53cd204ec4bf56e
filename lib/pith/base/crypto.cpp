// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/crypto.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <new>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <sodium.h>
#include <stdexcept>

namespace pith {

void ensure_sodium() {
  static const bool ready = [] {
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
    return true;
  }();
  (void)ready;
}

// Long inputs (whole PDFs: originalSha256) by OpenSSL, which uses the CPU's
// SHA extensions (SHA-NI), about 4x libsodium's portable code; short ones
// (keys, records, a paper's stamped prefix) by libsodium: OpenSSL's first
// digest starts its provider, ~5 M instructions, 12% of a whole
// `pith-check --offline` of a 10-page paper (callgrind) — more than
// libsodium needs for this many bytes. A process that checks many files pays
// that start once (sha256_warm_up) and then hashes everything with OpenSSL:
// 0.11 ms instead of 0.53 ms for a 171 KB paper, and 0.16 µs instead of
// 0.5 µs for the short texts the visible-title search hashes by the hundred.
constexpr std::size_t openssl_from_bytes = std::size_t{512} << 10;

namespace {

std::atomic<const EVP_MD*> warm_sha256{nullptr};

bool openssl_digest(std::span<const std::uint8_t> data, const EVP_MD* md, Sha256Digest& out) {
  unsigned int len = 0;
  return EVP_Digest(data.data(), data.size(), out.data(), &len, md, nullptr) == 1 && len == out.size();
}

}  // namespace

void sha256_warm_up() {
  if (warm_sha256.load(std::memory_order_acquire) != nullptr) return;
  // Fetched once and kept: an explicit fetch also spares each digest
  // OpenSSL's implicit lookup of the algorithm.
  static EVP_MD* const fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  if (fetched != nullptr) warm_sha256.store(fetched, std::memory_order_release);
}

Sha256Digest sha256(std::span<const std::uint8_t> data) {
  Sha256Digest out{};
  if (const EVP_MD* md = warm_sha256.load(std::memory_order_acquire)) {
    if (!openssl_digest(data, md, out)) throw std::runtime_error("OpenSSL SHA-256 failed");
    return out;
  }
  if (data.size() < openssl_from_bytes) {
    ensure_sodium();
    crypto_hash_sha256(out.data(), data.data(), data.size());
    return out;
  }
  if (!openssl_digest(data, EVP_sha256(), out)) throw std::runtime_error("OpenSSL SHA-256 failed");
  return out;
}

Sha256Digest sha256(std::string_view data) {
  return sha256(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()));
}

std::string sha256_hex(std::string_view data) { return to_hex(sha256(data)); }

// As sha256() chooses: a stream that stays short (a paper read in blocks)
// is held and hashed by libsodium at the end, one that grows past
// openssl_from_bytes (or any, once OpenSSL is warm) goes to OpenSSL, which
// then takes what was held: a stamp of a 10-page paper no longer starts
// OpenSSL's provider for its one hash (2 ms of its 38).
struct Sha256Stream::State {
  EVP_MD_CTX* ctx = nullptr;  // OpenSSL's digest, once started
  std::string held;           // the bytes so far, while short
  ~State() { EVP_MD_CTX_free(ctx); }

  void start_openssl() {
    const EVP_MD* warm = warm_sha256.load(std::memory_order_acquire);
    ctx = EVP_MD_CTX_new();
    if (ctx == nullptr || EVP_DigestInit_ex(ctx, warm ? warm : EVP_sha256(), nullptr) != 1)
      throw std::runtime_error("OpenSSL could not start a SHA-256 digest");
    EVP_DigestUpdate(ctx, held.data(), held.size());
    held.clear();
    held.shrink_to_fit();
  }
};

Sha256Stream::Sha256Stream() : state_(std::make_unique<State>()) {
  if (warm_sha256.load(std::memory_order_acquire) != nullptr) state_->start_openssl();
}
Sha256Stream::Sha256Stream(Sha256Stream&&) noexcept = default;
Sha256Stream& Sha256Stream::operator=(Sha256Stream&&) noexcept = default;
Sha256Stream::~Sha256Stream() = default;

void Sha256Stream::update(std::string_view data) {
  State& s = *state_;
  if (s.ctx == nullptr && s.held.size() + data.size() < openssl_from_bytes) {
    s.held.append(data);
    return;
  }
  if (s.ctx == nullptr) s.start_openssl();
  EVP_DigestUpdate(s.ctx, data.data(), data.size());
}

Sha256Digest Sha256Stream::finish() {
  State& s = *state_;
  if (s.ctx == nullptr) return sha256(s.held);  // short: libsodium's
  Sha256Digest out{};
  unsigned int len = 0;
  EVP_DigestFinal_ex(s.ctx, out.data(), &len);
  return out;
}

static_assert(sizeof(crypto_hash_sha256_state) == 104 && alignof(crypto_hash_sha256_state) <= 8,
              "Sha256Prefix holds libsodium's SHA-256 state by value");

namespace {
// The state is trivially copyable: Sha256Prefix's copies copy it.
crypto_hash_sha256_state* sodium_state(std::array<std::uint8_t, 104>& bytes) {
  return std::launder(reinterpret_cast<crypto_hash_sha256_state*>(bytes.data()));
}
}  // namespace

Sha256Prefix::Sha256Prefix() {
  ensure_sodium();
  crypto_hash_sha256_init(new (state_.data()) crypto_hash_sha256_state); }

void Sha256Prefix::append(std::string_view data) {
  crypto_hash_sha256_update(sodium_state(state_), reinterpret_cast<const unsigned char*>(data.data()), data.size());
}

Sha256Digest Sha256Prefix::digest() const {
  crypto_hash_sha256_state copy;
  std::memcpy(&copy, state_.data(), sizeof copy);
  Sha256Digest out{};
  crypto_hash_sha256_final(&copy, out.data());
  return out;
}

bool ed25519_verify(const Ed25519PublicKey& key, std::span<const std::uint8_t> message,
                    const Ed25519Signature& signature) {
  ensure_sodium();
  return crypto_sign_verify_detached(signature.data(), message.data(), message.size(), key.data()) == 0;
}

std::string to_hex(std::span<const std::uint8_t> data) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(data.size() * 2);
  for (std::uint8_t b : data) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

std::string to_hex(std::string_view bytes) {
  return to_hex(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

namespace {
int lower_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}
}  // namespace

bool is_lower_hex(std::string_view text, std::size_t byte_count) {
  return text.size() == 2 * byte_count &&
         std::all_of(text.begin(), text.end(), [](char c) { return lower_hex_digit(c) >= 0; });
}

Result<Bytes> from_hex(std::string_view text) {
  if (text.size() % 2 != 0) return fail(ErrorKind::malformed, "", "hex of odd length " + std::to_string(text.size()));
  Bytes out;
  out.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int hi = lower_hex_digit(text[i]);
    const int lo = lower_hex_digit(text[i + 1]);
    if (hi < 0 || lo < 0) {
      const std::size_t bad = hi < 0 ? i : i + 1;
      return fail(ErrorKind::malformed, "", "invalid hex character at position " + std::to_string(bad + 1) +
                          " (lower-case 0-9a-f expected)");
    }
    out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
  }
  return out;
}

std::string to_base64(std::span<const std::uint8_t> data) {
  ensure_sodium();
  const std::size_t len = sodium_base64_encoded_len(data.size(), sodium_base64_VARIANT_ORIGINAL);
  std::string out(len, '\0');
  sodium_bin2base64(out.data(), out.size(), data.data(), data.size(), sodium_base64_VARIANT_ORIGINAL);
  out.resize(len - 1);  // drop the terminating NUL
  return out;
}

Result<Bytes> from_base64(std::string_view text) {
  ensure_sodium();
  if (text.size() % 4 != 0) {
    return fail(ErrorKind::malformed, "", "base64 of length " + std::to_string(text.size()) + " is not padded to a multiple of 4");
  }
  Bytes out(text.size() / 4 * 3 + 3);
  std::size_t len = 0;
  const char* end = nullptr;
  // VARIANT_ORIGINAL: standard alphabet, padding required; libsodium also
  // rejects non-zero bits left over in the last character.
  const int rc = sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &len, &end,
                                   sodium_base64_VARIANT_ORIGINAL);
  if (rc != 0 || end != text.data() + text.size()) {
    const std::size_t at = end ? static_cast<std::size_t>(end - text.data()) : 0;
    return fail(ErrorKind::malformed, "", "invalid base64 at position " + std::to_string(at + 1));
  }
  out.resize(len);
  return out;
}

bool enable_legacy_ciphers() {
  static const bool loaded = [] {
    // `default` first: once any provider is loaded explicitly, OpenSSL no
    // longer loads the default one by itself.
    OSSL_PROVIDER* base = OSSL_PROVIDER_load(nullptr, "default");
    OSSL_PROVIDER* legacy = OSSL_PROVIDER_load(nullptr, "legacy");
    return base != nullptr && legacy != nullptr;
  }();
  return loaded;
}

std::optional<std::string> rc4(std::string_view key, std::string_view data) {
  if (key.empty() || key.size() > 16 || data.size() > static_cast<std::size_t>(INT_MAX) || !enable_legacy_ciphers())
    return std::nullopt;
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  std::unique_ptr<EVP_CIPHER, decltype(&EVP_CIPHER_free)> cipher(EVP_CIPHER_fetch(nullptr, "RC4", nullptr),
                                                                &EVP_CIPHER_free);
  if (!ctx || !cipher) return std::nullopt;
  if (EVP_DecryptInit_ex2(ctx.get(), cipher.get(), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_set_key_length(ctx.get(), static_cast<int>(key.size())) != 1 ||
      EVP_DecryptInit_ex2(ctx.get(), nullptr, reinterpret_cast<const unsigned char*>(key.data()), nullptr, nullptr) != 1)
    return std::nullopt;
  std::string out(data.size() + 16, '\0');
  int written = 0;
  int last = 0;
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  if (EVP_DecryptUpdate(ctx.get(), o, &written, reinterpret_cast<const unsigned char*>(data.data()),
                        static_cast<int>(data.size())) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), o + written, &last) != 1)
    return std::nullopt;
  out.resize(static_cast<std::size_t>(written + last));
  return out;
}

}  // namespace pith
