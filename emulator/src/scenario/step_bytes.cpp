#include "claude/emulator/scenario.hpp"
#include "escaped_string_line.hpp"
#include "positioned_file.hpp"

namespace claude::emulator {
namespace {

// The bytes of a step whose string is still in its file (of the step at `line`), into `out`.
void read_escaped(const EscapedText& escaped, std::size_t line, std::string& out) {
  const auto quoted = escaped.file->read_quoted(escaped.offset, escaped.size);
  if (!quoted) throw StepBytesError("the scenario file was truncated on disk after it was loaded");
  // The string was validated at load; the file may have been rewritten in place since, so the
  // bytes read now are validated again as they are decoded.
  if (quoted[0] != '"' || quoted[escaped.size + 1] != '"' ||
      !detail::decode_json_string_body_into(std::string_view(quoted.get() + 1, escaped.size),
                                            out)) {
    throw StepBytesError("the scenario file was rewritten on disk after it was loaded (line " +
                         std::to_string(line) + " no longer holds a valid JSON string)");
  }
}

}  // namespace

std::string Step::bytes() const {
  if (!escaped) return text;
  std::string decoded;
  read_escaped(*escaped, line, decoded);
  return decoded;
}

std::string Step::take_bytes() {
  std::string out;
  take_bytes(out);
  return out;
}

void Step::take_bytes(std::string& out) {
  if (escaped) {
    read_escaped(*escaped, line, out);
  } else {
    out = std::move(text);
  }
}

}  // namespace claude::emulator
