// `harness record --offline`: model-stub + claude-tee + the real CLI in a loopback-only network
// namespace. The parent checks the command line and the model script, then forks one helper
// process that enters the namespace (unshare(2) needs a single-threaded caller, and the parent
// must stay outside), starts model-stub, runs CMD and cleans up; the helper sends its messages
// and CMD's status back over a pipe as one JSON object.
#include "claude/harness/offline_record.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "claude/base/cli.hpp"
#include "claude/base/input_file.hpp"
#include "claude/base/json.hpp"
#include "claude/base/subprocess.hpp"
#include "claude/base/write_all.hpp"
#include "claude/harness/command_runner.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/shim_directory.hpp"
#include "claude/harness/tool_locator.hpp"
#include "recording_check.hpp"

extern char** environ;

namespace claude::harness {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFakeKey = "sk-ant-fake-offline-record-0000";

constexpr const char* kOfflineRecordHelp =
    R"(Usage: harness record --offline --model-script FILE -o OUT [--model-log FILE]
                      [--real-cli PATH] [--netns auto|required|off] [--fresh-cwd] -- CMD...

Records the real Claude Code CLI with no API key and no network: model-stub answers the CLI from
the model script FILE on 127.0.0.1, and CMD runs with `claude` -> claude-tee -> the real CLI
(recording to OUT) under the offline environment: a fresh temporary HOME, a fake API key,
ANTHROPIC_BASE_URL = the stub, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, DISABLE_TELEMETRY,
DISABLE_AUTOUPDATER, DISABLE_ERROR_REPORTING = 1, ENABLE_TOOL_SEARCH=false; the caller's
ANTHROPIC_* and CLAUDE_* variables are not passed on. CMD can also start claude-tee directly:
CLAUDE_TEE_OUT and CLAUDE_TEE_REAL_CLI are set.

  --netns auto       (default) run in a fresh network namespace holding only loopback when the
                     machine allows it (unshare(2), as root or through a user namespace),
                     otherwise without one, relying on the traffic-disabling variables
  --netns required   fail (exit 3) when no namespace can be made
  --netns off        never make one
  --model-log FILE   the stub's request log (default OUT.model-log.ndjson)
  --real-cli PATH    the real CLI (default: CLAUDE_TEE_REAL_CLI, else `claude` on PATH)
  --fresh-cwd        run CMD in an empty temporary directory (no project files for the CLI)

One line says whether the run was isolated. OUT and the model log are never overwritten.
Exit status: 0 recorded; 2 usage, bad model script (file:line), no real CLI, OUT or the model
log exists; 3 model-stub did not start, --netns required impossible, CMD failed or never ran
claude.
)";

using base::is_executable_file;

// --real-cli, else CLAUDE_TEE_REAL_CLI, else the first `claude` on PATH that is not claude-tee.
std::optional<fs::path> resolve_real_cli(const fs::path& given, const fs::path& tee,
                                         std::string& why) {
  const char* env = std::getenv("CLAUDE_TEE_REAL_CLI");
  if (!given.empty() || (env != nullptr && *env != '\0')) {
    const fs::path chosen = given.empty() ? fs::path(env) : given;
    if (is_executable_file(chosen)) return fs::absolute(chosen);
    why = (given.empty() ? "CLAUDE_TEE_REAL_CLI=" : "--real-cli ") + chosen.string() +
          " is not an executable file";
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / "claude";
    std::error_code ec;
    if (is_executable_file(candidate) && !fs::equivalent(candidate, tee, ec)) {
      return fs::absolute(candidate);
    }
  }
  why =
      "no real CLI: give --real-cli PATH, set CLAUDE_TEE_REAL_CLI, or put `claude` on PATH "
      "(scripts/install-real-cli installs the pinned one and prints its path)";
  return std::nullopt;
}

// Everything `fd` yields up to its end (or a read error); `fd` is closed.
std::string read_and_close(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fd);
  return text;
}

// Runs argv to completion with stdout and stderr captured together.
struct Captured {
  int status = -1;  // -1: it did not start (`output` says why)
  std::string output;
};

Captured capture(const std::vector<std::string>& argv) {
  Captured c;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    c.output = std::string("pipe: ") + std::strerror(errno);
    return c;
  }
  const base::Spawned child = base::spawn(
      {.argv = argv, .fds = {base::ChildFd::dup(fds[1], 1), base::ChildFd::dup(fds[1], 2)}});
  ::close(fds[1]);
  if (!child.started()) {
    ::close(fds[0]);
    c.output = argv[0] + ": " + std::strerror(child.error);
    return c;
  }
  c.output = read_and_close(fds[0]);
  const base::ExitStatus status = base::wait_exit(child.pid);
  c.status = status.signaled ? 128 + status.value : status.value;
  return c;
}

