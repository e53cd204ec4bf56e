// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/pdf_samples.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace pith::test {
namespace fs = std::filesystem;

namespace {

// Runs a LaTeX engine twice in `dir` on `name`.tex; true when the PDF exists.
bool latex(const fs::path& dir, const std::string& engine, const std::string& name, const std::string& body) {
  write_file(dir / (name + ".tex"), body);
  const std::string cmd = "cd " + quote(dir) + " && " + engine + " -interaction=batchmode " + name +
                          ".tex >/dev/null 2>&1 </dev/null";
  (void)run(cmd);
  return fs::exists(dir / (name + ".pdf"));
}

const char* kPaper = R"(\documentclass{article}
\usepackage{hyperref}
\begin{document}
\title{A sample paper}\author{A. Author}\maketitle
\section{Introduction} Text with a link: \url{https://example.org}.
\newpage \section{More} Second page.
\end{document}
)";

// A hand-made hybrid-reference file: objects 1-4 and 6 in a classic table,
// object 5 (the Info dictionary) only in the /XRefStm cross-reference stream,
// inside object stream 4 — as Word and old Acrobat write for PDF 1.4 readers.
std::string hybrid_pdf() {
  std::string out = "%PDF-1.5\n%\xE2\xE3\xCF\xD3\n";
  std::array<std::size_t, 7> off{};
  auto obj = [&](int n, const std::string& body) {
    off[static_cast<std::size_t>(n)] = out.size();
    out += std::to_string(n) + " 0 obj\n" + body + "\nendobj\n";
  };
  obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] >>");
  const std::string objstm_header = "5 0 ";
  const std::string objstm_body = "<< /Title (Hybrid sample) /Producer (pith tests) >>";
  const std::string objstm = objstm_header + objstm_body;
  obj(4, "<< /Type /ObjStm /N 1 /First " + std::to_string(objstm_header.size()) + " /Length " +
             std::to_string(objstm.size()) + " >>\nstream\n" + objstm + "\nendstream");
  // Row: type (1 byte), field 2 (4 bytes), field 3 (2 bytes).
  std::string row = std::string("\x02", 1) + std::string("\x00\x00\x00\x04", 4) + std::string("\x00\x00", 2);
  off[6] = out.size();
  out += "6 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Index [5 1] /Length " + std::to_string(row.size()) +
         " >>\nstream\n" + row + "\nendstream\nendobj\n";
  const std::size_t xref = out.size();
  char line[32];
  out += "xref\n0 7\n0000000000 65535 f\r\n";
  for (int n = 1; n <= 6; ++n) {
    if (n == 5) {
      out += "0000000000 00001 f\r\n";  // lives in the object stream: a 1.4 reader sees it free
      continue;
    }
    std::snprintf(line, sizeof line, "%010zu 00000 n\r\n", off[static_cast<std::size_t>(n)]);
    out += line;
  }
  out += "trailer\n<< /Size 7 /Root 1 0 R /Info 5 0 R /XRefStm " + std::to_string(off[6]) + " >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return out;
}

