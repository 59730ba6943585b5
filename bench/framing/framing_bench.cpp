// Framing and parsing throughput on the deterministic session corpus (bench/session-corpus).
//
//  BM_LineBuffer/<chunk>      LineBuffer alone, fed in chunks of 1 B, 4 KiB and 64 KiB.
//  BM_MessageParser           MessageParser alone over pre-split lines (MB/s and messages/s).
//  BM_FramingAndParsing       both, 64 KiB chunks: what an SDK reading a pipe does.
#include <benchmark/benchmark.h>

#include <string>
#include <string_view>
#include <vector>

#include "claude/sdk/line_buffer.hpp"
#include "messages/message_parser.hpp"
#include "session_corpus.hpp"

namespace {

// 16 MiB keeps the 1-byte case under a second per iteration while holding ~100 large payloads.
const std::string& corpus() {
  static const std::string text = claude::bench::make_session_corpus(16u << 20);
  return text;
}

const std::vector<std::string_view>& corpus_lines() {
  static const std::vector<std::string_view> lines = [] {
    std::vector<std::string_view> out;
    claude::sdk::LineBuffer buffer;
    // The whole corpus is one chunk, so every view points into corpus() and stays valid.
    buffer.feed(corpus(), [&](const claude::sdk::LineEvent& e) { out.push_back(e.text); });
    return out;
  }();
  return lines;
}

void BM_LineBuffer(benchmark::State& state) {
  const std::string& text = corpus();
  const auto chunk = static_cast<std::size_t>(state.range(0));
  std::size_t lines = 0;
  for (auto _ : state) {
    claude::sdk::LineBuffer buffer;
    auto count = [&](const claude::sdk::LineEvent& e) {
      benchmark::DoNotOptimize(e.text.data());
      ++lines;
    };
    for (std::size_t pos = 0; pos < text.size(); pos += chunk) {
      buffer.feed(std::string_view(text).substr(pos, chunk), count);
    }
    buffer.finish(count);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["lines"] = static_cast<double>(lines) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_LineBuffer)->Arg(1)->Arg(4 << 10)->Arg(64 << 10)->Unit(benchmark::kMillisecond);

void BM_MessageParser(benchmark::State& state) {
  const auto& lines = corpus_lines();
  std::size_t bytes = 0;
  for (auto line : lines) bytes += line.size() + 1;
  claude::sdk::MessageParser parser;
  std::size_t errors = 0;
  for (auto _ : state) {
    for (auto line : lines) {
      auto result = parser.parse(line);
      errors += result.index();
      benchmark::DoNotOptimize(result);
    }
  }
  if (errors != 0) state.SkipWithError("corpus line failed to parse");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * lines.size()));
  state.counters["messages_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * lines.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MessageParser)->Unit(benchmark::kMillisecond);

void BM_FramingAndParsing(benchmark::State& state) {
  const std::string& text = corpus();
  constexpr std::size_t kChunk = 64 << 10;
  claude::sdk::MessageParser parser;
  std::size_t messages = 0;
  for (auto _ : state) {
    claude::sdk::LineBuffer buffer;
    auto parse = [&](const claude::sdk::LineEvent& e) {
      auto result = parser.parse(e.text);
      messages += result.index() == 0;
      benchmark::DoNotOptimize(result);
    };
    for (std::size_t pos = 0; pos < text.size(); pos += kChunk) {
      buffer.feed(std::string_view(text).substr(pos, kChunk), parse);
    }
    buffer.finish(parse);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["messages_per_s"] =
      benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FramingAndParsing)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
