// Splits a scenario or recording file, or text in memory, into numbered lines with the shared
// LineBuffer, so files are framed exactly like the SDK's stdin (CRLF and BOM tolerated, '\n' the
// only separator, blank lines delivered: they count).
//
// How it fails: for_each_file_line returns an error text when the file cannot be read (see
// claude/base/input_file.hpp). A line above kMaxFileLineBytes comes as an oversized event.
//
// What it costs: one read(2) copy in chunks of up to 1 MiB and one memchr pass for the '\n's; a
// line that spans two chunks is copied once more.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "claude/base/line_buffer.hpp"

namespace claude::emulator::detail {

// Called for every line, blank ones included, with its 1-based number. Return false to stop.
using LineSink = std::function<bool(std::size_t line_no, const base::LineEvent& event)>;

// Lines of a scenario file may hold a whole recorded frame; the recorder splits above its piece
// size, so this only guards against runaway input.
inline constexpr std::size_t kMaxFileLineBytes = std::size_t{256} << 20;

std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink);
void for_each_text_line(std::string_view text, const LineSink& sink);

}  // namespace claude::emulator::detail
