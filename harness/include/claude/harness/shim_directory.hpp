// ShimDirectory: a private temporary directory holding `claude` → a chosen executable, to be put
// first on a command's PATH; it also gives a place for fake-claude's report. Removed with its
// contents when destroyed.
//
// How it fails: throws std::runtime_error with the path and errno text when it cannot be made.
#pragma once

#include <filesystem>

namespace claude::harness {

class ShimDirectory {
 public:
  explicit ShimDirectory(const std::filesystem::path& claude_target);
  ~ShimDirectory();
  ShimDirectory(const ShimDirectory&) = delete;
  ShimDirectory& operator=(const ShimDirectory&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  // PATH with this directory first.
  [[nodiscard]] std::string path_variable() const;

 private:
  std::filesystem::path path_;
};

}  // namespace claude::harness
