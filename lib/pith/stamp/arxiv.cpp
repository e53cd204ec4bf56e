// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/arxiv.hpp"

#include "pith/stamp/arxiv_texlive.hpp"
#include "pith/stamp/tree_watch.hpp"

#include "pith/base/run_program.hpp"
#include "pith/base/tar_archive.hpp"
#include "pith/check/file.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/tex/build_log.hpp"
#include "pith/tex/source.hpp"
#include "pith/tex/stamp.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>
#include <string_view>

namespace pith::stamp {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using tex::LogFindings;
using Recorded = tex::RecordedFiles;
using Member = TarEntry;

// ------------------------------------------------------------ small helpers

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ------------------------------------------------------------ the compiler

struct Engine {
  const char* program;  // what runs the .tex
  const char* output;   // its output's extension
};

Engine engine_of(ArxivCompiler c) {
  switch (c) {
    case ArxivCompiler::pdflatex: return {"pdflatex", ".pdf"};
    case ArxivCompiler::latex: return {"latex", ".dvi"};
    case ArxivCompiler::xelatex: return {"xelatex", ".pdf"};
    case ArxivCompiler::lualatex: return {"lualatex", ".pdf"};
  }
  return {"pdflatex", ".pdf"};
}

ArxivCompiler compiler_named(std::string_view engine) {
  if (engine == "xelatex") return ArxivCompiler::xelatex;
  if (engine == "lualatex") return ArxivCompiler::lualatex;
  if (engine == "latex") return ArxivCompiler::latex;
  return ArxivCompiler::pdflatex;
}

// The engine from the first line of a log ("This is XeTeX, ...", "This is
// pdfTeX, ... (preloaded format=latex ...)"), or empty.
std::string engine_of_log_banner(const fs::path& log) {
  std::ifstream in(log);
  std::string first;
  if (!in || !std::getline(in, first)) return {};
  if (first.find("XeTeX") != std::string::npos) return "xelatex";
  if (first.find("LuaTeX") != std::string::npos || first.find("LuaHBTeX") != std::string::npos) return "lualatex";
  if (first.find("format=latex ") != std::string::npos) return "latex";  // pdfTeX in DVI mode
  if (first.find("pdfTeX") != std::string::npos) return "pdflatex";
  return {};
}

// The engine of the paper's last build: its .fls (the format it loaded) or
// its .log banner, whichever is newer (`xelatex paper.tex` without
// -recorder leaves an older .fls behind), beside the paper or in a
// directory just under it (latexmk -outdir=out, a build/ folder) whose .fls
// read this very .tex; the newest of those.
ArxivCompiler compiler_of_last_build(const fs::path& tex) {
  const std::string stem = tex.stem().string();
  std::vector<fs::path> dirs{tex.parent_path()};
  std::error_code ec;
  for (fs::directory_iterator it(tex.parent_path(), ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) dirs.push_back(it->path());
  std::optional<std::pair<fs::file_time_type, std::string>> newest;
  const auto consider = [&](const fs::path& file, std::string engine) {
    std::error_code time_ec;
    const auto when = fs::last_write_time(file, time_ec);
    if (!engine.empty() && !time_ec && (!newest || when > newest->first)) newest = std::pair{when, std::move(engine)};
  };
  for (const auto& dir : dirs) {
    const fs::path fls = dir / (stem + ".fls"), log = dir / (stem + ".log");
    const auto text = read_text(fls);
    const bool reads_this_tex = text && [&] {
      const auto inputs = tex::read_fls(*text).inputs;
      return std::find(inputs.begin(), inputs.end(), tex.lexically_normal()) != inputs.end();
    }();
    if (reads_this_tex) consider(fls, tex::engine_of_fls(*text));
    if (reads_this_tex || dir == tex.parent_path()) consider(log, engine_of_log_banner(log));
  }
  return compiler_named(newest ? newest->second : std::string());
}

// ------------------------------------------------------------ what the build read

// What LaTeX writes and reads back: never part of an upload (arXiv deletes
// .aux files anyway). .bbl and .ind are not here: arXiv needs them.
bool is_generated_extension(const fs::path& file) {
  static const std::set<std::string, std::less<>> generated = {
      ".aux", ".toc", ".lof", ".lot", ".loa", ".lol", ".out", ".nav", ".snm", ".vrb", ".fls", ".log", ".fdb_latexmk",
      ".bcf", ".blg", ".ilg", ".glg", ".brf", ".xdv", ".dvi", ".synctex", ".run.xml", ".idx", ".glo", ".tdo"};
  const std::string name = file.filename().string();
  if (name.ends_with(".synctex.gz") || name.ends_with(".run.xml")) return true;
  return generated.contains(file.extension().string());
}

bool is_within(const fs::path& dir, const fs::path& file) {
  const auto rel = file.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && !rel.is_absolute();
}

std::string engine_failed(const std::string& what, const LogFindings& log, int status) {
  std::string m = what + " failed (exit " + std::to_string(status) + ")";
  if (!log.first_error.empty()) m += ": " + log.first_error;
  return m;
}

// arXiv's 00README.json: the compiler, when it is not pdflatex.
std::string readme_json(ArxivCompiler c, const std::string& main_name) {
  const nlohmann::json readme{{"process", {{"compiler", to_string(c)}}},
                              {"sources", nlohmann::json::array({{{"filename", main_name}, {"usage", "toplevel"}}})}};
  return readme.dump(2) + "\n";
}

// ------------------------------------------------------------ the job

using Status = ArxivStatus;
using Outcome = ArxivOutcome;

void set_failure(Outcome& o, Status status, ErrorKind kind, std::string message) {
  o.status = status;
  o.failure = kind;
  o.message = std::move(message);
}

// The steps below record a verdict in the outcome themselves (a build that
// fails, what is missing) and then return this, so the job stops there;
// an Error that is not already recorded becomes the verdict (io_failure).
std::unexpected<Error> recorded() { return std::unexpected(Error{ErrorKind::io, "", "recorded in the outcome"}); }

struct Paper {
  fs::path tex;  // absolute
  fs::path dir;  // absolute
  std::string stem;
  registry::PithNumber number;  // full form, from the verified pith.sty
};

// Files of the paper's tree the build opened that -recorder does not list
// (fonts XeTeX and LuaTeX load by path, what xdvipdfmx reads) join its inputs.
void add_watched_opens(Recorded& recorded, const TreeWatch& watch) {
  std::set<fs::path> known(recorded.inputs.begin(), recorded.inputs.end());
  for (const auto& file : watch.opened())
    if (known.insert(file).second) recorded.inputs.push_back(file);
}

// 2. the discovery build: the paper's own environment, output elsewhere,
// every open in the paper's tree watched (tree_watch.hpp).
Result<Recorded> discovery_build(const Paper& paper, ArxivCompiler compiler, const fs::path& out_dir, LogFindings& log,
                                 Clock::time_point deadline, Outcome& o) {
  const Program p{{engine_of(compiler).program, "-interaction=batchmode", "-recorder", "-no-shell-escape",
                   "-output-directory=" + out_dir.string(), paper.tex.filename().string()},
                  paper.dir,
                  std::nullopt};
  auto watch = TreeWatch::start(paper.dir);
  if (!watch)
    o.notes.push_back("files opened outside TeX's own record (fonts loaded by path) are not seen: " + watch.error().describe());
  const auto drain = [&] {
    if (watch) watch->drain();
  };
  auto status = run_program(p, deadline, drain);
  if (!status) return std::unexpected(status.error());
  drain();
  if (watch && watch->overflowed())
    o.notes.push_back("the build opened files faster than they could be watched: fonts loaded by path may be missing "
                      "from the upload (the rebuild below would say so)");
  log = tex::read_log(read_text(out_dir / (paper.stem + ".log")).value_or(""), paper.stem);
  auto fls = read_text(out_dir / (paper.stem + ".fls"));
  if (*status != 0 || !fls) {
    for (const auto& f : log.missing_files) o.missing.push_back(f + ": LaTeX could not find it");
    set_failure(o, o.missing.empty() ? Status::build_failed : Status::missing, ErrorKind::io,
                engine_failed(paper.tex.filename().string() + " does not build here: " + p.argv[0], log, *status) +
                    " (see " + paper.stem + ".log after a build of your own)");
    return recorded();
  }
  Recorded r = tex::read_fls(*fls);
  if (watch) add_watched_opens(r, *watch);
  return r;
}

// The upload: what the build read inside the paper's directory, minus what
// LaTeX itself wrote (and reads back) and anything under the scratch dir.
std::vector<Member> upload_members(const Paper& paper, const Recorded& recorded, const fs::path& scratch,
                                   const fs::path& archive) {
  std::set<std::string> written;  // names the discovery build wrote, relative to its output dir
  for (const auto& out : recorded.outputs)
    if (is_within(scratch, out)) written.insert(out.filename().string());
  std::vector<Member> members;
  for (const auto& in : recorded.inputs) {
    if (!is_within(paper.dir, in) || is_within(scratch, in) || in == archive) continue;
    const fs::path rel = in.lexically_relative(paper.dir);
    if (is_generated_extension(in) || (rel.has_parent_path() ? false : written.contains(rel.string()))) continue;
    std::error_code ec;
    if (!fs::is_regular_file(in, ec)) continue;
    members.push_back(Member{rel.generic_string(), in, {}});
  }
  std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) { return a.name < b.name; });
  return members;
}

