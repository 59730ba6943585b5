// LiteralFinder: does a text contain a given literal? The Redactor's prefilter: most rules can
// only match where some literal occurs (every Anthropic key contains `sk-ant-`), and looking for
// one is far cheaper than running RE2 over every forwarded line.
//
// What it is: a substring test, case-sensitive or ASCII case-insensitive (only ASCII letters fold).
//
// How it fails: it does not. An empty literal is found in every text.
//
// What it costs: one memchr pass over the text (string_view::find; without case, one memchr for
// each case of the first byte, each candidate then compared in full).
#pragma once

#include <string>
#include <string_view>

namespace claude::recorder {

class LiteralFinder {
 public:
  LiteralFinder(std::string_view literal, bool ignore_case);

  [[nodiscard]] bool found_in(std::string_view text) const noexcept;

  [[nodiscard]] const std::string& literal() const noexcept { return literal_; }
  [[nodiscard]] bool ignores_case() const noexcept { return ignore_case_; }

 private:
  std::string literal_;  // lower-cased when ignore_case_
  bool ignore_case_;
};

}  // namespace claude::recorder
