// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/file.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/base/input_file.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/check/page_renders.hpp"
#include "pith/check/pdf.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/pdf/xmp.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/signature.hpp"
#include "pith/registry/verify.hpp"
#include "pith/runner/isolation.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>

namespace pith::check {

// --- One checked file: what it carried, and its wire form ----------------------

namespace {

using nlohmann::json;
using registry::member;

std::optional<registry::DocumentKind> kind_from(const std::string& text) {
  for (const auto kind : {registry::DocumentKind::bundle, registry::DocumentKind::state, registry::DocumentKind::record,
                          registry::DocumentKind::resolver_answer}) {
    if (text == registry::to_string(kind)) return kind;
  }
  return std::nullopt;
}

}  // namespace

CarriedCopy CarriedCopy::of(const registry::DocumentContent& record, const Report& report) {
  CarriedCopy copy;
  copy.kind = record.kind;
  copy.event_ids = applied_event_ids(record);
  if (const json& at = member(record.document, "built_at"); at.is_string()) copy.built_at = at.get<std::string>();
  if (const json& c = member(report.extra, "completeness"); c.is_object()) copy.completeness = c;
  return copy;
}

json CarriedCopy::to_json() const {
  json out = {{"kind", registry::to_string(kind)}, {"event_ids", event_ids}};
  if (built_at) out["built_at"] = *built_at;
  if (completeness) out["completeness"] = *completeness;
  return out;
}

Result<CarriedCopy> CarriedCopy::from_json(const json& j) {
  const auto malformed = [] { return fail(ErrorKind::malformed, "carried copy", "malformed"); };
  if (!j.is_object() || !member(j, "kind").is_string() || !member(j, "event_ids").is_array()) return malformed();
  CarriedCopy copy;
  const auto kind = kind_from(member(j, "kind").get<std::string>());
  if (!kind) return malformed();
  copy.kind = *kind;
  for (const auto& id : member(j, "event_ids")) {
    if (!id.is_string()) return malformed();
    copy.event_ids.push_back(id.get<std::string>());
  }
  if (const json& at = member(j, "built_at"); !at.is_null()) {
    if (!at.is_string()) return malformed();
    copy.built_at = at.get<std::string>();
  }
  if (const json& c = member(j, "completeness"); !c.is_null()) {
    if (!c.is_object()) return malformed();
    copy.completeness = c;
  }
  return copy;
}

json PdfEvidence::to_json() const {
  json pairs = json::array();
  for (const auto& [where, title] : titles) pairs.push_back({where, title});
  json out = {{"number", number}, {"titles", std::move(pairs)}, {"page", page.to_json()}};
  if (drawn) {
    out["drawn"] = {{"first_line", drawn->first_line}, {"line_count", drawn->line_count}, {"line", drawn->line},
                    {"block", drawn->block}};
  }
  return out;
}

Result<PdfEvidence> PdfEvidence::from_json(const json& j) {
  const auto malformed = [] { return fail(ErrorKind::malformed, "PDF evidence", "malformed"); };
  if (!j.is_object() || !member(j, "number").is_string() || !member(j, "titles").is_array()) return malformed();
  PdfEvidence out;
  out.number = member(j, "number").get<std::string>();
  for (const auto& pair : member(j, "titles")) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) return malformed();
    out.titles.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
  }
  auto page = pdf::PageText::from_json(member(j, "page"));
  if (!page) return malformed();
  out.page = std::move(*page);
  if (const json& d = member(j, "drawn"); !d.is_null()) {
    const auto strings = [](const json& a) {
      return a.is_array() && std::all_of(a.begin(), a.end(), [](const json& v) { return v.is_string(); });
    };
    if (!d.is_object() || !member(d, "first_line").is_number_unsigned() || !member(d, "line_count").is_number_unsigned() ||
        !strings(member(d, "line")) || !strings(member(d, "block")))
      return malformed();
    out.drawn = DrawnReading{member(d, "first_line").get<std::size_t>(), member(d, "line_count").get<std::size_t>(),
                             member(d, "line").get<std::vector<std::string>>(),
                             member(d, "block").get<std::vector<std::string>>()};
  }
  return out;
}

