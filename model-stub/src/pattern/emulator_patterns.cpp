#include <claude/emulator/pattern.hpp>

#include "pattern/request_pattern.hpp"

namespace claude::model_stub {

bool pattern_matches(const Json& pattern, const Json& value, Bindings& bindings) {
  return emulator::match(pattern, value, bindings).matched;
}

std::optional<std::string> pattern_problem(const Json& pattern) {
  auto problem = emulator::check_pattern(pattern);
  if (!problem) return std::nullopt;
  return "at " + (problem->pointer.empty() ? std::string("/") : problem->pointer) + ": " +
         problem->reason;
}

Json substitute_captures(const Json& message, const Bindings& bindings) {
  return emulator::substitute(message, bindings);
}

}  // namespace claude::model_stub
