// Scenarios: what fake-claude plays, loaded from a scenario file (format v1, docs/scenario.md) or
// from a recording (format v1, docs/recording.md#format-recording-v1), which is generalised into
// the same steps.
//
// What it is: `Scenario` = header + steps, each step remembering its source line. The loaders
// here are the one entry point for fake-claude, `harness lint` and `harness convert`.
//
// How it fails: never by throwing on bad input. A load returns every problem found, each with
// file, line and reason; I/O errors the same way with line 0.
//
// What it costs: files are read in chunks and parsed one line at a time; no DOM of the whole
// file is built. Every step holds what it writes, decoded, from the load on: a scenario or
// recording costs about its size in memory, and a file changed during a replay cannot change
// what the replay sends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "claude/emulator/pattern.hpp"

namespace claude::emulator {

using Millis = std::int64_t;

enum class Verb : std::uint8_t {
  send,           // value = message (substituted); or bytes() verbatim when `verbatim`
  raw,            // bytes() = bytes as given
  stderr_text,    // bytes() = bytes to stderr
  expect,         // value = pattern
  request,        // value = request body; text = `as` name; response = expect_response
  cancel,         // text = name of an earlier request
  respond,        // value = payload
  respond_error,  // text = error message
  sleep,          // ms
  expect_eof,
  exit,  // number = exit code
  kill,  // number = signal number, text = signal name
  hang,
  expect_prompt,  // value = pattern of the text prompt (print mode: argv and/or plain stdin)
};

std::string_view verb_name(Verb verb);

// expect, expect_eof, expect_prompt: steps that wait for the SDK and write nothing.
bool is_wait(Verb verb);

enum class Dialect : std::uint8_t { stream_json, jsonrpc };

// How steps wait for the SDK (docs/scenario.md, "Ordering"). `sequential`: every step waits for
// the one before it. `causal`: waits (expect, expect_eof, expect_prompt, a request's response)
// never hold up later steps; the other steps run in file order, each once the waits it depends on
// (`after`, and the steps binding the variables it uses) are done. Recordings replay causally.
enum class Order : std::uint8_t { sequential, causal };

struct Step {
  // Members are ordered so the small ones share a word: a recording holds one Step per line.
  std::size_t line = 0;          // 1-based line in the source file
  Json value;                    // message, pattern, request body or payload (see Verb)
  std::string text;              // names, error text; raw, stderr, verbatim send: the bytes written
  std::optional<Json> response;  // request: expect_response pattern
  std::vector<std::size_t> chunks;   // send: byte counts of the first writes
  Millis gap_ms = 0;                 // send: pause between chunks
  std::optional<Millis> within_ms;   // expect, request, expect_eof: overrides header timeout_ms
  Millis ms = 0;                     // sleep
  std::optional<double> recorded_t;  // from a recording: the event's `t` (s), for --speed pacing
  int number = 0;                    // exit code or signal number
  std::string label;                 // a wait's name for `after` (causal order)
  std::vector<std::string> after;    // labels as written: what this step waits for (causal)
  std::string malformed;  // "malformed":"why": a step meant to be unlike the CLI (harness lint)
  // Causal order: indices of the earlier wait steps this step needs done before it runs, from
  // `after`, the variables it uses and (respond) the expect it answers. Set by the loader.
  std::vector<std::size_t> waits_for;
  // send/raw/stderr: written only when the replaying SDK's environment has each NAME=value (a
  // recorded line the real CLI writes only under that condition, docs/scenario.md "if_env").
  std::vector<std::pair<std::string, std::string>> if_env;
  Verb verb = Verb::send;
  bool verbatim = false;  // send: write `text` (a whole line, '\n' included) unchanged
};

struct Header {
  std::size_t line = 0;  // where the header was read
  std::string name;
  std::string description;
  std::string cli_version = "2.1.332";
  Dialect protocol = Dialect::stream_json;
  Order order = Order::sequential;
  std::vector<std::string> argv_require;  // "--flag" or "--flag=value" (either form on argv)
  std::vector<std::string> argv_forbid;
  std::vector<std::pair<std::string, Json>> env_require;  // name -> exact string or pattern
  // "unknown_options":"accept": options the emulated CLI version does not know are kept instead
  // of rejected as that CLI rejects them (a scenario for a fork of the CLI).
  bool accept_unknown_options = false;
  bool auto_initialize = true;
  std::optional<Json> initialize_response;  // payload of the automatic reply; default if unset
  std::vector<Json> ignore;                 // SDK lines matching any of these are dropped
  bool strict = true;
  // Answer the control requests the real CLI always answers the same way (an idle `interrupt`,
  // a repeated `initialize`) when no step expects them, with a note instead of a failure.
  // Recordings: on.
  bool lenient = false;
  Millis timeout_ms = 10000;   // default wait of expect/request/expect_eof and after the last step
  std::optional<Json> driver;  // opaque here; read by conformance drivers
};

struct Scenario {
  std::string file;  // as given to the loader; used in every file:line
  bool from_recording = false;
  // A recording without its exit or signal event (its recorder was killed, or its disk filled):
  // why it is incomplete, "file:line: …". It loads and replays what was recorded, but lint warns,
  // convert says so and a replay of it never passes (docs/recording.md, "Cut recordings").
  std::optional<std::string> truncated;
  Header header;
  std::vector<Step> steps;
};

struct LoadError {
  std::string file;
  std::size_t line = 0;  // 0 = the file as a whole
  std::string reason;
  std::string to_string() const;  // "file:line: reason"
};

struct LoadResult {
  std::optional<Scenario> scenario;  // set only when `errors` is empty
  std::vector<LoadError> errors;
  bool ok() const { return scenario.has_value(); }
};

// Loads a scenario or a recording; which one is decided by the header line
// ({"scenario":1,…} or {"recording":1,…}).
LoadResult load_scenario_file(const std::filesystem::path& path);
// The same from text in memory; `name` stands for the file name in errors.
LoadResult load_scenario_text(std::string_view text, std::string name);

// A multi-run scenario (docs/scenario.md, "Several runs"): several scenarios or recordings in one
// file, each part starting at its own header line (a JSON object with a top-level "scenario" or
// "recording" key); a file with one header is a file of one part. Every part is loaded as
// load_scenario_file would load it alone, errors naming the lines of the whole file.
struct PartsLoadResult {
  std::vector<Scenario> parts;  // in file order; empty when `errors` is not
  std::vector<LoadError> errors;
  bool ok() const { return errors.empty() && !parts.empty(); }
};
PartsLoadResult load_scenario_parts(const std::filesystem::path& path);

// The header's cli_version without loading the steps (for a fast `--version`). nullopt when the
// file cannot be read or its header has none.
std::optional<std::string> read_cli_version(const std::filesystem::path& path);

// A scenario file (format v1) equivalent to `scenario`: header line, then one step per line.
// Verbatim recording lines are written as `send` when they are JSON, as `raw` otherwise.
std::string to_ndjson(const Scenario& scenario);

// Signal names accepted by `kill` ("SIGSEGV" or "SEGV"); nullopt when unknown.
std::optional<int> signal_number(std::string_view name);

}  // namespace claude::emulator
