// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/corpus_input.hpp"

#include "pith/base/crypto.hpp"
#include "pith/base/tar_reader.hpp"
#include "pith/base/utf8.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace pith::runner {

namespace {

constexpr std::size_t joblog_sync_every = 256;

nlohmann::json key_object(const CorpusInput& input) {
  nlohmann::json key = nlohmann::json::object();
  if (input.is_member()) {
    put_exact_name(key, "archive", input.archive);
    put_exact_name(key, "member", input.member);
  } else {
    put_exact_name(key, "file", input.name);
  }
  return key;
}

// The bytes that name an input in a joblog: a path, or an archive and a member.
std::string file_key(std::string_view name) { return "F" + std::string(name); }
std::string member_key(std::string_view archive, std::string_view member) {
  return "M" + std::to_string(archive.size()) + ":" + std::string(archive) + std::string(member);
}

// A joblog line's key, or nullopt for a line that names nothing.
std::optional<std::string> key_of_line(const nlohmann::json& line) {
  if (line.contains("archive")) {
    const auto archive = get_exact_name(line, "archive");
    const auto member = get_exact_name(line, "member");
    if (!archive || !member) return std::nullopt;
    return member_key(*archive, *member);
  }
  const auto file = get_exact_name(line, "file");
  if (!file) return std::nullopt;
  return file_key(*file);
}

// What reports call the input a joblog line names (CorpusInput::name).
std::string display_name_of_line(const nlohmann::json& line) {
  if (line.contains("archive")) return get_exact_name(line, "archive").value_or("") + ":" + get_exact_name(line, "member").value_or("");
  return get_exact_name(line, "file").value_or("");
}


// Names are hostile bytes: dumped with `replace`, so a line is always JSON
// (put_exact_name keeps the exact bytes beside the replaced form).
std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

std::optional<unsigned> parse_unsigned(std::string_view s) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

void put_exact_name(nlohmann::json& line, const std::string& field, const std::string& name) {
  line[field] = name;
  if (is_valid_utf8(name)) return;
  line[field + "_base64"] =
      to_base64(std::span(reinterpret_cast<const std::uint8_t*>(name.data()), name.size()));
}

std::optional<std::string> get_exact_name(const nlohmann::json& line, const std::string& field) {
  if (const auto exact = line.find(field + "_base64"); exact != line.end()) {
    if (!exact->is_string()) return std::nullopt;
    auto bytes = from_base64(exact->get_ref<const std::string&>());
    if (!bytes) return std::nullopt;
    return std::string(bytes->begin(), bytes->end());
  }
  const auto shown = line.find(field);
  if (shown == line.end() || !shown->is_string()) return std::nullopt;
  return shown->get<std::string>();
}

std::string CorpusInput::joblog_key() const { return is_member() ? member_key(archive, member) : file_key(name); }

InputRequest request_for(const CorpusInput& input) {
  if (input.bytes) return InputRequest{input.name, std::string_view(*input.bytes)};
  return InputRequest{input.name, std::nullopt};
}

std::uint64_t shard_hash(std::string_view name) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

Result<Shard> Shard::parse(std::string_view text) {
  const auto slash = text.find('/');
  const auto k = slash == std::string_view::npos ? std::nullopt : parse_unsigned(text.substr(0, slash));
  const auto n = slash == std::string_view::npos ? std::nullopt : parse_unsigned(text.substr(slash + 1));
  if (!k || !n || *n == 0 || *k == 0 || *k > *n) {
    return fail(ErrorKind::usage, "--shard", "'" + std::string(text) + "' is not K/N with 1 <= K <= N (e.g. 2/8)");
  }
  return Shard{*k, *n};
}

bool Shard::holds(const CorpusInput& input) const {
  return shard_hash(input.is_member() ? input.member : input.name) % count == index - 1;
}

Result<JobLog> JobLog::open(const std::string& path, bool resume, const Earlier& earlier) {
  std::unordered_set<std::string> done;
  double earlier_seconds = 0;
  {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    bool any = false;
    while (in && std::getline(in, line)) {
      if (line.empty()) continue;
      any = true;
      // A line cut short by a kill does not parse: that input is checked again.
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object()) continue;
      if (const auto run = j.find("run"); run != j.end() && run->is_object()) {
        if (const auto s = run->find("elapsed_seconds"); s != run->end() && s->is_number()) earlier_seconds += s->get<double>();
        continue;
      }
      auto key = key_of_line(j);
      if (!key) continue;
      done.insert(std::move(*key));
      if (earlier && resume) earlier(display_name_of_line(j), j);
    }
    if (any && !resume) {
      return fail(ErrorKind::usage, path,
                  "the joblog already holds a run: add --resume to continue it, or give a new file");
    }
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return fail(ErrorKind::io, path, std::string("cannot open the joblog: ") + std::strerror(errno));
  // A last line cut short by a kill is ended, so the next line stands alone.
  char last = '\n';
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size > 0 && ::pread(fd, &last, 1, size - 1) == 1 && last != '\n' && ::write(fd, "\n", 1) != 1) {
    ::close(fd);
    return fail(ErrorKind::io, path, std::string("cannot write the joblog: ") + std::strerror(errno));
  }
  JobLog log(path, fd);
  log.done_ = std::move(done);
  log.earlier_seconds_ = earlier_seconds;
  return log;
}