// What arXiv needs that the discovery build shows is not in the upload.
std::vector<std::string> missing_from_upload(const Paper& paper, const std::vector<Member>& members, const Recorded& recorded,
                                             const LogFindings& log) {
  std::vector<std::string> missing;
  for (const auto& [file, written] : recorded.relative)
    if (!is_within(paper.dir, file))
      missing.push_back(written + ": read from outside the paper's directory, so not in the upload; move it in");
  const auto has = [&](const std::string& name) {
    return std::any_of(members.begin(), members.end(), [&](const Member& m) { return m.name == name; });
  };
  if (!has("pith.sty"))
    missing.push_back("pith.sty: the build did not read the generated pith.sty beside the paper");
  if (log.no_bbl)
    missing.push_back(paper.stem + ".bbl: arXiv runs no BibTeX or Biber; run it (latexmk does) and upload the .bbl");
  if (log.no_ind)
    missing.push_back(paper.stem + ".ind: arXiv runs no makeindex; run it (latexmk does) and upload the .ind");
  for (const auto& f : log.missing_files) missing.push_back(f + ": LaTeX could not find it");
  return missing;
}

// Every uploaded .bbl against the biblatex of arXiv's TeX Live trees
// (arxiv_texlive.hpp): one no tree reads is missing from the upload; one
// only some read is a note naming the tree to choose.
void judge_bbls(const std::vector<Member>& members, Outcome& o) {
  for (const auto& m : members) {
    if (!m.name.ends_with(".bbl")) continue;
    const auto text = read_text(m.source);
    if (!text) continue;
    const auto need = bbl_need(m.name, *text);
    if (!need) continue;
    if (need->readable_somewhere) o.notes.push_back(need->message);
    else o.missing.push_back(need->message);
  }
}

