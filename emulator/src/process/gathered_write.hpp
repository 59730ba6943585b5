// Writes a run of byte strings to one descriptor with as few writev(2) calls as it takes, so
// that the outputs of steps the engine ran together (up to its 1 MiB backlog) reach a pipe in one
// call: the reader is woken once per run instead of once per step, and takes the run in one read.
//
// How it fails: stops at the first error other than EINTR (EPIPE when the reader is gone) and
// says how many strings went out whole; errno is left as the failed call set it. With `stop`
// given, it also stops (errno EINTR) once a signal cut a write short and *stop is set: a writer
// blocked on a pipe nobody reads can then still answer SIGTERM.
//
// What it costs: one writev(2) per IOV_MAX strings, plus one per partial write.
#pragma once

#include <csignal>
#include <cstddef>
#include <span>
#include <string_view>

namespace claude::emulator::detail {

// Writes `pieces` to `fd` in order; returns how many of them were written whole (pieces.size()
// when all were). Empty pieces count as written.
std::size_t write_gathered(int fd, std::span<const std::string_view> pieces,
                           const volatile std::sig_atomic_t* stop = nullptr);

}  // namespace claude::emulator::detail
