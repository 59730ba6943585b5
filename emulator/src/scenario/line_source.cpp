#include "line_source.hpp"

#include "claude/base/input_file.hpp"

namespace claude::emulator::detail {
namespace {

sdk::LineBufferOptions file_line_options() {
  sdk::LineBufferOptions options;
  options.max_line_bytes = kMaxFileLineBytes;
  options.skip_blank = false;
  return options;
}

}  // namespace

std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink) {
  sdk::LineBuffer buffer(file_line_options());
  std::size_t line_no = 0;
  bool go_on = true;
  auto deliver = [&](const sdk::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  auto failed = base::for_each_input_chunk(path, [&](std::string_view chunk) {
    buffer.feed(chunk, deliver);
    return go_on;
  });
  if (failed) return failed;
  if (go_on) buffer.finish(deliver);
  return std::nullopt;
}

void for_each_text_line(std::string_view text, const LineSink& sink) {
  sdk::LineBuffer buffer(file_line_options());
  std::size_t line_no = 0;
  bool go_on = true;
  auto deliver = [&](const sdk::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  buffer.feed(text, deliver);
  if (go_on) buffer.finish(deliver);
}

}  // namespace claude::emulator::detail
