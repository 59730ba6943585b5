#include "positioned_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

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
  std::size_t done = 0;
  while (done < wanted) {
    const ssize_t n =
        ::pread(fd_, out.get() + done, wanted - done, static_cast<off_t>(offset - 1 + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return nullptr;
    done += static_cast<std::size_t>(n);
  }
  return out;
}

}  // namespace claude::emulator
