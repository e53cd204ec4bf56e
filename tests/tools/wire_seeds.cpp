// SPDX-License-Identifier: GPL-3.0-or-later
// pith-test-wire-seeds: TEST ONLY. Writes the seeds of the process-message
// fuzz targets and of sty_data (fuzz/corpus/<target>/, docs/fuzzing.md) with
// the encoders the processes use, so the seeds are messages of today's wire
// (fuzz_seeds_test checks each decodes and encodes to the same bytes):
//   stamp_examine_wire  the examining child's answers: the PDF read (no
//                       record), a plan that stamps, one already stamped,
//                       an error; the drawing child's page 1; a passed check
//   page_crop_wire      a crop of page 1 (2 x 1 pixels), a crop not rendered
//   worker_request      a path, an archive member
//   broker_wire         a job, and the answer for the sample bundle
//   sty_data            the pith.sty generated for the sample record
//
//   pith-test-wire-seeds OUT_DIR     (fuzz/corpus: fuzz/wire_seeds.sh)
#include "pith/base/wire.hpp"
#include "pith/check/file.hpp"
#include "pith/pdf/crop_wire.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "pith/runner/worker_wire.hpp"
#include "pith/serve/broker_wire.hpp"
#include "pith/stamp/examine_wire.hpp"
#include "pith/tex/sty.hpp"
#include "support/test_data.hpp"

#include <cstdio>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
using namespace pith;

std::string framed(std::initializer_list<std::string> messages) {
  std::string out;
  for (const auto& m : messages) append_framed(out, m);
  return out;
}

void write_examine_seeds(const fs::path& dir) {
  const std::string sha(64, 'a');
  stamp::ExamineRead read{"pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65", "the PDF's Info /PithNumber",
                          {{"XMP dc:title", "A paper"}, {"Info /Title", "A paper"}}, std::nullopt, std::nullopt};
  test::write_file(dir / "read", framed({encode(read)}));

  stamp::ExamineRead stamping = read;
  stamping.outcome = pdf::StampOutcome::stamped;
  stamping.badge_rect = pdf::PdfRect{72, 700, 200, 720};
  stamp::ExaminePlan plan{sha,  12345, {"a badge on page 1"}, {"the XMP packet was malformed and is replaced"},
                          {"A paper", "An Author"}, std::nullopt, 3, stamping.badge_rect,
                          pdf::PageFingerprint{306, 396, std::string(64, 'b')}, "\n1 0 obj\n<< >>\nendobj\n%%EOF\n"};
  test::write_file(dir / "stamped", framed({encode(stamping), encode(plan)}));

  stamp::ExamineRead already = read;
  already.outcome = pdf::StampOutcome::already_stamped;
  stamp::ExaminePlan nothing{};
  nothing.previous_number = read.number;
  test::write_file(dir / "already-stamped", framed({encode(already), encode(nothing)}));

  test::write_file(dir / "error", framed({encode_error_message(Error{ErrorKind::malformed, "paper.pdf", "damaged"})}));
  pdf::PageTextRun run{12, 7, {sha, std::string(64, 'c')}, {4100, 3900}, {37, 41}, std::nullopt};
  test::write_file(dir / "page-one", stamp::encode(stamp::PageOneDrawn{pdf::PageFingerprint{306, 396, sha}, run}));
  run.first_page = 1;
  test::write_file(dir / "written-checked", stamp::encode_written_checked());
  test::write_file(dir / "pages-read", stamp::encode(run));
  stamp::ExamineRequest finish;
  finish.ask = stamp::ExamineAsk::finish;
  finish.original_sha256 = sha;
  finish.page_text_sha256 = "pith-text-1 12 " + sha;
  test::write_file(dir / "finish-request", stamp::encode(finish));
}

void write_crop_seeds(const fs::path& dir) {
  test::write_file(dir / "crop", pdf::encode_page_crop(pdf::PageCrop{2, 1, "\xff\xff\xff\x10\x20\x30"}));
  test::write_file(dir / "not-rendered",
                   pdf::encode_page_crop(fail(ErrorKind::malformed, "page 1", "poppler could not render it")));
}

void write_worker_seeds(const fs::path& dir) {
  test::write_file(dir / "path", runner::encode_input_request({"corpus/paper.pdf", std::nullopt}));
  test::write_file(dir / "member", runner::encode_input_request({"corpus.tar:a.pdf", std::string_view("%PDF-1.7\n%%EOF\n")}));
}

int write_broker_and_sty_seeds(const fs::path& broker_dir, const fs::path& sty_dir) {
  const std::string bundle =
      test::read_file(fs::path(PITH_SOURCE_DIR) / "samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json");
  const auto trust = registry::TrustStore::with_pinned_key();
  test::write_file(broker_dir / "job", serve::encode(serve::BrokerJob{"paper.pdf"}));
  check::FileCheck checked = check::check_registry_bytes(bundle, trust, "bundle.json");
  test::write_file(broker_dir / "answer", serve::encode(serve::BrokerAnswer{std::move(checked), false}));

  auto verified = registry::verify_document(bundle, trust, "bundle.json");
  if (!verified || !verified->record()) {
    std::fprintf(stderr, "pith-test-wire-seeds: the sample bundle does not verify\n");
    return 1;
  }
  auto sty = tex::generate_sty(*verified->record());
  if (!sty) {
    std::fprintf(stderr, "pith-test-wire-seeds: %s\n", sty.error().describe().c_str());
    return 1;
  }
  test::write_file(sty_dir / "pith.sty", *sty);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pith-test-wire-seeds OUT_DIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  write_examine_seeds(out / "stamp_examine_wire");
  write_crop_seeds(out / "page_crop_wire");
  write_worker_seeds(out / "worker_request");
  return write_broker_and_sty_seeds(out / "broker_wire", out / "sty_data");
}