json FileCheck::to_json() const {
  json out = report.to_json();
  out["schema_version"] = json_schema_version;
  if (carried) out["details"]["carried"] = carried->to_json();
  return out;
}

// --- The wire form pith-serve's broker sends its HTTP side -----------------

namespace {

std::optional<CheckStatus> status_from(const std::string& s) {
  for (const auto status : {CheckStatus::pass, CheckStatus::fail, CheckStatus::warn, CheckStatus::skip}) {
    if (s == to_string(status)) return status;
  }
  return std::nullopt;
}

}  // namespace

nlohmann::json report_to_wire(const Report& report) {
  auto checks = nlohmann::json::array();
  for (const auto& c : report.checks()) {
    checks.push_back({{"code", c.code}, {"status", to_string(c.status)}, {"detail", c.detail}, {"anchors", c.anchors_trust},
                      {"binds", c.binds_content}, {"alters", c.shows_alteration}});
  }
  return {{"input", report.input},
          {"pith_number", report.pith_number},
          {"input_kind", report.input_kind},
          {"error", report.error ? nlohmann::json(report.error->message) : nlohmann::json(nullptr)},
          {"error_kind", report.error ? nlohmann::json(to_string(report.error->kind)) : nlohmann::json(nullptr)},
          {"number_found", report.number_found},
          {"requires_content_binding", report.requires_content_binding},
          {"extra", report.extra},
          {"checks", std::move(checks)}};
}

Result<Report> report_from_wire(const nlohmann::json& wire) {
  const auto string_at = [&](const char* key) -> const nlohmann::json* {
    const auto it = wire.find(key);
    return it != wire.end() && it->is_string() ? &*it : nullptr;
  };
  if (!wire.is_object() || !string_at("input") || !string_at("pith_number") || !string_at("input_kind") ||
      !wire.contains("number_found") || !wire["number_found"].is_boolean() || !wire.contains("checks") ||
      !wire["checks"].is_array() || !wire.contains("error")) {
    return fail(ErrorKind::internal, "isolated check", "malformed report from the child process");
  }
  Report r;
  r.input = wire["input"].get<std::string>();
  r.pith_number = wire["pith_number"].get<std::string>();
  r.input_kind = wire["input_kind"].get<std::string>();
  r.number_found = wire["number_found"].get<bool>();
  if (const auto it = wire.find("requires_content_binding"); it != wire.end() && it->is_boolean())
    r.requires_content_binding = it->get<bool>();
  if (wire["error"].is_string()) {
    // The kind by name, range-checked: a report whose kind names none is malformed.
    const auto kind = wire.contains("error_kind") && wire["error_kind"].is_string()
                          ? error_kind_named(wire["error_kind"].get<std::string>())
                          : std::nullopt;
    if (!kind) return fail(ErrorKind::internal, "isolated check", "malformed report from the child process");
    r.error = Error{*kind, {}, wire["error"].get<std::string>()};
  }
  if (wire.contains("extra") && wire["extra"].is_object()) r.extra = wire["extra"];
  for (const auto& c : wire["checks"]) {
    if (!c.is_object() || !c.contains("code") || !c["code"].is_string() || !c.contains("status") ||
        !c["status"].is_string() || !c.contains("detail") || !c["detail"].is_string() || !c.contains("anchors") ||
        !c["anchors"].is_boolean()) {
      return fail(ErrorKind::internal, "isolated check", "malformed check in the child's report");
    }
    const auto status = status_from(c["status"].get<std::string>());
    if (!status) return fail(ErrorKind::internal, "isolated check", "unknown check status in the child's report");
    const auto flag = [&c](const char* key) { return c.contains(key) && c[key].is_boolean() && c[key].get<bool>(); };
    r.add(Check{c["code"].get<std::string>(), *status, c["detail"].get<std::string>(), c["anchors"].get<bool>(),
                flag("binds"), flag("alters")});
  }
  return r;
}

nlohmann::json file_check_to_wire(const FileCheck& checked) {
  nlohmann::json wire = report_to_wire(checked.report);
  wire["carried"] = checked.carried ? checked.carried->to_json() : nlohmann::json(nullptr);
  if (checked.evidence) wire["evidence"] = checked.evidence->to_json();
  return wire;
}

