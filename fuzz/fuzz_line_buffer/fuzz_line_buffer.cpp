// fuzz_line_buffer: LineBuffer must split any byte stream the same way whatever the chunking.
//
// Input layout: byte 0 picks the line limit, byte 1 the options, bytes 2–5 four chunk sizes
// (1–256 bytes, used in turn); the rest is the stream. The oracle is a one-shot split written
// here from the rules in line_buffer.hpp, independent of LineBuffer's incremental code.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "claude/base/line_buffer.hpp"
#include "fuzz_oracle.hpp"

namespace {

using claude::base::LineBuffer;
using claude::base::LineBufferOptions;
using claude::base::LineEvent;

struct Event {
  LineEvent::Kind kind;
  std::string text;
  std::size_t size;
  bool partial;
  bool operator==(const Event&) const = default;
};

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

void reference_line(std::string_view line, bool partial, const LineBufferOptions& options,
                    std::vector<Event>& out) {
  if (line.size() > options.max_line_bytes) {
    out.push_back({LineEvent::Kind::oversized, {}, line.size(), partial});
    return;
  }
  const std::size_t size = line.size();
  if (options.strip_cr && line.ends_with('\r')) line.remove_suffix(1);
  if (options.strip_bom && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
  if (options.skip_blank && is_blank(line)) return;
  out.push_back({LineEvent::Kind::line, std::string(line), size, partial});
}

std::vector<Event> reference_split(std::string_view stream, const LineBufferOptions& options) {
  std::vector<Event> out;
  std::size_t start = 0;
  for (std::size_t nl = stream.find('\n'); nl != std::string_view::npos;
       nl = stream.find('\n', start)) {
    reference_line(stream.substr(start, nl - start), false, options, out);
    start = nl + 1;
  }
  if (start < stream.size()) reference_line(stream.substr(start), true, options, out);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kHeader = 6;
  if (size < kHeader) return 0;
  LineBufferOptions options;
  // 255 keeps the default cap; anything else is a small cap so oversized paths are reached.
  if (data[0] != 255) options.max_line_bytes = data[0];
  options.strip_cr = (data[1] & 1) != 0;
  options.strip_bom = (data[1] & 2) != 0;
  options.skip_blank = (data[1] & 4) != 0;
  const std::size_t chunk_sizes[4] = {data[2] + 1u, data[3] + 1u, data[4] + 1u, data[5] + 1u};
  const std::string_view stream(reinterpret_cast<const char*>(data) + kHeader, size - kHeader);

  LineBuffer buffer(options);
  std::vector<Event> events;
  auto collect = [&](const LineEvent& e) {
    if (e.kind == LineEvent::Kind::line) CHECK(e.text.size() <= options.max_line_bytes);
    events.push_back({e.kind, std::string(e.text), e.size, e.partial});
  };
  // Chunks are views into libFuzzer's exactly-sized buffer: a read past the last chunk trips
  // ASan, a read past any other chunk changes the events and trips the oracle.
  std::size_t pos = 0;
  for (std::size_t i = 0; pos < stream.size(); ++i) {
    const std::string_view chunk = stream.substr(pos, chunk_sizes[i % 4]);
    buffer.feed(chunk, collect);
    CHECK(buffer.buffered_bytes() <= options.max_line_bytes);
    pos += chunk.size();
  }
  buffer.finish(collect);
  CHECK(buffer.buffered_bytes() == 0);

  CHECK(events == reference_split(stream, options));
  return 0;
}
