// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/shape_memory.hpp"

#include "pith/base/crypto.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>

namespace pith::check {
namespace {

bool letters_form(std::string_view letters) {
  return letters.size() <= ShapeMemory::max_letters &&
         std::all_of(letters.begin(), letters.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

void ShapeMemory::take(std::string_view key, std::string letters) {
  const auto [at, added] = known_.try_emplace(std::string(key), letters);
  if (!added && at->second && *at->second != letters) at->second.reset();  // taught two ways: known as neither
}

void ShapeMemory::read_lines(std::string_view text) {
  while (!text.empty()) {
    const auto newline = text.find('\n');
    if (newline == std::string_view::npos) break;
    const std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline + 1);
    if (line.size() < 65 || line[64] != ' ') continue;
    const auto key = from_hex_fixed<32>(line.substr(0, 64));
    const std::string_view letters = line.substr(65);
    if (!key || !letters_form(letters)) continue;  // not a line this memory writes
    take(std::string_view(reinterpret_cast<const char*>(key->data()), key->size()), std::string(letters));
  }
}

void ShapeMemory::refresh() {
  if (file_.empty()) return;
  const Fd fd(::open(file_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const auto size = std::min<std::uintmax_t>(static_cast<std::uintmax_t>(st.st_size), max_file_bytes);
  if (size < read_to_) {  // replaced by a shorter file: read afresh
    known_.clear();
    read_to_ = 0;
  }
  if (size == read_to_) return;
  std::string text(size - read_to_, '\0');
  const ssize_t got = ::pread(fd.get(), text.data(), text.size(), static_cast<off_t>(read_to_));
  if (got <= 0) return;
  text.resize(static_cast<std::size_t>(got));
  text.resize(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);  // whole lines only
  read_lines(text);
  read_to_ += text.size();
}

namespace detail {
extern const std::string_view shape_seed_text;
}

namespace {

// The seed: fixed-width records "<64 hex> <letters, padded to 15>\n" (81
// bytes), sorted, looked up by binary search without parsing the text.
constexpr std::size_t seed_record = 81;

std::optional<std::string> seed_letters_of(std::string_view key) {
  const std::string_view seed = detail::shape_seed_text;
  if (key.size() != 32 || seed.size() % seed_record != 0) return std::nullopt;
  const std::string hex = to_hex(key);
  std::size_t lo = 0, hi = seed.size() / seed_record;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const std::string_view record = seed.substr(mid * seed_record, seed_record);
    const int order = record.substr(0, 64).compare(hex);
    if (order == 0) {
      std::string_view letters = record.substr(65, 15);
      letters = letters.substr(0, letters.find(' '));
      return std::string(letters);
    }
    if (order < 0) lo = mid + 1;
    else hi = mid;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ShapeMemory::letters_of(std::string_view key) const {
  const auto seeded = seed_letters_of(key);
  const auto at = known_.find(std::string(key));
  if (at == known_.end()) return seeded;
  if (seeded && at->second != seeded) return std::nullopt;  // taught otherwise than the seed: known as neither
  return at->second;
}

void ShapeMemory::learn(const std::vector<std::pair<std::string, std::string>>& taught) {
  std::string lines;
  for (const auto& [key, letters] : taught) {
    if (key.size() != 32 || !letters_form(letters)) continue;
    const auto known = known_.find(key);
    if (known != known_.end() && known->second == letters) continue;
    if (known == known_.end() && seed_letters_of(key) == letters) continue;  // the seed knows it
    take(key, letters);
    lines += to_hex(key) + " " + letters + "\n";
  }
  if (lines.empty() || file_.empty()) return;
  std::error_code ignored;
  std::filesystem::create_directories(file_.parent_path().parent_path(), ignored);
  ::mkdir(file_.parent_path().c_str(), 0700);  // private, as the record cache beside it
  // Best effort: memory saves time, never decides; a file that cannot be
  // written leaves this process's memory.
  const Fd fd(::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  if (static_cast<std::uintmax_t>(st.st_size) + lines.size() > max_file_bytes) return;
  if (::write(fd.get(), lines.data(), lines.size()) != static_cast<ssize_t>(lines.size())) return;
  if (read_to_ == static_cast<std::uintmax_t>(st.st_size)) read_to_ += lines.size();  // our own lines, already known
}

ShapeMemory& shape_memory() {
  static ShapeMemory memory;
  return memory;
}

void use_shape_memory_file(std::filesystem::path file) { shape_memory() = ShapeMemory(std::move(file)); }

}  // namespace pith::check
