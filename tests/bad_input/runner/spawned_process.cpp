#include "spawned_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace claude::testing {

std::string SpawnResult::describe() const {
  if (timed_out) return "timed out";
  if (signaled)
    return "signal " + std::to_string(term_signal) + " (" + strsignal(term_signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

namespace {

void make_pipe(std::array<int, 2>& fds) {
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
}

std::vector<std::string> merged_environment(const SpawnRequest& request) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& name : request.unset_env) env.erase(name);
  for (const auto& [name, value] : request.env) env[name] = value;
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

}  // namespace

SpawnResult run_to_completion(const SpawnRequest& request) {
  std::array<int, 2> in{}, out{}, err{};
  make_pipe(in);
  make_pipe(out);
  make_pipe(err);

  // Everything the child needs is built before fork: after it only async-signal-safe calls.
  std::vector<std::string> argv_strings{request.program.string()};
  argv_strings.insert(argv_strings.end(), request.args.begin(), request.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings = merged_environment(request);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string cwd = request.cwd.string();

  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::signal(SIGPIPE, SIG_DFL);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(127);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  ::fcntl(in[1], F_SETFL, O_NONBLOCK);

  SpawnResult result;
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
  while (fds[0] >= 0 || fds[1] >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
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
  int status = 0;
  // Both pipes closed does not mean the child is gone (it may have closed them and hung).
  while (!result.timed_out && ::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    ::usleep(2000);
  }
  if (result.timed_out) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (result.timed_out) return result;
  if (WIFSIGNALED(status)) {
    result.signaled = true;
    result.term_signal = WTERMSIG(status);
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

}  // namespace claude::testing
