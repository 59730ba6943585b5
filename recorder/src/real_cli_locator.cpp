#include "claude/recorder/real_cli_locator.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <string_view>

#include "claude/base/subprocess.hpp"

namespace claude::recorder {

using base::is_executable_file;

std::optional<FileIdentity> file_identity(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino};
}

std::vector<std::filesystem::path> real_cli_candidates(const RealCliSearch& search) {
  std::vector<std::filesystem::path> out;
  const std::string_view path = search.path_variable;
  for (std::size_t start = 0; !path.empty() && start <= path.size();) {
    const std::size_t colon = std::min(path.find(':', start), path.size());
    const std::string_view dir = path.substr(start, colon - start);
    // An empty PATH entry means the current directory (POSIX).
    out.push_back(std::filesystem::path(dir.empty() ? "." : std::string(dir)) / "claude");
    start = colon + 1;
  }
  const std::filesystem::path home = search.home.value_or("");
  if (!home.empty()) out.push_back(home / ".npm-global/bin/claude");
  out.emplace_back("/usr/local/bin/claude");
  if (home.empty()) return out;
  for (const char* in_home : {".local/bin/claude", "node_modules/.bin/claude", ".yarn/bin/claude",
                              ".claude/local/claude"}) {
    out.push_back(home / in_home);
  }
  return out;
}

std::filesystem::path locate_real_cli(const RealCliSearch& search) {
  if (search.explicit_path && !search.explicit_path->empty()) {
    std::filesystem::path path(*search.explicit_path);
    if (!is_executable_file(path)) {
      throw RealCliError("CLAUDE_TEE_REAL_CLI=" + path.string() + " is not an executable file");
    }
    if (file_identity(path) == search.self) {
      throw RealCliError("CLAUDE_TEE_REAL_CLI=" + path.string() +
                         " is claude-tee itself; point it at the real claude CLI");
    }
    return path;
  }
  for (const auto& candidate : real_cli_candidates(search)) {
    if (is_executable_file(candidate) && file_identity(candidate) != search.self) return candidate;
  }
  throw RealCliError(
      "no real claude CLI found on PATH or in the usual install locations (claude-tee skips "
      "itself); set CLAUDE_TEE_REAL_CLI to its path");
}

}  // namespace claude::recorder
