#include "claude/test_support/run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace claude::test_support {

std::string SpawnResult::describe() const {
  if (timed_out) return "timed out";
  if (signaled)
    return "signal " + std::to_string(term_signal) + " (" + strsignal(term_signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

int SpawnResult::status_code() const {
  if (timed_out) return -1;
  return signaled ? 128 + term_signal : exit_code;
}

namespace {

void make_pipe(std::array<int, 2>& fds) {
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

SpawnResult run_to_completion(const SpawnRequest& request) {
  const bool to_files = !request.output_dir.empty();
  const auto out_file = request.output_dir / "stdout";
  const auto err_file = request.output_dir / "stderr";
  std::array<int, 2> in{}, out{-1, -1}, err{-1, -1};
  make_pipe(in);
  std::vector<base::ChildFd> child_fds{base::ChildFd::dup(in[0], 0)};
  if (to_files) {
    child_fds.push_back(base::ChildFd::open(1, out_file, O_WRONLY | O_CREAT | O_TRUNC, 0600));
    child_fds.push_back(base::ChildFd::open(2, err_file, O_WRONLY | O_CREAT | O_TRUNC, 0600));
  } else {
    make_pipe(out);
    make_pipe(err);
    child_fds.push_back(base::ChildFd::dup(out[1], 1));
    child_fds.push_back(base::ChildFd::dup(err[1], 2));
  }

  SpawnResult result;
  pid_t pid = -1;
  try {
    pid = start(request, std::move(child_fds), {SIGPIPE});
  } catch (const std::runtime_error& e) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
      if (fd >= 0) ::close(fd);
    result.exit_code = 127;
    result.err = e.what();
    return result;
  }
  ::close(in[0]);
  if (!to_files) {
    ::close(out[1]);
    ::close(err[1]);
  }
  ::fcntl(in[1], F_SETFL, O_NONBLOCK);

  std::size_t written = 0;
  int stdin_fd = in[1];
  if (request.stdin_bytes.empty()) {
    ::close(stdin_fd);
    stdin_fd = -1;
  }
  int fds[2] = {out[0], err[0]};
  std::string* sinks[2] = {&result.out, &result.err};
  const auto deadline = std::chrono::steady_clock::now() + request.timeout;
  std::array<char, 65536> buffer{};
  std::optional<base::ExitStatus> status;
  while (fds[0] >= 0 || fds[1] >= 0 || (to_files && stdin_fd >= 0)) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    // With the output in files only stdin is polled: stop when the child ends without reading it.
    if (to_files && (status = base::try_wait_exit(pid))) {
      ::close(stdin_fd);
      stdin_fd = -1;
      break;
    }
    std::array<pollfd, 3> polls{};
    nfds_t n = 0;
    for (int i = 0; i < 2; ++i)
      if (fds[i] >= 0) polls[n++] = {fds[i], POLLIN, 0};
    if (stdin_fd >= 0) polls[n++] = {stdin_fd, POLLOUT, 0};
    if (::poll(polls.data(), n, static_cast<int>(std::min<long long>(left.count(), 200))) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (nfds_t k = 0; k < n; ++k) {
      if (polls[k].revents == 0) continue;
      if (polls[k].fd == stdin_fd) {
        const ssize_t w = ::write(stdin_fd, request.stdin_bytes.data() + written,
                                  request.stdin_bytes.size() - written);
        if (w > 0) written += static_cast<std::size_t>(w);
        // EPIPE (the child stopped reading) ends the input; SIGPIPE is ignored by gtest runs
        // because the write would otherwise kill the test.
        if ((w < 0 && errno != EAGAIN) || written == request.stdin_bytes.size()) {
          ::close(stdin_fd);
          stdin_fd = -1;
        }
        continue;
      }
      for (int i = 0; i < 2; ++i) {
        if (polls[k].fd != fds[i]) continue;
        const ssize_t r = ::read(fds[i], buffer.data(), buffer.size());
        if (r > 0) {
          sinks[i]->append(buffer.data(), static_cast<std::size_t>(r));
        } else if (r == 0 || errno != EAGAIN) {
          ::close(fds[i]);
          fds[i] = -1;
        }
      }
    }
  }
  for (int fd : fds)
    if (fd >= 0) ::close(fd);
  if (stdin_fd >= 0) ::close(stdin_fd);
  // Both pipes closed does not mean the child is gone (it may have closed them and hung).
  while (!status && !result.timed_out && !(status = base::try_wait_exit(pid))) {
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    ::usleep(2000);
  }
  if (result.timed_out) base::wait_exit(pid);
  if (to_files) {
    result.out = slurp(out_file);
    result.err = slurp(err_file);
  }
  if (result.timed_out) return result;
  if (status && status->signaled) {
    result.signaled = true;
    result.term_signal = status->value;
  } else if (status) {
    result.exit_code = status->value;
  }
  return result;
}

}  // namespace claude::test_support
