// fuzz_pattern_matcher: the pattern language (pattern.hpp) over arbitrary patterns and values.
//
// Input layout: the first line is the pattern, the rest the value, both JSON (inputs where either
// does not parse are skipped: parsing is fuzzed elsewhere).
// Oracles: `check_pattern` never throws; for a pattern it accepts, `match` and `differences`
// agree (a match has no differences, a mismatch has at least one and `match` names the first);
// a failed match leaves the bindings untouched.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "claude/emulator/pattern.hpp"
#include "fuzz_oracle.hpp"

using claude::emulator::Json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto newline = text.find('\n');
  if (newline == std::string_view::npos) return 0;
  const Json pattern = Json::parse(text.substr(0, newline), nullptr, false);
  const Json value = Json::parse(text.substr(newline + 1), nullptr, false);
  if (pattern.is_discarded() || value.is_discarded()) return 0;

  claude::emulator::PatternNames names;
  if (claude::emulator::check_pattern(pattern, &names)) return 0;
  // $var names that nothing binds are bound here to the value itself, so those paths run too.
  claude::emulator::Bindings bindings;
  for (const auto& name : names.vars) bindings[name] = value;
  const claude::emulator::Bindings before = bindings;

  const auto result = claude::emulator::match(pattern, value, bindings);
  const auto all = claude::emulator::differences(pattern, value, before);
  if (result.matched) {
    CHECK(all.empty());
    CHECK(!result.first_difference.has_value());
  } else {
    CHECK(!all.empty());
    CHECK(result.first_difference.has_value());
    CHECK(bindings == before);
  }
  return 0;
}
