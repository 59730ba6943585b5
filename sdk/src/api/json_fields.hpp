// Lenient reads of one JSON object's members, for the values the CLI sends that the SDK types
// (hook inputs, answers to our control requests): a member absent or of another JSON type reads
// as the default. How it fails: it does not. What it costs: one lookup and one copy per read.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace claude::sdk::api {

class Fields {
 public:
  explicit Fields(const nlohmann::json& object) : object_(object) {}

  // The member, or nullptr (also when the value is not an object).
  [[nodiscard]] const nlohmann::json* find(const char* key) const {
    if (!object_.is_object()) return nullptr;
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  [[nodiscard]] std::optional<std::string> string_or(const char* key) const {
    const nlohmann::json* v = find(key);
    if (v == nullptr || !v->is_string()) return std::nullopt;
    return v->get<std::string>();
  }
  [[nodiscard]] std::string text(const char* key) const {
    return string_or(key).value_or(std::string());
  }
  [[nodiscard]] bool flag(const char* key) const {
    const nlohmann::json* v = find(key);
    return v != nullptr && v->is_boolean() && v->get<bool>();
  }
  [[nodiscard]] std::int64_t integer(const char* key) const {
    const nlohmann::json* v = find(key);
    return v != nullptr && v->is_number_integer() ? v->get<std::int64_t>() : 0;
  }
  [[nodiscard]] nlohmann::json value(const char* key) const {
    const nlohmann::json* v = find(key);
    return v == nullptr ? nlohmann::json() : *v;
  }

 private:
  const nlohmann::json& object_;
};

}  // namespace claude::sdk::api
