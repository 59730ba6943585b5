#include "claude/base/utf8.hpp"

#include <simdjson.h>

namespace claude::base {

bool is_valid_utf8(std::string_view bytes) noexcept {
  return simdjson::validate_utf8(bytes.data(), bytes.size());
}

}  // namespace claude::base
