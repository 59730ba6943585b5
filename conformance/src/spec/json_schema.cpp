#include "claude/conformance/json_schema.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string_view>

namespace claude::conformance {

using claude::emulator::Json;

namespace {

const std::set<std::string, std::less<>> kKeywords = {
    "$schema", "$id",      "$ref",      "title",      "description", "definitions",
    "type",    "enum",     "const",     "properties", "required",    "additionalProperties",
    "items",   "minItems", "minLength", "minimum",    "maximum",     "allOf",
    "anyOf",   "oneOf",    "not",       "if",         "then",        "else"};

std::string member_pointer(const std::string& pointer, std::string_view key) {
  return pointer + "/" + emulator::escape_pointer_token(key);
}

bool has_type(const Json& value, std::string_view type) {
  // Parsed JSON has no binary or discarded values: object, array, string, boolean, null, number.
  if (value.type_name() == type) return true;
  if (type == "integer") {
    if (value.is_number_integer()) return true;
    // JSON has one number type: 3.0 is the integer 3 (as JSON Schema and ajv say).
    return value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>();
  }
  return false;
}

std::string article(std::string_view type) {
  if (type == "null") return "null";
  if (type == "integer" || type == "object" || type == "array") return "an " + std::string(type);
  if (type == "boolean") return "a bool";
  return "a " + std::string(type);
}

std::string type_reason(const Json& type) {
  if (type.is_string()) return "must be " + article(type.get<std::string>());
  std::string out = "must be ";
  for (std::size_t i = 0; i < type.size(); ++i) {
    if (i > 0) out += i + 1 == type.size() ? " or " : ", ";
    out += article(type[i].get<std::string>());
  }
  return out;
}

std::size_t depth(const std::string& pointer) {
  return static_cast<std::size_t>(std::count(pointer.begin(), pointer.end(), '/'));
}

// The problems of the branch that got deepest into the value: the one the author most likely
// meant ({"delay_ms": -1} is a bad object trigger, not a bad "start").
std::vector<SchemaProblem> deepest(const std::vector<std::vector<SchemaProblem>>& branches) {
  const auto reach = [](const std::vector<SchemaProblem>& problems) {
    std::size_t d = 0;
    for (const auto& p : problems) d = std::max(d, depth(p.pointer));
    return d;
  };
  const auto best = std::max_element(branches.begin(), branches.end(),
                                     [&](auto& a, auto& b) { return reach(a) < reach(b); });
  return best == branches.end() ? std::vector<SchemaProblem>{} : *best;
}

std::string description_or(const Json& schema, std::string fallback) {
  auto it = schema.find("description");
  return it != schema.end() && it->is_string() ? it->get<std::string>() : std::move(fallback);
}

}  // namespace

JsonSchema::JsonSchema(Json schema) : root_(std::move(schema)) {
  check_keywords(root_, "#");
}

void JsonSchema::check_keywords(const Json& schema, const std::string& where) const {
  if (schema.is_boolean()) return;
  if (!schema.is_object()) throw std::invalid_argument(where + ": a schema must be an object");
  for (const auto& [key, sub] : schema.items()) {
    if (!kKeywords.contains(key))
      throw std::invalid_argument(where + ": schema keyword '" + key + "' is not implemented");
    if (key == "$ref") (void)resolve(sub.get<std::string>());
    if (key == "properties" || key == "definitions" || key == "allOf" || key == "anyOf" ||
        key == "oneOf") {
      // items() names an array's elements by their index.
      for (const auto& [name, s] : sub.items()) check_keywords(s, where + "/" + key + "/" + name);
    } else if (key == "not" || key == "if" || key == "then" || key == "else" || key == "items" ||
               (key == "additionalProperties" && sub.is_object())) {
      check_keywords(sub, where + "/" + key);
    }
  }
}

const Json& JsonSchema::resolve(const std::string& ref) const {
  if (!ref.starts_with("#")) throw std::invalid_argument("$ref '" + ref + "': only '#/…' refs");
  const Json::json_pointer pointer(ref.substr(1));
  if (!root_.contains(pointer)) throw std::invalid_argument("$ref '" + ref + "' does not resolve");
  return root_.at(pointer);
}

std::vector<SchemaProblem> JsonSchema::validate(const Json& value) const {
  std::vector<SchemaProblem> out;
  walk(root_, value, "", out);
  return out;
}

void JsonSchema::walk(const Json& schema, const Json& value, const std::string& pointer,
                      std::vector<SchemaProblem>& out) const {
  if (schema.is_boolean()) {
    if (!schema.get<bool>()) out.push_back({pointer, "is not allowed here"});
    return;
  }
  const auto problems_of = [&](const Json& sub) {
    std::vector<SchemaProblem> p;
    walk(sub, value, pointer, p);
    return p;
  };
  if (auto it = schema.find("$ref"); it != schema.end())
    walk(resolve(it->get<std::string>()), value, pointer, out);
  if (auto it = schema.find("type"); it != schema.end()) {
    const bool ok = it->is_string() ? has_type(value, it->get<std::string>())
                                    : std::any_of(it->begin(), it->end(), [&](const Json& t) {
                                        return has_type(value, t.get<std::string>());
                                      });
    if (!ok) {
      out.push_back({pointer, type_reason(*it)});
      return;  // the other keywords would only repeat it
    }
  }
  if (auto it = schema.find("enum"); it != schema.end()) {
    if (std::find(it->begin(), it->end(), value) == it->end()) {
      std::string reason = "must be one of ";
      for (std::size_t i = 0; i < it->size(); ++i) reason += (i ? ", " : "") + (*it)[i].dump();
      out.push_back({pointer, reason});
    }
  }
  if (auto it = schema.find("const"); it != schema.end() && value != *it)
    out.push_back({pointer, "must be " + it->dump()});
  if (value.is_object()) {
    if (auto it = schema.find("required"); it != schema.end()) {
      for (const auto& name : *it)
        if (!value.contains(name.get<std::string>()))
          out.push_back({pointer, "needs the member \"" + name.get<std::string>() + "\""});
    }
    const auto properties = schema.find("properties");
    const auto additional = schema.find("additionalProperties");
    for (const auto& [key, member] : value.items()) {
      const std::string at = member_pointer(pointer, key);
      if (properties != schema.end() && properties->contains(key)) {
        walk((*properties)[key], member, at, out);
      } else if (additional != schema.end()) {
        if (additional->is_boolean() && !additional->get<bool>())
          out.push_back({at, "unknown member"});
        else
          walk(*additional, member, at, out);
      }
    }
  }
  if (value.is_array()) {
    if (auto it = schema.find("minItems");
        it != schema.end() && value.size() < it->get<std::size_t>())
      out.push_back({pointer, "must have at least " + it->dump() + " item(s)"});
    if (auto it = schema.find("items"); it != schema.end()) {
      for (std::size_t i = 0; i < value.size(); ++i)
        walk(*it, value[i], pointer + "/" + std::to_string(i), out);
    }
  }
  if (value.is_string()) {
    if (auto it = schema.find("minLength");
        it != schema.end() && value.get<std::string>().size() < it->get<std::size_t>())
      out.push_back({pointer, "must have at least " + it->dump() + " character(s)"});
  }
  if (value.is_number()) {
    if (auto it = schema.find("minimum"); it != schema.end() && value < *it)
      out.push_back({pointer, "must be >= " + it->dump()});
    if (auto it = schema.find("maximum"); it != schema.end() && value > *it)
      out.push_back({pointer, "must be <= " + it->dump()});
  }
  if (auto it = schema.find("allOf"); it != schema.end()) {
    for (const auto& sub : *it) walk(sub, value, pointer, out);
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    auto it = schema.find(key);
    if (it == schema.end()) continue;
    std::vector<std::vector<SchemaProblem>> failed;
    std::size_t passed = 0;
    for (const auto& sub : *it) {
      auto p = problems_of(sub);
      if (p.empty())
        ++passed;
      else
        failed.push_back(std::move(p));
    }
    if (passed == 0) {
      auto best = deepest(failed);
      const bool deeper = std::any_of(best.begin(), best.end(), [&](const SchemaProblem& p) {
        return depth(p.pointer) > depth(pointer);
      });
      if (deeper)
        out.insert(out.end(), best.begin(), best.end());
      else
        out.push_back({pointer, description_or(schema, "matches none of the allowed forms")});
    } else if (std::string_view(key) == "oneOf" && passed > 1) {
      out.push_back({pointer, description_or(schema, "matches more than one allowed form")});
    }
  }
  if (auto it = schema.find("not"); it != schema.end() && problems_of(*it).empty())
    out.push_back({pointer, description_or(*it, description_or(schema, "is not allowed"))});
  if (auto it = schema.find("if"); it != schema.end()) {
    const bool holds = problems_of(*it).empty();
    auto branch = schema.find(holds ? "then" : "else");
    if (branch != schema.end()) {
      auto p = problems_of(*branch);
      if (!p.empty() && schema.contains("description") &&
          std::all_of(p.begin(), p.end(),
                      [&](const SchemaProblem& q) { return q.pointer == pointer; }))
        out.push_back({pointer, description_or(schema, "")});
      else
        out.insert(out.end(), p.begin(), p.end());
    }
  }
}

}  // namespace claude::conformance