Result<FileCheck> file_check_from_wire(const nlohmann::json& wire) {
  auto report = report_from_wire(wire);
  if (!report) return std::unexpected(report.error());
  if (!wire.contains("carried")) return fail(ErrorKind::malformed, "isolated check", "malformed report from the child process");
  FileCheck checked(std::move(*report));
  if (!wire["carried"].is_null()) {
    auto carried = CarriedCopy::from_json(wire["carried"]);
    if (!carried) return fail(ErrorKind::malformed, "isolated check", "malformed carried copy in the child's report");
    checked.carried = std::move(*carried);
  }
  if (const auto it = wire.find("evidence"); it != wire.end()) {
    auto evidence = PdfEvidence::from_json(*it);
    if (!evidence) return fail(ErrorKind::malformed, "isolated check", "malformed PDF evidence in the child's report");
    checked.evidence = std::move(*evidence);
  }
  return checked;
}

namespace {

// An input that could not be checked: its report holds the error.
Report error_report(const std::string& name, Error error) {
  Report r;
  r.input = name;
  r.error = std::move(error);
  return r;
}

// Registry documents are JSON objects (or arrays): anything else gets a
// sentence showing how it starts, never the JSON parser's jargon.
std::optional<std::string> not_a_document(std::string_view bytes) {
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "empty: not a PDF or a registry document";
  if (bytes[first] == '{' || bytes[first] == '[' || bytes.starts_with("\xEF\xBB\xBF")) return std::nullopt;
  constexpr std::size_t shown = 16;
  return "not a PDF or a registry document (starts with \"" + terminal_safe(bytes.substr(0, shown)) + "\"" +
         (bytes.size() > shown ? "…" : "") + ")";
}

}  // namespace

// --- A PDF: the facts the child read, judged here -------------------------------

namespace {

Report pdf_error_report(std::string_view name, Error error) {
  Report report = error_report(std::string(name), std::move(error));
  report.input_kind = "pdf";
  return report;
}

std::vector<TitleCandidate> stamped_titles_of(const pdf::PdfFacts& facts) {
  std::vector<TitleCandidate> titles;
  if (facts.stamped_xmp_packet) {
    if (auto xmp = pdf::read_xmp(*facts.stamped_xmp_packet); xmp && xmp->title) titles.push_back({"XMP dc:title", *xmp->title});
  }
  if (facts.stamped_info_title) titles.push_back({"Info /Title", *facts.stamped_info_title});
  return titles;
}

// What the child sends for `bytes`: the facts it read, on the wire.
std::string pdf_facts_message(std::string_view bytes, std::string_view name,
                              pdf::PageOneText page_one = pdf::PageOneText::read) {
  return pdf::read_pdf_facts(bytes, name, page_one).to_wire();
}

// Page 1's text from the child that read it beside the facts, awaited once
// (when the judgement first asks): its text, or why there is none.
class AwaitedPageText {
 public:
  AwaitedPageText(const PageTextBeside& beside, const std::vector<std::string>& link_uris)
      : beside_(beside), link_uris_(link_uris) {}
  const Result<pdf::PageText>& get() {
    if (!page_) {
      const Result<std::string> sent = beside_();
      page_ = sent ? pdf::page_text_from_wire(*sent, link_uris_) : Result<pdf::PageText>(std::unexpected(sent.error()));
    }
    return *page_;
  }

 private:
  const PageTextBeside& beside_;
  std::vector<std::string> link_uris_;
  std::optional<Result<pdf::PageText>> page_;
};

// Both halves: read_pdf_facts in a child process under `limits`, judged here.
FileCheck check_pdf_isolated(std::string_view bytes, std::string_view name, const registry::TrustStore& trust,
                             const runner::IsolationLimits& limits = {}) {
  return judge_pdf_message(bytes, runner::run_isolated([&] { return pdf_facts_message(bytes, name); }, limits), trust,
                           name);
}

}  // namespace

