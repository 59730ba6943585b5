// Corpus replay: runs a fuzz target's LLVMFuzzerTestOneInput over files, without libFuzzer.
//
// Usage: <target>-replay PATH…  — each PATH is a file or a directory of files (not recursive).
// Exit codes: 0 every input ran, 2 a path could not be read. A failing oracle aborts, which CTest
// reports as a failed test naming the input printed just before.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << path.string() << ": cannot open\n";
    return false;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::cerr << "replay " << path.string() << " (" << bytes.size() << " bytes)\n";
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help") {
    std::cerr << "usage: " << argv[0] << " PATH...\n"
              << "Replays each file (or each file of a directory) through the fuzz target.\n"
              << "Exit codes: 0 all inputs ran, 2 a path could not be read; an oracle failure "
                 "aborts.\n";
    return argc < 2 ? 2 : 0;
  }
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        if (!run_file(file)) return 2;
        ++count;
      }
    } else if (!run_file(path)) {
      return 2;
    } else {
      ++count;
    }
  }
  std::cerr << "replayed " << count << " inputs\n";
  return 0;
}
