// Patterns: how a scenario says which JSON values it accepts from the SDK.
//
// What it is: a matcher over JSON values (nlohmann::ordered_json, so messages keep their key
// order when sent). Rules (docs/scenario.md#patterns):
//  - an object pattern matches any object holding at least its keys (extra keys are allowed);
//  - an array pattern matches an array of the same length, element by element;
//  - any other value matches an equal value (numbers compare by value: 1 equals 1.0);
//  - an object with exactly one key starting with '$' is an operator:
//      {"$re":"RE2"}        a string the regular expression finds (unanchored; use ^…$ to anchor)
//      {"$any":true}        any value, but the key must be present
//      {"$absent":true}     the key must be missing
//      {"$type":"string"}   string, number, integer, boolean, null, object, array
//      {"$capture":"name"}  any present value, bound to `name` when the whole pattern matches
//      {"$var":"name"}      a value equal (deeply, key order ignored) to the one bound to `name`
//      {"$exact":VALUE}     a value deeply equal to VALUE (key order ignored; no extra keys; VALUE
//                           is data, never read as a pattern)
//      {"$one_of":[P,...]}  a value matching any of the patterns (one of them may be $absent)
// The model-stub reuses this matcher for request bodies.
//
// How it fails: `match` never throws; a failed match says where (a JSON Pointer to the first
// difference) and why. `check_pattern` reports malformed operators and invalid RE2 up front, so a
// scenario loader can reject them with a file:line.
//
// What it costs: one walk over the pattern; values are only visited where the pattern looks.
// Regular expressions are compiled once per distinct text and cached for the process lifetime
// (thread-safe).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace claude::emulator {

using Json = nlohmann::ordered_json;
using Bindings = std::map<std::string, Json, std::less<>>;

// One place where a value departs from a pattern.
struct Difference {
  std::string pointer;         // JSON Pointer into the value ("" = the whole value)
  std::string reason;          // e.g. "expected \"can_use_tool\", got \"interrupt\""
  Json expected;               // the pattern at that place
  std::optional<Json> actual;  // the value at that place; nullopt when the key is missing
};

struct MatchResult {
  bool matched = false;
  std::optional<Difference> first_difference;  // set when !matched
  // How much of the pattern the value satisfied (used to pick the closest candidate in reports).
  std::size_t score = 0;
};

// Matches `value` against `pattern`. On success the pattern's captures are added to `bindings`
// (replacing earlier values of the same name); on failure `bindings` is left untouched.
MatchResult match(const Json& pattern, const Json& value, Bindings& bindings);

// Every difference (up to `limit`), in document order; empty when the value matches.
std::vector<Difference> differences(const Json& pattern, const Json& value,
                                    const Bindings& bindings, std::size_t limit = 32);

// Structural equality that ignores object key order.
bool json_equal(const Json& a, const Json& b);

// A problem found in a pattern before it is used.
struct PatternError {
  std::string pointer;  // where in the pattern
  std::string reason;
};

// Names a pattern binds ($capture) and reads ($var), collected by `check_pattern`.
struct PatternNames {
  std::vector<std::string> captures;
  std::vector<std::string> vars;
};

// Checks operators, their arguments and every $re; collects names into `names` when given.
std::optional<PatternError> check_pattern(const Json& pattern, PatternNames* names = nullptr);

// Replaces {"$var":"name"} objects and "${name}" inside strings of a message to send. A string that
// is exactly "${name}" becomes the bound value itself (any JSON type); inside longer strings a
// bound string is inserted as is and other values as compact JSON. Unbound names are left in place
// and listed in `unbound` when given.
Json substitute(const Json& message, const Bindings& bindings,
                std::vector<std::string>* unbound = nullptr);

// The variable names a message to send refers to ("${name}" and {"$var":"name"}).
std::vector<std::string> referenced_variables(const Json& message);

// One JSON Pointer reference token, `~` and `/` escaped as RFC 6901 says.
std::string escape_pointer_token(std::string_view token);

}  // namespace claude::emulator
