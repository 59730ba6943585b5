#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>

extern char** environ;

namespace claude::recorder::testing {

ChildProcess::ChildProcess(const std::filesystem::path& program,
                           const std::vector<std::string>& args,
                           const std::vector<std::pair<std::string, std::string>>& overrides,
                           const std::filesystem::path& cwd) {
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : overrides) env[name] = value;
  std::vector<std::string> env_strings;
  for (const auto& [name, value] : env) env_strings.push_back(name + "=" + value);
  std::vector<std::string> argv_strings{program.string()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> c_argv, c_env;
  for (auto& s : argv_strings) c_argv.push_back(s.data());
  c_argv.push_back(nullptr);
  for (auto& s : env_strings) c_env.push_back(s.data());
  c_env.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  const int rc =
      ::posix_spawn(&pid_, program.c_str(), &actions, nullptr, c_argv.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) throw std::runtime_error(program.string() + ": " + std::strerror(rc));
  stdin_fd_ = in[1];
  out_reader_ = std::thread([this, fd = out[0]] { collect(fd, out_); });
  err_reader_ = std::thread([this, fd = err[0]] { collect(fd, err_); });
}

ChildProcess::~ChildProcess() {
  if (!waited_) {
    send_signal(SIGKILL);
    wait();
  }
}

void ChildProcess::collect(int fd, std::string& into) {
  std::string buf(1 << 16, '\0');
  while (true) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::lock_guard lock(mutex_);
    into.append(buf.data(), static_cast<std::size_t>(n));
    changed_.notify_all();
  }
  ::close(fd);
}

bool ChildProcess::write_stdin(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(stdin_fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void ChildProcess::close_stdin() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
}

void ChildProcess::send_signal(int signal_number) const {
  ::kill(pid_, signal_number);
}

bool ChildProcess::wait_for_stdout(const std::function<bool(const std::string&)>& predicate,
                                   std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return predicate(out_); });
}

ProcessEnd ChildProcess::wait() {
  close_stdin();
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  out_reader_.join();
  err_reader_.join();
  waited_ = true;
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

std::string ChildProcess::out() const {
  std::lock_guard lock(mutex_);
  return out_;
}

std::string ChildProcess::err() const {
  std::lock_guard lock(mutex_);
  return err_;
}

}  // namespace claude::recorder::testing
