#include "claude/conformance/report_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace claude::conformance {

bool write_report_file(const std::filesystem::path& path, std::string_view text, bool replace,
                       std::string_view command, std::ostream& err) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replace ? O_TRUNC : O_EXCL);
  const int fd = ::open(path.c_str(), flags, 0600);
  if (fd < 0) {
    err << command << ": cannot write " << path.string() << ": " << std::strerror(errno)
        << (errno == EEXIST ? " (use --force to replace it)" : "") << "\n";
    return false;
  }
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      err << command << ": cannot write " << path.string() << ": " << std::strerror(errno) << "\n";
      ::close(fd);
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return ::close(fd) == 0;
}

}  // namespace claude::conformance
