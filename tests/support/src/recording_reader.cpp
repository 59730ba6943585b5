#include "claude/test_support/recording_reader.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "claude/base/base64.hpp"

namespace claude::test_support {

ReadRecording read_recording(const std::filesystem::path& path) {
  ReadRecording rec;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open");
    std::stringstream ss;
    ss << in.rdbuf();
    rec.raw = ss.str();
  }
  std::size_t pos = 0;
  std::size_t line_no = 0;
  while (pos < rec.raw.size()) {
    const auto nl = rec.raw.find('\n', pos);
    if (nl == std::string::npos) {
      rec.truncated_tail = true;
      break;
    }
    ++line_no;
    const std::string_view line(rec.raw.data() + pos, nl - pos);
    pos = nl + 1;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      throw std::runtime_error(path.string() + ":" + std::to_string(line_no) + ": not JSON");
    }
    if (line_no == 1) {
      rec.header = std::move(j);
      continue;
    }
    if (j.contains("dir")) {
      std::string& bytes = rec.streams[j.at("dir").get<std::string>()];
      if (j.contains("line_b64")) {
        const auto decoded = base::base64_decode(j.at("line_b64").get<std::string>());
        if (!decoded)
          throw std::runtime_error(path.string() + ":" + std::to_string(line_no) + ": bad base64");
        bytes += *decoded;
      } else {
        bytes += j.at("line").get<std::string>();
      }
      if (!j.value("more", false) && !j.value("partial", false)) bytes.push_back('\n');
    }
    rec.events.push_back(std::move(j));
  }
  return rec;
}

std::filesystem::path single_file_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  if (files.size() != 1) {
    throw std::runtime_error(dir.string() + ": expected one recording, found " +
                             std::to_string(files.size()));
  }
  return files.front();
}

}  // namespace claude::test_support
