// fuzz_recording_reader: recordings (format v1) through the loader fake-claude and `harness
// convert` use. The input is the recording's body; the target puts a valid header in front so
// the search spends its time on events, not on finding the header.
//
// Oracles: no crash, leak or UB; errors name the file and a line inside the input; a recording
// that loads converts (`to_ndjson`) into a scenario that loads with the same verbs (a verbatim
// line may come back as `raw`).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "claude/emulator/scenario.hpp"
#include "fuzz_oracle.hpp"

namespace {

// A recorded line that is not JSON is replayed verbatim; `to_ndjson` writes it as `raw`, which
// writes the same bytes.
bool same_kind(const claude::emulator::Step& converted, const claude::emulator::Step& recorded) {
  using claude::emulator::Verb;
  const bool recorded_verbatim =
      recorded.verb == Verb::raw || (recorded.verb == Verb::send && recorded.verbatim);
  if (recorded_verbatim) return converted.verb == Verb::raw || converted.verb == Verb::send;
  return converted.verb == recorded.verb;
}

constexpr std::string_view kHeader =
    R"({"recording":1,"argv":["-p"],"cli":"claude","cli_version":"2.1.332"})"
    "\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(kHeader);
  text.append(reinterpret_cast<const char*>(data), size);
  const auto result = claude::emulator::load_scenario_text(text, "fuzz-recording.ndjson");
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  CHECK(result.ok() == result.errors.empty());
  for (const auto& error : result.errors) {
    CHECK(error.file == "fuzz-recording.ndjson");
    CHECK(error.line <= lines);
    CHECK(!error.reason.empty());
  }
  if (!result.ok()) return 0;
  CHECK(result.scenario->from_recording);

  const std::string converted = claude::emulator::to_ndjson(*result.scenario);
  const auto again = claude::emulator::load_scenario_text(converted, "converted.ndjson");
  CHECK(again.ok());
  CHECK(again.scenario->steps.size() == result.scenario->steps.size());
  for (std::size_t i = 0; i < again.scenario->steps.size(); ++i)
    CHECK(same_kind(again.scenario->steps[i], result.scenario->steps[i]));
  return 0;
}
