// `harness drift`: compares two recorded sets, or re-records a set with another real CLI
// (record_set) and compares the two; the report is the drift core's (drift_report.hpp).
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "claude/base/cli.hpp"
#include "claude/harness/drift_report.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/recorded_set.hpp"

namespace claude::harness {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDriftHelp =
    R"(Usage: harness drift BASE_DIR CANDIDATE_DIR [--json FILE] [--markdown FILE]
       harness drift SET_DIR --real-cli PATH [--keep DIR] [--reverse] [--sdk cpp|ts]...
                     [--case NAME]... [--netns auto|required|off] [--json FILE] [--markdown FILE]

Compares the recordings of two recorded sets (paired by path relative to their set) by shape and
order, never by value: message kinds and control subtypes in each direction, the fields of
every CLI -> SDK message kind, sessions present in one set only, and the order of message kinds
per session. The second form first re-records every case of SET_DIR with the real CLI at PATH
(as `harness record-set SET_DIR -o DIR --real-cli PATH` does) into a temporary directory (or
--keep DIR, which must be new or empty), then compares SET_DIR (base) with the new recordings
(candidate); --reverse makes the new recordings the base. --sdk and --case restrict both the
re-recording and the comparison to `<case>/<sdk>.ndjson` recordings.

The Markdown report goes to stdout and to --markdown FILE; --json FILE writes the JSON report
(`--json -`: to stdout instead of the Markdown). Formats: docs/drift.md.
Exit status: 0 no drift, 1 drift found, 2 usage error or a set that does not load
(file:line: reason), 3 re-recording failed.
)";

struct DriftOptions {
  std::vector<std::string> positionals;
  std::optional<std::string> real_cli, keep, json, markdown, netns;
  std::vector<std::string> sdks, cases;
  bool reverse = false;
};

const base::CommandLineText kText{"harness drift", kDriftHelp, kDriftHelp};

void declare(CLI::App& app, DriftOptions& o) {
  app.add_option("positionals", o.positionals);
  for (auto [name, slot] : {std::pair{"--real-cli", &o.real_cli},
                            {"--keep", &o.keep},
                            {"--json", &o.json},
                            {"--markdown", &o.markdown},
                            {"--netns", &o.netns}}) {
    app.add_option(name, *slot);
  }
  base::add_repeatable(app, "--sdk", o.sdks);
  base::add_repeatable(app, "--case", o.cases);
  app.add_flag("--reverse", o.reverse);
}

// The combinations CLI11 cannot check: the positionals each form needs, --real-cli's companions.
std::optional<std::string> check(const DriftOptions& o) {
  const bool rerecord = o.real_cli.has_value();
  if (o.positionals.size() != (rerecord ? 1u : 2u)) {
    return rerecord ? "expected one SET_DIR with --real-cli" : "expected BASE_DIR CANDIDATE_DIR";
  }
  if (!rerecord && (o.keep || o.reverse || o.netns || !o.sdks.empty() || !o.cases.empty())) {
    return "--keep, --reverse, --netns, --sdk and --case need --real-cli";
  }
  if (o.real_cli && o.real_cli->empty()) return "--real-cli needs a path";
  return std::nullopt;
}

std::optional<RecordedSet> load(const std::string& dir, std::ostream& err) {
  auto loaded = load_recorded_set(dir);
  for (const auto& e : loaded.errors) err << e.to_string() << '\n';
  return std::move(loaded.set);
}

// Keeps only `<case>/<sdk>.ndjson` recordings selected by --case and --sdk (empty: all).
void select(RecordedSet& set, const DriftOptions& o) {
  auto chosen = [](const std::vector<std::string>& list, const std::string& name) {
    return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
  };
  std::erase_if(set.sessions, [&](const SessionShape& s) {
    const fs::path path(s.name);
    const std::string case_name = path.has_parent_path() ? path.parent_path().string() : "";
    return !chosen(o.cases, case_name) || !chosen(o.sdks, path.stem().string());
  });
}

