#include "sdk_stand_in.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include "claude/base/json.hpp"
#include "claude/base/line_buffer.hpp"
#include "claude/base/subprocess.hpp"
#include "claude/emulator/scenario.hpp"
#include "claude/test_support/command.hpp"

namespace claude::emulator::testing {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kProcessLimit = std::chrono::seconds(20);

class Child {
 public:
  Child(const std::vector<std::string>& args,
        const std::vector<std::pair<std::string, std::string>>& env) {
    std::signal(SIGPIPE, SIG_IGN);
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
      throw std::runtime_error("pipe");
    test_support::Command command;
    command.program = FAKE_CLAUDE_PATH;
    command.args = args;
    command.unset_env = {"FAKE_CLAUDE_*"};
    // The first setting of a name wins, as getenv() reads an environment that repeats it.
    for (const auto& [name, value] : env) command.env.emplace(name, value);
    pid_ =
        test_support::start(command, {base::ChildFd::dup(in[0], 0), base::ChildFd::dup(out[1], 1),
                                      base::ChildFd::dup(err[1], 2)});
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    stdin_ = in[1];
    stdout_ = out[0];
    stderr_ = err[0];
    ::fcntl(stdout_, F_SETFL, O_NONBLOCK);
    ::fcntl(stderr_, F_SETFL, O_NONBLOCK);
  }
  ~Child() {
    for (int fd : {stdin_, stdout_, stderr_}) {
      if (fd >= 0) ::close(fd);
    }
    if (!waited_) {
      ::kill(pid_, SIGKILL);
      base::wait_exit(pid_);
    }
  }

  bool write(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::write(stdin_, bytes.data(), bytes.size());
      if (n < 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }
  void close_stdin() {
    if (stdin_ >= 0) ::close(stdin_);
    stdin_ = -1;
  }
  void close_stdout() {
    if (stdout_ >= 0) ::close(stdout_);
    stdout_ = -1;
  }
  void signal(int number) { ::kill(pid_, number); }

  // Reads what is available within `wait`, feeding complete stdout lines to `on_line`.
  template <class OnLine>
  void pump(std::chrono::milliseconds wait, OnLine&& on_line) {
    pollfd fds[2] = {{stdout_, POLLIN, 0}, {stderr_, POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(wait.count())) <= 0) return;
    char buffer[65536];
    if (stdout_ >= 0 && (fds[0].revents & (POLLIN | POLLHUP)) != 0) {
      const ssize_t n = ::read(stdout_, buffer, sizeof buffer);
      if (n > 0) {
        stdout_text += std::string_view(buffer, static_cast<std::size_t>(n));
        lines_.feed(std::string_view(buffer, static_cast<std::size_t>(n)),
                    [&](const base::LineEvent& e) { on_line(e.text); });
      } else if (n == 0) {
        close_stdout();
      }
    }
    if (stderr_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP)) != 0) {
      const ssize_t n = ::read(stderr_, buffer, sizeof buffer);
      if (n > 0) {
        stderr_text += std::string_view(buffer, static_cast<std::size_t>(n));
      } else if (n == 0) {
        ::close(stderr_);
        stderr_ = -1;
      }
    }
  }

  // Waits for the exit while draining output; kills it after the process limit.
  void wait(ProcessResult& result) {
    const auto deadline = Clock::now() + kProcessLimit;
    base::ExitStatus status;
    for (;;) {
      if (auto done = base::try_wait_exit(pid_)) {
        status = *done;
        break;
      }
      if (Clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        status = base::wait_exit(pid_);
        result.stderr_text += "\n[stand-in: killed after the process limit]";
        break;
      }
      pump(std::chrono::milliseconds(5), [](std::string_view) {});
    }
    waited_ = true;
    while (stdout_ >= 0 || stderr_ >= 0) {
      const auto before = stdout_text.size() + stderr_text.size();
      pump(std::chrono::milliseconds(0), [](std::string_view) {});
      if (stdout_text.size() + stderr_text.size() == before) break;
    }
    if (status.signaled)
      result.signal = status.value;
    else
      result.exit_code = status.value;
    result.stdout_text = stdout_text;
    result.stderr_text = stderr_text + result.stderr_text;
  }

  std::string stdout_text;
  std::string stderr_text;

 private:
  pid_t pid_ = -1;
  int stdin_ = -1, stdout_ = -1, stderr_ = -1;
  bool waited_ = false;
  base::LineBuffer lines_;
};

std::filesystem::path temporary_report_path() {
  static int counter = 0;
  return std::filesystem::temp_directory_path() / ("emulator-report-" + std::to_string(::getpid()) +
                                                   "-" + std::to_string(++counter) + ".json");
}

std::optional<Json> read_report(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  Json report = Json::parse(text.str(), nullptr, false);
  if (report.is_discarded()) return std::nullopt;
  return report;
}

}  // namespace

ProcessResult run_fake_claude_process(const std::vector<std::string>& args,
                                      const std::string& input,
                                      const std::vector<std::pair<std::string, std::string>>& env) {
  const auto report_path = temporary_report_path();
  auto full_env = env;
  full_env.emplace_back("FAKE_CLAUDE_REPORT", report_path.string());
  Child child(args, full_env);
  child.write(input);
  child.close_stdin();
  ProcessResult result;
  child.wait(result);
  result.report = read_report(report_path);
  return result;
}

