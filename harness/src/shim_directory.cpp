#include "claude/harness/shim_directory.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace claude::harness {

ShimDirectory::ShimDirectory(const std::filesystem::path& claude_target) {
  const auto base = std::filesystem::temp_directory_path() / "harness-XXXXXX";
  std::string tmpl = base.string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    throw std::runtime_error(tmpl + ": cannot create directory: " + std::strerror(errno));
  }
  path_ = tmpl;
  std::filesystem::create_symlink(std::filesystem::absolute(claude_target), path_ / "claude");
}

ShimDirectory::~ShimDirectory() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string ShimDirectory::path_variable() const {
  const char* old = std::getenv("PATH");
  return path_.string() + ":" + (old != nullptr ? old : "/usr/bin:/bin");
}

}  // namespace claude::harness
