// parse-file: how fast claude::sdk turns a session file into typed messages.
//
// Reads FILE into memory first, then times only framing and parsing every line to a typed
// Message (framed_file_bench.hpp: the frame it shares with bench/peers/simdjson_dom_parse.cpp;
// bench/peers/node-readline.mjs reports the same figures the same way).
#include <variant>

#include "messages/message_parser.hpp"
#include "framed_file_bench.hpp"

namespace {

constexpr const char* kUsage =
    "usage: parse-file FILE\n"
    "Times framing + parsing of FILE (NDJSON) to typed messages and prints\n"
    "{\"bytes\":N,\"lines\":N,\"seconds\":S,\"mb_per_s\":X,\"cpu_seconds\":C,\"cpu_mb_per_s\":Y}\n"
    "(MB = 10^6 bytes; seconds are wall-clock, cpu_seconds the process's CPU time).\n"
    "Exit codes: 0 measured, 2 usage error or FILE unreadable.\n";

}  // namespace

int main(int argc, char** argv) {
  claude::sdk::MessageParser parser;
  return claude::bench::run_framed_file_bench(
      argc, argv, "parse-file", kUsage, [&](std::string_view line) {
        return !std::holds_alternative<claude::sdk::ParseError>(parser.parse(line));
      });
}
