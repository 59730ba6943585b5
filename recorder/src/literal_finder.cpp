#include "claude/recorder/literal_finder.hpp"

#include <algorithm>

namespace claude::recorder {
namespace {

char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

char ascii_upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

}  // namespace

LiteralFinder::LiteralFinder(std::string_view literal, bool ignore_case)
    : literal_(literal), ignore_case_(ignore_case) {
  if (ignore_case) std::transform(literal_.begin(), literal_.end(), literal_.begin(), ascii_lower);
}

bool LiteralFinder::found_in(std::string_view text) const noexcept {
  if (!ignore_case_ || literal_.empty()) return text.find(literal_) != std::string_view::npos;
  const char lower = literal_.front();
  const char upper = ascii_upper(lower);
  constexpr auto npos = std::string_view::npos;
  // The next place of each case of the first byte; the earlier one is the next candidate.
  std::size_t next_lower = text.find(lower);
  std::size_t next_upper = upper == lower ? npos : text.find(upper);
  for (;;) {
    const std::size_t at = std::min(next_lower, next_upper);
    if (at == npos || text.size() - at < literal_.size()) return false;
    if (std::equal(literal_.begin() + 1, literal_.end(), text.begin() + at + 1,
                   [](char want, char got) { return want == ascii_lower(got); })) {
      return true;
    }
    if (at == next_lower) {
      next_lower = text.find(lower, at + 1);
    } else {
      next_upper = text.find(upper, at + 1);
    }
  }
}

}  // namespace claude::recorder
