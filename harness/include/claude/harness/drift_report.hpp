// CLI drift reports (`harness drift`, docs/drift.md): how the stream-json traffic of one recorded
// set (a directory of recordings, such as scenarios/recorded/cli-2.1.332/) differs in shape and
// order from another's, typically the same model scripts recorded with two CLI versions. Per
// pair of recordings with the same relative path it compares the message kinds
// (`control_response/<subtype>/<the subtype it answers>`, `stream_event/<event.type>`, …) in each
// direction, the JSON fields of every CLI → SDK kind (array elements collapsed to `[]`) and the
// order of kinds. Values are never compared: ids, text, costs and timings vary from run to run.
//
// How it fails: loading a set returns every problem with file and line; comparing and printing
// never fail.
// What it costs: each recording is loaded and each CLI line parsed once; the ordering diff is an
// LCS per session and direction (O(n·m) in messages).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "claude/emulator/cli_options.hpp"
#include "claude/emulator/pattern.hpp"
#include "claude/emulator/scenario.hpp"

namespace claude::harness {

enum class Direction : std::uint8_t { cli_to_sdk, sdk_to_cli };

// Where something was seen: a session (path relative to its set) and a line of that recording.
struct SeenAt {
  std::string session;
  std::size_t line = 0;
};

// One message in a session: its kind and the recording line it came from.
struct MessageKind {
  std::string kind;
  std::size_t line = 0;
};

// A field of a message kind: `/message/content/[]/type` with value type `string` (object,
// array, string, number, boolean or null).
struct FieldKey {
  std::string kind;
  std::string path;
  std::string type;
  // The defaulted <=> compares each member's result with a literal 0, which libstdc++ takes as a
  // null pointer (__cmp_cat::__unspec*); modernize-use-nullptr flags that synthesized code.
  auto operator<=>(const FieldKey&) const = default;  // NOLINT(modernize-use-nullptr)
};

// One recording, reduced to what a drift report compares.
struct SessionShape {
  std::string name;                        // path relative to the set directory
  std::optional<std::string> cli_version;  // system/init claude_code_version, else the header's
  std::vector<MessageKind> cli_messages;   // CLI → SDK (stdout), in order
  std::vector<MessageKind> sdk_messages;   // SDK → CLI (stdin), in order
  std::map<FieldKey, std::size_t> fields;  // CLI → SDK fields -> first line seen
};

struct RecordedSet {
  std::string dir;                     // as given
  std::vector<SessionShape> sessions;  // sorted by name
  // DIR/options.json, the CLI's option table (scripts/capture-cli-options), when the set has one.
  std::optional<emulator::CliOptionTable> options;
};

struct SetLoadResult {
  std::optional<RecordedSet> set;  // set only when `errors` is empty
  std::vector<emulator::LoadError> errors;
};

// DIR/options.json, when present, must be an option table (else an error naming the file).
// Every `*.ndjson` file below `dir` whose first line is a JSON object with a "recording" key is
// a recording and must load; other `.ndjson` files of the set (model scripts, request logs) are
// skipped, empty files too. A set needs at least one recording.
SetLoadResult load_recorded_set(const std::filesystem::path& dir);

struct KindChange {
  Direction direction = Direction::cli_to_sdk;
  std::string kind;
  SeenAt first_seen;                                        // in the set that has it
  std::vector<std::pair<std::string, std::string>> fields;  // (path, type), CLI → SDK kinds only
};

struct FieldChange {
  std::string kind;  // a CLI → SDK kind present in both sets
  std::string path;
  std::string type;
  SeenAt first_seen;  // in the set that has it
};

struct OrderStep {
  enum class Op : std::uint8_t { same, removed, added } op = Op::same;
  std::string kind;
  std::size_t base_index = 0;  // position in the base sequence (same, removed)
  std::size_t base_line = 0;
  std::size_t candidate_index = 0;  // position in the candidate sequence (same, added)
  std::size_t candidate_line = 0;
};

// The full alignment of one session's kinds in one direction, kept only when it is not all
// `same`.
struct OrderingChange {
  std::string session;
  Direction direction = Direction::cli_to_sdk;
  std::vector<OrderStep> steps;
};

// An option of the CLI's main command (by its long name) that one set's table has and the
// other's has not, or that both have with other flags, choices or visibility.
struct OptionChange {
  std::string name;   // long name: "--max-turns"
  std::string flags;  // "--max-turns <turns>" (candidate's for a change)
  std::string was;    // base's description, for a change
  std::string now;    // candidate's description, for a change
};

struct SetSummary {
  std::string dir;
  std::vector<std::string> cli_versions;  // distinct, sorted; empty when no recording says
  std::size_t sessions = 0;
};

struct DriftReport {
  SetSummary base;
  SetSummary candidate;
  std::size_t sessions_compared = 0;
  std::vector<std::string> only_in_base;
  std::vector<std::string> only_in_candidate;
  // Kinds other than control_request/control_response/control_cancel_request.
  std::vector<KindChange> kinds_added;
  std::vector<KindChange> kinds_removed;
  // control_request, control_response and control_cancel_request kinds.
  std::vector<KindChange> control_added;
  std::vector<KindChange> control_removed;
  std::vector<FieldChange> fields_added;
  std::vector<FieldChange> fields_removed;
  std::vector<OrderingChange> ordering;
  // Command-line options, compared when both sets have an options.json.
  bool options_compared = false;
  std::vector<OptionChange> options_added;
  std::vector<OptionChange> options_removed;
  std::vector<OptionChange> options_changed;

  bool has_drift() const;
};

// Compares the shapes of two sets. Kinds and fields are pooled over all sessions of a set;
// ordering is compared per session present in both.
DriftReport compare_sets(const RecordedSet& base, const RecordedSet& candidate);

// Human-readable Markdown (docs/drift/2.1.197-to-2.1.332.md holds one).
std::string to_markdown(const DriftReport& report);

// The JSON report (schema in docs/drift.md, "drift_report": 1).
emulator::Json to_json(const DriftReport& report);

// `harness drift BASE_DIR CANDIDATE_DIR …` or `harness drift SET_DIR --real-cli PATH …`
// (docs/drift.md); `args` excludes "drift". Returns 0 no drift, 1 drift, 2 usage or a set that
// does not load, 3 re-recording failed.
int drift_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace claude::harness
