#include "claude/emulator/message_shapes.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "claude/base/json.hpp"
#include "claude/emulator/closest_name.hpp"

namespace claude::emulator {
namespace detail {
const std::vector<std::string_view>& compiled_message_shape_tables();  // generated source
}  // namespace detail

namespace {

struct FieldShape {
  std::set<std::string> types;
  bool required = false;
  bool nonempty = false;
  bool keys_are_names = false;
};

using KindShape = std::map<std::string, FieldShape>;  // "message/content" -> shape

struct VersionShapes {
  std::string cli_version;
  std::map<std::string, KindShape> kinds;
};

constexpr int kDepth = 2;  // levels below a message's own keys that shapes.json describes

const std::vector<VersionShapes>& compiled() {
  static const std::vector<VersionShapes> tables = [] {
    std::vector<VersionShapes> out;
    for (std::string_view text : detail::compiled_message_shape_tables()) {
      const Json json = base::parse_json_or_discarded(text);
      if (!json.is_object() || !json.contains("kinds") || !json["kinds"].is_object()) continue;
      VersionShapes version;
      version.cli_version = json.value("cli_version", std::string());
      for (const auto& [kind, shape] : json["kinds"].items()) {
        KindShape& k = version.kinds[kind];
        if (!shape.contains("fields") || !shape["fields"].is_object()) continue;
        for (const auto& [path, field] : shape["fields"].items()) {
          FieldShape& f = k[path];
          for (const auto& type : field.value("types", Json::array())) {
            if (type.is_string()) f.types.insert(type.get<std::string>());
          }
          f.required = field.value("required", false);
          f.nonempty = field.value("nonempty", false);
          f.keys_are_names = field.value("keys_are_names", false);
        }
      }
      out.push_back(std::move(version));
    }
    return out;
  }();
  return tables;
}

const VersionShapes* shapes_for(const std::string& cli_version) {
  const auto& tables = compiled();
  const auto it = std::ranges::find(tables, cli_version, &VersionShapes::cli_version);
  if (it != tables.end()) return &*it;
  return tables.empty() ? nullptr : &tables.back();
}

// A value the scenario fills in when it runs: `{"$var":"x"}` or a string with "${x}".
bool substituted(const Json& value) {
  if (value.is_object() && value.contains("$var")) return true;
  return value.is_string() && value.get_ref<const std::string&>().find("${") != std::string::npos;
}

std::string did_you_mean(const std::optional<std::string>& close) {
  return close ? " (did you mean '" + *close + "'?)" : "";
}

class Checker {
 public:
  Checker(const VersionShapes& shapes, bool strict, std::vector<ShapeFinding>& out)
      : shapes_(shapes), strict_(strict), out_(out) {}

  void message(std::size_t line, const Json& m) {
    line_ = line;
    if (!m.is_object()) return finding("a message the CLI sends is a JSON object");
    const auto type = m.find("type");
    if (type == m.end() || !type->is_string()) {
      std::vector<std::string> keys;
      for (const auto& [key, unused] : m.items()) keys.push_back(key);
      const auto close = closest_name("type", keys);
      return finding(close ? "unknown key '" + *close +
                                 "' (did you mean 'type'?): a message "
                                 "needs a string \"type\""
                           : "a message the CLI sends has a string \"type\"");
    }
    const std::string type_name = type->get<std::string>();
    std::string kind = type_name;
    const Json* event = type_name == "stream_event" ? base::member(m, "event") : nullptr;
    std::string sub = event != nullptr ? base::string_member(*event, "type") : std::string();
    if (sub.empty()) sub = base::string_member(m, "subtype");
    if (!sub.empty()) kind += "/" + sub;
    const auto it = shapes_.kinds.find(kind);
    if (it != shapes_.kinds.end()) return object(m, "", 0, it->second);

    std::set<std::string> types;
    std::vector<std::string> subtypes;
    for (const auto& [known, unused] : shapes_.kinds) {
      const std::string known_type = known.substr(0, known.find('/'));
      types.insert(known_type);
      if (known_type == type_name && known.size() > known_type.size()) {
        subtypes.push_back(known.substr(known_type.size() + 1));
      }
    }
    if (!types.contains(type_name)) {
      const auto close = closest_name(type_name, {types.begin(), types.end()});
      if (close) {
        return finding("\"type\":\"" + type_name + "\" is no message type CLI " + version() +
                       " sends" + did_you_mean(close));
      }
      if (strict_)
        finding("\"type\":\"" + type_name + "\" is not in CLI " + version() + "'s recordings");
      return;
    }
    if (const auto close = sub.empty() ? std::nullopt : closest_name(sub, subtypes)) {
      return finding("\"" + kind + "\" is no kind CLI " + version() + " sends" +
                     did_you_mean(type_name + "/" + *close));
    }
    if (strict_) finding("\"" + kind + "\" is not in CLI " + version() + "'s recordings");
  }