bool write_proc_file(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// Moves this (single-threaded) process into a fresh network namespace and brings its loopback
// up. Returns the reason when that is impossible; then nothing has changed, unless the reason
// starts with "loopback" (the namespace exists but is unusable).
std::optional<std::string> enter_loopback_namespace() {
  if (::unshare(CLONE_NEWNET) != 0) {
    const int plain = errno;
    const uid_t uid = ::getuid();
    const gid_t gid = ::getgid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
      return std::string("unshare(CLONE_NEWNET): ") + std::strerror(plain) +
             "; with a user namespace: " + std::strerror(errno);
    }
    // Keep our own identity inside the user namespace.
    write_proc_file("/proc/self/setgroups", "deny");
    if (!write_proc_file("/proc/self/uid_map",
                         std::to_string(uid) + " " + std::to_string(uid) + " 1\n") ||
        !write_proc_file("/proc/self/gid_map",
                         std::to_string(gid) + " " + std::to_string(gid) + " 1\n")) {
      return std::string("loopback: cannot map ids in the user namespace: ") + std::strerror(errno);
    }
  }
  const int sock = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (sock < 0) return std::string("loopback: socket: ") + std::strerror(errno);
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  const bool up = ::ioctl(sock, SIOCGIFFLAGS, &ifr) == 0 &&
                  (ifr.ifr_flags = static_cast<short>(ifr.ifr_flags | IFF_UP | IFF_RUNNING),
                   ::ioctl(sock, SIOCSIFFLAGS, &ifr) == 0);
  const int e = errno;
  ::close(sock);
  if (!up) return std::string("loopback: cannot bring lo up: ") + std::strerror(e);
  return std::nullopt;
}

// model-stub running with the script; stopped (SIGTERM, then SIGKILL after 5 s) when destroyed.
class RunningStub {
 public:
  RunningStub(const fs::path& stub, const fs::path& script, const fs::path& log,
              const fs::path& stderr_file) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      error_ = std::string("pipe: ") + std::strerror(errno);
      return;
    }
    const base::Spawned child = base::spawn(
        {.argv = {stub.string(), "--script", script.string(), "--log", log.string(), "--port", "0"},
         .fds = {base::ChildFd::dup(fds[1], 1),
                 base::ChildFd::open(2, stderr_file.string(), O_WRONLY | O_CREAT | O_TRUNC, 0600),
                 base::ChildFd::open(0, "/dev/null", O_RDONLY)}});
    ::close(fds[1]);
    if (!child.started()) {
      ::close(fds[0]);
      error_ = stub.string() + ": " + std::strerror(child.error);
      return;
    }
    pid_ = child.pid;
    read_url(fds[0], stderr_file);
    ::close(fds[0]);
  }
  ~RunningStub() { stop(); }
  RunningStub(const RunningStub&) = delete;
  RunningStub& operator=(const RunningStub&) = delete;

  [[nodiscard]] const std::string& url() const { return url_; }
  [[nodiscard]] const std::string& error() const { return error_; }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!base::try_wait_exit(pid_)) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        base::wait_exit(pid_);
        break;
      }
      ::usleep(10'000);
    }
    pid_ = -1;
  }

 private:
  // The stub prints its URL as its only stdout line once it listens.
  void read_url(int fd, const fs::path& stderr_file) {
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (line.find('\n') == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) break;
      char buffer[256];
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n <= 0) break;
      line.append(buffer, static_cast<std::size_t>(n));
    }
    if (const auto nl = line.find('\n'); nl != std::string::npos && line.starts_with("http://")) {
      url_ = line.substr(0, nl);
      return;
    }
    std::string unread;
    error_ = "model-stub did not start: " + base::read_input_file(stderr_file, unread).value_or("");
    stop();
  }

  pid_t pid_ = -1;
  std::string url_;
  std::string error_;
};

struct Prepared {
  fs::path script, output, model_log, real_cli, tee, stub;
};

