#include "line_source.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace claude::emulator::detail {
namespace {

sdk::LineBufferOptions file_options() {
  sdk::LineBufferOptions options;
  options.max_line_bytes = kMaxFileLineBytes;
  options.skip_blank = false;
  return options;
}

}  // namespace

std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string("cannot open: ") + std::strerror(errno);
  sdk::LineBuffer buffer(file_options());
  std::size_t line_no = 0;
  bool go_on = true;
  auto deliver = [&](const sdk::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  std::vector<char> chunk(std::size_t{1} << 16);
  while (go_on && in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    buffer.feed(std::string_view(chunk.data(), got), deliver);
  }
  if (in.bad()) return std::string("read error: ") + std::strerror(errno);
  if (go_on) buffer.finish(deliver);
  return std::nullopt;
}

void for_each_text_line(std::string_view text, const LineSink& sink) {
  sdk::LineBuffer buffer(file_options());
  std::size_t line_no = 0;
  bool go_on = true;
  auto deliver = [&](const sdk::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  buffer.feed(text, deliver);
  if (go_on) buffer.finish(deliver);
}

}  // namespace claude::emulator::detail
