// Finding the executables `harness` puts in front of a command: fake-claude and claude-tee, and
// model-stub for `harness record --offline`.
//
// Order: the directory holding the running `harness` (the build tree's bin/ and an install's
// bin/ both keep all three together), then the paths the build tree had when harness was built.
//
// How it fails: throws ToolNotFound naming the tool and every place looked at.
// What it costs: a readlink of /proc/self/exe and a few stat(2)s.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string_view>

namespace claude::harness {

class ToolNotFound : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `name` is "fake-claude", "claude-tee" or "model-stub".
[[nodiscard]] std::filesystem::path locate_tool(std::string_view name);
// The same, or nullopt after writing "PROGRAM: why\n" to `err`.
[[nodiscard]] std::optional<std::filesystem::path> locate_tool(std::string_view name,
                                                               std::string_view program,
                                                               std::ostream& err);

}  // namespace claude::harness