// What the helper process does; `report` collects what goes back to the parent besides the exit
// code and the output.
int run_inside(const Prepared& p, const OfflineRecordOptions& options, std::ostream& out,
               std::ostream& err, nlohmann::json& report) {
  const bool off = options.netns == NetnsMode::off;
  const auto not_isolated =
      off ? std::optional<std::string>("--netns off") : enter_loopback_namespace();
  if (not_isolated && !off &&
      (options.netns == NetnsMode::required || not_isolated->starts_with("loopback"))) {
    err << "harness record: a fresh network namespace was required but cannot be made: "
        << *not_isolated << '\n';
    return kExitCommandFailed;
  }
  report["isolated"] = !not_isolated;
  if (not_isolated) {
    out << "harness: offline run NOT isolated (" << *not_isolated
        << "); relying on the traffic-disabling variables\n";
  } else {
    out << "harness: offline run isolated in a fresh network namespace (loopback only)\n";
  }

  std::string tmpl = (fs::temp_directory_path() / "harness-offline-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    err << "harness record: " << tmpl << ": " << std::strerror(errno) << '\n';
    return kExitCommandFailed;
  }
  const fs::path work = tmpl;
  struct RemoveWork {
    fs::path dir;
    ~RemoveWork() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } remove_work{work};
  std::error_code ec;
  fs::create_directory(work / "home", ec);

  RunningStub stub(p.stub, p.script, p.model_log, work / "stub.err");
  if (stub.url().empty()) {
    err << "harness record: " << stub.error() << '\n';
    return kExitCommandFailed;
  }
  std::optional<ShimDirectory> shim;
  try {
    shim.emplace(p.tee);
  } catch (const std::exception& e) {
    err << "harness record: " << e.what() << '\n';
    return kExitCommandFailed;
  }
  // Ours without ANTHROPIC_* and CLAUDE*, plus the offline set.
  std::map<std::string, std::optional<std::string>> set{
      {"HOME", (work / "home").string()},
      {"PATH", shim->path_variable()},
      {"ANTHROPIC_API_KEY", kFakeKey},
      {"ANTHROPIC_BASE_URL", stub.url()},
      {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"},
      {"DISABLE_TELEMETRY", "1"},
      {"DISABLE_AUTOUPDATER", "1"},
      {"DISABLE_ERROR_REPORTING", "1"},
      {"ENABLE_TOOL_SEARCH", "false"},
      {"CLAUDE_TEE_OUT", p.output.string()},
      {"CLAUDE_TEE_REAL_CLI", p.real_cli.string()},
  };
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string name(*e, std::strcspn(*e, "="));
    if (name.starts_with("ANTHROPIC_") || name.starts_with("CLAUDE")) set.try_emplace(name);
  }
  const auto env = environment_with(set);
  if (options.command_stdout) {
    const int fd =
        ::open(options.command_stdout->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ::dup2(fd, 1) < 0) {
      err << "harness record: " << options.command_stdout->string() << ": " << std::strerror(errno)
          << '\n';
      return kExitUsage;
    }
    ::close(fd);
  }
  if (options.fresh_cwd) {
    fs::create_directory(work / "cwd", ec);
    if (ec || ::chdir((work / "cwd").c_str()) != 0) {
      err << "harness record: " << (work / "cwd").string() << ": cannot enter\n";
      return kExitCommandFailed;
    }
  }
  const CommandResult result = run_command(options.command, env);
  stub.stop();
  report["command_started"] = result.started;
  report["command_signaled"] = result.signaled;
  report["command_value"] = result.value;
  if (!command_recorded(result, fs::exists(p.output), err)) return kExitCommandFailed;
  if (auto why = unusable_recording(p.output)) {
    const fs::path kept = p.output.string() + ".incomplete";
    fs::rename(p.output, kept, ec);
    err << "harness: the recording is not usable, " << *why << "\n"
        << "harness: what was recorded is in " << (ec ? p.output : kept).string() << '\n';
    return kExitCommandFailed;
  }
  if (!result.succeeded()) {
    err << "harness: CMD failed (" << result.describe() << "); recording kept at "
        << p.output.string() << '\n';
    return kExitCommandFailed;
  }
  out << "harness: recorded " << p.output.string() << " (model log " << p.model_log.string()
      << ")\n";
  return kExitPass;
}

