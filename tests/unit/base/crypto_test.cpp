// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/crypto.hpp"

#include <catch2/catch.hpp>

using pith::from_base64;
using pith::from_hex;

TEST_CASE("sha256 known answers", "[crypto]") {
  CHECK(pith::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(pith::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("sha256 gives the same digests before and after the warm-up, short and long", "[crypto]") {
  // Before sha256_warm_up short inputs go to libsodium and long ones to
  // OpenSSL; after it, every input goes to OpenSSL.
  const std::string long_input(std::size_t{600} << 10, 'x');
  const std::string short_input(171'000, 'y');
  const std::string cold_long = pith::sha256_hex(long_input);
  const std::string cold_short = pith::sha256_hex(short_input);
  pith::sha256_warm_up();
  pith::sha256_warm_up();  // idempotent
  CHECK(pith::sha256_hex(long_input) == cold_long);
  CHECK(pith::sha256_hex(short_input) == cold_short);
  CHECK(pith::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(pith::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("sha256 in pieces equals sha256 at once", "[crypto]") {
  pith::Sha256Stream stream;
  stream.update("a");
  stream.update("");
  stream.update("bc");
  CHECK(pith::to_hex(stream.finish()) == pith::sha256_hex("abc"));
}

TEST_CASE("sha256 in pieces equals sha256 at once, short or long, across the switch to OpenSSL", "[crypto]") {
  std::string data;
  for (std::size_t i = 0; data.size() < (std::size_t{1} << 20) + 7; ++i) data += std::to_string(i * 2654435761u);
  for (const std::size_t length : {std::size_t{0}, std::size_t{1000}, (std::size_t{512} << 10) - 1, std::size_t{512} << 10,
                                   data.size()}) {
    INFO(length);
    const std::string_view whole = std::string_view(data).substr(0, length);
    pith::Sha256Stream stream;
    for (std::size_t at = 0; at < whole.size(); at += 65521) stream.update(whole.substr(at, 65521));  // pieces that straddle 512 KiB
    CHECK(stream.finish() == pith::sha256(whole));
  }
}

TEST_CASE("Sha256Prefix: the digest of every prefix, and the hashing goes on; copies branch", "[crypto]") {
  const std::string text = "The quick brown fox jumps over the lazy dog, " + std::string(200, 'z');
  pith::Sha256Prefix prefix;
  CHECK(prefix.digest() == pith::sha256(""));
  for (std::size_t at = 0; at < text.size(); at += 7) {
    prefix.append(std::string_view(text).substr(at, 7));
    const std::size_t hashed = std::min(text.size(), at + 7);
    REQUIRE(prefix.digest() == pith::sha256(std::string_view(text).substr(0, hashed)));
  }
  pith::Sha256Prefix branch = prefix;
  branch.append("!");
  CHECK(branch.digest() == pith::sha256(text + "!"));
  CHECK(prefix.digest() == pith::sha256(text));  // the original is unchanged by its copy's appends
}

TEST_CASE("hex of text bytes and the lower-case hex test", "[crypto]") {
  CHECK(pith::to_hex(std::string_view("\x00\xffz", 3)) == "00ff7a");
  CHECK(pith::is_sha256_hex(pith::sha256_hex("abc")));
  CHECK_FALSE(pith::is_sha256_hex(pith::sha256_hex("abc").substr(2)));
  CHECK_FALSE(pith::is_sha256_hex("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"));
  CHECK(pith::is_lower_hex("00ff", 2));
  CHECK_FALSE(pith::is_lower_hex("00fg", 2));
  CHECK(pith::is_lower_hex("", 0));
}

TEST_CASE("strict hex", "[crypto]") {
  auto ok = from_hex("00ff7a");
  REQUIRE(ok.has_value());
  CHECK(*ok == pith::Bytes{0x00, 0xff, 0x7a});
  CHECK_FALSE(from_hex("0").has_value());
  CHECK_FALSE(from_hex("FF").has_value());  // the registry spells hex in lower case
  CHECK_FALSE(from_hex("0g").has_value());
  CHECK_FALSE(from_hex(" 00").has_value());
  auto err = from_hex("00x0");
  REQUIRE_FALSE(err.has_value());
  CHECK(err.error().message.find("position 3") != std::string::npos);
  CHECK(pith::to_hex(*ok) == "00ff7a");
  CHECK_FALSE(pith::from_hex_fixed<4>("00ff7a").has_value());
}

TEST_CASE("strict base64", "[crypto]") {
  auto ok = from_base64("AAEC/w==");
  REQUIRE(ok.has_value());
  CHECK(*ok == pith::Bytes{0x00, 0x01, 0x02, 0xff});
  CHECK(pith::to_base64(*ok) == "AAEC/w==");
  CHECK(from_base64("").has_value());
  CHECK_FALSE(from_base64("AAEC/w").has_value());       // padding required
  CHECK_FALSE(from_base64("AAEC_w==").has_value());     // URL-safe alphabet
  CHECK_FALSE(from_base64("AAEC/w==\n").has_value());   // trailing garbage
  CHECK_FALSE(from_base64("AA EC/w==").has_value());    // whitespace
  CHECK_FALSE(from_base64("AAEC/x==").has_value());     // non-zero padding bits
  CHECK_FALSE(from_base64("AAEC/w==AAAA").has_value()); // data after padding
  CHECK_FALSE(pith::from_base64_fixed<32>("AAEC/w==").has_value());
}

TEST_CASE("ed25519 verify: RFC 8032 test 2", "[crypto]") {
  auto key = pith::from_hex_fixed<32>("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c");
  auto sig = pith::from_hex_fixed<64>(
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d"
      "291612bb0c00");
  REQUIRE(key.has_value());
  REQUIRE(sig.has_value());
  const std::uint8_t msg[] = {0x72};
  CHECK(pith::ed25519_verify(*key, msg, *sig));
  const std::uint8_t other[] = {0x73};
  CHECK_FALSE(pith::ed25519_verify(*key, other, *sig));
  auto bad = *sig;
  bad[10] ^= 1;
  CHECK_FALSE(pith::ed25519_verify(*key, msg, bad));
}
