// Corpus replay: runs a fuzz target's LLVMFuzzerTestOneInput over files, without libFuzzer.
//
// Usage: <target>-replay PATH…  — each PATH is a file or a directory of files (not recursive).
// Exit codes: 0 every input ran, 2 a path could not be read. A failing oracle aborts, which CTest
// reports as a failed test naming the input printed just before.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "claude/base/cli.hpp"
#include "claude/base/input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Optional, as in libFuzzer: a target that defines it gets its one-time setup before any input.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

constexpr const char* kAbout =
    "Replays each file (or each file of a directory) through the fuzz target.\n"
    "Exit codes: 0 all inputs ran, 2 a path could not be read; an oracle failure aborts.\n";

bool run_file(const std::filesystem::path& path) {
  std::string error;
  const auto bytes = claude::base::read_input_file(path, error);
  if (!bytes) {
    std::cerr << path.string() << ": " << error << '\n';
    return false;
  }
  std::cerr << "replay " << path.string() << " (" << bytes->size() << " bytes)\n";
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string program = argc > 0 ? argv[0] : "replay";
  const std::string help = "usage: " + program + " PATH...\n" + kAbout;
  std::vector<std::string> paths;
  CLI::App app;
  app.add_option("PATH", paths)->required();
  if (auto exit = claude::base::parse_command_line(app, claude::base::arguments(argc, argv),
                                                   {program, help, help}, std::cout, std::cerr)) {
    return *exit;
  }
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::size_t count = 0;
  for (const std::filesystem::path path : paths) {
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    if (!std::filesystem::is_directory(path, ec)) files.push_back(path);
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      if (!run_file(file)) return 2;
      ++count;
    }
  }
  std::cerr << "replayed " << count << " inputs\n";
  return 0;
}
