#include "messages/json_writer.hpp"

#include <charconv>

#include "claude/base/json_escape.hpp"
#include "claude/base/utf8.hpp"

namespace claude::sdk::detail {
namespace {

constexpr auto kReplaceInvalid = nlohmann::json::error_handler_t::replace;

template <class Int>
void append_integer(std::string& out, Int value) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, static_cast<std::size_t>(end - digits));
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  if (base::is_valid_utf8(text)) {
    base::append_json_string(out, text);
  } else {
    out += nlohmann::json(text).dump(-1, ' ', false, kReplaceInvalid);
  }
}

void append_json(std::string& out, const nlohmann::json& value) {
  using Kind = nlohmann::json::value_t;
  switch (value.type()) {
    case Kind::null:
      out += "null";
      return;
    case Kind::boolean:
      out += value.get_ref<const bool&>() ? "true" : "false";
      return;
    case Kind::number_integer:
      append_integer(out, value.get_ref<const nlohmann::json::number_integer_t&>());
      return;
    case Kind::number_unsigned:
      append_integer(out, value.get_ref<const nlohmann::json::number_unsigned_t&>());
      return;
    case Kind::string:
      append_json_string(out, value.get_ref<const std::string&>());
      return;
    case Kind::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.get_ref<const nlohmann::json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, key);
        out += ':';
        append_json(out, member);
      }
      out += '}';
      return;
    }
    case Kind::array: {
      out += '[';
      bool first = true;
      for (const auto& element : value.get_ref<const nlohmann::json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        append_json(out, element);
      }
      out += ']';
      return;
    }
    default:  // floating point, binary, discarded: nlohmann's own formatting
      out += value.dump(-1, ' ', false, kReplaceInvalid);
      return;
  }
}

}  // namespace claude::sdk::detail