FileCheck judge_pdf_facts(std::string_view bytes, pdf::PdfFacts facts, const registry::TrustStore& trust,
                          std::string_view name, const PageTextBeside& page_text_beside) {
  if (facts.error) return pdf_error_report(name, Error{ErrorKind::malformed, {}, *facts.error});
  std::optional<AwaitedPageText> beside;
  if (!facts.page && page_text_beside) beside.emplace(page_text_beside, facts.metadata.link_uris);
  // What the verdict rests on is confirmed in the file's own bytes.
  const std::vector<std::string> not_in_file = pdf::confirm_in_file(bytes, facts);

  PdfProbes probes;
  const auto stamped = [&facts](std::uint64_t length) { return facts.stamped_length && *facts.stamped_length == length; };
  probes.stamped_titles = [&](std::uint64_t length) {
    return stamped(length) ? stamped_titles_of(facts) : std::vector<TitleCandidate>{};
  };
  probes.page_one_changes = [&](std::uint64_t length) {
    return stamped(length) ? facts.page_one_changes : std::vector<std::string>{};
  };
  probes.page_fingerprints = [&facts] { return facts.page_fingerprints; };
  probes.read_drawn = [bytes](const std::vector<pdf::Box>& lines, pdf::ReadMode mode) {
    return read_drawn_letters(bytes, lines, mode);
  };
  probes.page_text = [&facts, &beside] {
    if (facts.page) return *facts.page;
    if (beside && beside->get()) return *beside->get();
    pdf::PageText none;
    none.link_uris = facts.metadata.link_uris;
    none.problem = "page 1's text was not read";
    return none;
  };
  FileCheck checked = check_pdf_metadata(bytes, facts.metadata, trust, name, probes);
  // Page 1's reader crashed or met a limit: the input's failure, as when one child read it all.
  if (beside && !beside->get()) return pdf_error_report(name, beside->get().error());
  list_signatures(checked.report, facts.signatures, bytes.size());
  for (const auto& what : not_in_file) {
    checked.report.fail(check_code::isolation_child_rejected,
                        "the parsing child reported " + what +
                            " that is not in the file's bytes: its report is not trusted (a damaged or hostile file)");
  }
  return checked;
}

FileCheck judge_pdf_message(std::string_view bytes, const Result<std::string>& sent, const registry::TrustStore& trust,
                            std::string_view name, const PageTextBeside& page_text_beside) {
  if (!sent) return pdf_error_report(name, sent.error());
  auto facts = pdf::PdfFacts::from_wire(*sent);
  if (!facts) return pdf_error_report(name, Error{ErrorKind::malformed, {}, "the parsing child sent malformed facts: " + facts.error().message});
  FileCheck checked = judge_pdf_facts(bytes, std::move(*facts), trust, name, page_text_beside);
  const auto& checks = checked.report.checks();
  if (!checked.report.find(check_code::isolation_child_rejected) &&
      std::any_of(checks.begin(), checks.end(), [](const Check& c) { return c.anchors_trust; })) {
    checked.report.pass(check_code::isolation_parent_verified,
                        "the record was verified in the checking process, from the file's own bytes; the parsing "
                        "child only read them");
  }
  return checked;
}

FileCheck check_pdf_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name) {
  return judge_pdf_facts(bytes, pdf::read_pdf_facts(bytes, name), trust, name);
}

// --- Any input ---------------------------------------------------------------

FileCheck check_registry_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name) {
  if (auto refused = not_a_document(bytes)) return error_report(std::string(name), Error{ErrorKind::malformed, {}, *refused});
  auto verified = registry::verify_document(bytes, trust, name);
  if (!verified) return error_report(std::string(name), verified.error());
  CarriedCopy carried = CarriedCopy::of(verified->content(), verified->report);  // for the online check (online.hpp)
  return FileCheck{std::move(verified->report), std::move(carried)};
}

FileCheck check_registry_file(const std::filesystem::path& path, const registry::TrustStore& trust) {
  const std::string name = path.string();
  // Bounded and non-blocking (base/input_file.hpp): a huge file is refused
  // unread, a FIFO is refused, not waited on.
  auto bytes = read_input_file(path, max_registry_file_bytes);
  if (!bytes) {
    if (bytes.error().kind == ErrorKind::malformed) {
      return error_report(name, Error{ErrorKind::malformed, {},
                                      "larger than " + std::to_string(max_registry_file_bytes) +
                                          " bytes: not a registry document (refused unread)"});
    }
    return error_report(name, bytes.error());
  }
  return check_registry_bytes(*bytes, trust, name);
}

