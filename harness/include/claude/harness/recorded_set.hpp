// Recorded sets: `scenarios/recorded/cli-<version>/`, real CLI sessions recorded offline
// (model-stub + `harness record --offline`) through one or more SDK drivers, and the one command
// that regenerates them (`harness record-set`, docs/recording-offline.md).
//
// Layout of a set directory:
//   set.json                      {"cli_version":"2.1.332","cases":[{"name":"plain-text",
//                                   "sdks":["cpp","ts"], "skipped":{"ts":"why"}?}, …]}
//   <case>/model-script.ndjson    the model script model-stub answers the CLI with
//   <case>/spec.json              the driver spec (docs/drivers.md §2)
//   <case>/<sdk>.ndjson           the recording made through that SDK's driver
//   <case>/<sdk>.observations.json  the driver's observations in that live run (a JSON array)
//   <case>/<sdk>.model-log.ndjson the model-stub request log of that run
// Each run happens in a fresh empty working directory (record_offline's fresh_cwd).
//
// How it fails: returns an exit status from exit_codes.hpp (2 bad set / usage, 3 a recording
// run failed) and explains on `err`; never throws.
// What it costs: one real CLI session per case and SDK (about 1–3 s each on 2 cores).
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace claude::harness {

struct RecordSetOptions {
  std::filesystem::path set_dir;  // the set to (re-)record
  // Where the new set is written (created if missing). Empty: set_dir itself.
  std::filesystem::path out_dir;
  // Empty: CLAUDE_TEE_REAL_CLI, else the first `claude` on PATH (none of these: exit 2).
  std::filesystem::path real_cli;
  // A live progress line (done/total, failures, elapsed) on `out`: only for a terminal.
  bool progress = false;
  bool quiet = false;    // no per-recording lines, only failures and the summary
  bool verbose = false;  // each offline run's own output too
  // SDKs to record through ("cpp", "ts"). Empty: every SDK each case lists in set.json.
  std::vector<std::string> sdks;
  // Only these cases (by name). Empty: all cases of set.json.
  std::vector<std::string> cases;
  // Network isolation for each run: "auto", "required" or "off" (see `harness record --offline`).
  std::string netns = "auto";
};

// Records every selected case of the set through every selected SDK and writes the set to
// out_dir. A driver that exits 4 (cannot express the case) drops that SDK from the case in the
// written set.json (with the reason under "skipped"). Prints one line per recording on `out`.
// Returns 0 when every recording was made.
int record_set(const RecordSetOptions& options, std::ostream& out, std::ostream& err);

// `harness record-set SET_DIR [-o OUT_DIR] [--real-cli PATH] [--sdk cpp|ts]... [--case NAME]...
// [--netns auto|required|off]`; `args` excludes "record-set".
int record_set_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace claude::harness
