// write_all: every byte of a buffer to a file descriptor, the one write loop of the project.
//
// What it is: write(2) repeated over short writes and EINTR until the bytes are gone. With
// `stop`, a flag a signal handler sets, it gives up before the next write once the flag is set
// (fake-claude stops writing stderr when it is told to terminate).
//
// How it fails: returns false with errno set: the write's own error (EPIPE, EBADF, …), EIO when
// write(2) returned 0, or EINTR when `stop` was set. SIGPIPE is not touched: callers that may
// write to a closed pipe block or ignore it.
//
// What it costs: one write(2) per short write; no allocation.
#pragma once

#include <csignal>
#include <string_view>

namespace claude::base {

bool write_all(int fd, std::string_view bytes, const volatile std::sig_atomic_t* stop = nullptr);

}  // namespace claude::base
