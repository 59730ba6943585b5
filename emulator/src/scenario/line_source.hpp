// Splits a scenario or recording file into numbered lines with the shared LineBuffer, so files
// are framed exactly like the SDK's stdin (CRLF and BOM tolerated, '\n' the only separator).
//
// A regular file is read in blocks of 1 MiB (larger while a line does not fit) and fed to the
// LineBuffer in slices that end after a '\n', so every complete line is a view into the block,
// followed by readable padding, and can be parsed in place; only a line longer than the largest
// block, or a last line without '\n', is copied. Pipes and FIFOs are read in chunks.
//
// What it costs: one read(2) copy and one pass over the bytes (memchr for '\n');
// for_each_matched_file_line adds a match per line (escaped_string_line.hpp), and for a file of
// kSplitFileBytes or more a second thread that reads the back half.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "claude/sdk/line_buffer.hpp"
#include "escaped_string_line.hpp"
#include "positioned_file.hpp"

namespace claude::emulator::detail {

// Called for every line, blank ones included, with its 1-based number. Return false to stop.
using LineSink = std::function<bool(std::size_t line_no, const sdk::LineEvent& event)>;

// A `raw` or `stderr` string that lies in a regular file: its key and where the bytes between its
// quotes are.
struct FileString {
  std::string_view key;  // "raw" or "stderr" (static text)
  std::uint64_t literal_offset = 0;
  std::size_t literal_size = 0;
};

// A complete line that is a view into a block read from a regular file: where its text starts in
// the file, and, when match_escaped_string_line takes it, where its string is. Its text, when the
// sink gets it, is followed by kJsonPadding readable bytes.
struct FileLine {
  std::uint64_t offset = 0;
  std::optional<FileString> escaped;
};

// The FileLine of the line `text` that starts at `offset` in the file.
FileLine match_file_line(std::uint64_t offset, std::string_view text);

// How scenario files are framed: blank lines are delivered (they count), lines up to
// kMaxFileLineBytes.
sdk::LineBufferOptions file_line_options();

// The same, with `in_file` for a line that is a view into a block of a regular file (nullptr for
// any other line). The sink gets every line in file order. A line whose `in_file->escaped` is set
// may come with an empty text, but only while `takes_strings_alone()` is true.
using MatchedLineSink =
    std::function<bool(std::size_t line_no, const sdk::LineEvent& event, const FileLine* in_file)>;

// Lines of a scenario file may hold a whole recorded frame; the recorder splits above its piece
// size, so this only guards against runaway input.
inline constexpr std::size_t kMaxFileLineBytes = std::size_t{256} << 20;

// A FIFO or pipe (`harness lint <(cmd)`) is read until its writer closes it; when its writer
// sends nothing for this long, reading stops with an error instead of waiting forever.
inline constexpr int kPipeIdleTimeoutMs = 10'000;

// A regular file at least this large is loaded by two threads when the machine has two cores.
inline constexpr std::uint64_t kSplitFileBytes = std::uint64_t{8} << 20;

// Returns an error text when the file cannot be read: it cannot be opened, it is a device or a
// socket (not a regular file), it is a FIFO without a writer, or its writer stalls (above).
std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink);
// for_each_file_line for scenario loading. For a regular file, `*file` (if given) holds the open
// file before the first line, for steps that read their bytes back from it. When
// `takes_strings_alone` is given, a large regular file is read by two threads
// (back_half_reader.hpp).
std::optional<std::string> for_each_matched_file_line(
    const std::filesystem::path& path, const MatchedLineSink& sink,
    std::shared_ptr<const PositionedFile>* file = nullptr,
    const std::function<bool()>& takes_strings_alone = nullptr);
void for_each_text_line(std::string_view text, const LineSink& sink);

}  // namespace claude::emulator::detail
