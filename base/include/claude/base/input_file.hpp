// How every tool reads a file a user names: scenarios, recordings, model scripts, redaction
// rules, driver specs, conformance cases and reports all come through here, so no path can make a
// tool read forever or without bound.
//
// What it accepts: a regular file of at most `max_bytes`, or a pipe with a writer attached
// (`harness lint <(cmd)`), read until the writer closes it, up to the same size, and given up
// when the writer sends nothing for `pipe_idle_timeout_ms`.
//
// How it fails: the functions return a reason (without the path; callers add it in their own
// `file:line:` form): the file cannot be opened or read, it is a device or a socket (/dev/zero, a
// terminal: they never end), it is a FIFO with no writer, it is larger than the limit (checked
// before reading a regular file, and again while reading, as a file or pipe may grow), or its
// pipe writer stalls. Tools exit 2 on any of these (docs/exit-codes.md).
//
// What it costs: one open, one fstat and read(2)s in chunks of up to 1 MiB; read_input_file
// holds the whole file once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace claude::base {

// Scenarios, recordings and reports: far above any recorded session, far below the memory a
// runaway read would take.
inline constexpr std::uint64_t kMaxInputFileBytes = std::uint64_t{1} << 30;
// Small hand-written inputs (model scripts, redaction rules, driver specs, conformance cases).
inline constexpr std::uint64_t kMaxConfigFileBytes = std::uint64_t{64} << 20;

struct InputLimits {
  std::uint64_t max_bytes = kMaxInputFileBytes;
  // A pipe whose writer sends nothing for this long is an error, not a wait forever.
  int pipe_idle_timeout_ms = 10'000;
};

// Called with each chunk read, in order. Return false to stop reading (not an error).
using ChunkSink = std::function<bool(std::string_view chunk)>;

// Streams the file to `sink`; nullopt once the whole file (or what the sink wanted) was read,
// else the reason it could not be.
std::optional<std::string> for_each_input_chunk(const std::filesystem::path& path,
                                                const ChunkSink& sink,
                                                const InputLimits& limits = {});

// The whole file; nullopt with `error` set to the reason when it cannot be read.
std::optional<std::string> read_input_file(const std::filesystem::path& path, std::string& error,
                                           const InputLimits& limits = {});

}  // namespace claude::base
