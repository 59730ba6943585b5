// SIGPIPE handling for threads that write to pipes.
//
// Why: a write to a pipe whose reader is gone raises SIGPIPE, which by default kills the host.
// Writers block SIGPIPE around each write and consume the pending signal on EPIPE; that costs two
// extra system calls per frame, which shows on the control round trip. The SDK's own engine
// threads block SIGPIPE once for their whole life instead, and writers skip the per-write masking
// there. Threads of the host are never changed permanently.
// How it fails: it does not; a blocked SIGPIPE only turns the fatal signal into EPIPE.
// What it costs: one pthread_sigmask per engine thread; a thread-local read per write.
#pragma once

namespace claude::sdk::detail {

// Blocks SIGPIPE on the calling thread for the rest of its life (SDK-owned threads only).
void block_sigpipe_on_this_thread() noexcept;
// Whether the calling thread is one that block_sigpipe_on_this_thread() was called on.
bool sigpipe_blocked_on_this_thread() noexcept;

}  // namespace claude::sdk::detail
