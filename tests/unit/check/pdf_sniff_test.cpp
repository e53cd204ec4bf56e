// SPDX-License-Identifier: GPL-3.0-or-later
// Which inputs pith-check hands to the PDF reader (check::looks_like_pdf):
// what poppler opens, including files whose header line was lost or mangled
// (issue 26), and never a registry document.
#include "pith/check/pdf.hpp"

#include <catch2/catch.hpp>

using pith::check::looks_like_pdf;

TEST_CASE("sniff: a %PDF- header within 1024 bytes, or a PDF body without one") {
  CHECK(looks_like_pdf("%PDF-1.7\n1 0 obj"));
  CHECK(looks_like_pdf(std::string(1000, ' ') + "%PDF-1.4"));
  CHECK_FALSE(looks_like_pdf(std::string(1030, ' ') + "%PDF-1.4"));
  CHECK(looks_like_pdf("%\xE2\xE3\xCF\xD3\n1 0 obj\n<< /Type /Catalog >>"));  // pdf.js bug1606566
  CHECK(looks_like_pdf("\nPDF-1.5\n%\xE2\xE3\xCF\xD3\n"));                   // the '%' lost
  CHECK(looks_like_pdf(std::string("2\0\0\0 /trailer< 5 0 obj\r<<", 24)));  // qpdf's oss-fuzz input
  CHECK_FALSE(looks_like_pdf("{\"pith_number\": \"5 0 obj\"}"));             // JSON is a registry document
  CHECK_FALSE(looks_like_pdf("[1 0 obj]"));
  CHECK_FALSE(looks_like_pdf("hello world"));
  CHECK_FALSE(looks_like_pdf("endobj obj 12obj"));
  CHECK_FALSE(looks_like_pdf(""));
}
