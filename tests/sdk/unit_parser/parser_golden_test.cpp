// MessageParser output is pinned byte for byte: typed fields, JsonText texts (raw slices, not
// re-serialised values), the kept line, and error kinds, fields and texts.
//
// tests/sdk/data/parser/golden_digests.txt holds, for each line of golden_inputs.hpp, the digest
// of the line and of its MessageDump. The digests were taken with the parser before the lazy
// slicing of JsonText members (one eager walk per nesting level), so a speed change that alters
// any output fails here and names the line. After a change of output that is intended, rewrite
// the file: CLAUDE_HARNESS_WRITE_PARSER_GOLDEN=<path> ctest -R MessageParserGolden.EveryInput.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "golden_inputs.hpp"
#include "message_dump.hpp"
#include "messages/message_parser.hpp"

namespace claude::sdk::testing {
namespace {

std::filesystem::path source_dir() {
  const char* root = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  return root ? std::filesystem::path(root) : std::filesystem::current_path();
}

std::string hex(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016" PRIx64, value);
  return buffer;
}

// Input digest → dump digest.
std::map<std::string, std::string> read_golden(const std::filesystem::path& path) {
  std::map<std::string, std::string> golden;
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string input, output;
    if (!(fields >> input >> output)) {
      ADD_FAILURE() << path << ":" << number << ": expected two digests";
      continue;
    }
    golden[input] = output;
  }
  return golden;
}

TEST(MessageParserGolden, EveryInputParsesToItsRecordedOutput) {
  const auto inputs = golden_inputs(source_dir());
  ASSERT_GT(inputs.size(), 1000u);
  MessageParser parser;
  MessageDump dump;

  if (const char* out_path = std::getenv("CLAUDE_HARNESS_WRITE_PARSER_GOLDEN")) {
    std::ofstream out(out_path);
    out << "# MessageParser golden digests: <FNV-1a of the input line> <FNV-1a of its "
           "MessageDump>\n"
           "# Inputs: tests/sdk/unit_parser/golden_inputs.hpp\n";
    for (const auto& line : inputs) {
      out << hex(digest(line)) << ' ' << hex(digest(dump(parser.parse(line)))) << '\n';
    }
    GTEST_SKIP() << "wrote " << out_path;
  }

  const auto golden = read_golden(source_dir() / "tests/sdk/data/parser/golden_digests.txt");
  ASSERT_FALSE(golden.empty());
  std::size_t checked = 0;
  for (const auto& line : inputs) {
    const auto expected = golden.find(hex(digest(line)));
    if (expected == golden.end()) continue;  // a seed added since the digests were taken
    ++checked;
    const std::string got = dump(parser.parse(line));
    EXPECT_EQ(hex(digest(got)), expected->second) << "line: " << line << "\nnow parses to:\n"
                                                  << got;
  }
  // Seeds removed since would leave digests unmatched: the file must then be rewritten.
  std::map<std::string, bool> seen;
  for (const auto& line : inputs) seen[hex(digest(line))] = true;
  std::size_t missing = 0;
  for (const auto& [input, output] : golden) missing += seen.count(input) == 0 ? 1 : 0;
  EXPECT_EQ(missing, 0u) << "golden digests whose input line no longer exists";
  EXPECT_GT(checked, 1000u);
}

// parse_moving parses a line whose storage has simdjson's padding spare in place, without the
// copy parse() makes: the result must not depend on which path ran.
TEST(MessageParserGolden, ParsingInPlaceGivesTheSameOutputAsParsingACopy) {
  MessageParser parser;
  MessageDump dump;
  for (const auto& line : golden_inputs(source_dir())) {
    const std::string copied = dump(parser.parse(line));
    std::string padded;
    padded.reserve(line.size() + 64);
    padded.assign(line);
    const std::string in_place = dump(parser.parse_moving(std::move(padded)));
    ASSERT_EQ(in_place, copied) << "line: " << line;
  }
}

// On a ParseError parse_moving leaves the line as it was, whichever path ran.
TEST(MessageParserGolden, ParseMovingLeavesARejectedLineUntouched) {
  MessageParser parser;
  for (const std::string& line :
       {std::string(R"({"type":"assistant","message":{}})"),
        std::string(R"({"type":"result","subtype":"success"})"),
        std::string(R"({"type":"user","message":{"content":[{"type":1}]}})"),
        std::string("{not json")}) {
    std::string padded;
    padded.reserve(line.size() + 64);
    padded.assign(line);
    auto result = parser.parse_moving(std::move(padded));
    ASSERT_TRUE(std::holds_alternative<ParseError>(result)) << line;
    EXPECT_EQ(padded, line);  // NOLINT(bugprone-use-after-move): documented to stay
  }
}

}  // namespace
}  // namespace claude::sdk::testing
