// Reads a range of a regular file in blocks and feeds the shared LineBuffer slices that end just
// after a '\n', so that every complete line is a view into the block, followed by at least
// kJsonPadding readable bytes of it, while a Slice says where in the file it lies. A line longer
// than the largest block is fed in pieces (the LineBuffer copies it).
//
// How it fails: returns an error text when a read fails; the lines before it were delivered.
//
// What it costs: one pread(2) copy and one memrchr per block; blocks of 1 MiB (a small file gets a
// block of its size), doubled while a line does not fit, up to 16 MiB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "claude/sdk/line_buffer.hpp"

namespace claude::emulator::detail {

// Where the slice of a block being fed lies; begin == nullptr between slices.
struct Slice {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::uint64_t offset = 0;  // in the file, of `begin`

  // The offset in the file of `event`'s text when it is a complete line inside the slice.
  [[nodiscard]] std::optional<std::uint64_t> offset_of(const sdk::LineEvent& event) const;
};

using LineDelivery = std::function<void(const sdk::LineEvent&)>;

// Reads the regular file `fd` from `begin` (the start of a line) to `end`, or to its end of file
// when `end` is nullopt, and feeds `buffer`; finishes the buffer (a last line without '\n') only
// when reading to the end of file. Stops between slices once `go_on` is false. `size_hint` (the
// bytes expected) picks the first block's size.
std::optional<std::string> read_file_blocks(int fd, std::uint64_t begin,
                                            std::optional<std::uint64_t> end, std::size_t size_hint,
                                            sdk::LineBuffer& buffer, const bool& go_on,
                                            Slice& slice, LineDelivery& deliver);

// Reads exactly `size` bytes at `offset` of `fd` into `out` (pread(2), retried after a signal or
// a short read); false at a read error or when the file ends first (errno EIO then).
bool read_exactly(int fd, char* out, std::size_t size, std::uint64_t offset);

// The error text of a failed call, with errno's reason.
std::string error_text(std::string_view what);

}  // namespace claude::emulator::detail
