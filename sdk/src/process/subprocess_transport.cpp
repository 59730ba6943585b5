#include "process/subprocess_transport.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "claude/base/line_buffer.hpp"
#include "claude/base/write_all.hpp"
#include "process/child_process.hpp"
#include "threads/sigpipe.hpp"

namespace claude::sdk {
namespace {

constexpr std::size_t kReadChunk = 1u << 20;
constexpr std::size_t kStderrLineCap = 64u << 10;
constexpr std::size_t kTailLineCap = 1024;
// The CLI writes ahead while the reader parses (docs/sdk.md "Write-ahead in the kernel"); past
// the user's pipe budget the raise is refused and the default 64 KiB stays.
constexpr int kStdoutPipeBytes = 1 << 20;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// A pipe whose ends are close-on-exec and above 0–2, so dup2 in the child always clears
// close-on-exec and no other child spawned by the host inherits them.
void make_pipe(int fds[2], const char* what) {
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw ConnectionError(std::string("failed to start the CLI: pipe for ") + what + ": " +
                          std::strerror(errno));
  for (int i = 0; i < 2; ++i) {
    if (fds[i] <= 2) {
      int moved = ::fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
      ::close(fds[i]);
      fds[i] = moved;
    }
  }
}

// Writes all of `data`; SIGPIPE is blocked while writing so a dead reader gives EPIPE.
int write_all(int fd, std::string_view data) {
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  const bool mask_here = !detail::sigpipe_blocked_on_this_thread();
  if (mask_here) pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  const int err = base::write_all(fd, data) ? 0 : errno;
  if (err == EPIPE) {
    // Consume the SIGPIPE this write raised, or it would reach the host once unblocked.
    timespec zero{0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
    }
  }
  if (mask_here) pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  return err;
}

// An epoll instance watching both descriptors for input; -1 with errno set on failure.
int watch_readable(int first, int second) {
  const int epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0) return -1;
  for (int fd : {first, second}) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    if (::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) {
      const int err_no = errno;
      ::close(epoll_fd);
      errno = err_no;
      return -1;
    }
  }
  return epoll_fd;
}

}  // namespace

struct SubprocessTransport::State {
  ProcessLaunch launch;
  SubprocessOptions options;
  process::ChildProcess child;

  mutable std::mutex write_mutex;
  int stdin_fd = -1;  // guarded by write_mutex
  int stdout_fd = -1;
  int stderr_fd = -1;
  int wake_read = -1;  // becomes readable when close() wants the readers to stop
  int wake_write = -1;
  // stdout and wake_read, registered once: one epoll_wait per read instead of a poll(2) that
  // sets up and tears down two wait queues every time.
  int stdout_epoll = -1;

  // stdout, touched only by the reading thread
  base::LineBuffer stdout_lines;
  std::deque<InboundLine> ready;
  std::string chunk;  // the read buffer, made on the first read
  std::optional<StreamEnd> end;

  std::thread stderr_thread;
  mutable std::mutex stderr_mutex;
  std::condition_variable stderr_done_cv;
  bool stderr_done = false;
  std::deque<std::string> stderr_tail;

  std::mutex close_mutex;
  std::atomic<bool> closing{false};
  bool connected = false;

  State(ProcessLaunch l, SubprocessOptions o)
      : launch(std::move(l)),
        options(std::move(o)),
        stdout_lines(base::LineBufferOptions{.max_line_bytes = options.max_line_bytes}) {}

  void keep_stderr_line(std::string_view line) {
    std::lock_guard lock(stderr_mutex);
    stderr_tail.emplace_back(line.substr(0, kTailLineCap));
    while (stderr_tail.size() > options.stderr_tail_lines) stderr_tail.pop_front();
  }

  std::string tail_text() const {
    std::lock_guard lock(stderr_mutex);
    std::string out;
    for (const auto& l : stderr_tail) {
      if (!out.empty()) out += '\n';
      out += l;
    }
    return out;
  }

