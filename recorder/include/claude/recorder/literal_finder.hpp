// LiteralFinder: does a text contain a given literal? The Redactor's prefilter: most rules can
// only match where some literal occurs (every Anthropic key contains `sk-ant-`), and looking for
// a literal is far cheaper than running RE2 over every forwarded line.
//
// What it is: a substring test, case-sensitive or ASCII case-insensitive (only ASCII letters fold;
// every other byte must be equal).
//
// How it fails: it does not. An empty literal is found in every text.
//
// What it costs: one pass over the text, 32 bytes per step on x86-64 CPUs with AVX2 and 16 where
// SSE2 is available: candidates are positions where the literal's first and last bytes both
// match, each checked in full.
#pragma once

#include <cstddef>
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
  [[nodiscard]] bool matches_at(const unsigned char* p) const noexcept;
#if defined(__x86_64__)
  static constexpr std::size_t kFound = ~std::size_t{0};
  [[nodiscard]] std::size_t scan_avx2(const unsigned char* p,
                                      std::size_t last_start) const noexcept;
#endif

  std::string literal_;  // lower-cased when ignore_case_
  std::string fold_;     // per byte: 0x20 when that byte is a letter compared without case, else 0
  bool ignore_case_;
};

}  // namespace claude::recorder
