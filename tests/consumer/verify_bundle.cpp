// SPDX-License-Identifier: GPL-3.0-or-later
// verify-bundle FILE: verifies a registry document with the pinned key only,
// through libpith's public headers; prints the number, exits 0 when verified.
#include <pith/registry/trust_store.hpp>
#include <pith/registry/verify.hpp>

#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: verify-bundle FILE\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto verified = pith::registry::verify_document(bytes, pith::registry::TrustStore::with_pinned_key(), argv[1]);
  if (!verified) {
    std::cerr << verified.error().message << "\n";
    return 2;
  }
  if (!verified->record()) {
    std::cerr << verified->report.to_text() << "\n";
    return 1;
  }
  std::cout << "verified " << verified->record()->number().to_string() << "\n";
  return 0;
}
