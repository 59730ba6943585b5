#include "line_source.hpp"

#include "claude/base/input_file.hpp"

namespace claude::emulator::detail {
namespace {

// Frames the chunks `read` hands to its consumer into numbered lines for `sink`; returns what
// `read` returns (an I/O error, if any).
template <typename Read>
std::optional<std::string> frame_lines(const LineSink& sink, Read read) {
  base::LineBufferOptions options;
  options.max_line_bytes = kMaxFileLineBytes;
  options.skip_blank = false;
  base::LineBuffer buffer(options);
  std::size_t line_no = 0;
  bool go_on = true;
  auto deliver = [&](const base::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  auto failed = read([&](std::string_view chunk) {
    buffer.feed(chunk, deliver);
    return go_on;
  });
  if (!failed && go_on) buffer.finish(deliver);
  return failed;
}

}  // namespace

std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink) {
  return frame_lines(
      sink, [&](const auto& consume) { return base::for_each_input_chunk(path, consume); });
}

void for_each_text_line(std::string_view text, const LineSink& sink) {
  frame_lines(sink, [&](const auto& consume) {
    consume(text);
    return std::optional<std::string>();
  });
}

}  // namespace claude::emulator::detail
