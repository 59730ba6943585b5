#include "claude/emulator/scenario.hpp"
#include "escaped_string_line.hpp"
#include "positioned_file.hpp"

namespace claude::emulator {

std::string Step::bytes() const {
  if (!escaped) return text;
  const auto quoted = escaped->file->read_quoted(escaped->offset, escaped->size);
  if (!quoted) throw StepBytesError("the scenario file was truncated on disk after it was loaded");
  // The string was validated at load; the file may have been rewritten in place since, so the
  // bytes read now are validated again as they are decoded.
  std::optional<std::string> decoded;
  if (quoted[0] == '"' && quoted[escaped->size + 1] == '"') {
    decoded = detail::decode_json_string_body(std::string_view(quoted.get() + 1, escaped->size));
  }
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
