// MessageQueueStats: what the hand-off between the SDK's reader and the consumer did so far.
//
// What it is: counters of one session's message queue (messages read from the CLI's stdout and
// not yet returned by `Client::receive_*` / `Query::next`), for our tests, benchmarks and tuning
// of `Options::max_queued_message_bytes`; internal (in-tree users link claude::sdk_internals).
// Bytes are line bytes as received; a parsed message takes about twice that in memory (its line
// plus its typed fields).
// How it fails: it does not; a snapshot taken while the session runs.
// What it costs: one lock to take the snapshot.
#pragma once

#include <cstddef>
#include <cstdint>

namespace claude::sdk {

class Client;
class Query;

struct MessageQueueStats {
  std::size_t queued_bytes = 0;        // received, not yet returned to the consumer
  std::size_t peak_queued_bytes = 0;   // the highest `queued_bytes` so far
  std::uint64_t consumer_wakeups = 0;  // the consumer slept for a message and was woken
  std::uint64_t reader_waits = 0;      // the reader stopped reading because the queue was full
};

// The session's counters (thread-safe; all zero for a moved-from Query).
MessageQueueStats message_queue_stats(const Client& client);
MessageQueueStats message_queue_stats(const Query& query);

}  // namespace claude::sdk
