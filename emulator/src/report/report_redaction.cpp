#include "report/report_redaction.hpp"

#include <vector>

namespace claude::emulator::detail {

ReportRedaction::ReportRedaction(const Environment& environment)
    : redactor_(recorder::Redactor::with_builtin_rules()) {
  std::vector<std::string> entries;
  entries.reserve(environment.size());
  for (const auto& [name, value] : environment) entries.push_back(name + "=" + value);
  recorder::add_secret_env_rules(redactor_, entries);
}

void ReportRedaction::redact(Json& value) const {
  if (value.is_string()) {
    std::string redacted;
    if (redactor_.redact(value.get_ref<const std::string&>(), redacted)) value = redacted;
    return;
  }
  if (value.is_array()) {
    for (Json& item : value) redact(item);
    return;
  }
  if (!value.is_object()) return;
  bool keys_redacted = false;
  for (auto& [key, item] : value.items()) {
    redact(item);
    keys_redacted = keys_redacted || redactor_.may_match_any_line(key);
  }
  if (!keys_redacted) return;
  Json rebuilt = Json::object();
  for (auto& [key, item] : value.items()) rebuilt[redactor_.redact_copy(key)] = std::move(item);
  value = std::move(rebuilt);
}

std::string ReportRedaction::redact(std::string_view text) const {
  return redactor_.redact_copy(text);
}

}  // namespace claude::emulator::detail
