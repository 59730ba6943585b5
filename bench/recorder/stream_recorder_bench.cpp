// The recording core alone (split, redact, encode), in bytes per second of forwarded stream:
// the CPU claude-tee spends per byte besides forwarding it.
#include <benchmark/benchmark.h>

#include <string>

#include "claude/base/json_escape.hpp"
#include "claude/recorder/stream_recorder.hpp"

namespace {

using namespace claude::recorder;

std::string ndjson_chunk() {
  const std::string line =
      R"({"type":"assistant","message":{"id":"msg_01","content":[{"type":"text","text":"Hello \"world\", here is some text."}]},"session_id":"abc"})"
      "\n";
  std::string chunk;
  while (chunk.size() + line.size() <= (256u << 10)) chunk += line;
  return chunk;
}

// Records the same 256 KiB chunk of stdout over and over.
void record_chunks(benchmark::State& state, const Redactor& redactor) {
  StreamRecorder recorder(Stream::out, redactor);
  const std::string chunk = ndjson_chunk();
  std::string out;
  for (auto _ : state) {
    out.clear();
    recorder.on_chunk(chunk, 1.0, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * chunk.size()));
}

void BM_StreamRecorderNdjson(benchmark::State& state) {
  const auto redactor = Redactor::with_builtin_rules();
  record_chunks(state, redactor);
}
BENCHMARK(BM_StreamRecorderNdjson);

void BM_RedactorScanWithoutSecrets(benchmark::State& state) {
  const auto redactor = Redactor::with_builtin_rules();
  const std::string chunk = ndjson_chunk();
  std::string out;
  for (auto _ : state) benchmark::DoNotOptimize(redactor.redact(chunk, out));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * chunk.size()));
}
BENCHMARK(BM_RedactorScanWithoutSecrets);

// A user rule has no literal for the prefilter: one RE2 scan of every chunk.
void BM_StreamRecorderNdjsonWithUserRule(benchmark::State& state) {
  auto redactor = Redactor::with_builtin_rules();
  redactor.add_rule("customer-id", R"(\b[0-9]{2}-[0-9]{4}-[0-9]{2}\b)", "bench");
  record_chunks(state, redactor);
}
BENCHMARK(BM_StreamRecorderNdjsonWithUserRule);

void BM_EscapeJsonString(benchmark::State& state) {
  const std::string chunk = ndjson_chunk();
  std::string out;
  for (auto _ : state) {
    out.clear();
    claude::base::append_json_string(out, chunk);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * chunk.size()));
}
BENCHMARK(BM_EscapeJsonString);

}  // namespace

BENCHMARK_MAIN();
