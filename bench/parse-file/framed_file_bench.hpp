// The frame shared by row (d)'s parse benchmarks (parse-file, simdjson-dom-parse): the same
// command line, the same reading of FILE into memory, the same framing (the SDK's LineBuffer fed
// 64 KiB chunks, as a pipe delivers them), the same timing and the same result line, so the only
// difference between two tools is how each parses a line.
//
// Prints {"bytes":N,"lines":N,"seconds":S,"mb_per_s":X,"cpu_seconds":C,"cpu_mb_per_s":Y}
// (MB = 10^6 bytes; wall-clock seconds and the process's CPU time over the same span). Lines that
// fail to parse, and oversized lines, are counted on stderr and do not change the exit code.
// Returns the exit code: 0 measured, 2 usage error or FILE unreadable.
#pragma once

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

#include "claude/base/line_buffer.hpp"

namespace claude::bench {

// `parse_line(text)` parses one line and returns whether it succeeded.
template <class ParseLine>
int run_framed_file_bench(int argc, char** argv, std::string_view tool, std::string_view usage,
                          ParseLine&& parse_line) {
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    std::cout << usage;
    return 0;
  }
  if (argc != 2) {
    std::cerr << usage;
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << tool << ": cannot open " << argv[1] << "\n";
    return 2;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    std::cerr << tool << ": cannot read " << argv[1] << "\n";
    return 2;
  }

  constexpr std::size_t kChunk = 64 << 10;
  std::size_t lines = 0;
  std::size_t failed = 0;
  std::size_t oversized = 0;
  base::LineBuffer buffer;
  auto on_event = [&](const base::LineEvent& e) {
    if (e.kind == base::LineEvent::Kind::oversized) {
      ++oversized;
      return;
    }
    ++lines;
    if (!parse_line(e.text)) ++failed;
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
    std::cerr << tool << ": " << argv[1] << ": " << failed << " lines not parsed, " << oversized
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

}  // namespace claude::bench
