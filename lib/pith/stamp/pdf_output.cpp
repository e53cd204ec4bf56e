// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a stamped PDF (run_steps.hpp): a copy of the original renamed over
// the target (in place or -o OUT), appended in place (--append), or the
// original and the update on standard output (-o -); each checked before it
// is kept. What would lose a name or a permission is refused first.
#include "pith/stamp/run_steps.hpp"

#include "pith/base/mapped_file.hpp"
#include "pith/pdf/stamp.hpp"

#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace pith::stamp::detail {

namespace fs = std::filesystem;

namespace {

bool same_path(const std::string& a, const std::string& b) { return fs::absolute(a) == fs::absolute(b); }

}  // namespace

bool writes_to_stdout(const StampRunOptions& opt) { return opt.output == "-"; }

bool in_place(const StampRunOptions& opt) { return opt.output.empty() || same_path(opt.output, opt.input); }

// Whether the stamp copies the original (in place or -o OUT) rather than
// appending to it or writing it to standard output.
bool copies_the_original(const StampRunOptions& opt) { return !opt.append && !writes_to_stdout(opt); }

// The copy of the original beside the target, made in the kernel while the
// examining worker reads the pages' text (examine.hpp); this process hashes
// the original after it. In place, a link is
// followed to the PDF the user named (and we read); an -o path that is a
// link is replaced, never written through.
Result<AtomicRewrite> begin_copy(const StampRunOptions& opt, const OpenFile& file) {
  const std::string target = in_place(opt) ? opt.input : opt.output;
  return AtomicRewrite::begin(target, opt.input, file.size(),
                              in_place(opt) ? AtTargetLink::follow : AtTargetLink::replace, PrefixHash::none);
}

// Writes the plan's update: after the copy of the original (renamed over
// the target), appended in place, or (-o -) with the original on standard
// output. Each is checked before it is kept; --dry-run only checks.
Result<void> write_stamp(const StampRunOptions& opt, const OpenFile& file, Examiner& examiner, const ExaminedPdf& examined,
                         std::optional<AtomicRewrite>& copy) {
  const pdf::StampPlan& plan = *examined.plan;
  // --dry-run: the check every write passes, on the original and the update in one view; nothing written.
  if (opt.dry_run) return check_in_memory(examiner, opt.input, examined);
  if (writes_to_stdout(opt)) {
    if (auto ok = check_in_memory(examiner, opt.input, examined); !ok) return ok;
    std::cout.flush();
    return write_to_descriptor(STDOUT_FILENO, opt.input, plan.original_length, plan.update);
  }
  if (opt.append) return append_in_place(opt.input, plan.original_length, plan.update, written_check(examiner, opt.input, examined));
  if (!copy) return fail(ErrorKind::internal, opt.input, "internal: the copy of the original was not made");
  FileAttributes attrs{file.mode()};
  if (in_place(opt)) {
    attrs.owner = file.owner();
    attrs.group = file.group();
    attrs.extended_attributes_from = opt.input;
  }
  return copy->finish(plan.update, attrs, written_check(examiner, in_place(opt) ? opt.input : opt.output, examined));
}

// In place (not --append) replaces the file: a read-only one is refused as
// --append's open for writing would be.
std::optional<Outcome> refuse_read_only(const StampRunOptions& opt, const struct stat& st) {
  if (writes_to_stdout(opt) || !in_place(opt) || opt.append) return std::nullopt;
  if ((st.st_mode & 0222) != 0 && ::access(opt.input.c_str(), W_OK) == 0) return std::nullopt;
  return failure(Status::error, ErrorKind::io,
                 opt.input + ": the file is read-only; nothing written (make it writable with `chmod u+w`, "
                             "or write a stamped copy with -o OUT)");
}

// In place (not --append) replaces the file by a new one renamed over its
// name: a file with other names (hard links) would keep the unstamped bytes
// under those, silently. Refused, naming the two ways that keep every name
// right (issue 23).
std::optional<Outcome> refuse_hard_linked(const StampRunOptions& opt, const struct stat& st) {
  if (writes_to_stdout(opt) || !in_place(opt) || opt.append || st.st_nlink <= 1) return std::nullopt;
  return failure(Status::error, ErrorKind::usage,
                 opt.input + ": the file has " + std::to_string(st.st_nlink) +
                     " names (hard links), and stamping in place replaces it under this name only, leaving the "
                     "others unstamped; nothing written (use --append to stamp it in place under every name, or "
                     "-o OUT to write a stamped copy)");
}

}  // namespace pith::stamp::detail
