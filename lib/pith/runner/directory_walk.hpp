// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `pith-check -r DIR` (exiftool's -r habit): the PDFs under a directory, as a
// corpus run's inputs. The walk is deterministic and never follows a link:
// - each directory's entries are taken in the byte order of their names, and a
//   subdirectory is walked where it comes in that order (depth first), so the
//   same tree gives the same inputs in the same order on any file system;
// - a regular file is an input when its name ends in ".pdf" (any case); any
//   other file is passed over, and counted;
// - a symbolic link (to a file or a directory) is never followed, only counted:
//   a link loop cannot make the walk endless, and nothing outside the tree is read;
// - a directory that cannot be listed (no permission, gone while walked) is an
//   entry of its own, with the reason: the run reports it as that input's error
//   and goes on.
// The directory named (the root) is walked even when it is itself a link, as
// `find -H` does: it is what the user asked for.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pith::runner {

struct WalkedEntry {
  std::string path;                    // the root, '/', the names down to it
  std::optional<std::string> problem;  // set: a directory that could not be listed, and why
};

struct DirectoryWalk {
  std::vector<WalkedEntry> entries;  // PDFs and unlistable directories, in walk order
  std::size_t not_pdf = 0;           // regular files whose name does not end in .pdf
  std::size_t links = 0;             // symbolic links, not followed
  std::size_t other = 0;             // FIFOs, sockets, devices

  // "3 files not named *.pdf, 1 symbolic link (not followed)"; empty when nothing was passed over.
  [[nodiscard]] std::string passed_over() const;
};

[[nodiscard]] DirectoryWalk walk_for_pdfs(const std::string& root);

// Is `name` a PDF's name for the walk (ends in ".pdf", any case)?
[[nodiscard]] bool has_pdf_name(const std::string& name);

}  // namespace pith::runner