bool write_file(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  if (!file.flush()) {
    err << "harness drift: " << path << ": cannot write\n";
    return false;
  }
  return true;
}

int report(const RecordedSet& base, const RecordedSet& candidate, const DriftOptions& o,
           std::ostream& out, std::ostream& err) {
  const DriftReport drift = compare_sets(base, candidate);
  const std::string markdown = to_markdown(drift);
  const std::string json = to_json(drift).dump(2) + "\n";
  if (o.json && *o.json == "-") {
    out << json;
  } else {
    out << markdown;
    if (o.json && !write_file(*o.json, json, err)) return kExitUsage;
  }
  if (o.markdown && !write_file(*o.markdown, markdown, err)) return kExitUsage;
  return drift.has_drift() ? kExitVerdictFailed : kExitPass;
}

// The directory the re-recording goes to: --keep DIR (new or empty) or a fresh temporary one.
std::optional<fs::path> recording_dir(const DriftOptions& o, std::ostream& err) {
  std::error_code ec;
  if (o.keep) {
    const fs::path dir(*o.keep);
    if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) {
      err << "harness drift: --keep " << dir.string() << ": exists and is not an empty directory\n";
      return std::nullopt;
    }
    fs::create_directories(dir, ec);
    if (ec) {
      err << "harness drift: --keep " << dir.string() << ": " << ec.message() << '\n';
      return std::nullopt;
    }
    return dir;
  }
  std::string pattern = (fs::temp_directory_path(ec) / "harness-drift.XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    err << "harness drift: cannot create a temporary directory in "
        << fs::temp_directory_path(ec).string() << '\n';
    return std::nullopt;
  }
  return fs::path(pattern);
}

int rerecord_and_compare(const DriftOptions& o, std::ostream& out, std::ostream& err) {
  const std::string& set_dir = o.positionals[0];
  auto original = load(set_dir, err);
  if (!original) return kExitUsage;
  select(*original, o);
  const auto dir = recording_dir(o, err);
  if (!dir) return kExitUsage;

  RecordSetOptions options;
  options.set_dir = set_dir;
  options.out_dir = *dir;
  options.real_cli = *o.real_cli;
  options.sdks = o.sdks;
  options.cases = o.cases;
  if (o.netns) options.netns = *o.netns;
  // record_set's progress lines go to stderr: stdout carries only the report.
  const int recorded = record_set(options, err, err);
  if (recorded == kExitUsage) {
    // Nothing worth keeping: the set or the CLI was refused before or at the first recording.
    err << "harness drift: cannot re-record " << set_dir << " with " << *o.real_cli << '\n';
    if (!o.keep) {
      std::error_code ec;
      fs::remove_all(*dir, ec);
    }
    return kExitUsage;
  }
  if (recorded != kExitPass) {
    err << "harness drift: re-recording " << set_dir << " with " << *o.real_cli
        << " failed; what was recorded is in " << dir->string() << '\n';
    return kExitCommandFailed;
  }
  auto fresh = load(dir->string(), err);
  if (!fresh) {
    err << "harness drift: the new recordings in " << dir->string() << " do not load\n";
    return kExitCommandFailed;
  }
  select(*fresh, o);
  const int rc =
      o.reverse ? report(*fresh, *original, o, out, err) : report(*original, *fresh, o, out, err);
  if (!o.keep) {
    std::error_code ec;
    fs::remove_all(*dir, ec);
  }
  return rc;
}

}  // namespace

int drift_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  DriftOptions o;
  CLI::App app;
  declare(app, o);
  if (auto exit = base::parse_command_line(app, args, kText, out, err)) return *exit;
  if (auto problem = check(o)) return base::usage_error(kText, *problem, err);
  if (o.real_cli) return rerecord_and_compare(o, out, err);
  const auto base = load(o.positionals[0], err);
  const auto candidate = load(o.positionals[1], err);
  if (!base || !candidate) return kExitUsage;
  return report(*base, *candidate, o, out, err);
}

}  // namespace claude::harness
