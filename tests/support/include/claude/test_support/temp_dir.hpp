// TempDir: a fresh folder under /tmp for one test, removed with everything in it by the destructor.
//
// How it fails: the constructor throws std::runtime_error when mkdtemp fails; removal errors are
// ignored (a test's leftovers must not fail the next assertion).
// What it costs: one mkdtemp, one remove_all.
#pragma once

#include <filesystem>
#include <string>

namespace claude::test_support {

class TempDir {
 public:
  // The folder is named /tmp/<prefix>-XXXXXX.
  explicit TempDir(const std::string& prefix = "claude-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace claude::test_support
