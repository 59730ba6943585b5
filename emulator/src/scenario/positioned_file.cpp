#include "positioned_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "file_blocks.hpp"

namespace claude::emulator {

std::shared_ptr<const PositionedFile> PositionedFile::keep(int fd) {
  const int kept = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (kept < 0) return nullptr;
  return std::shared_ptr<const PositionedFile>(new PositionedFile(kept));
}

PositionedFile::~PositionedFile() {
  ::close(fd_);
}

std::unique_ptr<char[]> PositionedFile::read_quoted(std::uint64_t offset, std::size_t size) const {
  if (offset == 0) return nullptr;  // a literal always follows its opening quote
  const std::size_t wanted = size + 2;
  auto out = std::make_unique_for_overwrite<char[]>(wanted);
  if (!detail::read_exactly(fd_, out.get(), wanted, offset - 1)) return nullptr;
  return out;
}

}  // namespace claude::emulator
