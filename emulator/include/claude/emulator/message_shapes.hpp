// Message shapes: whether the messages a scenario sends look like the CLI's own (`harness lint`).
//
// What it is: the per-kind field tables of each recorded CLI version
// (scenarios/recorded/cli-VERSION/shapes.json, derived from the recordings by
// scripts/capture-message-shapes and compiled in), and a check of every `send` step of a scenario
// against the table of its `cli_version` (the newest table when that version has none). A kind is
// `type`, `type/subtype`, or `stream_event/<event.type>`. Findings, each with the step's line:
//   - a message without a string "type" (naming the close key when one is a typo: `tpye`);
//   - a type or subtype the CLI never sent that is a typo of one it did (`"type":"reslt"`);
//   - a key the CLI never sent in that kind that is a typo of one it did (at any described depth);
//   - a field of another JSON type than the CLI sends;
//   - an object the CLI never sends empty sent as `{}` (result's modelUsage is keyed by model
//     name; a client reading its first key crashes on `{}`).
// With `strict`, also every field the CLI always sends that is missing, every kind and key the
// recordings never show, and empty arrays the CLI never sends empty. Steps marked
// `"malformed":"why"` are not checked; recordings are not checked (the CLI wrote them).
//
// How it fails: never; a scenario without `send` steps has no findings.
//
// What it costs: the compiled-in tables are parsed once (tens of KB); each sent message is
// walked once, to two levels below its own keys.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "claude/emulator/scenario.hpp"

namespace claude::emulator {

struct ShapeFinding {
  std::size_t line = 0;  // the step's line
  std::string reason;
};

std::vector<ShapeFinding> check_message_shapes(const Scenario& scenario, bool strict = false);

}  // namespace claude::emulator
