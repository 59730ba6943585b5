// fuzz_scenario_loader: the scenario loader must turn any bytes into either a scenario or a list
// of file:line errors, never a crash, and a loaded scenario must survive `to_ndjson`.
//
// Oracles: every error names the file and a line within the input (0 = the file as a whole) and
// has a reason; a loaded scenario written back with `to_ndjson` loads again with the same verbs
// in the same order; every line the fast `raw`/`stderr` matcher of a mapped file takes
// (escaped_string_line.hpp) is one the JSON parser takes as the same member with the same literal,
// and the replay's decode of that literal gives the bytes simdjson decodes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "claude/emulator/json_text.hpp"
#include "claude/emulator/scenario.hpp"
#include "escaped_string_line.hpp"
#include "fuzz_oracle.hpp"

namespace {

// The matcher may refuse what the parser takes (the load then parses the line), never the reverse.
void check_fast_matcher_agrees(std::string_view line) {
  using namespace claude::emulator;
  // The replay's decode validates as it goes, and must refuse exactly what the load refuses; every
  // instruction set the CPU runs gives the same answers.
  const auto decoded = detail::decode_json_string_body(line);
  CHECK(decoded.has_value() == detail::is_json_string_body(line));
  for (auto scan :
       {detail::StringScan::avx512, detail::StringScan::sse, detail::StringScan::portable}) {
    if (detail::usable_scan(scan) != scan) continue;
    CHECK(detail::decode_json_string_body(line, scan) == decoded);
    CHECK(detail::is_json_string_body(line, scan) == decoded.has_value());
  }
  const auto fast = detail::match_escaped_string_line(line);
  if (!fast) return;
  static constexpr std::string_view kKeys[] = {"raw", "stderr"};
  std::string padded(line);
  padded.append(kJsonPadding, ' ');
  bool parsed_as_member = false;
  try {
    auto parsed = parse_json_line(std::string_view(padded.data(), line.size()), true, kKeys);
    if (const auto* member = std::get_if<JsonStringMember>(&parsed)) {
      CHECK(member->key == fast->key);
      CHECK(member->literal.data() - padded.data() == fast->literal.data() - line.data());
      CHECK(member->literal.size() == fast->literal.size());
      CHECK(detail::decode_json_string_body(fast->literal) ==
            decode_json_string_literal(member->literal));
      parsed_as_member = true;
    }
  } catch (const Json::exception&) {
  }
  CHECK(parsed_as_member);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    check_fast_matcher_agrees(text.substr(at, end - at));
    at = end + 1;
  }
  const auto result = claude::emulator::load_scenario_text(text, "fuzz.ndjson");
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  CHECK(result.ok() == result.errors.empty());
  for (const auto& error : result.errors) {
    CHECK(error.file == "fuzz.ndjson");
    CHECK(error.line <= lines);
    CHECK(!error.reason.empty());
  }
  if (!result.ok()) return 0;

  const std::string written = claude::emulator::to_ndjson(*result.scenario);
  const auto again = claude::emulator::load_scenario_text(written, "written.ndjson");
  CHECK(again.ok());
  CHECK(again.scenario->steps.size() == result.scenario->steps.size());
  for (std::size_t i = 0; i < again.scenario->steps.size(); ++i)
    CHECK(again.scenario->steps[i].verb == result.scenario->steps[i].verb);
  return 0;
}