// A minimal classic file without an /Info dictionary, and no end of line after %%EOF.
std::string no_info_pdf() {
  std::string out = classic_pdf({"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                 "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"});
  out.pop_back();
  return out;
}

std::optional<fs::path> make(SamplePdf kind) {
  const fs::path dir = process_scratch_dir() / "samples";
  fs::create_directories(dir);
  auto from = [&](SamplePdf base, const std::string& qpdf_args, const std::string& name) -> std::optional<fs::path> {
    auto src = sample_pdf(base);
    if (!src) return std::nullopt;
    const fs::path out = dir / name;
    if (run("qpdf " + qpdf_args + " " + quote(*src) + " " + quote(out) + " >/dev/null 2>&1").status > 3 ||
        !fs::exists(out))
      return std::nullopt;
    return out;
  };
  switch (kind) {
    case SamplePdf::pdflatex:
      if (!latex(dir, "pdflatex", "paper", kPaper)) return std::nullopt;
      return dir / "paper.pdf";
    case SamplePdf::classic: return from(SamplePdf::pdflatex, "--object-streams=disable", "classic.pdf");
    case SamplePdf::object_streams: return from(SamplePdf::classic, "--object-streams=generate", "objstm.pdf");
    case SamplePdf::linearized: return from(SamplePdf::pdflatex, "--linearize", "linearized.pdf");
    case SamplePdf::encrypted: return from(SamplePdf::pdflatex, "--encrypt user owner 256 --", "encrypted.pdf");
    case SamplePdf::hybrid: write_file(dir / "hybrid.pdf", hybrid_pdf()); return dir / "hybrid.pdf";
    case SamplePdf::no_info: write_file(dir / "noinfo.pdf", no_info_pdf()); return dir / "noinfo.pdf";
    case SamplePdf::with_xmp:
      if (!latex(dir, "pdflatex", "xmp",
                 R"(\documentclass{article}
\usepackage{hyperxmp}
\usepackage{hyperref}
\hypersetup{pdftitle={An XMP titled paper},pdfauthor={Ada Lovelace},pdfkeywords={engines}}
\begin{document}Body.\end{document}
)"))
        return std::nullopt;
      return dir / "xmp.pdf";
    case SamplePdf::attachments: {
      write_file(dir / "data.csv", "a,b\n1,2\n");
      write_file(dir / "notes.txt", "notes\n");
      if (!latex(dir, "pdflatex", "attach",
                 R"(\documentclass{article}
\usepackage{embedfile}
\embedfile{data.csv}\embedfile{notes.txt}
\begin{document}With attachments.\end{document}
)"))
        return std::nullopt;
      return dir / "attach.pdf";
    }
    case SamplePdf::ghostscript: {
      write_file(dir / "gs.ps", "%!PS\n/Helvetica findfont 20 scalefont setfont\n"
                                "1 1 3 { 72 700 moveto (Page) show showpage } for\n");
      const fs::path out = dir / "gs.pdf";
      (void)run("cd " + quote(dir) + " && gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfwrite -sOutputFile=gs.pdf gs.ps "
                ">/dev/null 2>&1");
      if (!fs::exists(out)) return std::nullopt;
      return out;
    }
    case SamplePdf::xelatex:
      if (!latex(dir, "xelatex", "xe", kPaper)) return std::nullopt;
      return dir / "xe.pdf";
    case SamplePdf::lualatex:
      if (!latex(dir, "lualatex", "lua", kPaper)) return std::nullopt;
      return dir / "lua.pdf";
    case SamplePdf::dvips: {
      write_file(dir / "dv.tex", R"(\documentclass{article}
\usepackage[dvips]{hyperref}
\begin{document}\title{Via dvips}\author{B}\maketitle Text \url{https://example.org}.\end{document}
)");
      (void)run("cd " + quote(dir) + " && (latex -interaction=batchmode dv.tex && dvips -q dv.dvi -o dv.ps && ps2pdf dv.ps dv.pdf)"
                " >/dev/null 2>&1 </dev/null");
      if (!fs::exists(dir / "dv.pdf")) return std::nullopt;
      return dir / "dv.pdf";
    }
    case SamplePdf::exiftool_updated: {
      auto src = sample_pdf(SamplePdf::pdflatex);
      if (!src) return std::nullopt;
      const fs::path out = dir / "exif.pdf";
      fs::copy_file(*src, out, fs::copy_options::overwrite_existing);
      (void)run("exiftool -q -overwrite_original -XMP-dc:Title='Edited by exiftool' " + quote(out) + " >/dev/null 2>&1");
      (void)run("exiftool -q -overwrite_original -PDF:Subject='Second edit' " + quote(out) + " >/dev/null 2>&1");
      return out;
    }
    case SamplePdf::big:
      if (!latex(dir, "pdflatex", "big",
                 R"(\documentclass{article}
\usepackage{hyperref}
\begin{document}
\newcount\n \n=0
\loop \section{Part \the\n} Text on page \the\n. \newpage \advance\n by 1 \ifnum\n<1200 \repeat
\end{document}
)"))
        return std::nullopt;
      return dir / "big.pdf";
  }
  return std::nullopt;
}

}  // namespace

std::optional<fs::path> sample_pdf(SamplePdf kind) {
  static std::recursive_mutex mutex;
  static std::map<SamplePdf, std::optional<fs::path>> made;
  std::lock_guard lock(mutex);
  if (auto it = made.find(kind); it != made.end()) return it->second;
  auto p = make(kind);
  made[kind] = p;
  return p;
}

std::string classic_pdf(const std::vector<std::string>& objects, const std::string& trailer_keys,
                        std::string_view version) {
  std::string out = "%PDF-" + std::string(version) + "\n";
  std::vector<std::size_t> offsets;
  for (std::size_t n = 0; n < objects.size(); ++n) {
    offsets.push_back(out.size());
    out += std::to_string(n + 1) + " 0 obj\n" + objects[n] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f\r\n";
  char line[32];
  for (const std::size_t offset : offsets) {
    std::snprintf(line, sizeof line, "%010zu 00000 n\r\n", offset);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R " + trailer_keys +
         ">>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

std::string require_sample(SamplePdf kind) {
  const auto path = sample_pdf(kind);
  if (!path) FAIL("sample PDF could not be made (is TeX Live / qpdf / gs installed?)");
  return read_file(*path);
}

}  // namespace pith::test
