#include "claude/conformance/baseline.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <sstream>

#include "claude/base/input_file.hpp"

namespace claude::conformance {

const BaselineEntry* Baseline::find(const std::string& case_id) const {
  const auto it = std::find_if(entries.begin(), entries.end(), [&](const BaselineEntry& entry) {
    return entry.id.ends_with('*')
               ? case_id.starts_with(std::string_view(entry.id).substr(0, entry.id.size() - 1))
               : entry.id == case_id;
  });
  return it == entries.end() ? nullptr : &*it;
}

BaselineLoad load_baseline(const std::filesystem::path& file) {
  BaselineLoad result;
  std::string error;
  const auto text = base::read_input_file(file, error, {base::kMaxConfigFileBytes});
  if (!text) {
    result.errors.push_back(file.string() + ":0: cannot read the baseline: " + error);
    return result;
  }
  std::istringstream in(*text);
  static const RE2 kId(R"(^[a-z0-9][a-z0-9_.-]*\*?$)");
  Baseline baseline;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    std::string reason;
    if (auto hash = line.find('#'); hash != std::string::npos) {
      reason = line.substr(hash + 1);
      line.erase(hash);
    }
    auto trim = [](std::string& s) {
      s.erase(0, s.find_first_not_of(" \t\r"));
      s.erase(s.find_last_not_of(" \t\r") + 1);
    };
    trim(line);
    trim(reason);
    if (line.empty()) continue;
    if (!RE2::FullMatch(line, kId)) {
      result.errors.push_back(file.string() + ":" + std::to_string(number) + ": not a case id: '" +
                              line + "'");
      continue;
    }
    baseline.entries.push_back({line, reason, number});
  }
  if (result.errors.empty()) result.baseline = std::move(baseline);
  return result;
}

}  // namespace claude::conformance
