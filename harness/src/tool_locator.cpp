#include "claude/harness/tool_locator.hpp"

#include <string>
#include <vector>

#include "claude/base/subprocess.hpp"

namespace claude::harness {

std::filesystem::path locate_tool(std::string_view name) {
  std::vector<std::filesystem::path> candidates;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(self.parent_path() / name);
  if (name == "fake-claude") candidates.emplace_back(HARNESS_BUILD_FAKE_CLAUDE);
  if (name == "claude-tee") candidates.emplace_back(HARNESS_BUILD_CLAUDE_TEE);
#ifdef HARNESS_BUILD_MODEL_STUB
  if (name == "model-stub") candidates.emplace_back(HARNESS_BUILD_MODEL_STUB);
#endif
  std::string looked;
  for (const auto& c : candidates) {
    if (base::is_executable_file(c)) return c;
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
