#include "claude/conformance/driver_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

#include "claude/base/input_file.hpp"
#include "claude/base/line_buffer.hpp"
#include "claude/base/subprocess.hpp"
#include "claude/conformance/run_files.hpp"

extern char** environ;

namespace claude::conformance {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kStderrTail = 4096;
// After the driver exits, its children get this long to let go of the pipes.
constexpr std::chrono::milliseconds kDrainAfterExit{300};
// How long what the driver started may outlive it before it counts as leaked.
constexpr std::chrono::milliseconds kLeakGrace{500};

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    if (read >= 0) ::close(read);
    close_write();
  }
  void close_write() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

std::vector<std::string> merged_environment(
    const std::vector<std::pair<std::string, std::string>>& extra) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    vars[std::string(entry.substr(0, eq))] = std::string(entry.substr(eq + 1));
  }
  for (const auto& [name, value] : extra) vars[name] = value;
  std::vector<std::string> out;
  out.reserve(vars.size());
  for (const auto& [name, value] : vars) out.push_back(name + "=" + value);
  return out;
}

void append_tail(std::string& tail, std::string_view bytes) {
  tail.append(bytes);
  if (tail.size() > 2 * kStderrTail) tail.erase(0, tail.size() - kStderrTail);
}

// Processes of group `group` that are still running (zombies excluded), from /proc.
std::vector<pid_t> running_in_group(pid_t group) {
  std::vector<pid_t> running;
  for (const auto& process : base::list_processes()) {
    if (process.pgrp == group && process.running()) running.push_back(process.pid);
  }
  return running;
}

// Running processes (zombies excluded) whose environment holds `marker` ("NAME=value"): what a
// case started, wherever it went (another group, another session, re-parented).
std::vector<pid_t> marked_processes(const std::string& marker) {
  std::vector<pid_t> found;
  const std::string entry = std::string(1, '\0') + marker + '\0';
  for (const auto& process : base::list_processes()) {
    // Entries are NUL-separated; a zombie's environment reads empty.
    const std::string environ_text =
        base::read_proc_file("/proc/" + std::to_string(process.pid) + "/environ");
    if ((std::string(1, '\0') + environ_text + '\0').find(entry) != std::string::npos) {
      found.push_back(process.pid);
    }
  }
  return found;
}

// After the driver exited: what of its group, or carrying its marker, is still running once
// `grace` has passed.
std::size_t leaked_after_exit(pid_t group, const std::string& marker,
                              std::chrono::milliseconds grace) {
  const auto until = Clock::now() + grace;
  auto count = [&] {
    auto running = running_in_group(group);
    const auto marked = marked_processes(marker);
    running.insert(running.end(), marked.begin(), marked.end());
    std::sort(running.begin(), running.end());
    return static_cast<std::size_t>(std::unique(running.begin(), running.end()) - running.begin());
  };
  std::size_t running = count();
  while (running > 0 && Clock::now() < until) {
    ::usleep(10000);
    running = count();
  }
  return running;
}

// A marker no other case (of this or another harness) carries.
std::string case_marker() {
  static std::atomic<unsigned long> next{0};
  return "CLAUDE_HARNESS_CASE=" + std::to_string(::getpid()) + "-" + std::to_string(++next);
}

std::optional<Json> read_report(const std::filesystem::path& path) {
  std::string error;
  const auto text = path.empty() ? std::nullopt : base::read_input_file(path, error);
  if (!text) return std::nullopt;
  Json report = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!report.is_object()) return std::nullopt;
  return report;
}

}  // namespace

