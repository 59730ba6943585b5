#include <string_view>

#include "claude/base/json.hpp"
#include "claude/emulator/pattern.hpp"

namespace claude::emulator {
namespace {

// Calls `on_name(name, begin, end)` for each "${name}" in `text`; returns false to stop.
template <class OnName>
void for_each_placeholder(std::string_view text, OnName&& on_name) {
  std::size_t pos = 0;
  while ((pos = text.find("${", pos)) != std::string_view::npos) {
    const std::size_t close = text.find('}', pos + 2);
    if (close == std::string_view::npos) return;
    on_name(text.substr(pos + 2, close - pos - 2), pos, close + 1);
    pos = close + 1;
  }
}

bool is_var_object(const Json& value) {
  return value.is_object() && value.size() == 1 && value.begin().key() == "$var" &&
         value.begin().value().is_string();
}

void collect(const Json& message, std::vector<std::string>& names) {
  if (is_var_object(message)) {
    names.push_back(message.begin().value().get<std::string>());
  } else if (message.is_string()) {
    for_each_placeholder(
        message.get_ref<const std::string&>(),
        [&](std::string_view name, std::size_t, std::size_t) { names.emplace_back(name); });
  } else if (message.is_structured()) {
    for (const auto& member : message) collect(member, names);
  }
}

Json substitute_string(const std::string& text, const Bindings& bindings,
                       std::vector<std::string>* unbound) {
  if (text.size() > 3 && text.starts_with("${") && text.ends_with("}") &&
      text.find('}') == text.size() - 1) {
    const std::string_view name(text.data() + 2, text.size() - 3);
    if (auto it = bindings.find(name); it != bindings.end()) return it->second;
    if (unbound) unbound->emplace_back(name);
    return text;
  }
  std::string out;
  std::size_t copied = 0;
  for_each_placeholder(text, [&](std::string_view name, std::size_t begin, std::size_t end) {
    auto it = bindings.find(name);
    if (it == bindings.end()) {
      if (unbound) unbound->emplace_back(name);
      return;
    }
    out.append(text, copied, begin - copied);
    out += it->second.is_string() ? it->second.get<std::string>() : base::dump_json(it->second);
    copied = end;
  });
  if (copied == 0) return text;
  out.append(text, copied, std::string::npos);
  return out;
}

}  // namespace

Json substitute(const Json& message, const Bindings& bindings, std::vector<std::string>* unbound) {
  if (is_var_object(message)) {
    const std::string& name = message.begin().value().get_ref<const std::string&>();
    if (auto it = bindings.find(name); it != bindings.end()) return it->second;
    if (unbound) unbound->push_back(name);
    return message;
  }
  if (message.is_string()) {
    return substitute_string(message.get_ref<const std::string&>(), bindings, unbound);
  }
  if (message.is_object()) {
    Json out = Json::object();
    for (auto it = message.begin(); it != message.end(); ++it) {
      out[it.key()] = substitute(it.value(), bindings, unbound);
    }
    return out;
  }
  if (message.is_array()) {
    Json out = Json::array();
    for (const auto& element : message) out.push_back(substitute(element, bindings, unbound));
    return out;
  }
  return message;
}

std::vector<std::string> referenced_variables(const Json& message) {
  std::vector<std::string> names;
  collect(message, names);
  return names;
}

}  // namespace claude::emulator
