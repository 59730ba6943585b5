// The bundled recordings (RECORDED_DIR, model-stub scripts left out) and the SDK lines each one
// recorded, for tests that replay every recording of the set.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "claude/emulator/scenario.hpp"

namespace claude::emulator::testing {

inline std::vector<std::filesystem::path> recordings() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(RECORDED_DIR)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".ndjson" && name.find("model") == std::string::npos) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every `"dir":"in"` line of a recording, in order (the header line skipped).
inline std::vector<std::string> sdk_lines(const std::filesystem::path& recording) {
  std::ifstream in(recording);
  std::vector<std::string> lines;
  std::string text;
  std::getline(in, text);  // header
  while (std::getline(in, text)) {
    Json event = Json::parse(text);
    if (event.value("dir", "") == "in" && event.contains("line")) {
      lines.push_back(event["line"].get<std::string>());
    }
  }
  return lines;
}

}  // namespace claude::emulator::testing