 private:
  void object(const Json& value, const std::string& prefix, int depth, const KindShape& kind) {
    std::vector<std::string> siblings;
    for (const auto& [path, unused] : kind) {
      const auto slash = path.rfind('/');
      const std::string parent = slash == std::string::npos ? "" : path.substr(0, slash);
      if (parent == prefix)
        siblings.push_back(path.substr(slash == std::string::npos ? 0 : slash + 1));
    }
    for (const auto& [key, member] : value.items()) {
      const std::string path = prefix.empty() ? key : prefix + "/" + key;
      const auto it = kind.find(path);
      if (it == kind.end()) {
        if (siblings.empty()) continue;  // nothing known at this level
        if (const auto close = closest_name(key, siblings)) {
          finding("unknown key '" + key + "' at /" + prefix + did_you_mean(close));
        } else if (strict_) {
          finding("/" + path + " is not in CLI " + version() + "'s recordings");
        }
        continue;
      }
      field(member, path, depth, it->second, kind);
    }
    if (!strict_) return;
    for (const auto& sibling : siblings) {
      const std::string path = prefix.empty() ? sibling : prefix + "/" + sibling;
      if (kind.at(path).required && !value.contains(sibling)) {
        finding("/" + path + " is missing: CLI " + version() + " always sends it");
      }
    }
  }

  void field(const Json& member, const std::string& path, int depth, const FieldShape& shape,
             const KindShape& kind) {
    if (substituted(member)) return;
    const std::string type = member.type_name();
    // A field the recordings show only as null says nothing about its type when set.
    const bool only_null = shape.types.size() == 1 && shape.types.contains("null");
    if (!only_null && !shape.types.contains(type)) {
      std::string expected;
      for (const auto& t : shape.types) expected += (expected.empty() ? "" : " or ") + t;
      return finding("/" + path + " is " + type + "; CLI " + version() + " sends " + expected);
    }
    // `{}` where members are names (modelUsage by model) is never what the CLI sends; other
    // objects and arrays the recordings never show empty may be empty (strict mode reports them).
    if (shape.nonempty && member.empty() &&
        ((member.is_object() && shape.keys_are_names) || strict_)) {
      return finding("/" + path + " is " + (member.is_object() ? "{}" : "[]") + "; CLI " +
                     version() + " never sends it empty" +
                     (shape.keys_are_names ? " (it is keyed by name, e.g. modelUsage by the model "
                                             "name)"
                                           : ""));
    }
    if (member.is_object() && !shape.keys_are_names && depth < kDepth) {
      object(member, path, depth + 1, kind);
    }
  }

  void finding(std::string reason) { out_.push_back(ShapeFinding{line_, std::move(reason)}); }
  const std::string& version() const { return shapes_.cli_version; }

  const VersionShapes& shapes_;
  bool strict_;
  std::vector<ShapeFinding>& out_;
  std::size_t line_ = 0;
};

}  // namespace

std::vector<ShapeFinding> check_message_shapes(const Scenario& scenario, bool strict) {
  std::vector<ShapeFinding> out;
  if (scenario.from_recording) return out;
  const VersionShapes* shapes = shapes_for(scenario.header.cli_version);
  if (shapes == nullptr) return out;
  Checker checker(*shapes, strict, out);
  for (const auto& step : scenario.steps) {
    if (step.verb != Verb::send || step.verbatim || !step.malformed.empty()) continue;
    checker.message(step.line, step.value);
  }
  return out;
}

}  // namespace claude::emulator
