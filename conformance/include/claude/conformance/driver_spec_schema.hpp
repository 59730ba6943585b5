// The driver spec's one check: docs/driver-spec.schema.json, compiled into the harness.
//
// What it is: `driver_spec_problems` validates a spec (a scenario header's `driver` member or a
// spec.json) against that schema and words each problem with its place, e.g.
// `driver spec /can_use_tool/0/behavior: must be one of "allow", "deny"`. harness check and
// harness fuzz call it for every spec before any driver starts; drivers do not check specs again
// (docs/drivers.md §2), they only refuse, with exit 4, what their SDK cannot express.
//
// How it fails: never throws; an empty result means the spec is valid.
// What it costs: the schema is parsed once per process; one walk of the spec per call.
#pragma once

#include <string>
#include <vector>

#include "claude/emulator/pattern.hpp"

namespace claude::conformance {

// "driver spec /pointer: reason" for each problem of `spec`.
[[nodiscard]] std::vector<std::string> driver_spec_problems(const claude::emulator::Json& spec);

// The schema text (docs/driver-spec.schema.json as built in).
[[nodiscard]] const char* driver_spec_schema_text();

}  // namespace claude::conformance
