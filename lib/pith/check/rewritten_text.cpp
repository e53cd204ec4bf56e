// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/rewritten_text.hpp"
#include "pith/base/check_codes.hpp"

#include <nlohmann/json.hpp>

namespace pith::check {
namespace {

constexpr const char* unsigned_note =
    " (an unsigned fingerprint recorded by pith-stamp: it tells a re-save from a naive edit, not from a determined "
    "forger)";

std::string page_list(const std::vector<std::uint64_t>& pages) {
  std::string out;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    if (i == 20) return out + " and " + std::to_string(pages.size() - i) + " more";
    out += (out.empty() ? "" : ", ") + std::to_string(pages[i]);
  }
  return out;
}

void unknown(Report& report, const std::string& why) {
  report.skip(check_code::pdf_bytes_rewritten_text_unknown, "rewritten; whether its text changed is not known: " + why);
  report.extra["rewritten_text"] = {{"state", "unknown"}};
}

}  // namespace

void check_rewritten_text(const std::optional<std::string>& stamped_value, const std::optional<pdf::PageFingerprints>& now,
                          Report& report) {
  if (!stamped_value) return;
  auto stamped = pdf::PageFingerprints::from_property(*stamped_value);
  if (!stamped) return unknown(report, stamped.error().describe());
  if (!now) return unknown(report, "the pages' text was not read");
  if (now->sha256.empty()) return unknown(report, now->problem.value_or("no page's text could be read"));

  const pdf::PageTextComparison c = pdf::compare_page_text(*stamped, *now);
  nlohmann::json details = {{"pages_stamped", stamped->page_count},
                            {"pages_now", now->page_count},
                            {"pages_compared", c.pages_compared},
                            {"changed_pages", c.changed_pages}};
  std::string not_compared;
  if (c.pages_compared < std::min(stamped->page_count, now->page_count)) {
    not_compared = "; pages " + std::to_string(c.pages_compared + 1) + " on were not fingerprinted";
  }
  if (c.unchanged()) {
    details["state"] = "unchanged";
    report.pass(check_code::pdf_bytes_rewritten_text_unchanged,
                "rewritten, text unchanged: the text of " +
                    (c.pages_compared == 1 ? std::string("its page") : "all " + std::to_string(c.pages_compared) + " pages") +
                    " is the text stamped" +
                    (c.watermark_only_on_page_one ? " (page 1 adds only an arXiv-style watermark line)" : "") +
                    not_compared + unsigned_note);
  } else {
    details["state"] = "changed";
    std::string what;
    if (!c.changed_pages.empty()) {
      what = std::string("text changed on page") + (c.changed_pages.size() > 1 ? "s " : " ") + page_list(c.changed_pages);
    }
    if (c.page_count_changed) {
      what += (what.empty() ? "" : "; ") + std::string("the stamped paper had ") + std::to_string(stamped->page_count) +
              " pages, this file has " + std::to_string(now->page_count);
    }
    report.warn(check_code::pdf_bytes_rewritten_text_changed, "rewritten, " + what + not_compared + unsigned_note);
  }
  report.extra["rewritten_text"] = std::move(details);
}

}  // namespace pith::check
