#include "claude/emulator/cli_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "claude/base/json.hpp"
#include "claude/emulator/closest_name.hpp"

namespace claude::emulator {
namespace detail {
const std::vector<std::string_view>& compiled_cli_option_tables();  // generated source
}  // namespace detail

namespace {

// commander's bound: suggestions are at most this many edits away.
constexpr std::size_t kMaxDistance = 3;

std::optional<std::vector<std::string>> string_list(const Json& json) {
  if (!json.is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& item : json) {
    if (!item.is_string()) return std::nullopt;
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::vector<long> version_numbers(const std::string& version) {
  std::vector<long> out;
  std::size_t start = 0;
  while (start <= version.size()) {
    const std::size_t dot = std::min(version.find('.', start), version.size());
    out.push_back(std::strtol(version.substr(start, dot - start).c_str(), nullptr, 10));
    start = dot + 1;
  }
  return out;
}

// "2.1.332" is older than "2.1.400": compares the dotted numbers, not the text.
bool older(const std::string& a, const std::string& b) {
  return version_numbers(a) < version_numbers(b);
}

// Oldest version first.
const std::vector<CliOptionTable>& compiled() {
  static const std::vector<CliOptionTable> tables = [] {
    std::vector<CliOptionTable> out;
    for (std::string_view text : detail::compiled_cli_option_tables()) {
      std::string error;
      if (auto table = parse_cli_option_table(base::parse_json_or_discarded(text), error)) {
        out.push_back(std::move(*table));
      }
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return older(a.cli_version, b.cli_version); });
    return out;
  }();
  return tables;
}

}  // namespace

const CliOption* CliOptionTable::find(std::string_view name) const {
  for (const auto& option : options) {
    if (std::ranges::find(option.names, name) != option.names.end()) return &option;
  }
  return nullptr;
}

std::string CliOptionTable::suggestion(std::string_view unknown_flag) const {
  if (!unknown_flag.starts_with("--")) return "";
  const std::string_view word = unknown_flag.substr(2);
  std::set<std::string> similar;  // sorted, like commander's localeCompare for these names
  std::size_t best = kMaxDistance;
  for (const auto& option : options) {
    if (option.hidden) continue;
    const std::string& long_name = option.names.back();
    if (!long_name.starts_with("--")) continue;
    const std::string_view candidate = std::string_view(long_name).substr(2);
    if (candidate.size() <= 1) continue;
    const std::size_t distance = edit_distance(word, candidate, kMaxDistance);
    const double length = static_cast<double>(std::max(word.size(), candidate.size()));
    if ((length - static_cast<double>(distance)) / length <= 0.4) continue;
    if (distance < best) {
      best = distance;
      similar = {long_name};
    } else if (distance == best) {
      similar.insert(long_name);
    }
  }
  if (similar.empty()) return "";
  std::string list;
  for (const auto& name : similar) list += (list.empty() ? "" : ", ") + name;
  return similar.size() == 1 ? "\n(Did you mean " + list + "?)"
                             : "\n(Did you mean one of " + list + "?)";
}

std::optional<CliOptionTable> parse_cli_option_table(const Json& json, std::string& error) {
  std::string where;  // the entry being read
  auto refuse = [&](const std::string& reason) -> std::optional<CliOptionTable> {
    error = where + reason;
    return std::nullopt;
  };
  if (!json.is_object() || !json.contains("cli_version") || !json["cli_version"].is_string() ||
      !json.contains("options") || !json["options"].is_array()) {
    return refuse("an option table is an object with \"cli_version\" and \"options\"");
  }
  CliOptionTable table;
  table.cli_version = json["cli_version"].get<std::string>();
  for (std::size_t i = 0; i < json["options"].size(); ++i) {
    const Json& entry = json["options"][i];
    where = "options[" + std::to_string(i) + "]: ";
    if (!entry.is_object() || !entry.contains("flags") || !entry["flags"].is_string()) {
      return refuse("needs \"flags\"");
    }
    CliOption option;
    option.flags = entry["flags"].get<std::string>();
    auto names = string_list(entry.value("names", Json()));
    if (!names || names->empty()) return refuse("needs \"names\", a non-empty list of strings");
    option.names = std::move(*names);
    const std::string value = entry.value("value", std::string("none"));
    if (value == "required") {
      option.value = CliOption::Value::required;
    } else if (value == "optional") {
      option.value = CliOption::Value::optional;
    } else if (value != "none") {
      return refuse("\"value\" is none, required or optional, not \"" + value + "\"");
    }
    option.variadic = entry.value("variadic", false);
    option.hidden = entry.value("hidden", false);
    for (const auto& [key, list] :
         {std::pair{"choices", &option.choices}, std::pair{"also_accepts", &option.also_accepts}}) {
      if (!entry.contains(key)) continue;
      auto strings = string_list(entry[key]);
      if (!strings) return refuse("\"" + std::string(key) + "\" is a list of strings");
      *list = std::move(*strings);
    }
    table.options.push_back(std::move(option));
  }
  return table;
}

const CliOptionTable* cli_option_table(std::string_view cli_version) {
  const auto it = std::ranges::find(compiled(), cli_version, &CliOptionTable::cli_version);
  return it == compiled().end() ? nullptr : &*it;
}

const CliOptionTable& newest_cli_option_table() {
  static const CliOptionTable empty;
  const auto& tables = compiled();
  return tables.empty() ? empty : tables.back();
}

const CliOptionTable& emulated_cli_options(std::string_view cli_version) {
  const CliOptionTable* table = cli_option_table(cli_version);
  return table != nullptr ? *table : newest_cli_option_table();
}

}  // namespace claude::emulator