// The environment arXiv gives TeX: no TEXINPUTS, no personal texmf, no
// variables of the author's; only PATH (to find TeX Live) and the dates.
std::vector<std::string> scrubbed_environment(const fs::path& home) {
  std::vector<std::string> env{"HOME=" + home.string(), "LC_ALL=C"};
  for (const char* name : {"PATH", "SOURCE_DATE_EPOCH", "FORCE_SOURCE_DATE"})
    if (const char* v = std::getenv(name)) env.push_back(std::string(name) + "=" + v);
  return env;
}

// 4. arXiv's build of the unpacked upload in `dir`: the engine at least twice
// and at most 5 times while the log asks for a rerun or the .aux changes.
Result<fs::path> arxiv_build(const Paper& paper, ArxivCompiler compiler, const fs::path& dir, const fs::path& home,
                             Clock::time_point deadline, Outcome& o) {
  const Engine engine = engine_of(compiler);
  const std::string main_name = paper.tex.filename().string();
  const auto env = scrubbed_environment(home);
  std::optional<std::string> previous_aux;
  for (o.latex_runs = 1; o.latex_runs <= 5; ++o.latex_runs) {
    const Program p{{engine.program, "-interaction=batchmode", "-recorder", "-no-parse-first-line", "-no-shell-escape", main_name},
                    dir, env};
    auto status = run_program(p, deadline);
    if (!status) return std::unexpected(status.error());
    const LogFindings log = tex::read_log(read_text(dir / (paper.stem + ".log")).value_or(""), paper.stem);
    o.tex_live_here = log.tex_live;
    std::error_code ec;
    if (*status != 0 || !fs::exists(dir / (paper.stem + engine.output), ec)) {
      o.missing = log.missing_files;
      for (auto& m : o.missing) m += ": not in the upload (and not in TeX Live)";
      set_failure(o, o.missing.empty() ? Status::build_failed : Status::missing, ErrorKind::io,
                  engine_failed("arXiv's build (" + std::string(engine.program) + " run " + std::to_string(o.latex_runs) + ")",
                                log, *status));
      return recorded();
    }
    if (log.bbl_wrong_format && o.latex_runs == 1)
      o.notes.push_back("this machine's biblatex cannot read the upload's " + paper.stem +
                        ".bbl (its log: wrong format version), so the rebuild here prints no references where arXiv's "
                        "matching tree would: the note on the .bbl's format says which tree reads it");
    auto aux = read_text(dir / (paper.stem + ".aux"));
    const bool aux_changed = o.latex_runs > 1 && aux != previous_aux;
    previous_aux = std::move(aux);
    if (o.latex_runs >= 2 && !log.rerun && !aux_changed) break;
  }
  o.latex_runs = std::min(o.latex_runs, 5);
  if (compiler != ArxivCompiler::latex) return dir / (paper.stem + ".pdf");
  // latex → dvips -R2 (hyperdvi first, then without) → ps2pdf
  const std::string dvi = paper.stem + ".dvi", ps = paper.stem + ".ps", pdf = paper.stem + ".pdf";
  auto dvips = run_program({{"dvips", "-R2", "-q", "-z", dvi, "-o", ps}, dir, env}, deadline);
  if (dvips && *dvips != 0) dvips = run_program({{"dvips", "-R2", "-q", dvi, "-o", ps}, dir, env}, deadline);
  if (!dvips) return std::unexpected(dvips.error());
  if (*dvips != 0) {
    set_failure(o, Status::build_failed, ErrorKind::io, "arXiv's build: dvips failed (exit " + std::to_string(*dvips) + ")");
    return recorded();
  }
  auto gs = run_program({{"ps2pdf", ps, pdf}, dir, env}, deadline);
  if (!gs) return std::unexpected(gs.error());
  if (*gs != 0) {
    set_failure(o, Status::build_failed, ErrorKind::io, "arXiv's build: ps2pdf failed (exit " + std::to_string(*gs) + ")");
    return recorded();
  }
  return dir / pdf;
}

