// The regular file a scenario was loaded from, kept open so that a `raw` or `stderr` step reads
// its string back when it is replayed instead of holding it in memory from the load on.
//
// Why positioned reads and not a mapping: on a virtual machine (where CI runs) the first touch of
// each 4 KiB page of a mapped file costs a nested page walk, which made a 64 MiB load about three
// times slower than read(2) of the same bytes; reads go through the kernel's direct map.
//
// How it fails: read_quoted() returns false when the file no longer holds the bytes (truncated
// since the load) or cannot be read. A file rewritten in place gives other bytes, which the
// step's decode then refuses; either way the step fails instead of sending other bytes.
//
// What it costs: one duplicated descriptor for as long as a step needs it; one pread(2) per read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace claude::emulator {

class PositionedFile {
 public:
  // Keeps a duplicate of the open regular file `fd`; nullptr when it cannot be duplicated.
  static std::shared_ptr<const PositionedFile> keep(int fd);
  ~PositionedFile();
  PositionedFile(const PositionedFile&) = delete;
  PositionedFile& operator=(const PositionedFile&) = delete;

  // Reads the `size` bytes at `offset` with the byte before and the byte after them (a string
  // literal's quotes) into a new buffer of size + 2 bytes; nullptr when the file no longer holds
  // those bytes.
  [[nodiscard]] std::unique_ptr<char[]> read_quoted(std::uint64_t offset, std::size_t size) const;

 private:
  explicit PositionedFile(int fd) : fd_(fd) {}

  int fd_;
};

}  // namespace claude::emulator
