#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include "claude/emulator/fake_claude.hpp"
#include "claude/sdk/line_buffer.hpp"

extern char** environ;

namespace claude::emulator {
namespace {

constexpr int kExitUsage = 2;
int g_signal_pipe[2] = {-1, -1};

void on_signal(int signal) {
  const int saved = errno;
  const auto byte = static_cast<unsigned char>(signal);
  [[maybe_unused]] auto n = ::write(g_signal_pipe[1], &byte, 1);
  errno = saved;
}

void install_signal_handlers() {
  std::signal(SIGPIPE, SIG_IGN);
  if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGTERM, SIGINT, SIGHUP}) sigaction(signal, &action, nullptr);
}

void restore_default_signals() {
  for (int signal : {SIGTERM, SIGINT, SIGHUP}) std::signal(signal, SIG_DFL);
}

// Writes all bytes; false on EPIPE or another error.
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string lookup(const Environment& environment, std::string_view name) {
  for (const auto& [key, value] : environment) {
    if (key == name) return value;
  }
  return {};
}

// Written beside the target and renamed over it, so a reader never sees half a report.
void write_report_file(const std::string& path, const Json& report) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  std::string text = report.dump(2, ' ', false, Json::error_handler_t::replace);
  text.push_back('\n');
  if (fd < 0 || !write_all(fd, text) || ::close(fd) != 0 ||
      ::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string message =
        "fake-claude: cannot write report " + path + ": " + std::strerror(errno) + "\n";
    write_all(STDERR_FILENO, message);
    if (fd >= 0) ::unlink(temporary.c_str());
  }
}

class Clock {
 public:
  Millis now() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 origin_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point origin_ = std::chrono::steady_clock::now();
};

class Shell {
 public:
  Shell(Engine& engine, const Clock& clock) : engine_(engine), clock_(clock) {}

  void run() {
    engine_.start(clock_.now());
    flush();
    sdk::LineBuffer lines;
    auto deliver = [this](const sdk::LineEvent& event) {
      if (event.kind == sdk::LineEvent::Kind::oversized) {
        engine_.on_oversized_line(event.size, clock_.now());
      } else {
        engine_.on_line(event.text, event.partial, clock_.now());
      }
      flush();
    };
    std::string chunk(std::size_t{1} << 16, '\0');
    while (!engine_.finished()) {
      pollfd fds[2] = {{g_signal_pipe[0], POLLIN, 0}, {stdin_open_ ? 0 : -1, POLLIN, 0}};
      int timeout = -1;
      if (auto deadline = engine_.next_deadline()) {
        timeout = static_cast<int>(std::max<Millis>(0, *deadline - clock_.now()));
      }
      const int ready = ::poll(fds, 2, timeout);
      if (ready < 0 && errno != EINTR) break;
      if (ready > 0 && (fds[0].revents & POLLIN) != 0) {
        unsigned char signal = 0;
        if (::read(g_signal_pipe[0], &signal, 1) == 1) {
          engine_.on_terminated(signal, clock_.now());
          break;
        }
      }
      if (ready > 0 && stdin_open_ && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
        if (n > 0) {
          lines.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), deliver);
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          lines.finish(deliver);
          stdin_open_ = false;
          engine_.on_eof(clock_.now());
        }
      }
      engine_.on_time(clock_.now());
      flush();
    }
    flush();
  }

  bool stdin_open() const { return stdin_open_; }

 private:
  void flush() {
    for (Output& out : engine_.take_output()) {
      if (out.stream == Output::Stream::stderr_stream) {
        write_all(STDERR_FILENO, out.bytes);
      } else if (!stdout_broken_ && !write_all(STDOUT_FILENO, out.bytes)) {
        stdout_broken_ = true;
        engine_.on_stdout_closed(clock_.now());
      }
    }
  }

  Engine& engine_;
  const Clock& clock_;
  bool stdin_open_ = true;
  bool stdout_broken_ = false;
};

[[noreturn]] void hang_forever(bool stdin_open) {
  // Keep draining stdin so the SDK never blocks writing; then wait to be killed.
  std::string sink(std::size_t{1} << 16, '\0');
  while (stdin_open) {
    const ssize_t n = ::read(STDIN_FILENO, sink.data(), sink.size());
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  for (;;) ::pause();
}

}  // namespace

