// fuzz_sdk_session: a whole SDK session, in process — the C++ SDK against fake-claude's Engine
// over InMemoryTransport (claude/fuzzing/in_process_run.hpp), with the mutators and oracles of
// `harness fuzz` (docs/fuzz.md).
//
// Input: the first 8 bytes seed the FuzzRng that picks a bundled conformance case and mutates
// it (hang mutations excluded: they would stall the run); the remaining bytes, if any, are
// written by the CLI as they are, plus a final newline when they lack one (a raw_b64 step), at a
// point the RNG picks. Oracles: none of
// harness fuzz's may fire (crash, hang, result-lost, uncaught-error, control answered twice or
// not at all); an SDK crash is a crash of this process.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "claude/base/base64.hpp"
#include "claude/fuzzing/in_process_run.hpp"
#include "claude/fuzzing/lenient.hpp"
#include "claude/fuzzing/mutator.hpp"
#include "claude/fuzzing/oracle.hpp"
#include "claude/fuzzing/seed_corpus.hpp"

namespace {

using namespace claude::fuzzing;

// Short waits: an in-process session should take milliseconds, not seconds.
constexpr LenientBounds kBounds{200, 1500, 3000};

// Loaded once before fuzzing starts: libFuzzer's per-input timeout does not run during
// LLVMFuzzerInitialize, and the load (every bundled case, parsed) is slow under a sanitizer.
std::vector<Seed> usable_seeds;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  auto load =
      load_seeds({std::string(CLAUDE_HARNESS_SOURCE_DIR) + "/scenarios/conformance"}, {}, kBounds);
  for (auto& seed : load.seeds)
    if (runs_in_process(seed.doc)) usable_seeds.push_back(std::move(seed));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& all = usable_seeds;
  if (size < 8 || all.empty()) return 0;
  std::uint64_t seed_value = 0;
  std::memcpy(&seed_value, data, sizeof seed_value);
  FuzzRng rng(seed_value, 0);
  const Seed& seed = all[rng.below(all.size())];
  MutateOptions options;
  options.allow_hang = false;
  auto mutation = mutate(seed.doc, rng, options);
  if (!mutation) return 0;
  ScenarioDoc doc = std::move(mutation->doc);
  if (size > 8) {
    std::size_t end = 0;
    while (end < doc.steps.size() && !is_ending(doc.steps[end])) ++end;
    const std::size_t at = rng.between(std::min<std::size_t>(1, end), end);
    // Ended by a newline, so the bytes cannot glue themselves to the next line (which would turn,
    // say, a CLI request into a line no SDK can read, and a "missing answer" into noise).
    std::string rest(reinterpret_cast<const char*>(data) + 8, size - 8);
    if (rest.back() != '\n') rest.push_back('\n');
    doc.steps.insert(doc.steps.begin() + static_cast<std::ptrdiff_t>(at),
                     Json::object({{"raw_b64", claude::base::base64_encode(rest)}}));
  }
  make_lenient(doc, kBounds);
  if (!load_errors(doc).empty()) return 0;
  const auto run = run_in_process(doc);
  if (!run) return 0;
  const auto violations = check_oracles(doc, *run);
  if (violations.empty()) return 0;
  std::fprintf(stderr, "fuzz_sdk_session: %s: %s\nscenario:\n%s",
               violations.front().signature().c_str(), violations.front().message.c_str(),
               render(doc).c_str());
  std::abort();
}
