#include <re2/re2.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "claude/base/json.hpp"
#include "claude/emulator/pattern.hpp"

namespace claude::emulator {
namespace {

constexpr std::string_view kOperators[] = {"$re",      "$any", "$absent", "$type",
                                           "$capture", "$var", "$exact",  "$one_of"};
constexpr std::string_view kTypes[] = {"string", "number", "integer", "boolean",
                                       "null",   "object", "array"};

// Regexes live as long as the process: scenario files hold few distinct ones, and patterns are
// matched many times.
const RE2* compiled_regex(const std::string& text) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::unique_ptr<RE2>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[text];
  if (!slot) {
    RE2::Options options;
    options.set_log_errors(false);
    slot = std::make_unique<RE2>(text, options);
  }
  return slot.get();
}

bool is_operator(const Json& pattern) {
  return pattern.is_object() && pattern.size() == 1 && !pattern.begin().key().empty() &&
         pattern.begin().key()[0] == '$';
}

std::string type_name(const Json& value) {
  if (value.is_number_integer() || value.is_number_unsigned()) return "integer";
  if (value.is_number()) return "number";
  return value.type_name();
}

// An integer has both types.
bool has_type(const Json& value, std::string_view type) {
  return type == "number" ? value.is_number() : type_name(value) == type;
}

std::string brief(const Json& value) {
  std::string text = base::dump_json(value);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

// One walk over a pattern. `collect` keeps going after a difference (for reports).
class Walker {
 public:
  Walker(const Bindings& bindings, bool collect, std::size_t limit)
      : bindings_(bindings), collect_(collect), limit_(limit) {}

  bool walk(const Json& pattern, const Json* value, const std::string& pointer) {
    if (is_operator(pattern)) return walk_operator(pattern, value, pointer);
    if (value == nullptr) return differ(pointer, "missing", pattern, nullptr);
    if (pattern.is_object()) {
      if (!value->is_object()) {
        return differ(pointer, "expected an object, got " + type_name(*value), pattern, value);
      }
      ++score_;
      bool ok = true;
      for (auto it = pattern.begin(); it != pattern.end() && (ok || collect_); ++it) {
        auto found = value->find(it.key());
        const Json* member = found == value->end() ? nullptr : &*found;
        ok = walk(it.value(), member, pointer + "/" + escape_pointer_token(it.key())) && ok;
      }
      return ok;
    }
    if (pattern.is_array()) {
      if (!value->is_array()) {
        return differ(pointer, "expected an array, got " + type_name(*value), pattern, value);
      }
      ++score_;
      bool ok = true;
      const std::size_t common = std::min(pattern.size(), value->size());
      for (std::size_t i = 0; i < common && (ok || collect_); ++i) {
        ok = walk(pattern[i], &(*value)[i], pointer + "/" + std::to_string(i)) && ok;
      }
      if (!ok && !collect_) return false;
      if (pattern.size() != value->size()) {
        return differ(pointer,
                      "expected " + std::to_string(pattern.size()) + " elements, got " +
                          std::to_string(value->size()),
                      pattern, value) &&
               ok;
      }
      return ok;
    }
    if (json_equal(pattern, *value)) {
      ++score_;
      return true;
    }
    return differ(pointer, "expected " + brief(pattern) + ", got " + brief(*value), pattern, value);
  }

  Bindings& captured() { return captured_; }
  std::vector<Difference>& found() { return differences_; }
  std::size_t score() const { return score_; }

 private:
  bool walk_operator(const Json& pattern, const Json* value, const std::string& pointer) {
    const std::string& op = pattern.begin().key();
    const Json& arg = pattern.begin().value();
    if (op == "$absent") {
      if (value == nullptr) return pass();
      return differ(pointer, "expected the key to be absent, got " + brief(*value), pattern, value);
    }
    if (op == "$one_of") return walk_one_of(arg, value, pointer, pattern);
    if (value == nullptr) return differ(pointer, "missing", pattern, nullptr);
    if (op == "$any") return pass();
    if (op == "$type") {
      const std::string type = arg.is_string() ? arg.get<std::string>() : std::string();
      if (has_type(*value, type)) return pass();
      return differ(pointer, "expected type " + type + ", got " + type_name(*value), pattern,
                    value);
    }
    if (op == "$re") {
      if (!value->is_string()) {
        return differ(pointer, "expected a string for $re, got " + type_name(*value), pattern,
                      value);
      }
      const RE2* re = compiled_regex(arg.is_string() ? arg.get<std::string>() : std::string());
      if (re->ok() && RE2::PartialMatch(value->get_ref<const std::string&>(), *re)) return pass();
      return differ(pointer, "expected a match for /" + re->pattern() + "/, got " + brief(*value),
                    pattern, value);
    }
    if (op == "$exact") {
      if (json_equal(arg, *value)) return pass();
      return differ(first_unequal(arg, *value, pointer),
                    "expected exactly " + brief(arg) + ", got " + brief(*value), pattern, value);
    }
    if (op == "$capture") {
      if (arg.is_string()) captured_[arg.get<std::string>()] = *value;
      return pass();
    }
    if (op == "$var") {
      const std::string name = arg.is_string() ? arg.get<std::string>() : std::string();
      const Json* bound = lookup(name);
      if (bound == nullptr) {
        return differ(pointer, "variable '" + name + "' is not bound", pattern, value);
      }
      if (json_equal(*bound, *value)) return pass();
      return differ(pointer,
                    "expected $var " + name + " = " + brief(*bound) + ", got " + brief(*value),
                    pattern, value);
    }
    return differ(pointer, "unknown pattern operator " + op, pattern, value);
  }

  // The first alternative that matches wins (its captures kept); when none does, the difference
  // reported is that of the alternative that matched most.
  bool walk_one_of(const Json& alternatives, const Json* value, const std::string& pointer,
                   const Json& pattern) {
    std::optional<Walker> best;
    for (const Json& alternative : alternatives) {
      Walker trial(bindings_, false, 1);
      trial.captured_ = captured_;
      if (trial.walk(alternative, value, pointer)) {
        captured_ = std::move(trial.captured_);
        score_ += trial.score_;
        return true;
      }
      if (!best || trial.score_ > best->score_) best.emplace(std::move(trial));
    }
    if (best && !best->differences_.empty()) {
      Difference d = std::move(best->differences_.front());
      return differ(d.pointer,
                    d.reason + " (none of the " + std::to_string(alternatives.size()) +
                        " accepted forms matched)",
                    pattern, value);
    }
    return differ(pointer, "no alternative of $one_of matched", pattern, value);
  }

  // Where two values first differ, as a JSON Pointer: reports name the field, not the object.
  static std::string first_unequal(const Json& a, const Json& b, const std::string& pointer) {
    if (a.is_object() && b.is_object()) {
      for (auto it = a.begin(); it != a.end(); ++it) {
        auto other = b.find(it.key());
        std::string at = pointer + "/" + escape_pointer_token(it.key());
        if (other == b.end()) return at;
        if (!json_equal(it.value(), *other)) return first_unequal(it.value(), *other, at);
      }
      for (auto it = b.begin(); it != b.end(); ++it) {
        if (!a.contains(it.key())) return pointer + "/" + escape_pointer_token(it.key());
      }
    } else if (a.is_array() && b.is_array() && a.size() == b.size()) {
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!json_equal(a[i], b[i])) {
          return first_unequal(a[i], b[i], pointer + "/" + std::to_string(i));
        }
      }
    }
    return pointer;
  }

