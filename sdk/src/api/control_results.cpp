#include "api/control_results.hpp"

#include "api/json_fields.hpp"

namespace claude::sdk::api {

using nlohmann::json;

McpStatus mcp_status_from(json payload) {
  McpStatus out;
  if (const json* servers = Fields(payload).find("mcpServers"); servers && servers->is_array()) {
    for (const json& entry : *servers) {
      const Fields e(entry);
      out.servers.push_back(
          {e.text("name"), e.text("status"), e.string_or("error"), e.string_or("scope"), entry});
    }
  }
  out.raw = std::move(payload);
  return out;
}

RewindFilesResult rewind_files_result_from(json payload) {
  RewindFilesResult out;
  const Fields f(payload);
  out.can_rewind = f.flag("canRewind");
  out.error = f.string_or("error");
  if (const json* files = f.find("filesChanged"); files && files->is_array())
    for (const json& file : *files)
      if (file.is_string()) out.files_changed.push_back(file.get<std::string>());
  out.insertions = f.integer("insertions");
  out.deletions = f.integer("deletions");
  out.raw = std::move(payload);
  return out;
}

ContextUsage context_usage_from(json payload) {
  ContextUsage out;
  const Fields f(payload);
  if (const json* categories = f.find("categories"); categories && categories->is_array())
    for (const json& c : *categories)
      out.categories.push_back({Fields(c).text("name"), Fields(c).integer("tokens")});
  out.total_tokens = f.integer("totalTokens");
  out.max_tokens = f.integer("maxTokens");
  if (const json* p = f.find("percentage"); p && p->is_number()) out.percentage = p->get<double>();
  out.model = f.text("model");
  out.raw = std::move(payload);
  return out;
}

}  // namespace claude::sdk::api
