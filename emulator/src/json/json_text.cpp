#include "claude/emulator/json_text.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace claude::emulator {
namespace {

// Lines up to this size share one parser per thread; a bigger one gets a parser of its own,
// freed after use, so one huge line does not pin its parse buffers for the rest of the run.
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
// ones number_integer, the rest number_float; a repeated key keeps its first place and its last
// value (ordered_map::operator[]).
Json to_json(simdjson::dom::element element, bool& saw_zero_integer) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::ARRAY: {
      Json array = Json::array();
      auto& items = array.get_ref<Json::array_t&>();
      const simdjson::dom::array source = element.get_array().value_unsafe();
      for (simdjson::dom::element item : source) {
        items.push_back(to_json(item, saw_zero_integer));
      }
      return array;
    }
    case element_type::OBJECT: {
      Json object = Json::object();
      auto& members = object.get_ref<Json::object_t&>();
      const simdjson::dom::object source = element.get_object().value_unsafe();
      for (simdjson::dom::key_value_pair member : source) {
        members[std::string(member.key)] = to_json(member.value, saw_zero_integer);
      }
      return object;
    }
    case element_type::STRING: {
      // One spare byte: a recorded line gets its newline appended without a reallocation.
      const std::string_view text = element.get_string().value_unsafe();
      std::string copy;
      copy.reserve(text.size() + 1);
      copy.assign(text);
      return Json(std::move(copy));
    }
    case element_type::INT64: {
      const std::int64_t n = element.get_int64().value_unsafe();
      if (n < 0) return Json(n);
      if (n == 0) saw_zero_integer = true;
      return Json(static_cast<std::uint64_t>(n));
    }
    case element_type::UINT64:
      return Json(element.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return Json(element.get_double().value_unsafe());
    case element_type::BOOL:
      return Json(element.get_bool().value_unsafe());
    case element_type::NULL_VALUE:
      break;
  }
  return Json(nullptr);
}

static_assert(kJsonPadding >= simdjson::SIMDJSON_PADDING);

bool limit_depth(simdjson::dom::parser& parser) {
  return parser.allocate(simdjson::dom::MINIMAL_DOCUMENT_CAPACITY, kMaxJsonDepth) ==
         simdjson::SUCCESS;
}

// The thread's parser for lines up to kSharedParserBytes; nullptr if it could not be set up.
simdjson::dom::parser* shared_parser() {
  thread_local simdjson::dom::parser shared;
  thread_local const bool ready = limit_depth(shared);
  return ready ? &shared : nullptr;
}

// Runs `use(parser)` with a parser fit for `bytes` of text: the thread's shared one, or one of
// its own above kSharedParserBytes. `use` returns an optional; nullopt when no parser is ready.
template <class Use>
auto with_parser(std::size_t bytes, Use&& use) {
  if (bytes > kSharedParserBytes) {
    simdjson::dom::parser parser;
    return limit_depth(parser) ? use(parser) : std::nullopt;
  }
  simdjson::dom::parser* shared = shared_parser();
  return shared != nullptr ? use(*shared) : std::nullopt;
}

std::optional<simdjson::dom::element> parse_dom(simdjson::dom::parser& parser,
                                                std::string_view text, bool padded) {
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size(), /*realloc_if_needed=*/!padded).get(root) !=
      simdjson::SUCCESS) {
    return std::nullopt;
  }
  return root;
}

std::optional<Json> convert(simdjson::dom::element root, std::string_view text) {
  bool saw_zero_integer = false;
  Json value = to_json(root, saw_zero_integer);
  if (saw_zero_integer && has_negative_zero_literal(text)) return std::nullopt;
  return value;
}

// simdjson's answer when it accepts the text (it then agrees with nlohmann, the depth cap
// included); nullopt sends the caller to nlohmann, whose result and message stay the reference.
std::optional<Json> parse_fast(std::string_view text, bool padded) {
  return with_parser(text.size(), [&](simdjson::dom::parser& parser) -> std::optional<Json> {
    auto root = parse_dom(parser, text, padded);
    if (!root) return std::nullopt;
    return convert(*root, text);
  });
}

// nlohmann's answer (the reference), behind the nesting cap.
Json parse_exact(std::string_view text) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    throw Json::parse_error::create(
        101, 0, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", nullptr);
  }
  return Json::parse(text);
}

bool is_json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// In valid JSON text holding an object with one member whose value is a string: the bytes
// between that string's quotes. The key holds no ':' (it is one of the verbs asked for, and
// escapes are written without one), so the value starts after the first ':'.
std::optional<std::string_view> single_member_literal(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto open = colon + 1;
  while (open < text.size() && is_json_space(text[open])) ++open;
  auto close = text.size();
  while (close > 0 && is_json_space(text[close - 1])) --close;
  if (close == 0 || text[close - 1] != '}') return std::nullopt;
  --close;
  while (close > 0 && is_json_space(text[close - 1])) --close;
  if (open >= text.size() || text[open] != '"' || close < open + 2 || text[close - 1] != '"') {
    return std::nullopt;
  }
  return text.substr(open + 1, close - open - 2);
}

}  // namespace

std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > stop_after) return deepest;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return deepest;
}

Json parse_json(std::string_view text) {
  if (auto fast = parse_fast(text, false)) return std::move(*fast);
  return parse_exact(text);
}

Json parse_json_in_place(std::string_view text) {
  if (auto fast = parse_fast(text, true)) return std::move(*fast);
  return parse_exact(text);
}

Json parse_json_or_discarded(std::string_view text) {
  if (auto fast = parse_fast(text, false)) return std::move(*fast);
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
    return Json(Json::value_t::discarded);
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

std::variant<Json, JsonStringMember> parse_json_line(std::string_view text, bool padded,
                                                     std::span<const std::string_view> keys) {
  using Line = std::variant<Json, JsonStringMember>;
  auto fast = with_parser(text.size(), [&](simdjson::dom::parser& parser) -> std::optional<Line> {
    auto root = parse_dom(parser, text, padded);
    if (!root) return std::nullopt;
    simdjson::dom::object object;
    if (root->get_object().get(object) == simdjson::SUCCESS && object.size() == 1) {
      const simdjson::dom::key_value_pair member = *object.begin();
      if (member.value.is_string() &&
          std::find(keys.begin(), keys.end(), member.key) != keys.end()) {
        if (auto literal = single_member_literal(text)) {
          return Line(JsonStringMember{std::string(member.key), *literal});
        }
      }
    }
    auto value = convert(*root, text);
    if (!value) return std::nullopt;
    return Line(std::move(*value));
  });
  if (fast) return std::move(*fast);
  return parse_exact(text);
}

std::optional<std::string> decode_json_string_literal(std::string_view literal) {
  // The literal with its quotes is a JSON document of its own, already in place.
  const std::string_view quoted(literal.data() - 1, literal.size() + 2);
  return with_parser(quoted.size(),
                     [&](simdjson::dom::parser& parser) -> std::optional<std::string> {
                       auto root = parse_dom(parser, quoted, /*padded=*/true);
                       std::string_view bytes;
                       if (!root || root->get_string().get(bytes) != simdjson::SUCCESS) {
                         return std::nullopt;
                       }
                       return std::string(bytes);
                     });
}

}  // namespace claude::emulator
