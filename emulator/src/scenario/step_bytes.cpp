#include "claude/emulator/json_text.hpp"
#include "claude/emulator/scenario.hpp"
#include "positioned_file.hpp"

namespace claude::emulator {

std::string Step::bytes() const {
  if (!escaped) return text;
  const auto quoted = escaped->file->read_quoted(escaped->offset, escaped->size);
  if (!quoted) throw StepBytesError("the scenario file was truncated on disk after it was loaded");
  auto decoded = decode_json_string_literal(std::string_view(quoted.get() + 1, escaped->size));
  if (!decoded) {
    throw StepBytesError("the scenario file was rewritten on disk after it was loaded (line " +
                         std::to_string(line) + " no longer holds a valid JSON string)");
  }
  return std::move(*decoded);
}

std::string Step::take_bytes() {
  if (!escaped) return std::move(text);
  return bytes();
}

}  // namespace claude::emulator
