// SPDX-License-Identifier: GPL-3.0-or-later
// The outcome of pith-stamp --arxiv (stamp/arxiv.hpp): its words, its JSON
// and the lines printed for people.
#include "pith/stamp/arxiv.hpp"

#include <array>
#include <cstdio>
#include <ostream>

namespace pith::stamp {
namespace {

std::string human_bytes(std::uint64_t n) {
  if (n < 10 * 1024) return std::to_string(n) + " bytes";
  return std::to_string((n + 512) / 1024) + " KB";
}

}  // namespace

const char* to_string(ArxivStatus s) {
  switch (s) {
    case ArxivStatus::verifies: return "verifies";
    case ArxivStatus::not_verified: return "not_verified";
    case ArxivStatus::missing: return "missing";
    case ArxivStatus::build_failed: return "build_failed";
    case ArxivStatus::no_number: return "no_number";
    case ArxivStatus::error: return "error";
  }
  return "error";
}

nlohmann::json ArxivOutcome::to_json() const {
  nlohmann::json j{{"status", to_string(status)}, {"exit_code", exit_code()},   {"message", message},
                   {"compiler", to_string(compiler)}, {"files", files},        {"archive_bytes", archive_bytes},
                   {"source_bytes", source_bytes},   {"latex_runs", latex_runs}, {"seconds", seconds}};
  if (!pith_number.empty()) j["pith_number"] = pith_number;
  if (!tex_live_here.empty()) j["tex_live_here"] = tex_live_here;
  if (!archive.empty()) j["archive"] = archive.string();
  if (!missing.empty()) j["missing"] = missing;
  if (instead_of) j["instead_of"] = to_string(*instead_of);
  if (!notes.empty()) j["notes"] = notes;
  if (verification) j["verification"] = verification->to_json();
  return j;
}

void print_arxiv_outcome(const ArxivOutcome& o, bool json, bool verbose, std::ostream& out, std::ostream& err) {
  if (json) {
    out << o.to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return;
  }
  if (!o.archive.empty()) {
    err << "pith-stamp: " << o.archive.string() << ": " << o.files.size() << " files, " << human_bytes(o.archive_bytes)
        << " (sources " << human_bytes(o.source_bytes) << "), for " << to_string(o.compiler) << "\n";
    if (verbose)
      for (const auto& f : o.files) err << "pith-stamp:   " << f << "\n";
  }
  for (const auto& n : o.notes) err << "pith-stamp: note: " << n << "\n";
  for (const auto& m : o.missing)
    if (o.message.find(m) == std::string::npos) err << "pith-stamp: missing: " << m << "\n";
  err << "pith-stamp: " << o.message;
  if (o.latex_runs > 0) {
    err << " (" << to_string(o.compiler);
    if (o.instead_of) err << " instead of " << to_string(*o.instead_of);
    err << ", " << o.latex_runs << (o.latex_runs == 1 ? " run" : " runs");
    if (!o.tex_live_here.empty()) err << " with " << o.tex_live_here << " here";
  }
  if (o.latex_runs > 0) {
    std::array<char, 32> seconds{};
    std::snprintf(seconds.data(), seconds.size(), "%.1f", o.seconds);
    err << ", " << seconds.data() << " s)";
  }
  err << "\n";
  if (verbose && o.verification && !o.succeeded()) err << o.verification->to_text(false);
}


}  // namespace pith::stamp
