// Message shapes: whether the messages a scenario sends look like the CLI's own (`harness lint`).
//
// What it is: a check of every `send` step against the per-kind field tables of the scenario's
// `cli_version` (scenarios/recorded/cli-VERSION/shapes.json, compiled in; the newest table when
// that version has none). The findings, and the more `strict` adds, are those of docs/scenario.md
// ("Lint"); steps marked `"malformed":"why"` and recordings are not checked.
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