// Forks the helper, relays its report.
OfflineRecordResult run_helper(const Prepared& p, const OfflineRecordOptions& options,
                               std::ostream& out, std::ostream& err) {
  OfflineRecordResult result;
  result.exit_code = kExitCommandFailed;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    err << "harness record: pipe: " << std::strerror(errno) << '\n';
    return result;
  }
  out.flush();
  err.flush();
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = ::fork();
  if (pid < 0) {
    err << "harness record: fork: " << std::strerror(errno) << '\n';
    ::close(fds[0]);
    ::close(fds[1]);
    return result;
  }
  if (pid == 0) {
    ::close(fds[0]);
    nlohmann::json report;
    std::ostringstream inside_out, inside_err;
    try {
      report["rc"] = run_inside(p, options, inside_out, inside_err, report);
      report["out"] = inside_out.str();
      report["err"] = inside_err.str();
    } catch (const std::exception& e) {
      report["rc"] = kExitCommandFailed;
      report["err"] = std::string("harness record: ") + e.what() + '\n';
    }
    const std::string text = base::dump_json(report);
    (void)base::write_all(fds[1], text);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  base::ExitStatus status;
  {
    const SignalRelay relay(pid);
    text = read_and_close(fds[0]);
    status = base::wait_exit(pid);
  }
  const auto report = nlohmann::json::parse(text, nullptr, false);
  if (report.is_discarded() || !report.is_object()) {
    err << "harness record: the offline helper process died ("
        << (status.signaled ? "signal " : "exit ") << status.value << ")\n";
    return result;
  }
  out << report.value("out", "");
  err << report.value("err", "");
  result.exit_code = report.value("rc", kExitCommandFailed);
  result.isolated = report.value("isolated", false);
  result.command_started = report.value("command_started", false);
  result.command_signaled = report.value("command_signaled", false);
  result.command_value = report.value("command_value", 0);
  return result;
}

}  // namespace

OfflineRecordResult record_offline(const OfflineRecordOptions& options, std::ostream& out,
                                   std::ostream& err) {
  OfflineRecordResult result;
  result.exit_code = kExitUsage;
  if (options.command.empty() || options.output.empty() || options.model_script.empty()) {
    err << "harness record --offline: need --model-script FILE, -o OUT and -- CMD...\n";
    return result;
  }
  Prepared p;
  p.script = fs::absolute(options.model_script);
  p.output = fs::absolute(options.output);
  p.model_log = options.model_log.empty() ? fs::path(p.output.string() + ".model-log.ndjson")
                                          : fs::absolute(options.model_log);
  for (const auto& f : {p.output, p.model_log}) {
    std::error_code ec;
    if (fs::exists(f, ec)) {
      err << "harness record: " << f.string() << " exists; recordings are never overwritten\n";
      return result;
    }
  }
  try {
    p.tee = locate_tool("claude-tee");
    p.stub = locate_tool("model-stub");
  } catch (const ToolNotFound& e) {
    err << "harness record: " << e.what() << '\n';
    return result;
  }
  std::string why;
  const auto real = resolve_real_cli(options.real_cli, p.tee, why);
  if (!real) {
    err << "harness record: " << why << '\n';
    return result;
  }
  p.real_cli = *real;
  // A bad model script is the caller's input error: stop before anything runs.
  const Captured check = capture({p.stub.string(), "--script", p.script.string(), "--check"});
  if (check.status != 0) {
    err << check.output;
    if (!check.output.empty() && check.output.back() != '\n') err << '\n';
    result.exit_code = check.status == kExitUsage ? kExitUsage : kExitCommandFailed;
    return result;
  }
  return run_helper(p, options, out, err);
}

std::optional<NetnsMode> parse_netns(std::string_view text) {
  if (text == "auto") return NetnsMode::automatic;
  if (text == "required") return NetnsMode::required;
  if (text == "off") return NetnsMode::off;
  return std::nullopt;
}

bool wants_offline_record(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (a == "--offline") return true;
  }
  return false;
}

int record_offline_command(const std::vector<std::string>& args, std::ostream& out,
                           std::ostream& err) {
  OfflineRecordOptions options;
  std::string netns = "auto";
  auto [option_args, command] = base::split_command(args);
  options.command = std::move(command);
  CLI::App app;
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_flag("--offline");
  app.add_flag("--fresh-cwd", options.fresh_cwd);
  app.add_option("-o,--output", options.output);
  app.add_option("--model-script", options.model_script);
  app.add_option("--model-log", options.model_log);
  app.add_option("--real-cli", options.real_cli);
  app.add_option("--netns", netns);
  const base::CommandLineText text{"harness record --offline", kOfflineRecordHelp,
                                   kOfflineRecordHelp};
  if (auto exit = base::parse_command_line(app, option_args, text, out, err)) return *exit;
  const auto mode = parse_netns(netns);
  if (!mode) {
    err << "harness record --offline: --netns must be auto, required or off, not '" << netns
        << "'\n";
    return kExitUsage;
  }
  options.netns = *mode;
  if (options.command.empty() || options.output.empty() || options.model_script.empty()) {
    return base::usage_error(text, "need --model-script FILE, -o OUT and -- CMD...", err);
  }
  return record_offline(options, out, err).exit_code;
}

}  // namespace claude::harness
