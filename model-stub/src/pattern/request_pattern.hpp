// The pattern language of scenarios (docs/scenario.md#patterns), as model-stub uses it on request
// bodies.
//
// model-stub owns no matcher: these calls go to claude::emulator's match / check_pattern /
// substitute, so a model script and a scenario can never disagree on what a pattern means.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "claude/model_stub/model_script.hpp"

namespace claude::model_stub {

using Bindings = std::map<std::string, Json, std::less<>>;

// True when `value` matches; captures are added to `bindings` only on success.
bool pattern_matches(const Json& pattern, const Json& value, Bindings& bindings);

// A description ("at /a/b: reason") of the first problem in a pattern, or nullopt when it is valid.
std::optional<std::string> pattern_problem(const Json& pattern);

// Replaces "${name}" in strings (and {"$var":"name"} objects) with captured values.
Json substitute_captures(const Json& message, const Bindings& bindings);

}  // namespace claude::model_stub
