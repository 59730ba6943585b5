#include "claude/recorder/recording_header.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>

#include "claude/base/json.hpp"

namespace claude::recorder {

bool is_recorded_env_name(std::string_view name) noexcept {
  return name.starts_with("CLAUDE") || name.starts_with("ANTHROPIC");
}

std::vector<std::pair<std::string, std::string>> recorded_env(
    const std::vector<std::string>& environment) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& entry : environment) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq);
    if (!is_recorded_env_name(name)) continue;
    out.emplace_back(std::move(name), entry.substr(eq + 1));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string encode_header_line(const RecordingHeader& header, const Redactor& redactor) {
  base::Json j;
  j["recording"] = 1;
  auto& argv = j["argv"] = base::Json::array();
  for (const auto& arg : header.argv) argv.push_back(redactor.redact_copy(arg));
  auto& env = j["env"] = base::Json::object();
  for (const auto& [name, value] : header.env) {
    env[name] = is_secret_env_name(name) ? Redactor::placeholder("env:" + name)
                                         : redactor.redact_copy(value);
  }
  j["cwd"] = redactor.redact_copy(header.cwd);
  j["cli"] = header.cli;
  j["cli_version"] = header.cli_version ? base::Json(*header.cli_version) : nullptr;
  j["started_at"] = header.started_at;
  std::string line = base::dump_json(j);
  line.push_back('\n');
  return line;
}

namespace {

// A path occurs where it is followed by the end, a '/', or a character no path continues with
// ('"', ' ', ':', '='), so /home/a never rewrites /home/ab.
bool path_ends_at(std::string_view text, std::size_t end) {
  if (end >= text.size()) return true;
  const char c = text[end];
  return c == '/' || c == '"' || c == ' ' || c == ':' || c == '=' || c == ',' || c == ';';
}

std::string replace_paths(std::string_view text,
                          const std::vector<std::pair<std::string, std::string>>& paths) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    bool replaced = false;
    for (const auto& [path, replacement] : paths) {
      if (text.substr(pos).starts_with(path) && path_ends_at(text, pos + path.size()) &&
          (pos == 0 || text[pos - 1] != '/')) {
        out += replacement;
        pos += path.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) out.push_back(text[pos++]);
  }
  return out;
}

}  // namespace

void hide_local_paths(RecordingHeader& header, const LocalPaths& paths) {
  std::vector<std::pair<std::string, std::string>> known;
  const auto add = [&](const std::string& path, std::string replacement) {
    // "/" alone would rewrite every absolute path; a relative one is no local path.
    if (path.size() > 1 && path.front() == '/') known.emplace_back(path, std::move(replacement));
  };
  add(paths.recording, std::filesystem::path(paths.recording).filename().string());
  add(paths.real_cli, std::filesystem::path(paths.real_cli).filename().string());
  add(paths.cwd, ".");
  add(paths.home, "~");
  std::stable_sort(known.begin(), known.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  if (known.empty()) return;
  for (auto& arg : header.argv) arg = replace_paths(arg, known);
  for (auto& [name, value] : header.env) value = replace_paths(value, known);
  header.cwd = replace_paths(header.cwd, known);
  header.cli = replace_paths(header.cli, known);
}

std::string utc_timestamp_now() {
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms % 1000));
  return buf;
}

}  // namespace claude::recorder
