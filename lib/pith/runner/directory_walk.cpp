// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/directory_walk.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

namespace pith::runner {
namespace fs = std::filesystem;

namespace {

struct Child {
  std::string name;
  fs::file_type type = fs::file_type::unknown;  // the entry's own type: a link is a link
};

// A directory's entries, sorted by name (bytes); or why they cannot be listed.
std::optional<std::string> list_directory(const fs::path& dir, std::vector<Child>& children) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::error_code type_ec;
    const fs::file_status status = it->symlink_status(type_ec);
    children.push_back({it->path().filename().string(), type_ec ? fs::file_type::unknown : status.type()});
  }
  if (ec) return "cannot list the directory (" + ec.message() + ")";
  std::sort(children.begin(), children.end(), [](const Child& a, const Child& b) { return a.name < b.name; });
  return std::nullopt;
}

std::string counted(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

bool has_pdf_name(const std::string& name) {
  if (name.size() < 4) return false;
  std::string tail = name.substr(name.size() - 4);
  std::transform(tail.begin(), tail.end(), tail.begin(), [](unsigned char c) { return static_cast<char>(c | 0x20); });
  return tail == ".pdf";
}

std::string DirectoryWalk::passed_over() const {
  std::string out;
  const auto add = [&out](std::string part) { out += (out.empty() ? "" : ", ") + std::move(part); };
  if (not_pdf > 0) add(counted(not_pdf, "file not named *.pdf", "files not named *.pdf"));
  if (links > 0) add(counted(links, "symbolic link (not followed)", "symbolic links (not followed)"));
  if (other > 0) add(counted(other, "special file (FIFO, socket, device)", "special files (FIFOs, sockets, devices)"));
  return out;
}

DirectoryWalk walk_for_pdfs(const std::string& root) {
  DirectoryWalk walk;
  // Depth first with an explicit stack: a deep tree cannot exhaust the call stack.
  struct Frame {
    fs::path dir;
    std::vector<Child> children;
    std::size_t next = 0;
  };
  std::vector<Frame> stack;
  const auto enter = [&](fs::path dir) {
    Frame frame{std::move(dir), {}, 0};
    if (auto problem = list_directory(frame.dir, frame.children)) {
      walk.entries.push_back({frame.dir.string(), std::move(problem)});
      return;
    }
    stack.push_back(std::move(frame));
  };
  enter(fs::path(root));
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == top.children.size()) {
      stack.pop_back();
      continue;
    }
    const Child child = top.children[top.next++];
    fs::path path = top.dir / child.name;
    switch (child.type) {
      case fs::file_type::directory: enter(std::move(path)); break;  // `top` may dangle from here
      case fs::file_type::regular:
        if (has_pdf_name(child.name)) {
          walk.entries.push_back({path.string(), std::nullopt});
        } else {
          ++walk.not_pdf;
        }
        break;
      case fs::file_type::symlink: ++walk.links; break;
      default: ++walk.other; break;
    }
  }
  return walk;
}

}  // namespace pith::runner