  const Json* lookup(const std::string& name) const {
    if (auto it = captured_.find(name); it != captured_.end()) return &it->second;
    if (auto it = bindings_.find(name); it != bindings_.end()) return &it->second;
    return nullptr;
  }

  bool pass() {
    ++score_;
    return true;
  }

  bool differ(const std::string& pointer, std::string reason, const Json& pattern,
              const Json* value) {
    if (differences_.size() < limit_) {
      differences_.push_back(Difference{pointer, std::move(reason), pattern,
                                        value ? std::optional<Json>(*value) : std::nullopt});
    }
    return false;
  }

  const Bindings& bindings_;
  bool collect_;
  std::size_t limit_;
  Bindings captured_;
  std::vector<Difference> differences_;
  std::size_t score_ = 0;
};

// Deeper patterns are rejected before the walk recurses: a 100,000-level pattern would otherwise
// overflow the stack (each level holds its pointer string).
constexpr std::size_t kMaxPatternDepth = 512;

void check(const Json& pattern, const std::string& pointer, PatternNames* names,
           std::optional<PatternError>& error, std::size_t depth = 0) {
  if (error) return;
  if (depth > kMaxPatternDepth) {
    error = PatternError{
        pointer, "pattern nested deeper than " + std::to_string(kMaxPatternDepth) + " levels"};
    return;
  }
  if (is_operator(pattern)) {
    const std::string& op = pattern.begin().key();
    const Json& arg = pattern.begin().value();
    if (std::ranges::find(kOperators, op) == std::end(kOperators)) {
      error = PatternError{pointer, "unknown pattern operator " + op};
      return;
    }
    if (op == "$any" || op == "$absent") {
      if (arg != true) error = PatternError{pointer, op + " takes true"};
    } else if (op == "$exact") {
      // Any JSON value: compared as is, never read as a pattern.
    } else if (op == "$one_of") {
      if (!arg.is_array() || arg.empty()) {
        error = PatternError{pointer, "$one_of takes a non-empty array of patterns"};
        return;
      }
      for (std::size_t i = 0; i < arg.size(); ++i) {
        check(arg[i], pointer + "/$one_of/" + std::to_string(i), names, error, depth + 1);
      }
    } else if (op == "$type") {
      if (!arg.is_string() || std::ranges::count(kTypes, arg.get<std::string>()) == 0) {
        error = PatternError{pointer,
                             "$type takes one of string, number, integer, boolean, "
                             "null, object, array"};
      }
    } else if (op == "$re") {
      if (!arg.is_string()) {
        error = PatternError{pointer, "$re takes a string"};
      } else if (const RE2* re = compiled_regex(arg.get<std::string>()); !re->ok()) {
        error =
            PatternError{pointer, "invalid RE2 /" + arg.get<std::string>() + "/: " + re->error()};
      }
    } else if (!arg.is_string() || arg.get_ref<const std::string&>().empty()) {
      error = PatternError{pointer, op + " takes a variable name"};
    } else if (names != nullptr) {
      (op == "$capture" ? names->captures : names->vars).push_back(arg.get<std::string>());
    }
    return;
  }
  if (!pattern.is_structured()) return;
  // items() names array elements by their index: both kinds of member get their pointer.
  for (const auto& member : pattern.items()) {
    check(member.value(), pointer + "/" + escape_pointer_token(member.key()), names, error,
          depth + 1);
  }
}

}  // namespace

MatchResult match(const Json& pattern, const Json& value, Bindings& bindings) {
  Walker walker(bindings, false, 1);
  MatchResult result;
  result.matched = walker.walk(pattern, &value, "");
  result.score = walker.score();
  if (result.matched) {
    for (auto& [name, bound] : walker.captured()) bindings[name] = std::move(bound);
  } else if (!walker.found().empty()) {
    result.first_difference = std::move(walker.found().front());
  }
  return result;
}

std::vector<Difference> differences(const Json& pattern, const Json& value,
                                    const Bindings& bindings, std::size_t limit) {
  Walker walker(bindings, true, limit);
  walker.walk(pattern, &value, "");
  return std::move(walker.found());
}

bool json_equal(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a == b;
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto other = b.find(it.key());
      if (other == b.end() || !json_equal(it.value(), *other)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), json_equal);
  }
  return a == b;
}

std::optional<PatternError> check_pattern(const Json& pattern, PatternNames* names) {
  std::optional<PatternError> error;
  check(pattern, "", names, error);
  return error;
}

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~' || c == '/') out += '~';
    out += c == '~' ? '0' : c == '/' ? '1' : c;
  }
  return out;
}

}  // namespace claude::emulator