const Check* first_failed(const Report& r) {
  for (const auto& c : r.checks())
    if (c.status == CheckStatus::fail) return &c;
  return nullptr;
}

// 5. the rebuilt PDF, checked offline.
void judge_pdf(const Paper& paper, const fs::path& pdf, const registry::TrustStore& trust, Outcome& o) {
  check::FileCheck checked = check::check_file(pdf, trust);
  Report report = checked.report;
  report.input = "the PDF arXiv will build";
  const Verdict verdict = report.verdict();
  o.verification = report;
  if (verdict == Verdict::verified && registry::same_number(paper.number, report.pith_number)) {
    o.status = Status::verifies;
    o.message = "what arXiv will build verifies as " + report.pith_number;
    return;
  }
  std::string why;
  ErrorKind kind = ErrorKind::rejected;
  if (verdict == Verdict::verified) {
    why = "it carries " + report.pith_number + ", not the paper's " + paper.number.to_string();
    kind = ErrorKind::conflict;
  } else if (verdict == Verdict::not_found) {
    why = "it carries no Pith Number (is \\usepackage{pith} in the paper?)";
    kind = ErrorKind::not_found;
  } else if (verdict == Verdict::unverifiable) {
    why = "nothing trusted signed its record";
    kind = ErrorKind::unverifiable;
  } else if (const Check* c = first_failed(report)) {
    why = c->code + ": " + c->detail;
  } else {
    why = report.error ? report.error->message : std::string(to_string(verdict));
    kind = verdict == Verdict::error ? ErrorKind::malformed : ErrorKind::rejected;
  }
  set_failure(o, Status::not_verified, kind, "what arXiv will build does not verify: " + why);
}

