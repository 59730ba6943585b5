#include "claude/recorder/tee_session.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <re2/re2.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <thread>

#include "claude/base/subprocess.hpp"
#include "claude/base/write_all.hpp"
#include "claude/recorder/recording_queue.hpp"
#include "claude/recorder/stream_recorder.hpp"

namespace claude::recorder {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kForwardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
constexpr int kPipeBytes = 1 << 20;
// The recorder thread's nice value when SCHED_IDLE is refused: see run_tee_session().
constexpr int kRecorderNice = 19;

sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kForwardedSignals) sigaddset(&set, s);
  sigaddset(&set, SIGCHLD);
  return set;
}

struct Pipe {
  int read_end = -1;
  int write_end = -1;
};

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw TeeError(std::string("pipe2: ") + std::strerror(errno));
  return {fds[0], fds[1]};
}

// Starts `argv` of the real CLI with the signal mask and dispositions it would have had without
// the tee, ended (SIGTERM) when the tee dies however it dies, and with `own_group` leading a
// process group of its own, so what it starts can be ended with it.
pid_t spawn(const TeeConfig& config, std::vector<std::string> argv, std::vector<base::ChildFd> fds,
            bool own_group = false) {
  base::SpawnOptions options;
  options.argv = std::move(argv);
  options.program = config.real_cli.string();
  options.env = config.environment;
  options.fds = std::move(fds);
  options.own_process_group = own_group;
  options.default_signals.assign(std::begin(kForwardedSignals), std::end(kForwardedSignals));
  options.default_signals.insert(options.default_signals.end(), {SIGCHLD, SIGPIPE});
  options.empty_signal_mask = true;
  options.die_with_parent = true;
  const base::Spawned child = base::spawn(options);
  if (!child.started()) {
    throw TeeError(config.real_cli.string() + ": cannot start: " + std::strerror(child.error));
  }
  return child.pid;
}

std::optional<std::string> version_from_output(const std::string& text) {
  static const RE2 kVersion(R"(([0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+\-]*))");
  std::string version;
  if (RE2::PartialMatch(text, kVersion, &version)) return version;
  std::string first = text.substr(0, text.find('\n'));
  if (first.empty()) return std::nullopt;
  return first;
}

