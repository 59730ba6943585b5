#include "api/control_results.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace claude::sdk::api {

using nlohmann::json;

namespace {

const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::optional<std::string> string_member(const json& object, const char* key) {
  const json* v = member(object, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

std::int64_t integer_member(const json& object, const char* key) {
  const json* v = member(object, key);
  return v != nullptr && v->is_number_integer() ? v->get<std::int64_t>() : 0;
}

}  // namespace

McpStatus mcp_status_from(json payload) {
  McpStatus out;
  if (const json* servers = member(payload, "mcpServers"); servers && servers->is_array()) {
    for (const json& entry : *servers) {
      out.servers.push_back({string_member(entry, "name").value_or(""),
                             string_member(entry, "status").value_or(""),
                             string_member(entry, "error"), string_member(entry, "scope"), entry});
    }
  }
  out.raw = std::move(payload);
  return out;
}

RewindFilesResult rewind_files_result_from(json payload) {
  RewindFilesResult out;
  const json* can = member(payload, "canRewind");
  out.can_rewind = can != nullptr && can->is_boolean() && can->get<bool>();
  out.error = string_member(payload, "error");
  if (const json* files = member(payload, "filesChanged"); files && files->is_array())
    for (const json& file : *files)
      if (file.is_string()) out.files_changed.push_back(file.get<std::string>());
  out.insertions = integer_member(payload, "insertions");
  out.deletions = integer_member(payload, "deletions");
  out.raw = std::move(payload);
  return out;
}

ContextUsage context_usage_from(json payload) {
  ContextUsage out;
  if (const json* categories = member(payload, "categories"); categories && categories->is_array())
    for (const json& c : *categories)
      out.categories.push_back(
          {string_member(c, "name").value_or(""), integer_member(c, "tokens")});
  out.total_tokens = integer_member(payload, "totalTokens");
  out.max_tokens = integer_member(payload, "maxTokens");
  if (const json* p = member(payload, "percentage"); p && p->is_number())
    out.percentage = p->get<double>();
  out.model = string_member(payload, "model").value_or("");
  out.raw = std::move(payload);
  return out;
}

}  // namespace claude::sdk::api