  void run_stderr() {
    base::LineBuffer lines(base::LineBufferOptions{.max_line_bytes = kStderrLineCap});
    bool callback_ok = static_cast<bool>(options.on_stderr_line);
    auto deliver = [&](const base::LineEvent& e) {
      std::string_view text =
          e.kind == base::LineEvent::Kind::line ? e.text : "[oversized stderr line]";
      keep_stderr_line(text);
      if (!callback_ok) return;
      try {
        options.on_stderr_line(text);
      } catch (const std::exception& ex) {
        callback_ok = false;
        keep_stderr_line(std::string("[stderr callback failed: ") + ex.what() + "]");
      }
    };
    std::string buf(16u << 10, '\0');
    bool draining = false;
    for (;;) {
      if (!draining) {
        pollfd fds[2] = {{stderr_fd, POLLIN, 0}, {wake_read, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno == EINTR) continue;
        if (fds[1].revents != 0) draining = true;
      }
      ssize_t n = ::read(stderr_fd, buf.data(), buf.size());
      if (n > 0) {
        lines.feed(std::string_view(buf.data(), static_cast<std::size_t>(n)), deliver);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN && !draining) continue;
      break;  // EOF, error, or nothing left to drain after close()
    }
    lines.finish(deliver);
    std::lock_guard lock(stderr_mutex);
    stderr_done = true;
    stderr_done_cv.notify_all();
  }

  void wait_stderr(std::chrono::milliseconds limit) {
    std::unique_lock lock(stderr_mutex);
    stderr_done_cv.wait_for(lock, limit, [&] { return stderr_done; });
  }

  StreamEnd finish_stream(std::string error) {
    // Stdout is done; give stderr a moment so the tail holds the CLI's last words.
    wait_stderr(std::chrono::milliseconds(200));
    StreamEnd e;
    auto status = child.wait_for(closing ? options.grace + options.term_wait + options.term_wait
                                         : options.grace);
    if (status) e.status = *status;
    e.status.ended_by_host = closing.load();
    e.stderr_tail = tail_text();
    e.error = std::move(error);
    return e;
  }

  // Reads one chunk into `ready`; returns false when stdout is over.
  bool fill(std::string& error) {
    auto deliver = [&](const base::LineEvent& e) {
      InboundLine line;
      line.size = e.size;
      line.partial = e.partial;
      if (e.kind == base::LineEvent::Kind::oversized) {
        line.oversized = true;
      } else {
        line.text.reserve(e.text.size() + InboundLine::kSpareCapacity);
        line.text.assign(e.text);
      }
      ready.push_back(std::move(line));
    };
    bool draining = closing.load();
    for (;;) {
      if (!draining) {
        epoll_event events[2];
        const int ready_count = ::epoll_wait(stdout_epoll, events, 2, -1);
        if (ready_count < 0) {
          if (errno == EINTR) continue;
          error = std::string("epoll_wait on stdout: ") + std::strerror(errno);
          stdout_lines.finish(deliver);
          return false;
        }
        for (int i = 0; i < ready_count; ++i) {
          if (events[i].data.fd == wake_read) draining = true;
        }
      }
      // Made on first need: a 1 MiB string zeroed at connect cost every spawn its page faults.
      if (chunk.size() < kReadChunk) chunk.resize(kReadChunk);
      ssize_t n = ::read(stdout_fd, chunk.data(), kReadChunk);
      if (n > 0) {
        stdout_lines.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), deliver);
        return true;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN && !draining) continue;
      if (n < 0 && errno != EAGAIN) error = std::string("read stdout: ") + std::strerror(errno);
      stdout_lines.finish(deliver);
      return false;
    }
  }
};

SubprocessTransport::SubprocessTransport(ProcessLaunch launch, SubprocessOptions options)
    : state_(std::make_unique<State>(std::move(launch), std::move(options))) {}

SubprocessTransport::~SubprocessTransport() {
  close();
  auto& s = *state_;
  for (int* fd : {&s.stdout_fd, &s.stderr_fd, &s.wake_read, &s.wake_write, &s.stdout_epoll})
    close_fd(*fd);
}

