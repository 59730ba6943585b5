#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string_view>

#include "claude/base/input_file.hpp"
#include "claude/conformance/conformance_case.hpp"
#include "claude/conformance/driver_spec_schema.hpp"
#include "claude/conformance/run_order.hpp"
#include "claude/emulator/scenario.hpp"

namespace claude::conformance {
namespace {

std::string at(const std::filesystem::path& file, std::size_t line, std::string_view reason) {
  return file.string() + ":" + std::to_string(line) + ": " + std::string(reason);
}

// The header is the first line that is neither blank nor a `#` comment (docs/scenario.md#header).
std::optional<std::pair<std::size_t, std::string>> header_line(const std::filesystem::path& file) {
  std::string error;
  // load_scenario_file read it first with the same limit and reported any error.
  const auto text = base::read_input_file(file, error);
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    return std::pair{number, line};
  }
  return std::nullopt;
}

void read_patterns(const Json& header, std::string_view key, std::vector<Json>& out,
                   const std::filesystem::path& file, std::size_t line,
                   std::vector<std::string>& errors) {
  auto it = header.find(key);
  if (it == header.end()) return;
  if (!it->is_array()) {
    errors.push_back(at(file, line, "header member '" + std::string(key) + "' must be an array"));
    return;
  }
  for (std::size_t i = 0; i < it->size(); ++i) {
    const Json& pattern = (*it)[i];
    if (auto problem = claude::emulator::check_pattern(pattern)) {
      errors.push_back(at(
          file, line,
          std::string(key) + "/" + std::to_string(i) + problem->pointer + ": " + problem->reason));
      continue;
    }
    out.push_back(pattern);
  }
}

}  // namespace

CaseLoad load_case(const std::filesystem::path& file) {
  CaseLoad result;
  auto loaded = claude::emulator::load_scenario_file(file);
  for (const auto& error : loaded.errors) result.errors.push_back(error.to_string());
  if (!loaded.ok()) return result;

  const auto header = header_line(file);
  if (!header) {
    result.errors.push_back(at(file, 0, "no header line"));
    return result;
  }
  const auto [line, text] = *header;
  const Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);

  ConformanceCase c;
  c.file = file;
  c.line = line;
  c.id = loaded.scenario->header.name;
  c.description = loaded.scenario->header.description;
  static const RE2 kIdShape(R"(^[a-z0-9][a-z0-9_-]*\.[a-z0-9][a-z0-9_.-]*$)");
  if (!RE2::FullMatch(c.id, kIdShape)) {
    result.errors.push_back(
        at(file, line, "case name '" + c.id + "' must look like group.case (lower case)"));
  }
  c.group = c.id.substr(0, c.id.find('.'));
  if (c.description.empty()) {
    result.errors.push_back(at(file, line, "a case needs a description citing its source"));
  }
  if (!loaded.scenario->header.driver || !loaded.scenario->header.driver->is_object()) {
    result.errors.push_back(at(file, line, "a case needs a `driver` object (docs/drivers.md)"));
  } else {
    c.driver = *loaded.scenario->header.driver;
    for (const auto& problem : driver_spec_problems(c.driver))
      result.errors.push_back(at(file, line, problem));
  }
  c.estimated_ms = estimated_ms(*loaded.scenario, c.driver);
  read_patterns(parsed, "observe", c.observe, file, line, result.errors);
  read_patterns(parsed, "observe_absent", c.observe_absent, file, line, result.errors);
  read_patterns(parsed, "observe_should", c.observe_should, file, line, result.errors);
  if (result.errors.empty()) result.conformance_case = std::move(c);
  return result;
}

SuiteLoad find_cases(const std::filesystem::path& root) {
  SuiteLoad suite;
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) {
    suite.errors.push_back(root.string() + ": not a directory");
    return suite;
  }
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".ndjson") files.push_back(it->path());
  }
  if (ec) suite.errors.push_back(root.string() + ": " + ec.message());
  std::sort(files.begin(), files.end());

  std::map<std::string, std::filesystem::path> seen;
  for (const auto& file : files) {
    auto load = load_case(file);
    suite.errors.insert(suite.errors.end(), load.errors.begin(), load.errors.end());
    if (!load.conformance_case) continue;
    auto [it, fresh] = seen.emplace(load.conformance_case->id, file);
    if (!fresh) {
      suite.errors.push_back(file.string() + ":1: case id '" + it->first + "' is already used by " +
                             it->second.string());
      continue;
    }
    suite.cases.push_back(std::move(*load.conformance_case));
  }
  std::sort(suite.cases.begin(), suite.cases.end(),
            [](const auto& a, const auto& b) { return a.id < b.id; });
  return suite;
}

std::vector<ConformanceCase> select_cases(const std::vector<ConformanceCase>& cases,
                                          const std::vector<std::string>& prefixes, bool exact) {
  if (prefixes.empty()) return cases;
  std::vector<ConformanceCase> selected;
  for (const auto& c : cases) {
    for (const auto& prefix : prefixes) {
      if (exact ? c.id == prefix : c.id.starts_with(prefix)) {
        selected.push_back(c);
        break;
      }
    }
  }
  return selected;
}

}  // namespace claude::conformance
