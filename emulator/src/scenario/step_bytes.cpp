#include "claude/emulator/json_text.hpp"
#include "claude/emulator/scenario.hpp"
#include "mapped_file.hpp"

namespace claude::emulator {

std::string Step::bytes() const {
  if (!escaped) return text;
  if (!escaped->file->still_whole()) {
    throw StepBytesError("the scenario file was truncated on disk after it was loaded");
  }
  auto decoded = decode_json_string_literal(escaped->literal);
  if (!decoded) {
    throw StepBytesError("the scenario file was rewritten on disk after it was loaded (line " +
                         std::to_string(line) + " no longer holds a valid JSON string)");
  }
  return std::move(*decoded);
}

std::string Step::take_bytes() {
  if (!escaped) return std::move(text);
  std::string decoded = bytes();
  escaped->file->release(escaped->literal);
  return decoded;
}

}  // namespace claude::emulator
