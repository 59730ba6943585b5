#include "claude/emulator/closest_name.hpp"

#include <algorithm>

namespace claude::emulator {

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap) {
  const std::size_t la = a.size();
  const std::size_t lb = b.size();
  if ((la > lb ? la - lb : lb - la) > cap) return std::max(la, lb);
  std::vector<std::vector<std::size_t>> d(la + 1, std::vector<std::size_t>(lb + 1, 0));
  for (std::size_t i = 0; i <= la; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= lb; ++j) d[0][j] = j;
  for (std::size_t j = 1; j <= lb; ++j) {
    for (std::size_t i = 1; i <= la; ++i) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[la][lb];
}

std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates,
                                        std::size_t max_distance) {
  std::optional<std::string> best;
  std::size_t best_distance = max_distance + 1;
  for (const auto& candidate : candidates) {
    if (candidate == word) continue;
    const std::size_t distance = edit_distance(word, candidate, max_distance);
    if (distance < best_distance && distance < word.size()) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

}  // namespace claude::emulator
