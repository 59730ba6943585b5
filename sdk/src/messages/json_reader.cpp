#include "messages/json_reader.hpp"

#include <simdjson.h>

#include <optional>

namespace claude::sdk::detail {
namespace {

constexpr std::size_t kKeptParserCapacity = 64u << 10;

struct Conversion {
  bool saw_integer_zero = false;
};

// nlohmann types integers by sign: non-negative ones are unsigned, negative ones signed.
nlohmann::json convert(simdjson::dom::element element, Conversion& conversion) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::OBJECT: {
      nlohmann::json object = nlohmann::json::object();
      for (auto field : simdjson::dom::object(element)) {
        // Assignment, so a repeated key keeps its last value as nlohmann's parser does.
        object[std::string(field.key)] = convert(field.value, conversion);
      }
      return object;
    }
    case element_type::ARRAY: {
      nlohmann::json array = nlohmann::json::array();
      for (auto item : simdjson::dom::array(element)) array.push_back(convert(item, conversion));
      return array;
    }
    case element_type::STRING:
      return std::string(std::string_view(element));
    case element_type::INT64: {
      const auto value = std::int64_t(element);
      if (value == 0) conversion.saw_integer_zero = true;
      if (value >= 0) return static_cast<std::uint64_t>(value);
      return value;
    }
    case element_type::UINT64:
      return std::uint64_t(element);
    case element_type::DOUBLE:
      return double(element);
    case element_type::BOOL:
      return bool(element);
    case element_type::NULL_VALUE:
      return nullptr;
  }
  return nullptr;
}

std::optional<nlohmann::json> read_with(simdjson::dom::parser& parser, std::string_view text) {
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size(), /*realloc_if_needed=*/true).get(root) !=
      simdjson::SUCCESS)
    return std::nullopt;
  Conversion conversion;
  nlohmann::json value = convert(root, conversion);
  // simdjson reads "-0" as the integer 0; nlohmann keeps it a signed integer. Rare: let nlohmann
  // decide whenever both could be in play.
  if (conversion.saw_integer_zero && text.find("-0") != std::string_view::npos) return std::nullopt;
  return value;
}

}  // namespace

nlohmann::json read_json(std::string_view text) {
  std::optional<nlohmann::json> value;
  if (text.size() <= kKeptParserCapacity) {
    thread_local simdjson::dom::parser kept;
    value = read_with(kept, text);
  } else {
    simdjson::dom::parser once;
    value = read_with(once, text);
  }
  if (value) return std::move(*value);
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace claude::sdk::detail
