#include "claude/base/json.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace claude::base {
namespace {

// Texts up to this size share one parser per thread; a bigger one gets a parser of its own,
// freed after use, so one huge text does not pin its parse buffers for the rest of the run.
constexpr std::size_t kSharedParserBytes = std::size_t{1} << 20;

// simdjson reads `-0` as the signed integer 0; nlohmann keeps it apart from `0` (number_integer
// against number_unsigned). Whether the text holds such a literal (a string may hold the same
// bytes: this only errs towards the exact path).
bool has_negative_zero_literal(std::string_view text) {
  for (auto at = text.find("-0"); at != std::string_view::npos; at = text.find("-0", at + 1)) {
    if (at + 2 == text.size()) return true;
    const char next = text[at + 2];
    if ((next < '0' || next > '9') && next != '.' && next != 'e' && next != 'E') return true;
  }
  return false;
}

// The same value nlohmann's parser builds: non-negative integers are number_unsigned, negative
// ones number_integer, the rest number_float; a repeated key keeps its last value (and, in an
// ordered object, its first place: ordered_map::operator[]).
template <class Value>
Value to_json(simdjson::dom::element element, bool& saw_zero_integer) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::ARRAY: {
      Value array = Value::array();
      auto& items = array.template get_ref<typename Value::array_t&>();
      const simdjson::dom::array source = element.get_array().value_unsafe();
      for (simdjson::dom::element item : source) {
        items.push_back(to_json<Value>(item, saw_zero_integer));
      }
      return array;
    }
    case element_type::OBJECT: {
      Value object = Value::object();
      auto& members = object.template get_ref<typename Value::object_t&>();
      const simdjson::dom::object source = element.get_object().value_unsafe();
      for (simdjson::dom::key_value_pair member : source) {
        members[std::string(member.key)] = to_json<Value>(member.value, saw_zero_integer);
      }
      return object;
    }
    case element_type::STRING: {
      // One spare byte: a recorded line gets its newline appended without a reallocation.
      const std::string_view text = element.get_string().value_unsafe();
      std::string copy;
      copy.reserve(text.size() + 1);
      copy.assign(text);
      return Value(std::move(copy));
    }
    case element_type::INT64: {
      const std::int64_t n = element.get_int64().value_unsafe();
      if (n < 0) return Value(n);
      if (n == 0) saw_zero_integer = true;
      return Value(static_cast<std::uint64_t>(n));
    }
    case element_type::UINT64:
      return Value(element.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return Value(element.get_double().value_unsafe());
    case element_type::BOOL:
      return Value(element.get_bool().value_unsafe());
    case element_type::NULL_VALUE:
      break;
  }
  return Value(nullptr);
}

bool limit_depth(simdjson::dom::parser& parser) {
  return parser.allocate(simdjson::dom::MINIMAL_DOCUMENT_CAPACITY, kMaxJsonDepth) ==
         simdjson::SUCCESS;
}

// simdjson's answer when it accepts the text (it then agrees with nlohmann, the depth cap
// included); nullopt sends the caller to nlohmann, whose result and message stay the reference.
template <class Value>
std::optional<Value> parse_fast(std::string_view text) {
  thread_local simdjson::dom::parser shared;
  thread_local const bool shared_ready = limit_depth(shared);
  simdjson::dom::parser own;  // allocates only when a text is too big for the shared one
  const bool big = text.size() > kSharedParserBytes;
  if (big ? !limit_depth(own) : !shared_ready) return std::nullopt;
  simdjson::dom::element root;
  if ((big ? own : shared).parse(text.data(), text.size()).get(root) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  bool saw_zero_integer = false;
  Value value = to_json<Value>(root, saw_zero_integer);
  if (saw_zero_integer && has_negative_zero_literal(text)) return std::nullopt;
  return value;
}

}  // namespace

std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > stop_after) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

Json parse_json(std::string_view text) {
  if (auto fast = parse_fast<Json>(text)) return std::move(*fast);
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    throw Json::parse_error::create(
        101, 0, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", nullptr);
  }
  return Json::parse(text);
}

Json parse_json_or_discarded(std::string_view text) {
  if (auto fast = parse_fast<Json>(text)) return std::move(*fast);
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
    return Json(Json::value_t::discarded);
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

nlohmann::json parse_unordered_json_or_discarded(std::string_view text) {
  if (auto fast = parse_fast<nlohmann::json>(text)) return std::move(*fast);
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

const Json* member(const Json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string string_member(const Json& object, std::string_view key) {
  const Json* value = member(object, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

std::string dump_json(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string dump_json(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace claude::base
