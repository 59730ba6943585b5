// The CLI stand-in for bench_claude_tee.
//   peer echo                 copy stdin to stdout, chunk by chunk, until EOF
//   peer generate BYTES       write BYTES of NDJSON lines to stdout, then exit
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace {

bool write_all(const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(1, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// A stream_event-like frame of about 200 bytes, repeated to fill 256 KiB writes.
std::string generated_block() {
  const std::string line =
      R"({"type":"stream_event","uuid":"0b1f4a52-7d3e-4c55-9a0e-2f6d8c1b9e77","session_id":"s-1",)"
      R"("event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello \"world\"\n"}}})"
      "\n";
  std::string block;
  while (block.size() + line.size() <= (256u << 10)) block += line;
  return block;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "echo") {
    static char buf[1 << 16];
    while (true) {
      const ssize_t n = ::read(0, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return 0;
      if (!write_all(buf, static_cast<std::size_t>(n))) return 1;
    }
  }
  if (mode == "generate" && argc > 2) {
    std::size_t left = std::strtoull(argv[2], nullptr, 10);
    const std::string block = generated_block();
    while (left > 0) {
      const std::size_t n = left < block.size() ? left : block.size();
      if (!write_all(block.data(), n)) return 1;
      left -= n;
    }
    return 0;
  }
  return 2;
}
