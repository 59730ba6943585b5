// How a recorded SDK line becomes the pattern a replay grades (docs/scenario.md, "Recordings",
// "What a recording grades"): the recorded line itself, relaxed only where a value is minted per
// run or per SDK, with the encodings that mean the same to the CLI accepted alike.
//
// What it is: a pure function of the recorded line and what the recording showed before it
// (GradingContext). It never fails: a line it does not know is graded on `type` (+ `subtype`).
//
// What it costs: one walk over the recorded line; the patterns hold copies of the graded values.
#pragma once

#include <map>
#include <string>

#include "claude/emulator/pattern.hpp"

namespace claude::emulator::detail {

struct GradingContext {
  // CLI control requests recorded so far: request id -> the `request` object.
  std::map<std::string, Json, std::less<>> cli_requests;
  // Hook callback ids the SDK registered in initialize -> the variable capturing the live id.
  std::map<std::string, std::string, std::less<>> hook_callbacks;
};

// The pattern for recorded SDK line `message` (a parsed JSON object with a string "type").
// `request_capture`: for an SDK control_request, the variable that captures its live request id.
Json graded_sdk_pattern(const Json& message, const std::string& request_capture,
                        GradingContext& context);

// A CLI line as replayed: a hook_callback request names the live SDK's callback id. Returns true
// when `message` was changed.
bool map_hook_callback_id(Json& message, const GradingContext& context);

}  // namespace claude::emulator::detail
