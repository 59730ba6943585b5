// simdjson-dom-parse: the upper bound for row (d) of bench/compare. Parses every line of an NDJSON
// file to a simdjson DOM (no typed model, no copying out), with the frame parse-file uses
// (bench/parse-file/framed_file_bench.hpp), so the gap between the two is the cost of building
// typed messages.
#include <simdjson.h>

#include "framed_file_bench.hpp"

namespace {

constexpr const char* kUsage =
    "usage: simdjson-dom-parse FILE\n"
    "Times framing + simdjson DOM parsing of FILE (NDJSON) and prints\n"
    "{\"bytes\":N,\"lines\":N,\"seconds\":S,\"mb_per_s\":X,\"cpu_seconds\":C,\"cpu_mb_per_s\":Y}\n"
    "(MB = 10^6 bytes). Exit codes: 0 measured, 2 usage error or FILE unreadable.\n";

}  // namespace

int main(int argc, char** argv) {
  simdjson::dom::parser parser;
  return claude::bench::run_framed_file_bench(
      argc, argv, "simdjson-dom-parse", kUsage, [&](std::string_view line) {
        // The line is padded into the parser's own buffer, as any caller holding a string_view
        // must.
        simdjson::dom::element root;
        return parser.parse(line.data(), line.size(), true).get(root) == simdjson::SUCCESS;
      });
}
