// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a corpus run is made of, and what makes it resumable and splittable
// (pith-check --tar, --joblog/--resume, --shard; docs/corpus.md):
// - CorpusInput: one input, a path (or identifier) or a member of an archive
//   held in memory;
// - Shard: a stable subset by a hash of the input's name, so N machines split
//   one list without talking to each other;
// - JobLog: one line per finished input, appended once its report is out, so
//   a killed run resumed skips exactly what was already reported;
// - InputSource: the run's inputs in order, the shard and the joblog applied.
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/runner/worker_wire.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace pith {
class TarReader;
struct TarMember;
}

namespace pith::runner {

struct CorpusInput {
  std::string name;     // what reports call it: the path, or "ARCHIVE:MEMBER"
  std::string archive;  // for a member: the archive as given (`-`: stdin); else empty
  std::string member;   // for a member: its path inside the archive
  std::optional<std::string> bytes;  // a member's content, until it is checked
  std::optional<Report> ready;       // already judged in the parent (a resolved identifier, an unreadable member)
  double seconds = 0;                // how long its check took (wall clock)

  [[nodiscard]] bool is_member() const { return !archive.empty(); }
  // Names the input exactly and uniquely in a joblog line (JSON: file, or archive + member).
  [[nodiscard]] std::string joblog_key() const;
};

// A name in a JSON line (a report, a joblog line), exactly: `field` holds it
// for people (bytes that are not UTF-8 are dumped as U+FFFD, so two names can
// read the same), and only then `<field>_base64` beside it holds the bytes.
void put_exact_name(nlohmann::json& line, const std::string& field, const std::string& name);
// The bytes of the name put_exact_name wrote: `<field>_base64` when there is
// one, else `field`; nullopt when neither is a string (or the base64 is bad).
[[nodiscard]] std::optional<std::string> get_exact_name(const nlohmann::json& line, const std::string& field);

// An input as what a child or a worker is asked to read (worker_wire.hpp):
// its name, and its content when it is in memory (a path is opened there).
// Views into `input`.
[[nodiscard]] InputRequest request_for(const CorpusInput& input);

// --shard K/N: the inputs whose hash is K-1 modulo N. The hash is of the
// member name for an archive member (not of the archive's path, which differs
// between machines), of the path as given otherwise: FNV-1a 64, stable
// across runs, machines and versions (docs/corpus.md).
struct Shard {
  unsigned index = 1;  // K, 1..count
  unsigned count = 1;  // N
  [[nodiscard]] static Result<Shard> parse(std::string_view text);
  [[nodiscard]] bool holds(const CorpusInput& input) const;
};
[[nodiscard]] std::uint64_t shard_hash(std::string_view name);

// --joblog FILE: one JSON line per finished input, {"file"} or {"archive",
// "member"} (each with its _base64 form when it is not UTF-8:
// put_exact_name), with its "verdict". Inputs are compared by their names'
// bytes, never by what they look like after U+FFFD replacement. Lines are written with write(2) as each
// report is out (a killed process loses none) and fsync'd in batches (a
// power loss loses at most the last batch, and those inputs are checked
// again). A last line cut short by a kill is ignored on --resume.
class JobLog {
 public:
  // Opens (creates) `path` for appending; with `resume`, first reads the
  // inputs it holds. Without `resume` an existing non-empty log is refused:
  // appending to an unrelated run's log would skip inputs on a later resume.
  // `earlier` (when given) sees each line of the earlier runs that names an
  // input, in the log's order, as it is read (nothing of it is held here):
  // the input's name as reports give it ("ARCHIVE:MEMBER" for a member), and its line.
  using Earlier = std::function<void(const std::string& name, const nlohmann::json& line)>;
  [[nodiscard]] static Result<JobLog> open(const std::string& path, bool resume, const Earlier& earlier = nullptr);
  JobLog(JobLog&& other) noexcept;
  JobLog& operator=(JobLog&&) = delete;
  JobLog(const JobLog&) = delete;
  ~JobLog();  // fsyncs and closes

