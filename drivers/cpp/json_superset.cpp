#include "json_superset.hpp"

namespace claude::driver {

bool json_superset_match(const nlohmann::json& pattern, const nlohmann::json& value) {
  if (pattern.is_object()) {
    if (!value.is_object()) return false;
    for (const auto& [key, sub] : pattern.items()) {
      auto it = value.find(key);
      if (it == value.end() || !json_superset_match(sub, *it)) return false;
    }
    return true;
  }
  if (pattern.is_array()) {
    if (!value.is_array() || value.size() != pattern.size()) return false;
    for (std::size_t i = 0; i < pattern.size(); ++i)
      if (!json_superset_match(pattern[i], value[i])) return false;
    return true;
  }
  // nlohmann compares 1 and 1.0 as equal, which is what a hand-written pattern means.
  return pattern == value;
}

}  // namespace claude::driver
