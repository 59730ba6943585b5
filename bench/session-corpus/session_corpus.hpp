// A deterministic, realistic stream-json session for benchmarks (CLI → SDK direction).
//
// What it is: turns of a streaming session as the CLI writes them with
// --include-partial-messages: many ~250-byte `stream_event` deltas, `assistant` frames with
// thinking, text and tool_use blocks, `user` tool_result frames whose payloads range from a few
// hundred bytes to ~200 KiB (escapes and multi-byte text included), a `rate_limit_event` now and
// then and a `result` every few turns. The same seed always gives the same bytes.
//
// How it fails: it does not (std::bad_alloc aside).
// What it costs: about as much memory as the bytes asked for; ~1 s per 64 MiB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace claude::bench {

// NDJSON lines, each ending in '\n', appended turn by turn until at least `min_bytes` are there.
std::string make_session_corpus(std::size_t min_bytes, std::uint64_t seed = 1);

}  // namespace claude::bench
