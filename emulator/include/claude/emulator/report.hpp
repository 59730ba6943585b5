// Report: the verdict of one fake-claude run, for people (stderr) and tools (JSON).
//
// What it is: the failing step with file:line, the expected pattern, the closest received line
// with every differing field (JSON Pointers, first one first), the SDK lines no step consumed,
// each step's outcome and the transcript of everything read and written, with times relative to
// the start. The JSON layout is documented in docs/fake-claude.md ("report":1).
//
// How it fails: it does not; bytes that are not UTF-8 are shown with U+FFFD.
//
// What it costs: transcript lines are kept as previews (the first 4 KiB of SDK lines, 120 bytes of
// the fake's own), so a long replay does not hold its output twice; SDK lines beyond the engine's
// hold limit are only counted, so a flood of them keeps the report bounded. Quotes of received
// values and lines in messages are cut at base::kMaxQuotedBytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "claude/emulator/pattern.hpp"
#include "claude/emulator/scenario.hpp"

namespace claude::emulator {

struct TranscriptEntry {
  Millis t_ms = 0;
  char dir = 'i';                          // 'i' SDK -> fake (stdin), 'o' stdout, 'e' stderr
  std::string text;                        // preview of the bytes (no trailing '\n')
  std::size_t size = 0;                    // full size in bytes
  bool partial = false;                    // stdin ended before this line's '\n'
  bool oversized = false;                  // over the line limit; text is empty
  bool ignored = false;                    // matched a header `ignore` pattern
  bool auto_answered = false;              // an `initialize` answered by auto_initialize
  bool prompt = false;                     // print mode: the whole text prompt, as the CLI got it
  std::optional<std::size_t> consumed_by;  // index of the step that consumed it
};

enum class StepStatus { not_run, done, failed };

struct StepOutcome {
  std::size_t line = 0;
  Verb verb = Verb::send;
  StepStatus status = StepStatus::not_run;
  std::optional<Millis> done_ms;
};

struct ClosestLine {
  std::size_t transcript_index = 0;
  std::vector<Difference> differences;  // first difference first
};

struct Failure {
  // mismatch, timeout, eof (stdin closed while waiting), leftover, argv, env, unbound_variable,
  // no_request (respond with nothing to answer), stdout_closed, terminated
  std::string kind;
  std::optional<std::size_t> step;  // index into `steps`; nullopt for header checks
  std::size_t line = 0;             // source line (the header's for header checks)
  std::string message;
  std::optional<Json> expected;
  std::optional<ClosestLine> closest;
};

struct Ending {
  enum class Kind { exit, kill, hang } kind = Kind::exit;
  int code = 0;    // exit
  int signal = 0;  // kill
};

struct Report {
  std::string file;
  std::string name;
  bool passed = false;
  Ending ending;
  std::optional<Failure> failure;
  std::vector<std::size_t> leftover;  // transcript indices of SDK lines no step consumed
  // What the run let pass without failing it: control requests answered as the real CLI does
  // (Header::lenient), lines not written because the SDK does not meet their if_env.
  std::vector<std::string> notes;
  std::vector<StepOutcome> steps;
  std::vector<TranscriptEntry> transcript;
  std::vector<std::string> args;
  // SDK lines read and thrown away, neither graded nor in the transcript: more unconsumed lines
  // were held than the engine keeps (Engine's kMaxHeldSdkLines / kMaxHeldSdkBytes).
  std::size_t dropped_sdk_lines = 0;
  // The scenario was a recording cut short (Scenario::truncated): why. Such a replay never passes.
  std::optional<std::string> truncated;
};

Json report_json(const Report& report);
// A few lines for stderr: verdict, and for a failure the step, expectation and differences.
std::string report_text(const Report& report);

}  // namespace claude::emulator
