// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/page_renders.hpp"

#include "pith/base/input_file.hpp"
#include "pith/check/file.hpp"
#include "pith/pdf/evidence.hpp"

namespace pith::check {

Result<std::string> render_evidence_png(std::string_view pdf_bytes, const pdf::Box& seen, double dpi,
                                        const runner::ChildBudget& budget) {
  auto sent = runner::run_isolated("rendering page 1", [&] { return pdf::render_evidence_crop(pdf_bytes, seen, dpi); },
                                   budget.limits(pdf_bytes.size()));
  if (!sent) return std::unexpected(sent.error());
  return pdf::evidence_png(*sent);
}

Result<std::vector<std::string>> read_drawn_letters(std::string_view pdf_bytes, const std::vector<pdf::Box>& lines,
                                                    pdf::ReadMode mode) {
  if (mode == pdf::ReadMode::available) return pdf::read_drawn_letters_here(pdf_bytes, lines, mode);
  if (auto loaded = pdf::load_drawn_letters_model(); !loaded) return std::unexpected(loaded.error());
  runner::ChildBudget budget = runner::rendering_budget();
  budget.cpu_seconds = 10;  // a line takes 20-100 ms
  budget.wall_seconds = 20;
  ChildLimits limits = budget.limits(pdf_bytes.size());
  limits.max_output_bytes = 64 * 1024;
  auto sent = runner::run_isolated(
      "reading the title's glyphs",
      [&] { return pdf::drawn_letters_to_wire(pdf::read_drawn_letters_here(pdf_bytes, lines, mode)); }, limits);
  if (!sent) return std::unexpected(sent.error());
  return pdf::drawn_letters_from_wire(*sent, lines.size());
}

PageTextReading::PageTextReading(std::string path, const struct stat& before, const runner::IsolationLimits& limits)
    : path_(std::move(path)), before_(before),
      children_(runner::SchedulerOptions{.children = 1, .limits = limits.child_limits()}) {
  children_.start(0, [this] { return read_page_text_in_child(path_); });
}

Result<std::string> PageTextReading::answer() {
  while (!answer_) {
    for (auto& done : children_.wait().done) answer_ = std::move(done.answer);
  }
  if (*answer_ && !same_file_state(path_, before_))
    answer_ = fail(ErrorKind::io, "", "the file changed while it was checked: check it again once nothing writes it");
  return *answer_;
}

}  // namespace pith::check