std::string fake_claude_usage() {
  return "Usage: fake-claude [--scenario FILE] [any claude flags…]\n"
         "\n"
         "A drop-in fake of the Claude Code CLI for SDK tests: it plays a scenario (or a\n"
         "recording) over stream-json on stdin/stdout and grades what the SDK sends.\n"
         "\n"
         "  --scenario FILE    scenario or recording to play (or set FAKE_CLAUDE_SCENARIO)\n"
         "  -v, --version      print \"<cli_version> (Claude Code)\" and exit 0\n"
         "  -h, --help         print this help and exit 0\n"
         "Every other claude flag is accepted (--flag value or --flag=value) for argv checks.\n"
         "\n"
         "Environment:\n"
         "  FAKE_CLAUDE_SCENARIO  scenario file when --scenario is not given\n"
         "  FAKE_CLAUDE_REPORT    write the JSON report to this path (mode 0600)\n"
         "\n"
         "Exit status: 0 pass (or the code of a passing scenario's exit step), 1 verdict\n"
         "failure (report on stderr), 2 usage error or bad scenario file. kill steps end\n"
         "with their signal; hang steps never exit. See docs/fake-claude.md.\n";
}

Environment current_environment() {
  Environment out;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    const auto eq = text.find('=');
    if (eq == std::string_view::npos) continue;
    out.emplace_back(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
  }
  return out;
}

int run_fake_claude(std::span<const std::string> args, const Environment& environment) {
  const Clock clock;
  Invocation invocation = parse_invocation(args);
  if (invocation.help) {
    write_all(STDOUT_FILENO, fake_claude_usage());
    return 0;
  }
  std::string path = invocation.scenario_path.value_or(lookup(environment, "FAKE_CLAUDE_SCENARIO"));
  if (invocation.version) {
    const auto version = path.empty() ? std::nullopt : read_cli_version(path);
    write_all(STDOUT_FILENO, version.value_or(Header{}.cli_version) + " (Claude Code)\n");
    return 0;
  }
  if (invocation.error) {
    write_all(STDERR_FILENO, "fake-claude: " + *invocation.error + "\n" + fake_claude_usage());
    return kExitUsage;
  }
  const std::string report_path = lookup(environment, "FAKE_CLAUDE_REPORT");
  if (path.empty()) {
    write_all(STDERR_FILENO,
              "fake-claude: no scenario given: pass --scenario FILE (anywhere in argv) or set "
              "FAKE_CLAUDE_SCENARIO=FILE\n");
    return kExitUsage;
  }
  LoadResult loaded = load_scenario_file(path);
  if (!loaded.ok()) {
    Json errors = Json::array();
    std::string text = "fake-claude: bad scenario " + path + "\n";
    for (const auto& e : loaded.errors) {
      text += "  " + e.to_string() + "\n";
      errors.push_back(Json::object({{"file", e.file}, {"line", e.line}, {"reason", e.reason}}));
    }
    write_all(STDERR_FILENO, text);
    if (!report_path.empty()) {
      write_report_file(report_path, Json::object({{"report", 1},
                                                   {"scenario", path},
                                                   {"verdict", "error"},
                                                   {"errors", std::move(errors)}}));
    }
    return kExitUsage;
  }

  install_signal_handlers();
  EngineOptions options;
  options.pid = static_cast<int>(::getpid());
  Engine engine(std::move(*loaded.scenario), std::move(invocation), environment, options);
  Shell shell(engine, clock);
  shell.run();

  const Report& report = engine.report();
  write_all(STDERR_FILENO, report_text(report));
  if (!report_path.empty()) write_report_file(report_path, report_json(report));

  const Ending ending = engine.ending();
  switch (ending.kind) {
    case Ending::Kind::exit:
      return ending.code;
    case Ending::Kind::kill:
      restore_default_signals();
      std::signal(ending.signal, SIG_DFL);
      std::raise(ending.signal);
      return 128 + ending.signal;
    case Ending::Kind::hang:
      restore_default_signals();
      hang_forever(shell.stdin_open());
  }
  return 1;
}

}  // namespace claude::emulator