RunOutcome run_driver(const DriverRunRequest& request) {
  RunOutcome outcome;
  const auto started = Clock::now();
  Pipe out_pipe, err_pipe;
  if (request.argv.empty() || out_pipe.read < 0 || err_pipe.read < 0) {
    outcome.driver_exit = 127;
    outcome.driver_stderr = request.argv.empty() ? "empty driver command" : std::strerror(errno);
    return outcome;
  }

  const std::string marker = case_marker();
  auto env_with_marker = request.env;
  env_with_marker.emplace_back(marker.substr(0, marker.find('=')),
                               marker.substr(marker.find('=') + 1));
  if (!request.runs_dir.empty())
    env_with_marker.emplace_back("FAKE_CLAUDE_RUNS", request.runs_dir.string());
  // Its own process group, so a timeout ends the driver and whatever it started.
  const base::Spawned child =
      base::spawn({.argv = request.argv,
                   .search_path = true,
                   .env = merged_environment(env_with_marker),
                   .fds = {base::ChildFd::open(STDIN_FILENO, "/dev/null", O_RDONLY),
                           base::ChildFd::dup(out_pipe.write, STDOUT_FILENO),
                           base::ChildFd::dup(err_pipe.write, STDERR_FILENO)},
                   .own_process_group = true,
                   .default_signals = {SIGPIPE}});
  out_pipe.close_write();
  err_pipe.close_write();
  if (!child.started()) {
    outcome.driver_exit = 127;
    outcome.driver_stderr = "cannot start " + request.argv[0] + ": " + std::strerror(child.error);
    return outcome;
  }
  const pid_t pid = child.pid;

  claude::base::LineBuffer lines;
  auto on_line = [&](const claude::base::LineEvent& event) {
    if (event.kind != claude::base::LineEvent::Kind::line) {
      outcome.bad_lines.push_back("(a line of " + std::to_string(event.size) +
                                  " bytes, over the line limit)");
      return;
    }
    Json value = Json::parse(event.text, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded() || !value.is_object()) {
      outcome.bad_lines.emplace_back(event.text.substr(0, 200));
    } else {
      outcome.observations.push_back(std::move(value));
    }
  };

  const auto deadline = started + request.deadline;
  std::optional<Clock::time_point> exited_at;
  std::optional<base::ExitStatus> status;
  std::array<char, 65536> buffer{};
  std::array<pollfd, 2> fds{{{out_pipe.read, POLLIN, 0}, {err_pipe.read, POLLIN, 0}}};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto now = Clock::now();
    if (!status && (status = base::try_wait_exit(pid))) exited_at = now;
    if (now >= deadline && !status) {
      outcome.timed_out = true;
      ::killpg(pid, SIGKILL);
    }
    if (exited_at && now - *exited_at >= kDrainAfterExit) break;
    if (outcome.timed_out && now - deadline >= kDrainAfterExit) break;
    const int ready = ::poll(fds.data(), fds.size(), 50);
    if (ready < 0 && errno != EINTR) break;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer.data(), buffer.size());
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        fds[i].fd = -1;
        continue;
      }
      const std::string_view bytes(buffer.data(), static_cast<std::size_t>(n));
      if (i == 0) {
        lines.feed(bytes, on_line);
      } else {
        append_tail(outcome.driver_stderr, bytes);
      }
    }
  }
  lines.finish(on_line);
  if (status && !outcome.timed_out) {
    outcome.leaked_processes = leaked_after_exit(pid, marker, kLeakGrace);
  }
  // Whatever the driver left behind (the SDK's CLI, a hanging fake-claude, a `setsid` daemon)
  // ends with the case. Processes that fork while being killed are caught by the next scan.
  ::killpg(pid, SIGKILL);
  for (int scan = 0; scan < 50; ++scan) {
    const auto marked = marked_processes(marker);
    if (marked.empty()) break;
    for (const pid_t other : marked) {
      if (other != pid) ::kill(other, SIGKILL);
    }
    ::usleep(10000);
  }
  if (!status) status = base::wait_exit(pid);
  if (status->signaled) {
    outcome.driver_signal = status->value;
  } else {
    outcome.driver_exit = status->value;
  }
  if (outcome.driver_stderr.size() > kStderrTail) {
    outcome.driver_stderr.erase(0, outcome.driver_stderr.size() - kStderrTail);
  }
  outcome.fake_report = request.runs_dir.empty()
                            ? read_report(request.report_path)
                            : deciding_report(read_run_files(request.runs_dir));
  outcome.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return outcome;
}

}  // namespace claude::conformance