JobLog::JobLog(JobLog&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), done_(std::move(other.done_)),
      earlier_seconds_(other.earlier_seconds_), unsynced_(other.unsynced_) {}

JobLog::~JobLog() {
  if (fd_ < 0) return;
  (void)sync();
  ::close(fd_);
}

Result<void> JobLog::record(const CorpusInput& input, Verdict verdict) {
  return record(input, nlohmann::json{{"verdict", to_string(verdict)}});
}

Result<void> JobLog::record(const CorpusInput& input, const nlohmann::json& fields) {
  nlohmann::json line = key_object(input);
  for (const auto& [field, value] : fields.items()) {
    if (!line.contains(field)) line[field] = value;
  }
  return append(line);
}

Result<void> JobLog::record_run_end(double elapsed_seconds, const std::string& interrupted_by) {
  nlohmann::json run = {{"elapsed_seconds", elapsed_seconds}};
  if (!interrupted_by.empty()) run["interrupted_by"] = interrupted_by;
  if (auto ok = append(nlohmann::json{{"run", run}}); !ok) return ok;
  return sync();
}

Result<void> JobLog::append(const nlohmann::json& line) {
  const std::string text = dump(line) + "\n";
  // One write(2) per line, O_APPEND: a kill leaves whole lines and at most one cut short.
  std::size_t off = 0;
  while (off < text.size()) {
    const auto n = ::write(fd_, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(ErrorKind::io, path_, std::string("cannot write the joblog: ") + std::strerror(errno));
    off += static_cast<std::size_t>(n);
  }
  if (++unsynced_ >= joblog_sync_every) return sync();
  return {};
}

Result<void> JobLog::sync() {
  if (unsynced_ == 0) return {};
  unsynced_ = 0;
  if (::fdatasync(fd_) != 0) return fail(ErrorKind::io, path_, std::string("cannot sync the joblog: ") + std::strerror(errno));
  return {};
}

InputSource::InputSource(const InputList& given, Shard shard, const JobLog* joblog, std::size_t max_member_bytes,
                         Problem problem)
    : given_(given), shard_(shard), joblog_(joblog), max_member_bytes_(max_member_bytes), problem_(std::move(problem)) {}

InputSource::~InputSource() = default;

std::optional<std::size_t> InputSource::total() const {
  if (!given_.archives.empty() || joblog_ || shard_.count > 1) return std::nullopt;
  return given_.names.size();
}

bool InputSource::has(std::size_t i) {
  while (i >= first_ + held_.size()) {
    auto input = pull();
    if (!input) return false;
    held_.push_back(std::move(*input));
  }
  return true;
}

CorpusInput InputSource::release(std::size_t i) {
  CorpusInput done = std::move(at(i));
  while (!held_.empty() && first_ <= i) {
    held_.pop_front();
    ++first_;
  }
  return done;
}

std::optional<CorpusInput> InputSource::pull() {
  for (;;) {
    auto input = next_unfiltered();
    if (!input) return std::nullopt;
    ++read_;
    if (shard_.count > 1 && !shard_.holds(*input)) {
      ++outside_shard_;
      continue;
    }
    if (joblog_ && joblog_->holds(*input)) {
      ++in_joblog_;
      continue;
    }
    return input;
  }
}

std::optional<CorpusInput> InputSource::next_unfiltered() {
  if (name_ < given_.names.size()) {
    CorpusInput input;
    input.name = given_.names[name_];
    if (name_ < given_.ready.size()) input.ready = given_.ready[name_];
    ++name_;
    return input;
  }
  while (archive_ < given_.archives.size()) {
    const std::string& path = given_.archives[archive_];
    if (!reader_) {
      TarLimits limits;
      limits.max_member_bytes = max_member_bytes_;
      limits.too_large_hint = "check it unpacked, or raise --max-member-size";
      auto opened = TarReader::open(path, limits);
      if (!opened) {
        problem_("--tar " + opened.error().describe() + " (skipped)");
        ++archive_;
        continue;
      }
      reader_ = std::make_unique<TarReader>(std::move(*opened));
    }
    auto member = reader_->next_file([&](const TarMember& passed_over) { skip(path, passed_over); });
    if (!member || !*member) {
      // A damaged archive: what was read stays reported; the rest cannot be found.
      if (!member) problem_("--tar " + member.error().describe() + " (the rest of this archive is not checked)");
      reader_.reset();
      ++archive_;
      continue;
    }
    CorpusInput input;
    input.archive = path;
    input.member = std::move((*member)->name);
    input.name = path + ":" + input.member;
    if ((*member)->error) {
      Report r;
      r.input = input.name;
      r.error = Error{ErrorKind::malformed, {}, *(*member)->error};
      input.ready = std::move(r);
    } else {
      input.bytes = std::move((*member)->bytes);
    }
    return input;
  }
  return std::nullopt;
}

void InputSource::skip(const std::string& archive, const TarMember& member) {
  ++skipped_[describe(member.type)];
  if (member.type == TarEntryType::directory || !note_) return;
  if (++named_skips_ > named_skips_kept) {
    if (named_skips_ == named_skips_kept + 1)
      note_("--tar: more members are not checked; the summary counts them by kind");
    return;
  }
  std::string line = "--tar " + archive + ":" + member.name + ": a " + describe(member.type);
  if (!member.link_target.empty()) line += " to '" + member.link_target + "'";
  note_(line + ", not a file: not checked");
}

}  // namespace pith::runner
