// The answers to our control requests (a control response's payload) → the typed results
// Client's control calls return. Each keeps the payload as sent in `raw`.
//
// How it fails: never; a member of the wrong JSON type keeps its default.
// What it costs: one walk over the payload.
#pragma once

#include <nlohmann/json.hpp>

#include "claude/sdk/client.hpp"

namespace claude::sdk::api {

[[nodiscard]] McpStatus mcp_status_from(nlohmann::json payload);
[[nodiscard]] RewindFilesResult rewind_files_result_from(nlohmann::json payload);
[[nodiscard]] ContextUsage context_usage_from(nlohmann::json payload);

}  // namespace claude::sdk::api