std::vector<std::string> play_sdk_script(const std::filesystem::path& script) {
  std::vector<std::string> problems;
  std::ifstream in(script);
  std::string text;
  std::vector<Json> steps;
  Json header;
  std::size_t line_no = 0;
  while (std::getline(in, text)) {
    ++line_no;
    if (text.empty() || text[0] == '#') continue;
    Json value = Json::parse(text, nullptr, false);
    if (value.is_discarded()) {
      problems.push_back(script.string() + ":" + std::to_string(line_no) + ": invalid JSON");
      return problems;
    }
    if (header.is_null()) {
      header = std::move(value);
    } else {
      steps.push_back(std::move(value));
    }
  }
  const std::filesystem::path root = EMULATOR_SOURCE_DIR;
  std::vector<std::string> args;
  if (header.contains("args")) {
    for (const auto& a : header["args"]) args.push_back(a.get<std::string>());
  } else {
    args = {"--output-format", "stream-json", "--verbose", "--input-format", "stream-json"};
  }
  if (header.contains("plays") && header["plays"].is_string()) {
    args.push_back("--scenario");
    args.push_back((root / header["plays"].get<std::string>()).string());
  }
  std::vector<std::pair<std::string, std::string>> env;
  const auto report_path = temporary_report_path();
  env.emplace_back("FAKE_CLAUDE_REPORT", report_path.string());
  if (header.contains("env")) {
    for (auto it = header["env"].begin(); it != header["env"].end(); ++it) {
      env.emplace_back(it.key(), it.value().get<std::string>());
    }
  }

  Child child(args, env);
  Bindings bindings;
  std::vector<std::string> seen;
  for (const Json& step : steps) {
    if (step.contains("write")) {
      child.write(base::dump_json(substitute(step["write"], bindings)) + "\n");
    } else if (step.contains("write_raw")) {
      child.write(step["write_raw"].get<std::string>());
    } else if (step.contains("close_stdin")) {
      child.close_stdin();
    } else if (step.contains("close_stdout")) {
      child.close_stdout();
    } else if (step.contains("sleep_ms")) {
      std::this_thread::sleep_for(std::chrono::milliseconds(step["sleep_ms"].get<int>()));
    } else if (step.contains("await")) {
      const Json& pattern = step["await"];
      const auto deadline = Clock::now() + std::chrono::seconds(10);
      bool found = false;
      // Lines already read but not yet awaited count too (causal order).
      for (auto it = seen.begin(); it != seen.end() && !found; ++it) {
        Json value = Json::parse(*it, nullptr, false);
        if (!value.is_discarded() && match(pattern, value, bindings).matched) {
          seen.erase(it);
          found = true;
          break;
        }
      }
      while (!found && Clock::now() < deadline) {
        child.pump(std::chrono::milliseconds(20), [&](std::string_view line) {
          Json value = Json::parse(line, nullptr, false);
          if (!found && !value.is_discarded() && match(pattern, value, bindings).matched) {
            found = true;
          } else {
            seen.emplace_back(line);
          }
        });
      }
      if (!found) {
        problems.push_back("await " + base::dump_json(pattern) +
                           " never matched; stdout so far:\n" + child.stdout_text + "\nstderr:\n" +
                           child.stderr_text);
        return problems;
      }
    } else {
      problems.push_back("unknown script step " + base::dump_json(step));
      return problems;
    }
  }
  if (header.contains("terminate_after_ms")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(header["terminate_after_ms"].get<int>()));
    child.signal(SIGTERM);
  }
  ProcessResult result;
  child.wait(result);
  result.report = read_report(report_path);
  const std::string context = "\nstderr:\n" + result.stderr_text;

  if (header.contains("exit")) {
    const int expected = header["exit"].get<int>();
    if (result.exit_code != expected) {
      problems.push_back("exit code " +
                         (result.exit_code ? std::to_string(*result.exit_code) : "none") +
                         ", expected " + std::to_string(expected) + context);
    }
  }
  if (header.contains("signal")) {
    const int expected = *signal_number(header["signal"].get<std::string>());
    if (result.signal != expected) {
      problems.push_back("signal " + (result.signal ? std::to_string(*result.signal) : "none") +
                         ", expected " + std::to_string(expected) + context);
    }
  }
  if (header.contains("report")) {
    Bindings scratch;
    if (!result.report) {
      problems.push_back("no report was written" + context);
    } else if (auto m = match(header["report"], *result.report, scratch); !m.matched) {
      problems.push_back("report differs at " + m.first_difference->pointer + ": " +
                         m.first_difference->reason + context);
    }
  }
  if (header.contains("stderr")) {
    Bindings scratch;
    if (!match(header["stderr"], Json(result.stderr_text), scratch).matched) {
      problems.push_back("stderr does not match " + base::dump_json(header["stderr"]) + context);
    }
  }
  return problems;
}

}  // namespace claude::emulator::testing
