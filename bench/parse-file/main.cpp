// parse-file: how fast claude::sdk turns a session file into typed messages.
//
// Reads FILE into memory first, then times only framing (LineBuffer, fed in 64 KiB chunks as a
// pipe would deliver them) and parsing every line to a typed Message. Prints one JSON line:
// {"bytes":N,"lines":N,"seconds":S,"mb_per_s":X,"cpu_seconds":C,"cpu_mb_per_s":Y} with MB = 10^6
// bytes: wall-clock time, and the process's CPU time over the same span (the fairer figure on a
// shared machine; bench/peers/node-readline.mjs reports both the same way). Lines that fail to
// parse are counted and reported on stderr; they do not change the exit code.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

#include "claude/sdk/line_buffer.hpp"
#include "claude/sdk/message_parser.hpp"

namespace {

constexpr const char* kUsage =
    "usage: parse-file FILE\n"
    "Times framing + parsing of FILE (NDJSON) to typed messages and prints\n"
    "{\"bytes\":N,\"lines\":N,\"seconds\":S,\"mb_per_s\":X,\"cpu_seconds\":C,\"cpu_mb_per_s\":Y}\n"
    "(MB = 10^6 bytes; seconds are wall-clock, cpu_seconds the process's CPU time).\n"
    "Exit codes: 0 measured, 2 usage error or FILE unreadable.\n";

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
    std::cerr << "parse-file: cannot open " << argv[1] << "\n";
    return 2;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    std::cerr << "parse-file: cannot read " << argv[1] << "\n";
    return 2;
  }

  constexpr std::size_t kChunk = 64 << 10;
  std::size_t lines = 0;
  std::size_t failed = 0;
  std::size_t oversized = 0;
  claude::sdk::MessageParser parser;
  claude::sdk::LineBuffer buffer;
  auto on_event = [&](const claude::sdk::LineEvent& e) {
    if (e.kind == claude::sdk::LineEvent::Kind::oversized) {
      ++oversized;
      return;
    }
    ++lines;
    if (std::holds_alternative<claude::sdk::ParseError>(parser.parse(e.text))) ++failed;
  };
  const std::clock_t cpu_start = std::clock();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t pos = 0; pos < bytes.size(); pos += kChunk) {
    buffer.feed(std::string_view(bytes).substr(pos, kChunk), on_event);
  }
  buffer.finish(on_event);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;

  if (failed != 0 || oversized != 0) {
    std::cerr << "parse-file: " << argv[1] << ": " << failed << " lines not parsed, " << oversized
              << " oversized lines skipped\n";
  }
  const auto rate = [&](double span) {
    return span > 0 ? static_cast<double>(bytes.size()) / span / 1e6 : 0.0;
  };
  std::printf(
      "{\"bytes\":%zu,\"lines\":%zu,\"seconds\":%.6f,\"mb_per_s\":%.1f,\"cpu_seconds\":%.6f,"
      "\"cpu_mb_per_s\":%.1f}\n",
      bytes.size(), lines, seconds, rate(seconds), cpu_seconds, rate(cpu_seconds));
  return 0;
}
