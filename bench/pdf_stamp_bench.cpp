// SPDX-License-Identifier: GPL-3.0-or-later
// The PDF half of pith-stamp, with no resolver and no child processes
// (bench/ measures those through pith-stamp itself): verify the bundle with
// the pinned key (the one way to get a VerifiedRecord), map, read the
// metadata, plan the update, write it atomically to OUT (or in place when
// OUT is IN).
// Usage: pdf_stamp_bench BUNDLE.json IN.pdf OUT.pdf [--append]
#include "pith/base/atomic_file.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: pdf_stamp_bench BUNDLE.json IN.pdf OUT.pdf [--append]\n";
    return 2;
  }
  const bool append = argc > 4 && std::string(argv[4]) == "--append";
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  // A VerifiedRecord is made only by verification (registry/verify.hpp):
  // the bundle is verified with the pinned key, once, before the PDF half
  // (a few hundred microseconds, against the milliseconds of the PDF side).
  auto verification = pith::registry::verify_document(ss.str(), pith::registry::TrustStore::with_pinned_key(), argv[1]);
  if (!verification) return std::cerr << verification.error().describe() << "\n", 2;
  if (!verification->record()) return std::cerr << argv[1] << ": the bundle does not verify with the pinned key\n", 2;
  const pith::registry::VerifiedRecord& r = *verification->record();

  auto file = pith::MappedFile::open(argv[2]);
  if (!file) return std::cerr << file.error().describe() << "\n", 2;
  auto reader = pith::pdf::Reader::open(file->bytes(), argv[2]);
  if (!reader) return std::cerr << reader.error().describe() << "\n", 2;
  pith::pdf::StampOptions options;
  options.original_sha256 = file->sha256_hex();
  const auto metadata = pith::pdf::read_pdf_metadata(*reader);
  const auto extraction = pith::pdf::extract_pith_numbers(metadata);
  if (!extraction) return std::cerr << extraction.error().describe() << "\n", 2;
  auto plan = pith::pdf::plan_stamp(*reader, metadata, *extraction, r, options);
  if (!plan) return std::cerr << plan.error().describe() << "\n", 2;
  if (plan->outcome != pith::pdf::StampOutcome::stamped) return 0;
  auto ok = append ? pith::append_in_place(argv[2], plan->original_length, plan->update)
                   : pith::write_atomically(argv[3], argv[2], plan->original_length, plan->update,
                                            pith::FileAttributes(file->mode()));
  if (!ok) return std::cerr << ok.error().describe() << "\n", 2;
  return 0;
}
