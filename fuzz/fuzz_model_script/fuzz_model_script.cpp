// fuzz_model_script: model-stub's script reader over arbitrary bytes.
//
// Oracles: the reader either returns a script or throws ModelScriptError whose message starts
// with "fuzz.ndjson:<line>:" — never another exception, a crash, a leak or UB.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "claude/model_stub/model_script.hpp"
#include "fuzz_oracle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)claude::model_stub::parse_model_script(text, "fuzz.ndjson");
  } catch (const claude::model_stub::ModelScriptError& e) {
    const std::string_view what = e.what();
    CHECK(what.starts_with("fuzz.ndjson:"));
    const auto colon = what.find(':', 12);
    CHECK(colon != std::string_view::npos && colon > 12);
    for (std::size_t i = 12; i < colon; ++i) CHECK(what[i] >= '0' && what[i] <= '9');
  }
  return 0;
}
