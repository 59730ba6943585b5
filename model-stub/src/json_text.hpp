// Compact JSON text that never throws on invalid UTF-8 (request bodies are not ours to trust).
#pragma once

#include <string>

#include "claude/model_stub/model_script.hpp"

namespace claude::model_stub {

inline std::string compact_json(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace claude::model_stub
