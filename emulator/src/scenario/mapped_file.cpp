#include "mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "claude/emulator/json_text.hpp"

namespace claude::emulator {
namespace {

std::size_t page_size() {
  static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

std::variant<std::shared_ptr<const MappedFile>, std::string> MappedFile::map(int fd,
                                                                             std::size_t size) {
  if (size == 0) return std::string("empty file");
  const std::size_t page = page_size();
  const std::size_t reserved = (size + kJsonPadding + page - 1) / page * page;
  void* reservation =
      ::mmap(nullptr, reserved, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reservation == MAP_FAILED) return std::string("cannot map: ") + std::strerror(errno);
  void* file = ::mmap(reservation, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
  const int kept = file == MAP_FAILED ? -1 : ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (kept < 0) {
    std::string error = std::string("cannot map: ") + std::strerror(errno);
    ::munmap(reservation, reserved);
    return error;
  }
  return std::shared_ptr<const MappedFile>(
      new MappedFile(static_cast<const char*>(file), size, reserved, kept));
}

MappedFile::~MappedFile() {
  ::munmap(const_cast<char*>(base_), reserved_);
  ::close(fd_);
}

bool MappedFile::still_whole() const {
  struct stat status {};
  return ::fstat(fd_, &status) == 0 && static_cast<std::size_t>(status.st_size) >= size_;
}

void MappedFile::release(std::string_view text) const {
  if (!contains(text)) return;
  const std::size_t page = page_size();
  // Only the pages wholly inside `text`: its first page boundary up to its last one.
  char* const begin = const_cast<char*>(text.data());
  char* const end = begin + text.size();
  char* const from = begin + (page - reinterpret_cast<std::uintptr_t>(begin) % page) % page;
  char* const to = end - reinterpret_cast<std::uintptr_t>(end) % page;
  if (from < to) ::madvise(from, static_cast<std::size_t>(to - from), MADV_DONTNEED);
}

}  // namespace claude::emulator