Result<registry::TrustStore> trust_store(const ArxivOptions& opt) { return registry::TrustStore::load(opt.trust_keys); }

// 1. the paper, its number, and a pith.sty whose record verifies for it.
std::optional<Paper> paper_with_verified_sty(const ArxivOptions& opt, const registry::TrustStore& trust, Outcome& o) {
  std::error_code ec;
  Paper paper;
  paper.tex = fs::absolute(opt.tex, ec).lexically_normal();
  paper.dir = paper.tex.parent_path();
  paper.stem = paper.tex.stem().string();
  auto found = tex::find_pith_number(paper.tex);
  if (!found) {
    const bool none = found.error().kind == ErrorKind::not_found;
    set_failure(o, none ? Status::no_number : Status::error, found.error().kind, found.error().describe());
    return std::nullopt;
  }
  o.pith_number = found->number.to_string();
  auto record = tex::verify_existing_sty(paper.tex, *found, trust);
  if (!record) {
    o.missing.push_back("pith.sty with the verified record of " + o.pith_number + " (" + record.error().describe() + ")");
    set_failure(o, Status::missing, record.error().kind == ErrorKind::not_found ? ErrorKind::io : record.error().kind,
                "the upload needs " + o.missing.back() + "; run 'pith-stamp " + opt.tex.string() + "' first");
    return std::nullopt;
  }
  paper.number = record->number();
  o.pith_number = paper.number.to_string();
  return paper;
}

// arXiv's processors are pdflatex, latex (+ dvips) and xelatex. A paper last
// built with LuaLaTeX is packed and rebuilt with XeLaTeX, the closest (both
// take fontspec and Unicode sources), and the outcome says so; when that
// does not verify, the verdict says arXiv does not run LuaLaTeX. Asked for
// by name (--compiler lualatex), it is refused.
bool choose_compiler(const ArxivOptions& opt, const Paper& paper, Outcome& o) {
  if (opt.compiler == ArxivCompiler::lualatex) {
    o.compiler = ArxivCompiler::lualatex;
    set_failure(o, Status::error, ErrorKind::usage,
                "arXiv does not run lualatex (its processors are pdflatex, xelatex and latex+dvips): give --compiler "
                "xelatex, the closest, or pdflatex");
    return false;
  }
  o.compiler = opt.compiler.value_or(compiler_of_last_build(paper.tex));
  if (o.compiler == ArxivCompiler::lualatex) {
    o.instead_of = ArxivCompiler::lualatex;
    o.compiler = ArxivCompiler::xelatex;
    o.notes.push_back(paper.stem + ".log says lualatex, which arXiv does not run: packed and rebuilt with xelatex, "
                      "the closest engine arXiv runs (00README.json names it); --compiler pdflatex to choose another");
  }
  return true;
}

}  // namespace

bool is_arxiv_processor(ArxivCompiler c) { return c != ArxivCompiler::lualatex; }

const char* to_string(ArxivCompiler c) { return engine_of(c).program; }