// Runs `<cli> --version` with a deadline; nullopt when it fails, hangs or prints nothing.
std::optional<std::string> probe_version(const TeeConfig& config) {
  Pipe out = make_pipe();
  pid_t pid;
  try {
    // A group of its own: a probe that hangs is ended with whatever it started.
    pid =
        spawn(config, {config.real_cli.string(), "--version"},
              {base::ChildFd::open(0, "/dev/null", O_RDONLY), base::ChildFd::dup(out.write_end, 1),
               base::ChildFd::open(2, "/dev/null", O_WRONLY)},
              /*own_group=*/true);
  } catch (const TeeError&) {
    ::close(out.read_end);
    ::close(out.write_end);
    return std::nullopt;
  }
  ::close(out.write_end);
  const auto deadline = Clock::now() + config.probe_timeout;
  std::string text;
  bool timed_out = false;
  char buf[4096];
  while (text.size() < sizeof buf) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{out.read_end, POLLIN, 0};
    const int rc = left > 0 ? ::poll(&p, 1, static_cast<int>(left)) : 0;
    if (rc < 0 && errno == EINTR) continue;
    timed_out = rc == 0;
    if (rc <= 0) break;
    const ssize_t n = ::read(out.read_end, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(out.read_end);
  if (timed_out) ::killpg(pid, SIGKILL);
  const base::ExitStatus status = base::wait_exit(pid);
  if (timed_out || status.signaled || status.value != 0) return std::nullopt;
  return version_from_output(text);
}

// Where the queue spills while the recorder lags: the first of $TMPDIR, /tmp and /var/tmp that is
// a writable folder on another filesystem than the recording's, whose space a backlog must not
// take (issue 31). None: the queue holds the forwarding back instead.
std::filesystem::path spill_directory_of(const std::filesystem::path& recording) {
  const auto parent =
      recording.parent_path().empty() ? std::filesystem::path(".") : recording.parent_path();
  struct stat recording_fs {};
  if (::stat(parent.c_str(), &recording_fs) != 0) return {};
  const char* tmpdir = std::getenv("TMPDIR");
  for (const char* candidate : {tmpdir, "/tmp", "/var/tmp"}) {
    struct stat info {};
    if (candidate == nullptr || *candidate == '\0' || ::stat(candidate, &info) != 0) continue;
    if (S_ISDIR(info.st_mode) && info.st_dev != recording_fs.st_dev &&
        ::access(candidate, W_OK | X_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

// Where record() is: the batch taken from the queue and the next chunk of it to record.
struct RecordingRun {
  std::vector<RecordedChunk> batch;
  std::size_t next = 0;
  std::string events;
};

// What the threads share, owned jointly: a pump still blocked in read(2) when the session ends
// (a grandchild holding a pipe, an SDK keeping stdin open) never outlives its state.
struct SessionState {
  SessionState(const Redactor& redactor, RecordingWriter& writer_ref)
      : writer(writer_ref),
        in(Stream::in, redactor),
        out(Stream::out, redactor),
        err(Stream::err, redactor),
        queue(RecordingQueue::Limits{.spill_directory = spill_directory_of(writer_ref.path())}) {}

  RecordingWriter& writer;
  // Owned by the recorder thread.
  StreamRecorder in;
  StreamRecorder out;
  StreamRecorder err;
  RecordingQueue queue;
  Clock::time_point start = Clock::now();
  std::mutex mutex;
  std::condition_variable changed;
  int outputs_done = 0;  // stdout and stderr pumps that reached EOF
  // How the CLI's output moves after it exits (see run_tee_session): output pumps between a read
  // and their next read (forwarding to a slow SDK perhaps), and reads by output pumps so far.
  std::atomic<int> outputs_forwarding{0};
  std::atomic<std::uint64_t> output_reads{0};

  double seconds() const { return std::chrono::duration<double>(Clock::now() - start).count(); }

  // The recording's progress, owned by the recorder thread, then by the main thread (record()).
  RecordingRun run;
  std::atomic<bool> handing_over{false};

  StreamRecorder& recorder_of(Stream stream) {
    return stream == Stream::in ? in : stream == Stream::out ? out : err;
  }

  void output_done() {
    std::lock_guard lock(mutex);
    ++outputs_done;
    changed.notify_all();
  }
};

void set_pipe_size(int fd) {
  ::fcntl(fd, F_SETPIPE_SZ, kPipeBytes);
}

// After a read(2) of at least this much, the pump looks for more waiting bytes to forward in bulk.
constexpr std::size_t kBulkReadBytes = std::size_t{64} << 10;

bool is_pipe(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

// Reads up to `size` bytes that are known to be waiting in `fd`; returns how many it got.
std::size_t read_waiting(int fd, char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

// Moves up to `size` bytes from the pipe `src` into the file `fd` at `offset` (splice(2): one copy,
// in the kernel); returns how many. Clears `supported` when the file system refuses splice(2).
std::size_t splice_to_file(int src, int fd, std::uint64_t offset, std::size_t size,
                           bool& supported) {
  auto position = static_cast<loff_t>(offset);
  std::size_t moved = 0;
  while (moved < size) {
    const ssize_t n = ::splice(src, nullptr, fd, &position, size - moved, SPLICE_F_MOVE);
    if (n > 0) {
      moved += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EINVAL || errno == ENOSYS)) supported = false;
    break;
  }
  return moved;
}

struct PumpState {
  bool forwarding = true;  // false once dst failed (the SDK is gone): keep recording only
  bool zero_copy = false;  // src and dst are pipes and tee(2) works on them
  bool splice_ok = true;   // splice(2) into the spill file works
  bool dst_grown = false;  // dst's pipe buffer was raised to kPipeBytes
};

// While at least kHandOverBytes wait in the pipe src: takes the chunk's place in the queue
// (before the forward: causal order), forwards with tee(2) (no copy), then moves the same bytes
// out of src into the recorder's buffer (read(2)) or the spill file (splice(2)) and fills the
// place: one copy per byte. A full dst gives the place back before waiting, so the recorder never
// waits for the SDK. Blocking for input stays with pump()'s read(2).
void forward_waiting(SessionState& state, Stream stream, int src, int dst,
                     std::unique_ptr<char[]>& buffer, PumpState& pump_state) {
  RecordingQueue& queue = state.queue;
  if (!pump_state.dst_grown) {
    // tee(2) forwards at most what dst has room for: a larger pipe buffer means fewer, larger
    // chunks. Only ever raised, once, and only for a stream that carries bulk data.
    pump_state.dst_grown = true;
    if (::fcntl(dst, F_GETPIPE_SZ) < kPipeBytes) set_pipe_size(dst);
  }
  while (pump_state.forwarding && pump_state.zero_copy) {
    int waiting = 0;
    if (::ioctl(src, FIONREAD, &waiting) != 0 ||
        static_cast<std::size_t>(waiting) < RecordingQueue::kHandOverBytes) {
      return;
    }
    const std::size_t capacity =
        std::min(static_cast<std::size_t>(waiting), RecordingQueue::kBufferBytes);
    const RecordingQueue::Slot slot = queue.reserve(stream, state.seconds(), capacity);
    ssize_t teed;
    do {
      teed = ::tee(src, dst, capacity, SPLICE_F_NONBLOCK);
    } while (teed < 0 && errno == EINTR);
    if (teed < 0 && errno == EAGAIN) {
      queue.cancel(slot);
      pollfd p{dst, POLLOUT, 0};
      while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
      }
      continue;
    }
    std::size_t size = capacity;
    bool write_after = false;
    if (teed > 0) {
      size = static_cast<std::size_t>(teed);
    } else if (teed < 0 && errno == EPIPE) {
      pump_state.forwarding = false;
    } else {
      // tee(2) refused these descriptors: forward from the buffer, as pump() does.
      pump_state.zero_copy = false;
      write_after = true;
    }
    std::size_t spilled = 0;
    if (slot.spill && !write_after && pump_state.splice_ok) {
      spilled = splice_to_file(src, slot.spill_fd, slot.spill_offset, size, pump_state.splice_ok);
    }
    size = spilled + read_waiting(src, buffer.get() + spilled, size - spilled);
    if (size == 0) {
      queue.cancel(slot);
      return;
    }
    char* const data = buffer.get();
    queue.commit(slot, buffer, size, spilled);
    if (write_after && !base::write_all(dst, std::string_view(data, size)))
      pump_state.forwarding = false;
    if (!buffer) buffer = queue.take_buffer(stream);
  }
}

// Forwards src to dst: read, queue a copy for the recorder, write. The copy is queued before the
// write so that whatever the peer answers is queued after it (causal order in the recording).
// Between two pipes, a large read switches to forward_waiting() while more is waiting.
void pump(const std::shared_ptr<SessionState>& state, Stream stream, int src, int dst,
          bool close_dst_at_eof) {
  RecordingQueue& queue = state->queue;
  std::unique_ptr<char[]> buffer = queue.take_buffer(stream);
  PumpState pump_state;
  pump_state.zero_copy = is_pipe(src) && is_pipe(dst);
  const bool output = stream != Stream::in;
  while (true) {
    const ssize_t n = ::read(src, buffer.get(), RecordingQueue::kBufferBytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (output) {
      ++state->output_reads;
      ++state->outputs_forwarding;
    }
    const double t = state->seconds();
    const auto size = static_cast<std::size_t>(n);
    char* const data = buffer.get();
    queue.push(stream, t, buffer, size);
    if (pump_state.forwarding && !base::write_all(dst, std::string_view(data, size)))
      pump_state.forwarding = false;
    if (!buffer) buffer = queue.take_buffer(stream);
    if (size >= kBulkReadBytes && pump_state.zero_copy && pump_state.forwarding) {
      forward_waiting(*state, stream, src, dst, buffer, pump_state);
    }
    if (output) --state->outputs_forwarding;
  }
  queue.push_eof(stream, state->seconds());
  if (close_dst_at_eof) ::close(dst);
}

// Turns queued chunks into events and writes them, one write(2) per batch (or per MiB), until
// the queue is closed and drained. The recorder thread runs it at the lowest priority while the
// session forwards; once the session is over (`handing_over`) it stops after its current chunk
// and the main thread records the rest at normal priority, so a backlog on a busy machine does
// not keep the tee (and the SDK waiting for its exit) at nice 19.
void record(SessionState& state, bool background) {
  constexpr std::size_t kWriteBytes = std::size_t{1} << 20;
  RecordingRun& run = state.run;
  const auto write_events = [&] {
    if (run.events.empty()) return;
    state.writer.append(run.events);
    state.writer.flush();
    run.events.clear();
  };
  while (true) {
    while (run.next < run.batch.size()) {
      if (background && state.handing_over.load(std::memory_order_relaxed)) {
        write_events();
        return;
      }
      RecordedChunk& chunk = run.batch[run.next++];
      StreamRecorder& recorder = state.recorder_of(chunk.stream);
      if (chunk.eof) {
        recorder.on_eof(chunk.t, run.events);
      } else if (chunk.size > 0 && state.queue.load(chunk)) {  // 0: a place given back
        recorder.on_chunk(chunk.bytes(), chunk.t, run.events);
      }
      // A large chunk's buffer and room serve the next one at once (a spilled chunk loads into
      // warm pages, a pump stops spilling sooner); small ones go back with their batch.
      if (chunk.size >= RecordingQueue::kHandOverBytes) state.queue.release(chunk);
      if (run.events.size() >= kWriteBytes) write_events();
    }
    write_events();
    state.queue.release(run.batch);
    run.next = 0;
    if (background && state.handing_over.load(std::memory_order_relaxed)) return;
    if (!state.queue.pop_batch(run.batch)) return;
  }
}

// The CLI's stdout reached EOF: the SDK sees EOF on ours now, not once the recording is
// complete. /dev/null keeps descriptor 1 taken, so no file claude-tee opens later gets it.
void release_stdout() {
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd < 0) return;
  ::dup2(null_fd, STDOUT_FILENO);
  ::close(null_fd);
}

}  // namespace

std::string signal_name(int signal_number) {
  if (const char* abbrev = ::sigabbrev_np(signal_number)) return std::string("SIG") + abbrev;
  return "SIG" + std::to_string(signal_number);
}

ChildOutcome run_tee_session(const TeeConfig& config, RecordingHeader header,
                             const Redactor& redactor, RecordingWriter& writer) {
  const sigset_t handled = handled_signals();
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &handled, &previous);
  ::signal(SIGPIPE, SIG_IGN);

  auto state = std::make_shared<SessionState>(redactor, writer);
  Pipe in = make_pipe();
  Pipe out = make_pipe();
  Pipe err = make_pipe();
  set_pipe_size(in.write_end);
  set_pipe_size(out.read_end);
  set_pipe_size(err.read_end);

  std::vector<std::string> argv{config.real_cli.string()};
  argv.insert(argv.end(), config.args.begin(), config.args.end());
  pid_t child;
  try {
    child = spawn(config, std::move(argv),
                  {base::ChildFd::dup(in.read_end, 0), base::ChildFd::dup(out.write_end, 1),
                   base::ChildFd::dup(err.write_end, 2)});
  } catch (...) {
    for (int fd :
         {in.read_end, in.write_end, out.read_end, out.write_end, err.read_end, err.write_end}) {
      ::close(fd);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    throw;
  }
  ::close(in.read_end);
  ::close(out.write_end);
  ::close(err.write_end);

  std::thread recorder([state] {
    // Under SCHED_IDLE a waking pump preempts the recorder at once (with nice 19 alone it
    // finished its time slice: p99 added latency 3.4x the floor's, SCHED_IDLE about 1.3x); its
    // backlog waits in the queue. Lowering one's own policy needs no privilege; else nice 19.
    sched_param idle{};
    if (::pthread_setschedparam(::pthread_self(), SCHED_IDLE, &idle) != 0) {
      ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kRecorderNice);
    }
    record(*state, true);
  });
  std::thread out_pump([state, fd = out.read_end] {
    pump(state, Stream::out, fd, STDOUT_FILENO, false);
    ::close(fd);
    release_stdout();
    state->output_done();
  });
  std::thread err_pump([state, fd = err.read_end] {
    pump(state, Stream::err, fd, STDERR_FILENO, false);
    ::close(fd);
    state->output_done();
  });
  std::thread in_pump(
      [state, fd = in.write_end] { pump(state, Stream::in, STDIN_FILENO, fd, true); });
  // The stdin pump may stay blocked on the SDK's stdin after the CLI is gone; the process ends
  // without waiting for it, and the writer ignores whatever it appends after the last event.
  in_pump.detach();

  std::thread header_writer([state, &config, header = std::move(header), &redactor]() mutable {
    header.cli_version = config.cli_version ? config.cli_version : probe_version(config);
    state->writer.write_header(encode_header_line(header, redactor));
  });

  std::optional<base::ExitStatus> status;
  while (!status) {
    siginfo_t info{};
    const int sig = ::sigwaitinfo(&handled, &info);
    if (sig == SIGCHLD) {
      status = base::try_wait_exit(child);
    } else if (sig > 0) {
      ::kill(child, sig);
    }
  }

  {
    // What the CLI wrote is forwarded and recorded however slowly the SDK reads it; only outputs
    // that stay silent for drain_timeout (a grandchild holding the pipes) are given up.
    std::unique_lock lock(state->mutex);
    std::uint64_t reads = state->output_reads;
    while (!state->changed.wait_for(lock, config.drain_timeout,
                                    [&] { return state->outputs_done == 2; })) {
      if (state->outputs_forwarding == 0 && state->output_reads == reads) break;
      reads = state->output_reads;
    }
  }
  if (state->outputs_done == 2) {
    out_pump.join();
    err_pump.join();
  } else {
    out_pump.detach();
    err_pump.detach();
  }
  header_writer.join();
  // Everything read so far gets recorded; a pump still reading (stdin, or a grandchild's
  // output) is ignored from here on, as the writer ignores events after the last one.
  state->handing_over = true;
  state->queue.close();
  recorder.join();
  record(*state, false);

  const ChildOutcome outcome{status->signaled, status->value};
  std::string last;
  if (outcome.signaled) {
    append_signal_event(last, state->seconds(), signal_name(outcome.value));
  } else {
    append_exit_event(last, state->seconds(), outcome.value);
  }
  writer.close_with(last);
  return outcome;
}

void end_like(const ChildOutcome& outcome) {
  std::fflush(nullptr);
  if (outcome.signaled) {
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::signal(outcome.value, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, outcome.value);
    pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
    ::raise(outcome.value);
    ::_exit(128 + outcome.value);
  }
  ::_exit(outcome.value);
}

}  // namespace claude::recorder
