#include "claude/base/write_all.hpp"

#include <unistd.h>

#include <cerrno>

namespace claude::base {

bool write_all(int fd, std::string_view bytes, const volatile std::sig_atomic_t* stop) {
  while (!bytes.empty()) {
    if (stop != nullptr && *stop != 0) {  // checked before each (blocking) write
      errno = EINTR;
      return false;
    }
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace claude::base
