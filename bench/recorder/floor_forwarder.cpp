// The floor for claude-tee's costs: the same process shape (a child on three pipes, one thread
// per stream, blocking read(2)/write(2) with the same buffer and pipe sizes) and nothing else —
// no line splitting, no redaction, no recording.
//   floor_forwarder PROGRAM [ARGS...]
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "claude/base/subprocess.hpp"

extern char** environ;

namespace {

constexpr std::size_t kReadBytes = 256u << 10;

void forward(int src, int dst, bool close_dst) {
  std::unique_ptr<char[]> buf(new char[kReadBytes]);
  while (true) {
    const ssize_t n = ::read(src, buf.get(), kReadBytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const char* p = buf.get();
    auto left = static_cast<std::size_t>(n);
    while (left > 0) {
      const ssize_t w = ::write(dst, p, left);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return;
      p += w;
      left -= static_cast<std::size_t>(w);
    }
  }
  if (close_dst) ::close(dst);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC)) return 2;
  for (int fd : {in[1], out[0], err[0]}) ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  using claude::base::ChildFd;
  const claude::base::Spawned child = claude::base::spawn(
      {.argv = std::vector<std::string>(argv + 1, argv + argc),
       .fds = {ChildFd::dup(in[0], 0), ChildFd::dup(out[1], 1), ChildFd::dup(err[1], 2)}});
  if (!child.started()) return 2;
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  std::thread(forward, 0, in[1], true).detach();
  std::thread out_thread(forward, out[0], 1, false);
  std::thread err_thread(forward, err[0], 2, false);
  const claude::base::ExitStatus status = claude::base::wait_exit(child.pid);
  out_thread.join();
  err_thread.join();
  return status.signaled ? 128 + status.value : status.value;
}
