// SPDX-License-Identifier: GPL-3.0-or-later
// Baseline for bench/stamp_bench.sh: what PoDoFo's own whole-document path
// costs for the same job (load every object, set two Info keys, WriteUpdate
// to a copy). Usage: podofo_writeupdate_bench IN.pdf OUT.pdf
#include <podofo/podofo.h>

#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: podofo_writeupdate_bench IN.pdf OUT.pdf\n";
    return 2;
  }
  try {
    PoDoFo::PdfError::EnableLogging(false);
    std::filesystem::copy_file(argv[1], argv[2], std::filesystem::copy_options::overwrite_existing);
    PoDoFo::PdfMemDocument doc;
    doc.Load(argv[2], /*bForUpdate=*/true);
    doc.GetInfo()->SetCustomKey(PoDoFo::PdfName("PithNumber"), PoDoFo::PdfString("pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"));
    doc.WriteUpdate(argv[2]);
  } catch (const PoDoFo::PdfError& e) {
    std::cerr << "PoDoFo error: " << PoDoFo::PdfError::ErrorName(e.GetError()) << "\n";
    return 1;
  }
  return 0;
}
