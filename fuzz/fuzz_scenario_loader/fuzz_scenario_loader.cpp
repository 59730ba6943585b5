// fuzz_scenario_loader: the scenario loader must turn any bytes into either a scenario or a list
// of file:line errors, never a crash, and a loaded scenario must survive `to_ndjson`.
//
// Oracles: every error names the file and a line within the input (0 = the file as a whole) and
// has a reason; a loaded scenario written back with `to_ndjson` loads again with the same verbs
// in the same order, and its `raw` and `stderr` steps write the same bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "claude/emulator/scenario.hpp"
#include "fuzz_oracle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using claude::emulator::Verb;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
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
  for (std::size_t i = 0; i < again.scenario->steps.size(); ++i) {
    const auto& step = result.scenario->steps[i];
    CHECK(again.scenario->steps[i].verb == step.verb);
    if (step.verb == Verb::raw || step.verb == Verb::stderr_text) {
      CHECK(again.scenario->steps[i].text == step.text);
    }
  }
  return 0;
}
