#include "claude/harness/tool_locator.hpp"

#include <unistd.h>

#include <string>
#include <vector>

namespace claude::harness {
namespace {

bool is_executable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::filesystem::path locate_tool(std::string_view name) {
  std::vector<std::filesystem::path> candidates;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(self.parent_path() / name);
  if (name == "fake-claude") candidates.emplace_back(HARNESS_BUILD_FAKE_CLAUDE);
  if (name == "claude-tee") candidates.emplace_back(HARNESS_BUILD_CLAUDE_TEE);
  std::string looked;
  for (const auto& c : candidates) {
    if (is_executable(c)) return c;
    looked += (looked.empty() ? "" : ", ") + c.string();
  }
  throw ToolNotFound(std::string(name) + " not found (looked at " + looked + ")");
}

std::optional<std::filesystem::path> locate_tool(std::string_view name, std::string_view program,
                                                 std::ostream& err) {
  try {
    return locate_tool(name);
  } catch (const ToolNotFound& e) {
    err << program << ": " << e.what() << '\n';
    return std::nullopt;
  }
}

}  // namespace claude::harness
