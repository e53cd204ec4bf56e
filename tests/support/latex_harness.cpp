// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/latex_harness.hpp"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace pith::test {
namespace fs = std::filesystem;
namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream b;
  b << in.rdbuf();
  return b.str();
}

}  // namespace

const char* to_string(Engine e) {
  switch (e) {
    case Engine::pdflatex: return "pdflatex";
    case Engine::lualatex: return "lualatex";
    case Engine::xelatex: return "xelatex";
    case Engine::dvips: return "latex+dvips+ps2pdf";
    case Engine::dvipdfmx: return "latex+dvipdfmx";
  }
  return "?";
}

Compiled compile(const fs::path& dir, const std::string& name, Engine engine) {
  Compiled c;
  const std::string cd = "cd " + quote(dir) + " && ";
  // No shell escape, like arXiv; SOURCE_DATE_EPOCH for reproducible output.
  const std::string env = "SOURCE_DATE_EPOCH=1700000000 FORCE_SOURCE_DATE=1 ";
  const std::string flags = " -no-shell-escape -interaction=nonstopmode -halt-on-error ";
  std::vector<std::string> steps;
  switch (engine) {
    case Engine::pdflatex:
    case Engine::lualatex:
    case Engine::xelatex:
      steps = {env + to_string(engine) + flags + name + ".tex", env + to_string(engine) + flags + name + ".tex"};
      break;
    case Engine::dvips:
      steps = {env + "latex" + flags + name + ".tex", env + "latex" + flags + name + ".tex",
               "dvips -q -o " + name + ".ps " + name + ".dvi", "ps2pdf " + name + ".ps " + name + ".pdf"};
      break;
    case Engine::dvipdfmx:
      steps = {env + "latex" + flags + name + ".tex", env + "latex" + flags + name + ".tex",
               "dvipdfmx -q -o " + name + ".pdf " + name + ".dvi"};
      break;
  }
  c.ok = true;
  for (const auto& step : steps) {
    auto r = run(cd + step + " </dev/null 2>&1");
    c.output += "$ " + step + "\n" + r.out;
    if (r.status != 0) {
      c.ok = false;
      break;
    }
  }
  c.log = slurp(dir / (name + ".log"));
  if (c.log.find("\n! ") != std::string::npos) c.ok = false;
  c.pdf = dir / (name + ".pdf");
  if (!fs::exists(c.pdf)) c.ok = false;
  return c;
}

nlohmann::json qpdf_json(const fs::path& pdf) {
  auto r = run("qpdf --json --json-key=qpdf --json-key=pages " + quote(pdf) + " 2>&1");
  const auto start = r.out.find('{');
  if (start == std::string::npos) throw std::runtime_error("qpdf --json failed: " + r.out);
  return nlohmann::json::parse(r.out.substr(start));
}

namespace {
const nlohmann::json& objects(const nlohmann::json& q) { return q.at("qpdf").at(1); }
}  // namespace

int metadata_stream_count(const nlohmann::json& q) {
  int n = 0;
  for (const auto& [key, obj] : objects(q).items()) {
    if (obj.contains("stream") && obj["stream"].value("dict", nlohmann::json::object()).value("/Type", "") == "/Metadata") {
      ++n;
    }
  }
  return n;
}

bool qpdf_check_clean(const fs::path& pdf, std::string* output) {
  auto r = run("qpdf --check " + quote(pdf) + " 2>&1");
  if (output) *output = r.out;
  return r.status == 0 && r.out.find("WARNING") == std::string::npos;
}

std::string info_value(const fs::path& pdf, const std::string& key) {
  auto r = run("pdfinfo -custom " + quote(pdf) + " 2>&1");
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with(key + ":")) {
      auto v = line.substr(key.size() + 1);
      v.erase(0, v.find_first_not_of(' '));
      return v;
    }
  }
  return {};
}

std::string xmp_value(const fs::path& pdf, const std::string& tag) {
  return run("exiftool -q -q -b -XMP-pith:" + tag + " " + quote(pdf) + " 2>&1").out;
}

std::optional<std::string> detached(const fs::path& pdf, const std::string& name) {
  const fs::path out = pdf.parent_path() / ("detached-" + name);
  fs::remove(out);
  auto r = run("pdfdetach -savefile " + quote(name) + " -o " + quote(out) + " " + quote(pdf) + " 2>&1");
  if (r.status != 0 || !fs::exists(out)) return std::nullopt;
  return slurp(out);
}

CommandResult pith_check_offline(const fs::path& pdf, const std::optional<fs::path>& trust_key) {
  std::string command = quote(fs::path(PITH_TOOLS_DIR) / "pith-check") + " --offline ";
  if (trust_key) command += "--trust-key " + quote(*trust_key) + " ";
  return run(command + quote(pdf) + " 2>&1");
}

std::vector<LinkAnnot> page1_links(const nlohmann::json& q) {
  std::vector<LinkAnnot> links;
  const auto& objs = objects(q);
  std::string page_ref = q.at("pages").at(0).at("object").get<std::string>();
  const auto& page = objs.at("obj:" + page_ref).at("value");
  if (!page.contains("/Annots")) return links;
  nlohmann::json annots = page["/Annots"];
  if (annots.is_string()) annots = objs.at("obj:" + annots.get<std::string>()).at("value");
  for (const auto& ref : annots) {
    const auto& a = ref.is_string() ? objs.at("obj:" + ref.get<std::string>()).at("value") : ref;
    if (a.value("/Subtype", "") != "/Link") continue;
    LinkAnnot link;
    for (const auto& v : a.at("/Rect")) link.rect.push_back(v.get<double>());
    if (a.contains("/A")) {
      nlohmann::json action = a["/A"];
      if (action.is_string()) action = objs.at("obj:" + action.get<std::string>()).at("value");
      std::string uri = action.value("/URI", "");
      if (uri.starts_with("u:") || uri.starts_with("b:")) uri = uri.substr(2);
      link.uri = uri;
    }
    links.push_back(link);
  }
  return links;
}

std::vector<Word> page1_words(const fs::path& pdf) {
  const fs::path html = pdf.parent_path() / "page1-bbox.html";
  (void)run("pdftotext -f 1 -l 1 -bbox " + quote(pdf) + " " + quote(html) + " 2>&1");
  const std::string text = slurp(html);
  std::vector<Word> words;
  static const std::regex word_re(
      R"re(<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>)re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), word_re); it != std::sregex_iterator(); ++it) {
    words.push_back(Word{(*it)[5].str(), std::stod((*it)[1].str()), std::stod((*it)[2].str()),
                         std::stod((*it)[3].str()), std::stod((*it)[4].str())});
  }
  return words;
}

double page1_height(const fs::path& pdf) {
  const fs::path html = pdf.parent_path() / "page1-bbox.html";
  if (!fs::exists(html)) (void)run("pdftotext -f 1 -l 1 -bbox " + quote(pdf) + " " + quote(html) + " 2>&1");
  const std::string text = slurp(html);
  static const std::regex page_re(R"re(<page width="([0-9.]+)" height="([0-9.]+)">)re");
  std::smatch m;
  if (std::regex_search(text, m, page_re)) return std::stod(m[2].str());
  return 0;
}

}  // namespace pith::test
