// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which files under a directory were opened while a build ran, whoever
// opened them: TeX's -recorder lists what TeX opens through kpathsea, but
// not the fonts XeTeX and LuaTeX load by path (fontspec's Path = ./fonts/),
// nor what xdvipdfmx opens. An inotify watch (IN_OPEN) on every directory
// of the tree sees every open, from any process, with no privileges and no
// measurable cost; what it cannot promise (a queue overflow, too many
// directories) is reported, never silently dropped.
//
// Opens by other processes during the build (an editor) are seen too: the
// caller takes the union with what the build says it read, so a stray open
// can only add a file of the paper's own tree to the upload.
#include "pith/base/error.hpp"

#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <unordered_map>

namespace pith::stamp {

inline constexpr std::size_t tree_watch_max_directories = 4096;

class TreeWatch {
 public:
  // Watches `root` and every directory below it (symbolic links not
  // followed; .git, .svn and .hg skipped). Errors: inotify unavailable, or
  // more than `max_directories` directories.
  [[nodiscard]] static Result<TreeWatch> start(const std::filesystem::path& root,
                                               std::size_t max_directories = tree_watch_max_directories);
  TreeWatch(TreeWatch&& other) noexcept;
  TreeWatch& operator=(TreeWatch&&) = delete;
  TreeWatch(const TreeWatch&) = delete;
  TreeWatch& operator=(const TreeWatch&) = delete;
  ~TreeWatch();

  // Reads the events queued so far (non-blocking). Call it while the build
  // runs, so the kernel's queue does not overflow, and once after it ends.
  void drain();
  // Regular files opened so far (absolute, lexically normal paths).
  [[nodiscard]] const std::set<std::filesystem::path>& opened() const { return opened_; }
  // The kernel dropped events: opened() may be incomplete.
  [[nodiscard]] bool overflowed() const { return overflowed_; }
  [[nodiscard]] std::size_t directories() const { return directories_.size(); }

 private:
  explicit TreeWatch(int fd) : fd_(fd) {}
  int fd_ = -1;
  std::unordered_map<int, std::filesystem::path> directories_;  // watch descriptor -> directory
  std::set<std::filesystem::path> opened_;
  bool overflowed_ = false;
};

}  // namespace pith::stamp