FileCheck check_file(const std::filesystem::path& path, const registry::TrustStore& trust) {
  // The parent reads only this much, without blocking; the rest is the child's.
  auto head = read_input_head(path, 1024);
  if (!head) return error_report(path.string(), head.error());
  // PDFs are parsed in a child process with limits that only reads them;
  // this process judges what it read against the same bytes (pdf/facts.hpp).
  if (looks_like_pdf(*head)) {
    auto file = MappedFile::open(path.string());
    if (!file) return judge_pdf_message({}, std::unexpected(file.error()), trust, path.string());
    return check_pdf_isolated(file->bytes(), path.string(), trust);
  }
  return check_registry_file(path, trust);
}

FileCheck check_bytes(std::string_view bytes, std::string_view name, const registry::TrustStore& trust) {
  if (!looks_like_pdf(bytes.substr(0, 1024))) {
    if (bytes.size() > max_registry_file_bytes) {
      return error_report(std::string(name), Error{ErrorKind::malformed, {},
                                                   "larger than " + std::to_string(max_registry_file_bytes) +
                                                       " bytes: not a registry document"});
    }
    return check_registry_bytes(bytes, trust, name);
  }
  return check_pdf_isolated(bytes, name, trust);
}

namespace {

// The file `path`, mapped in the child; a PDF's bytes, or nothing.
std::optional<MappedFile> map_in_child(const std::filesystem::path& path) {
  auto file = MappedFile::open(path.string());
  // A file the child cannot map is its failure, said as one (nothing sent
  // would be judged as empty facts): past the address-space budget (issue
  // 32: --child-memory below what the file takes), a std::bad_alloc, which
  // the child reports naming the budget and its option.
  if (!file && file.error().message.ends_with(std::strerror(ENOMEM))) throw std::bad_alloc();
  if (!file) throw std::runtime_error(file.error().describe());
  if (!looks_like_pdf(file->bytes().substr(0, 1024))) return std::nullopt;
  return std::move(*file);
}

std::string read_file_in_child(const std::filesystem::path& path, pdf::PageOneText page_one) {
  const auto file = map_in_child(path);
  return file ? pdf_facts_message(file->bytes(), path.string(), page_one) : std::string();
}

FileCheck judge_file_from_child(const std::filesystem::path& path, const Result<std::string>& sent,
                                const registry::TrustStore& trust, const PageTextBeside& page_text_beside) {
  auto head = read_input_head(path, 1024);
  if (!head) return error_report(path.string(), head.error());
  if (!looks_like_pdf(*head)) return check_registry_file(path, trust);
  auto file = MappedFile::open(path.string());
  if (!file) return judge_pdf_message({}, std::unexpected(file.error()), trust, path.string());
  return judge_pdf_message(file->bytes(), sent, trust, path.string(), page_text_beside);
}

}  // namespace

std::string read_input_in_child(std::string_view name, std::optional<std::string_view> bytes, pdf::PageOneText page_one) {
  if (!bytes) return read_file_in_child(std::filesystem::path(name), page_one);
  if (!looks_like_pdf(bytes->substr(0, 1024))) return {};
  return pdf_facts_message(*bytes, name, page_one);
}

std::string read_page_text_in_child(std::string_view name) {
  const auto file = map_in_child(std::filesystem::path(name));
  return file ? pdf::page_text_to_wire(pdf::read_page_text(file->bytes(), {})) : std::string();
}

FileCheck judge_input_from_child(std::string_view name, std::optional<std::string_view> bytes,
                                 const Result<std::string>& sent, const registry::TrustStore& trust,
                                 const PageTextBeside& page_text_beside) {
  if (!bytes) return judge_file_from_child(std::filesystem::path(name), sent, trust, page_text_beside);
  // Not a PDF: a registry document, judged here alone (the child read nothing).
  if (!looks_like_pdf(bytes->substr(0, 1024))) return check_bytes(*bytes, name, trust);
  return judge_pdf_message(*bytes, sent, trust, name, page_text_beside);
}

}  // namespace pith::check