std::optional<ArxivCompiler> arxiv_compiler_from_string(std::string_view name) {
  for (auto c : {ArxivCompiler::pdflatex, ArxivCompiler::latex, ArxivCompiler::xelatex, ArxivCompiler::lualatex})
    if (name == to_string(c)) return c;
  return std::nullopt;
}

ArxivOutcome prepare_arxiv_upload(const ArxivOptions& opt) {
  const auto started = Clock::now();
  const auto deadline = started + opt.time_limit;
  Outcome o;
  const auto finish = [&]() -> Outcome {
    o.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (o.instead_of && o.failure)
      o.message = "arXiv does not run " + std::string(to_string(*o.instead_of)) + " (the paper's last build), and with " +
                  to_string(o.compiler) + ", the closest engine it runs: " + o.message;
    return o;
  };
  const auto io_failure = [&](const Error& e) {
    if (!o.failure) set_failure(o, Status::error, e.kind, e.describe());
    return finish();
  };
  if (opt.tex.extension() != ".tex")
    return io_failure(Error{ErrorKind::usage, opt.tex.string(), "--arxiv takes the paper's main .tex"});
  auto trust = trust_store(opt);
  if (!trust) return io_failure(trust.error());
  auto paper = paper_with_verified_sty(opt, *trust, o);
  if (!paper) return finish();
  if (!choose_compiler(opt, *paper, o)) return finish();

  auto scratch = TempDir::make("arxiv");
  if (!scratch) return io_failure(scratch.error());
  const fs::path discovery = scratch->path() / "discovery", upload = scratch->path() / "upload",
                 home = scratch->path() / "home";
  for (const auto& d : {discovery, upload, home}) {
    std::error_code ec;
    if (!fs::create_directory(d, ec)) return io_failure(Error{ErrorKind::io, d.string(), "cannot make: " + ec.message()});
  }
  LogFindings log;
  auto recorded = discovery_build(*paper, o.compiler, discovery, log, deadline, o);
  if (!recorded) return io_failure(recorded.error());

  o.archive = opt.archive.empty() ? paper->dir / (paper->stem + "-arxiv.tar.gz") : fs::absolute(opt.archive);
  std::vector<Member> members = upload_members(*paper, *recorded, scratch->path(), o.archive);
  o.missing = missing_from_upload(*paper, members, *recorded, log);
  judge_bbls(members, o);
  if (!o.missing.empty()) {
    std::string list;
    for (const auto& m : o.missing) list += (list.empty() ? "" : "; ") + m;
    set_failure(o, Status::missing, ErrorKind::io, "the upload lacks " + list);
    o.archive.clear();
    return finish();
  }
  if (o.compiler != ArxivCompiler::pdflatex)
    members.insert(members.begin(), Member{"00README.json", {}, readme_json(o.compiler, paper->tex.filename().string())});
  // The upload is unpacked within what was written into it: as many files,
  // none larger than the largest.
  TarLimits written;
  written.max_members = members.size();
  for (const auto& m : members) {
    o.files.push_back(m.name);
    std::error_code ec;
    const std::uintmax_t bytes = m.source.empty() ? m.content.size() : fs::file_size(m.source, ec);
    if (!ec) {
      o.source_bytes += bytes;
      written.max_member_bytes = std::max<std::size_t>(written.max_member_bytes, bytes);
    }
  }
  if (auto ok = write_tar_gz(o.archive, members, opt.source_date_epoch); !ok) return io_failure(ok.error());
  std::error_code ec;
  o.archive_bytes = fs::file_size(o.archive, ec);

  if (auto ok = extract_tar(o.archive, upload, written); !ok) return io_failure(ok.error());
  auto pdf = arxiv_build(*paper, o.compiler, upload, home, deadline, o);
  if (o.latex_runs > 0) o.notes.push_back(local_tex_live_note(o.tex_live_here));
  if (!pdf) return io_failure(pdf.error());
  judge_pdf(*paper, *pdf, *trust, o);
  return finish();
}

}  // namespace pith::stamp

