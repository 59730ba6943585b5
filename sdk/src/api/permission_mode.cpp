// PermissionMode ↔ its wire name (`--permission-mode`, `set_permission_mode`).
#include <utility>

#include "claude/sdk/permissions.hpp"

namespace claude::sdk {

namespace {
constexpr std::pair<PermissionMode, std::string_view> kModeNames[] = {
    {PermissionMode::default_mode, "default"},
    {PermissionMode::accept_edits, "acceptEdits"},
    {PermissionMode::plan, "plan"},
    {PermissionMode::bypass_permissions, "bypassPermissions"},
    {PermissionMode::dont_ask, "dontAsk"},
    {PermissionMode::auto_mode, "auto"},
};
}  // namespace

std::string_view to_string(PermissionMode mode) noexcept {
  for (const auto& [m, name] : kModeNames)
    if (m == mode) return name;
  return "";
}

std::optional<PermissionMode> permission_mode_from_string(std::string_view name) noexcept {
  for (const auto& [m, n] : kModeNames)
    if (n == name) return m;
  return std::nullopt;
}

}  // namespace claude::sdk
