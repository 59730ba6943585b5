// Writes a run of byte strings to one descriptor with as few writev(2) calls as it takes, so the
// outputs of steps the engine ran together wake the reader once, not once per step.
//
// How it fails: stops at the first error other than EINTR (errno as the failed call set it) and
// says how many strings went out whole. With `stop` given, it also stops (errno EINTR) once a
// signal cut a write short and *stop is set, so a writer blocked on a full pipe can answer SIGTERM.
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
