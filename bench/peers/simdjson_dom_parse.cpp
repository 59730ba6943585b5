// simdjson-dom-parse: the upper bound for row (d) of bench/compare. Parses every line of an NDJSON
// file to a simdjson DOM (no typed model, no copying out), framed by LineBuffer exactly as
// parse-file does, so the gap between the two is the cost of building typed messages.
//
// Reads FILE into memory first and times only framing + parsing. Prints the same JSON line as
// parse-file: {"bytes":N,"lines":N,"seconds":S,"mb_per_s":X,"cpu_seconds":C,"cpu_mb_per_s":Y}
// (MB = 10^6 bytes). Exit codes: 0 measured, 2 usage error or FILE unreadable.
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

#include "claude/sdk/line_buffer.hpp"

namespace {

constexpr const char* kUsage =
    "usage: simdjson-dom-parse FILE\n"
    "Times framing + simdjson DOM parsing of FILE (NDJSON) and prints\n"
    "{\"bytes\":N,\"lines\":N,\"seconds\":S,\"mb_per_s\":X,\"cpu_seconds\":C,\"cpu_mb_per_s\":Y}\n"
    "(MB = 10^6 bytes). Exit codes: 0 measured, 2 usage error or FILE unreadable.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    std::cout << kUsage;
    return 0;
  }
  if (argc != 2) {
    std::cerr << kUsage;
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "simdjson-dom-parse: cannot open " << argv[1] << "\n";
    return 2;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  constexpr std::size_t kChunk = 64 << 10;
  std::size_t lines = 0;
  std::size_t failed = 0;
  simdjson::dom::parser parser;
  auto on_event = [&](const claude::sdk::LineEvent& e) {
    if (e.kind == claude::sdk::LineEvent::Kind::oversized) return;
    ++lines;
    // The line is padded into the parser's own buffer, as any caller holding a string_view must.
    simdjson::dom::element root;
    if (parser.parse(e.text.data(), e.text.size(), true).get(root) != simdjson::SUCCESS) ++failed;
  };
  claude::sdk::LineBuffer buffer;
  const std::clock_t cpu_start = std::clock();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t pos = 0; pos < bytes.size(); pos += kChunk) {
    buffer.feed(std::string_view(bytes).substr(pos, kChunk), on_event);
  }
  buffer.finish(on_event);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  if (failed != 0)
    std::cerr << "simdjson-dom-parse: " << argv[1] << ": " << failed << " lines not parsed\n";
  const double mb = static_cast<double>(bytes.size()) / 1e6;
  std::printf(
      "{\"bytes\":%zu,\"lines\":%zu,\"seconds\":%.6f,\"mb_per_s\":%.1f,\"cpu_seconds\":%.6f,"
      "\"cpu_mb_per_s\":%.1f}\n",
      bytes.size(), lines, seconds, mb / seconds, cpu_seconds, mb / cpu_seconds);
  return 0;
}
