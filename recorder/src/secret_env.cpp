#include "claude/recorder/redactor.hpp"

namespace claude::recorder {

bool is_secret_env_name(std::string_view name) noexcept {
  for (std::string_view suffix : {"_KEY", "_TOKEN", "_SECRET", "_PASSWORD"}) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

void add_secret_env_rules(Redactor& redactor, const std::vector<std::string>& environment) {
  for (const auto& entry : environment) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    const std::string_view name(entry.data(), eq);
    if (!is_secret_env_name(name)) continue;
    redactor.add_literal("env:" + std::string(name), std::string_view(entry).substr(eq + 1));
  }
}

}  // namespace claude::recorder