  [[nodiscard]] bool holds(const CorpusInput& input) const { return done_.contains(input.joblog_key()); }
  [[nodiscard]] std::size_t size() const { return done_.size(); }
  // Call only once the input's report is written and flushed. `fields`
  // (an object: "verdict" and what else the run's summary needs of the
  // input, runner/corpus_summary.hpp) go on the line beside its name.
  [[nodiscard]] Result<void> record(const CorpusInput& input, const nlohmann::json& fields);
  [[nodiscard]] Result<void> record(const CorpusInput& input, Verdict verdict);
  // A run's last line: how long it ran, and whether it was interrupted
  // (names no input: a resume skips nothing for it).
  [[nodiscard]] Result<void> record_run_end(double elapsed_seconds, const std::string& interrupted_by);
  [[nodiscard]] Result<void> sync();

  // How long the earlier runs took, in all (their {"run"} lines).
  [[nodiscard]] double earlier_seconds() const { return earlier_seconds_; }

 private:
  JobLog(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_ = -1;
  [[nodiscard]] Result<void> append(const nlohmann::json& line);
  std::unordered_set<std::string> done_;
  double earlier_seconds_ = 0;
  std::size_t unsynced_ = 0;
};

// What a run is given: names, then archives whose members follow them.
struct InputList {
  std::vector<std::string> names;            // file paths or identifiers, as given
  std::vector<std::optional<Report>> ready;  // reports already made for names[i] (resolved identifiers); same size or empty
  std::vector<std::string> archives;         // --tar: archives whose regular members are checked, after `names`
};

// The run's inputs in order: the names given, then each archive's regular
// members, read one at a time as the run reaches them (a tar from stdin is
// never held whole). Inputs outside the shard or already in the joblog are
// passed over here; the rest are numbered 0, 1, ... as the run sees them.
// A problem of the run, not of one input (an unreadable or damaged
// archive), goes to `problem` as one line, and the run goes on.
class InputSource {
 public:
  using Problem = std::function<void(const std::string& message)>;
  // `given` and `joblog` (may be nullptr) must outlive the source.
  InputSource(const InputList& given, Shard shard, const JobLog* joblog, std::size_t max_member_bytes, Problem problem);
  InputSource(const InputSource&) = delete;
  InputSource& operator=(const InputSource&) = delete;
  ~InputSource();

  // A member of an archive that is not checked (a directory, a symbolic
  // link, a device, a FIFO): counted by kind (tar_reader.hpp's describe),
  // and each but a directory named to `note` as one line, the first
  // named_skips_kept of them (then one line saying how many more there are).
  void on_skipped(Problem note) { note_ = std::move(note); }
  [[nodiscard]] const std::map<std::string, std::size_t>& skipped() const { return skipped_; }
  static constexpr std::size_t named_skips_kept = 100;
  // How many inputs were read (names, then archive members), how many of
  // them lie outside the shard, and how many the joblog already held.
  [[nodiscard]] std::size_t read() const { return read_; }
  [[nodiscard]] std::size_t outside_shard() const { return outside_shard_; }
  [[nodiscard]] std::size_t in_joblog() const { return in_joblog_; }

  // Known only when nothing is passed over and there are no archives (for a progress line).
  [[nodiscard]] std::optional<std::size_t> total() const;
  // Is there an input `i`? Reads on until there is, or nothing is left.
  [[nodiscard]] bool has(std::size_t i);
  [[nodiscard]] CorpusInput& at(std::size_t i) { return held_[i - first_]; }
  // Input `i` is done with (in order): it leaves the source, bytes and all.
  [[nodiscard]] CorpusInput release(std::size_t i);

 private:
  std::optional<CorpusInput> pull();
  std::optional<CorpusInput> next_unfiltered();
  void skip(const std::string& archive, const TarMember& member);

  const InputList& given_;
  Shard shard_;
  const JobLog* joblog_;
  std::size_t max_member_bytes_;
  Problem problem_;
  std::size_t name_ = 0;
  std::size_t archive_ = 0;
  std::unique_ptr<TarReader> reader_;
  std::deque<CorpusInput> held_;
  std::size_t first_ = 0;  // the index of held_.front()
  Problem note_;
  std::map<std::string, std::size_t> skipped_;
  std::size_t named_skips_ = 0;
  std::size_t read_ = 0;
  std::size_t outside_shard_ = 0;
  std::size_t in_joblog_ = 0;
};

}  // namespace pith::runner