void SubprocessTransport::connect() {
  auto& s = *state_;
  if (s.connected) throw ConnectionError("connect: already connected");
  int in[2], out[2], err[2], wake[2];
  make_pipe(in, "stdin");
  make_pipe(out, "stdout");
  make_pipe(err, "stderr");
  make_pipe(wake, "wake-up");
  const int epoll_fd = watch_readable(out[0], wake[0]);
  try {
    if (epoll_fd < 0)
      throw ConnectionError(std::string("failed to start the CLI: epoll: ") + std::strerror(errno));
    s.child.spawn(s.launch.argv, s.launch.env, s.launch.cwd, s.launch.own_process_group,
                  process::ChildPipes{in[0], out[1], err[1]});
  } catch (...) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1], wake[0], wake[1], epoll_fd})
      if (fd >= 0) ::close(fd);
    throw;
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  ::fcntl(out[0], F_SETFL, O_NONBLOCK);
  ::fcntl(out[0], F_SETPIPE_SZ, kStdoutPipeBytes);
  ::fcntl(err[0], F_SETFL, O_NONBLOCK);
  {
    std::lock_guard lock(s.write_mutex);
    s.stdin_fd = in[1];
  }
  s.stdout_fd = out[0];
  s.stderr_fd = err[0];
  s.wake_read = wake[0];
  s.wake_write = wake[1];
  s.stdout_epoll = epoll_fd;
  s.connected = true;
  s.stderr_thread = std::thread([&s] { s.run_stderr(); });
}

void SubprocessTransport::write(std::string_view frame) {
  auto& s = *state_;
  std::lock_guard lock(s.write_mutex);
  if (s.stdin_fd < 0)
    throw ConnectionError(s.connected ? "write: the CLI's stdin is already closed"
                                      : "write: not connected");
  int err = write_all(s.stdin_fd, frame);
  if (err != 0) {
    // The CLI closed its stdin, usually because it is exiting: let it end and its stderr drain,
    // briefly, so the error carries its last words.
    auto status = s.child.wait_for(std::chrono::milliseconds(200));
    if (status) s.wait_stderr(std::chrono::milliseconds(200));
    throw ConnectionError(std::string("write to the CLI's stdin failed: ") + std::strerror(err) +
                              (status ? " (" + status->describe() + ")" : std::string()),
                          s.tail_text());
  }
}

ReadResult SubprocessTransport::read() {
  auto& s = *state_;
  if (!s.connected) return StreamEnd{ExitStatus{}, "", "read: not connected"};
  while (s.ready.empty() && !s.end) {
    std::string error;
    // A final partial line comes out of `fill` together with the end; it is returned first and
    // the next call sees the end again (EOF repeats).
    if (!s.fill(error) && s.ready.empty()) s.end = s.finish_stream(std::move(error));
  }
  if (!s.ready.empty()) {
    InboundLine line = std::move(s.ready.front());
    s.ready.pop_front();
    return line;
  }
  return *s.end;
}

bool SubprocessTransport::has_buffered_line() const {
  return !state_->ready.empty();
}

void SubprocessTransport::end_input() {
  auto& s = *state_;
  std::lock_guard lock(s.write_mutex);
  close_fd(s.stdin_fd);
}

void SubprocessTransport::close() {
  auto& s = *state_;
  std::lock_guard close_lock(s.close_mutex);
  if (!s.connected || s.closing.exchange(true)) return;
  end_input();
  if (!s.child.wait_for(s.options.grace)) {
    s.child.signal(SIGTERM);
    if (!s.child.wait_for(s.options.term_wait)) {
      s.child.signal(SIGKILL);
      s.child.wait_for(std::chrono::hours(1));
    }
  }
  char byte = 1;
  [[maybe_unused]] auto n = ::write(s.wake_write, &byte, 1);
  if (s.stderr_thread.joinable()) s.stderr_thread.join();
}

bool SubprocessTransport::input_open() const {
  std::lock_guard lock(state_->write_mutex);
  return state_->stdin_fd >= 0;
}

int SubprocessTransport::pid() const {
  return state_->child.spawned() ? state_->child.pid() : 0;
}

std::string SubprocessTransport::stderr_tail() const {
  return state_->tail_text();
}

}  // namespace claude::sdk
