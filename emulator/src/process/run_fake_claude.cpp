#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <string_view>
#include <vector>

#include "claude/base/json.hpp"
#include "claude/base/line_buffer.hpp"
#include "claude/base/private_file.hpp"
#include "claude/base/write_all.hpp"
#include "claude/emulator/fake_claude.hpp"
#include "process/gathered_write.hpp"
#include "process/run_slot.hpp"
#include "report/report_redaction.hpp"

extern char** environ;

namespace claude::emulator {
namespace {

constexpr int kExitUsage = 2;
int g_signal_pipe[2] = {-1, -1};

int usage_error(const std::string& message) {
  base::write_all(STDERR_FILENO, "fake-claude: " + message + "\n");
  return kExitUsage;
}
// Set by a terminating signal: a write blocked on a full pipe then gives up, so the signal is
// handled (reported, then the fake dies by it) even when the SDK stopped reading.
volatile std::sig_atomic_t g_terminating = 0;

void on_signal(int signal) {
  g_terminating = 1;
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

std::string lookup(const Environment& environment, std::string_view name) {
  const auto it = std::ranges::find(environment, name, &Environment::value_type::first);
  return it == environment.end() ? std::string() : it->second;
}

bool cannot_write_report(const std::string& path, const std::string& reason) {
  base::write_all(STDERR_FILENO, "fake-claude: cannot write report " + path + ": " + reason + "\n");
  return false;
}

// FAKE_CLAUDE_REPORT is the report of this run, named by whoever started it: it is replaced,
// never written through a symlink, and created 0600 (claude/base/private_file.hpp).
bool write_report_file(const std::string& path, const Json& report) {
  std::string text = report.dump(2, ' ', false, Json::error_handler_t::replace);
  text.push_back('\n');
  const auto problem = base::write_private_file(path, text, true);
  return !problem || cannot_write_report(path, *problem);
}

// Whether a report can be created beside PATH, checked before the session starts so that a
// report that would be lost stops the run with exit 2 instead of a verdict nobody can read.
bool report_location_writable(const std::string& path) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  ::unlink(temporary.c_str());  // a stale one could keep another mode: create it afresh, 0600
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return cannot_write_report(path, std::strerror(errno));
  ::close(fd);
  ::unlink(temporary.c_str());
  return true;
}

// The engine only measures spans, so any fixed origin will do.
Millis clock_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class Shell {
 public:
  explicit Shell(Engine& engine) : engine_(engine) {}

  void run() {
    engine_.start(clock_now());
    flush();
    base::LineBuffer lines;
    auto deliver = [this](const base::LineEvent& event) {
      if (event.kind == base::LineEvent::Kind::oversized) {
        engine_.on_oversized_line(event.size, clock_now());
      } else {
        engine_.on_line(event.text, event.partial, clock_now());
      }
      flush();
    };
    std::string chunk(std::size_t{1} << 16, '\0');
    while (!engine_.finished()) {
      pollfd fds[2] = {{g_signal_pipe[0], POLLIN, 0}, {stdin_open_ ? 0 : -1, POLLIN, 0}};
      int timeout = -1;
      if (auto deadline = engine_.next_deadline()) {
        timeout = static_cast<int>(std::max<Millis>(0, *deadline - clock_now()));
      }
      const int ready = ::poll(fds, 2, timeout);
      if (ready < 0 && errno != EINTR) break;
      if (ready > 0 && (fds[0].revents & POLLIN) != 0) {
        unsigned char signal = 0;
        if (::read(g_signal_pipe[0], &signal, 1) == 1) {
          engine_.on_terminated(signal, clock_now());
          break;
        }
      }
      if (ready > 0 && stdin_open_ && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
        const std::string_view bytes(chunk.data(), n > 0 ? static_cast<std::size_t>(n) : 0);
        if (n > 0 && engine_.reads_text_prompt()) {
          engine_.on_text(bytes, clock_now());
          flush();
        } else if (n > 0) {
          lines.feed(bytes, deliver);
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          lines.finish(deliver);
          stdin_open_ = false;
          engine_.on_eof(clock_now());
        }
      }
      engine_.on_time(clock_now());
      flush();
    }
    flush();
  }

  bool stdin_open() const { return stdin_open_; }
  // The first scripted step whose stdout bytes never reached the SDK (the reader was gone).
  std::optional<std::size_t> undelivered_step() const { return undelivered_step_; }

 private:
  void flush() {
    if (g_terminating != 0) return;  // the signal is handled next; nothing more is written
    std::vector<Output> outputs = engine_.take_output();
    for (std::size_t next = 0; next < outputs.size();) {
      if (outputs[next].stream == Output::Stream::stderr_stream) {
        if (!base::write_all(STDERR_FILENO, outputs[next++].bytes, &g_terminating) &&
            g_terminating) {
          return;
        }
        continue;
      }
      // This stdout output and those after it up to a stderr one, unless a chunk is alone.
      std::size_t end = next + 1;
      while (!outputs[next].own_write && end < outputs.size() &&
             outputs[end].stream == Output::Stream::stdout_stream && !outputs[end].own_write) {
        ++end;
      }
      gathered_.clear();
      for (std::size_t i = next; i < end; ++i) gathered_.push_back(outputs[i].bytes);
      const std::size_t written =
          stdout_broken_ ? 0 : detail::write_gathered(STDOUT_FILENO, gathered_, &g_terminating);
      if (g_terminating != 0) return;
      for (std::size_t i = next + written; i < end; ++i) note_undelivered(outputs[i].step);
      next = end;
    }
  }

  // A stdout output that did not reach the SDK: its reader is gone.
  void note_undelivered(std::optional<std::size_t> step) {
    if (!undelivered_step_) undelivered_step_ = step;
    if (!stdout_broken_) {
      stdout_broken_ = true;
      engine_.on_stdout_closed(clock_now());
    }
  }

  Engine& engine_;
  std::vector<std::string_view> gathered_;  // the outputs of one write_gathered call
  bool stdin_open_ = true;
  bool stdout_broken_ = false;
  std::optional<std::size_t> undelivered_step_;
};

void fail_passed_report(Report& report, Failure failure) {
  report.failure = std::move(failure);
  report.passed = false;
  report.ending = Ending{Ending::Kind::exit, 1, 0};
}

// The engine may finish (an exit step) in the same tick as the send before it, so it learns of
// the failed write only after its verdict: a passing verdict with an undelivered scripted line
// becomes a stdout_closed failure here.
void fail_undelivered_step(Report& report, std::size_t step) {
  if (!report.passed || step >= report.steps.size()) return;
  StepOutcome& outcome = report.steps[step];
  outcome.status = StepStatus::failed;
  fail_passed_report(report, Failure{.kind = "stdout_closed",
                                     .step = step,
                                     .line = outcome.line,
                                     .message = "stdout closed by the SDK before line " +
                                                std::to_string(outcome.line) + " was delivered"});
}

// A recording cut short replays what it holds, but never passes as a complete session.
void fail_truncated_recording(Report& report, const std::string& note) {
  report.truncated = note;
  if (!report.passed) return;
  fail_passed_report(
      report, Failure{.kind = "truncated", .message = note + "; a session cut short never passes"});
}

[[noreturn]] void hang_forever(bool stdin_open) {
  // Keep draining stdin so the SDK never blocks writing; then wait to be killed.
  std::string sink(std::size_t{1} << 16, '\0');
  while (stdin_open) {
    const ssize_t n = ::read(STDIN_FILENO, sink.data(), sink.size());
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  for (;;) ::pause();
}

// The emulated CLI rejects this argv: its own message on stderr and exit 1, as the CLI does
// before it starts a session; the report (if asked for) fails with kind "argv".
int reject_command_line(const Scenario& scenario, const Invocation& invocation,
                        const std::string& report_path, const Environment& environment) {
  const detail::ReportRedaction redaction(environment);
  base::write_all(STDERR_FILENO, redaction.redact(*invocation.cli_error) + "\n");
  if (report_path.empty()) return 1;
  Report report;
  report.file = scenario.file;
  report.name = scenario.header.name;
  report.ending.code = 1;
  report.args = invocation.args;
  const std::string first_line = invocation.cli_error->substr(0, invocation.cli_error->find('\n'));
  report.failure = Failure{
      .kind = "argv",
      .line = scenario.header.line,
      .message = "the real CLI " + scenario.header.cli_version +
                 " rejects this command line: " + first_line +
                 " (docs/fake-claude.md, \"Options of the emulated CLI\"; a scenario for a fork "
                 "of the CLI sets \"unknown_options\":\"accept\")"};
  Json json = report_json(report);
  redaction.redact(json);
  return write_report_file(report_path, json) ? 1 : kExitUsage;
}

}  // namespace

std::string fake_claude_usage() {
  return "Usage: fake-claude [--scenario FILE] [--speed X] [claude options…]\n"
         "\n"
         "A drop-in fake of the Claude Code CLI for SDK tests: it plays a scenario (or a\n"
         "recording) over stream-json on stdin/stdout and grades what the SDK sends.\n"
         "\n"
         "  --scenario FILE    scenario or recording to play (or set FAKE_CLAUDE_SCENARIO)\n"
         "  --speed X          pace a recording: 1 = recorded pace, 2 = twice as fast,\n"
         "                     0 (default) = as fast as possible (or set FAKE_CLAUDE_SPEED)\n"
         "  -v, --version      print \"<cli_version> (Claude Code)\" and exit 0\n"
         "  -h, --help         print this help and exit 0\n"
         "Every other claude flag is accepted (--flag value or --flag=value) for argv checks.\n"
         "\n"
         "Environment:\n"
         "  FAKE_CLAUDE_SCENARIO  scenario file when --scenario is not given\n"
         "  FAKE_CLAUDE_REPORT    write the JSON report to this path (mode 0600)\n"
         "  FAKE_CLAUDE_SPEED     replay speed when --speed is not given\n"
         "  FAKE_CLAUDE_RUNS      a directory (set by harness): number this session N, play\n"
         "                        part N of a multi-run scenario, report to DIR/run-N.json\n"
         "  FAKE_CLAUDE_STRICT    0: SDK lines no step consumed do not fail the run\n"
         "  FAKE_CLAUDE_IGNORE    JSON array of patterns: SDK lines matching one are dropped\n"
         "  FAKE_CLAUDE_VERDICT   \"stderr\": also write a passing verdict to stderr (by\n"
         "                        default only a failing one is written there)\n"
         "\n"
         "Exit status: 0 pass (or the code of a passing scenario's exit step), 1 verdict\n"
         "failure (report on stderr), 2 usage error, bad scenario file, or a report that\n"
         "cannot be written. kill steps end with their signal; hang steps never exit.\n"
         "See docs/fake-claude.md.\n";
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

namespace {

// `harness replay --relaxed/--ignore` (docs/harness.md): FAKE_CLAUDE_STRICT=0 turns strict mode
// off; FAKE_CLAUDE_IGNORE holds a JSON array of patterns added to the header's `ignore`.
std::optional<std::string> apply_overrides(Scenario& scenario, const Environment& environment) {
  if (const std::string strict = lookup(environment, "FAKE_CLAUDE_STRICT"); !strict.empty()) {
    if (strict != "0" && strict != "1")
      return "FAKE_CLAUDE_STRICT must be 0 or 1, got '" + strict + "'";
    scenario.header.strict = strict == "1";
  }
  const std::string ignore = lookup(environment, "FAKE_CLAUDE_IGNORE");
  if (ignore.empty()) return std::nullopt;
  const Json patterns = base::parse_json_or_discarded(ignore);
  if (!patterns.is_array()) return "FAKE_CLAUDE_IGNORE must be a JSON array of patterns";
  for (const Json& pattern : patterns) {
    if (auto error = check_pattern(pattern)) {
      return "FAKE_CLAUDE_IGNORE: pattern " + base::dump_json(pattern) + " at '" + error->pointer +
             "': " + error->reason;
    }
    scenario.header.ignore.push_back(pattern);
  }
  return std::nullopt;
}

}  // namespace

int run_fake_claude(std::span<const std::string> args, const Environment& environment) {
  Invocation invocation = parse_invocation(args);
  if (invocation.help) {
    base::write_all(STDOUT_FILENO, fake_claude_usage());
    return 0;
  }
  std::string path = invocation.scenario_path.value_or(lookup(environment, "FAKE_CLAUDE_SCENARIO"));
  if (invocation.version) {
    const auto version = path.empty() ? std::nullopt : read_cli_version(path);
    base::write_all(STDOUT_FILENO, version.value_or(Header{}.cli_version) + " (Claude Code)\n");
    return 0;
  }
  // Everything fake-claude writes about the session goes through the recorder's redaction rules
  // (the SDK's argv and stdin may carry keys and tokens). Built only when needed: compiling the
  // rules must not delay the session's start.
  if (invocation.error) {
    const detail::ReportRedaction redaction(environment);
    base::write_all(STDERR_FILENO, "fake-claude: " + redaction.redact(*invocation.error) + "\n" +
                                       fake_claude_usage());
    return kExitUsage;
  }
  double speed = invocation.speed.value_or(0);
  if (!invocation.speed) {
    if (const std::string text = lookup(environment, "FAKE_CLAUDE_SPEED"); !text.empty()) {
      const auto parsed = parse_speed(text);
      if (!parsed) return usage_error("FAKE_CLAUDE_SPEED needs a number >= 0, got '" + text + "'");
      speed = *parsed;
    }
  }
  std::string report_path = lookup(environment, "FAKE_CLAUDE_REPORT");
  if (path.empty()) {
    return usage_error(
        "no scenario given: pass --scenario FILE (anywhere in argv) or set "
        "FAKE_CLAUDE_SCENARIO=FILE");
  }
  // Under harness every session has a number, its own report and (in a multi-run scenario) its
  // own part.
  std::optional<detail::RunSlot> slot;
  if (const std::string runs = lookup(environment, "FAKE_CLAUDE_RUNS"); !runs.empty()) {
    std::string problem;
    slot = detail::claim_run(runs, problem);
    if (!slot) return usage_error(problem);
    report_path = slot->report_path;
  }
  PartsLoadResult parts = load_scenario_parts(path);
  const std::size_t run_number = slot ? slot->number : 1;
  if (parts.ok() && parts.parts.size() > 1 && run_number > parts.parts.size()) {
    const std::string message = "run " + std::to_string(run_number) + " of a scenario with " +
                                std::to_string(parts.parts.size()) +
                                " runs: the client started claude more often than " + path +
                                " describes";
    base::write_all(STDERR_FILENO, "fake-claude: verdict fail: " + message + "\n");
    if (!report_path.empty()) {
      write_report_file(
          report_path,
          Json::object(
              {{"report", 1},
               {"scenario", path},
               {"run", run_number},
               {"verdict", "fail"},
               {"failure",
                Json::object({{"kind", "extra_run"}, {"location", path}, {"message", message}})}}));
    }
    return 1;
  }
  if (!parts.ok()) {
    Json errors = Json::array();
    std::string text = "fake-claude: bad scenario " + path + "\n";
    for (const auto& e : parts.errors) {
      text += "  " + e.to_string() + "\n";
      errors.push_back(Json::object({{"file", e.file}, {"line", e.line}, {"reason", e.reason}}));
    }
    const detail::ReportRedaction redaction(environment);
    base::write_all(STDERR_FILENO, redaction.redact(text));
    if (!report_path.empty()) {
      Json error_report = Json::object(
          {{"report", 1}, {"scenario", path}, {"verdict", "error"}, {"errors", std::move(errors)}});
      redaction.redact(error_report);
      write_report_file(report_path, error_report);
    }
    return kExitUsage;
  }
  // A one-part scenario is played by every run; part N of a multi-run one by run N.
  Scenario& scenario = parts.parts[parts.parts.size() == 1 ? 0 : run_number - 1];
  if (!report_path.empty() && !report_location_writable(report_path)) return kExitUsage;
  // Read argv again by the option table of the version the scenario emulates: an option that
  // CLI does not know (or a missing or invalid option-argument) ends the run as the CLI ends it.
  const Header& header = scenario.header;
  invocation = parse_invocation(
      args, emulated_cli_options(header.cli_version),
      header.accept_unknown_options ? UnknownOptions::accept : UnknownOptions::reject);
  if (invocation.cli_error) {
    return reject_command_line(scenario, invocation, report_path, environment);
  }
  if (auto problem = apply_overrides(scenario, environment)) return usage_error(*problem);

  install_signal_handlers();
  EngineOptions options;
  options.pid = static_cast<int>(::getpid());
  options.speed = speed;
  const std::optional<std::string> truncated = scenario.truncated;
  Engine engine(std::move(scenario), std::move(invocation), environment, options);
  Shell shell(engine);
  shell.run();

  Report report = engine.take_report();
  if (const auto step = shell.undelivered_step()) fail_undelivered_step(report, *step);
  if (truncated) fail_truncated_recording(report, *truncated);
  const detail::ReportRedaction redaction(environment);
  // A passing replay leaves the CLI's stderr as the scenario scripted it: SDKs hand that stream
  // to their users, and the live CLI never wrote a verdict there.
  bool report_written = true;
  if (!report_path.empty()) {
    Json json = report_json(report);
    if (slot) json["run"] = slot->number;
    redaction.redact(json);
    report_written = write_report_file(report_path, json);
  }
  // A verdict whose report could not be written goes to stderr too: it is the only copy.
  if (!report.passed || !report_written || lookup(environment, "FAKE_CLAUDE_VERDICT") == "stderr") {
    base::write_all(STDERR_FILENO, redaction.redact(report_text(report)));
  }
  if (!report_written) return kExitUsage;

  const Ending ending = report.ending;
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
