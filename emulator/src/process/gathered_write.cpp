#include "gathered_write.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <vector>

namespace claude::emulator::detail {

std::size_t write_gathered(int fd, std::span<const std::string_view> pieces,
                           const volatile std::sig_atomic_t* stop) {
  std::size_t whole = 0;  // pieces written completely
  std::size_t sent = 0;   // bytes written from the start of pieces[whole] on
  std::vector<iovec> vectors;
  for (;;) {
    while (whole < pieces.size() && sent >= pieces[whole].size()) sent -= pieces[whole++].size();
    if (whole == pieces.size()) return whole;
    // A signal may have cut the last write short rather than failed it: check before blocking.
    if (stop != nullptr && *stop != 0) {
      errno = EINTR;
      return whole;
    }
    const std::size_t count = std::min<std::size_t>(pieces.size() - whole, IOV_MAX);
    vectors.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string_view piece = pieces[whole + i];
      const std::size_t skip = i == 0 ? sent : 0;
      // writev(2) takes non-const bases; it only reads them.
      vectors[i].iov_base = const_cast<char*>(piece.data() + skip);
      vectors[i].iov_len = piece.size() - skip;
    }
    const ssize_t written = ::writev(fd, vectors.data(), static_cast<int>(count));
    if (written < 0) {
      if (errno == EINTR) continue;
      return whole;
    }
    sent += static_cast<std::size_t>(written);
  }
}

}  // namespace claude::emulator::detail
