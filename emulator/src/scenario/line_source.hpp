// Splits a scenario or recording file into numbered lines with the shared LineBuffer, so files
// are framed exactly like the SDK's stdin (CRLF and BOM tolerated, '\n' the only separator).
//
// A regular file is mapped (MappedFile) and fed to the LineBuffer in slices that end after a
// '\n', so every complete line is a view into the mapping, parsed in place; only a last line
// without '\n' is copied. Pipes and FIFOs are read in chunks.
//
// What it costs: one pass over the bytes (memchr for '\n'); for_each_matched_file_line adds a
// match per line (escaped_string_line.hpp) and, for a large file, a second thread for the load.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "claude/sdk/line_buffer.hpp"
#include "escaped_string_line.hpp"
#include "mapped_file.hpp"

namespace claude::emulator::detail {

// Called for every line, blank ones included, with its 1-based number. Return false to stop.
using LineSink = std::function<bool(std::size_t line_no, const sdk::LineEvent& event)>;

// The same, with match_escaped_string_line's answer for each complete line inside the mapping
// (nullopt for any other line). The sink still gets every line in file order, on the calling
// thread.
using MatchedLineSink = std::function<bool(std::size_t line_no, const sdk::LineEvent& event,
                                           const std::optional<EscapedStringLine>& escaped)>;

// Lines of a scenario file may hold a whole recorded frame; the recorder splits above its piece
// size, so this only guards against runaway input.
inline constexpr std::size_t kMaxFileLineBytes = std::size_t{256} << 20;

// A FIFO or pipe (`harness lint <(cmd)`) is read until its writer closes it; when its writer
// sends nothing for this long, reading stops with an error instead of waiting forever.
inline constexpr int kPipeIdleTimeoutMs = 10'000;

// Returns an error text when the file cannot be read: it cannot be opened, it is a device or a
// socket (not a regular file), it is a FIFO without a writer, or its writer stalls (above).
// When the file was mapped, `*mapping` (if given) holds the mapping before the first line.
std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink,
                                              std::shared_ptr<const MappedFile>* mapping = nullptr);
// A mapped file above this size is framed and matched in two halves (below).
inline constexpr std::size_t kParallelMatchBytes = std::size_t{4} << 20;

// for_each_file_line for scenario loading, each line with its match. A mapped file above
// kParallelMatchBytes is split after the first '\n' past its middle; a second thread frames,
// matches and releases the second half while the sink reads the first, and its events are then
// delivered in order. The events, their numbers and the sink's calls are those of one thread;
// the load's resident memory stays at about two slices.
std::optional<std::string> for_each_matched_file_line(
    const std::filesystem::path& path, const MatchedLineSink& sink,
    std::shared_ptr<const MappedFile>* mapping = nullptr);
void for_each_text_line(std::string_view text, const LineSink& sink);

}  // namespace claude::emulator::detail
