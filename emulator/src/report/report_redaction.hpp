// ReportRedaction: removes secrets from what fake-claude writes about a session (the JSON report
// and its stderr lines) with the rules claude-tee applies to recordings
// (claude/recorder/redactor.hpp) plus the values of its own secret-named environment variables.
// Everything in a report may come from the SDK under test, so every string is scanned.
//
// How it fails: it does not (the built-in rules are constants).
//
// What it costs: one RE2 scan of the rule union per string; only strings that match are copied.
#pragma once

#include <string>
#include <string_view>

#include "claude/emulator/engine.hpp"
#include "claude/emulator/pattern.hpp"
#include "claude/recorder/redactor.hpp"

namespace claude::emulator::detail {

class ReportRedaction {
 public:
  explicit ReportRedaction(const Environment& environment);

  // Redacts every string value (and object key) of `value`, recursively.
  void redact(Json& value) const;
  [[nodiscard]] std::string redact(std::string_view text) const;

 private:
  recorder::Redactor redactor_;
};

}  // namespace claude::emulator::detail
