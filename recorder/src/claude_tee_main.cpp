// claude-tee: put it where an SDK looks for `claude`; it runs the real CLI, forwards every byte
// unchanged and writes a recording (docs/recording.md).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>

#include "claude/recorder/real_cli_locator.hpp"
#include "claude/recorder/recording_header.hpp"
#include "claude/recorder/recording_writer.hpp"
#include "claude/recorder/redactor.hpp"
#include "claude/recorder/tee_session.hpp"

extern char** environ;

namespace {

using namespace claude::recorder;

constexpr int kExitBadSetup = 2;

constexpr std::string_view kHelp = R"(Usage: claude-tee [CLAUDE CLI ARGUMENTS...]

Runs the real Claude Code CLI with exactly these arguments, forwards stdin, stdout and
stderr byte for byte, and writes a recording of all three streams (format: docs/recording.md).
Install it (or a symlink named `claude` to it) where your SDK looks for the CLI.

`claude-tee --help` prints this text only when invoked under the name claude-tee; under any
other name every argument goes to the real CLI. `-v`/`--version` alone are passed straight to
the real CLI and not recorded.

Environment:
  CLAUDE_TEE_REAL_CLI    path of the real CLI (default: first `claude` on PATH, then the usual
                         install locations, skipping claude-tee itself by inode)
  CLAUDE_TEE_OUT         recording file (never overwritten), or directory (ends in '/' or
                         exists) that receives a uniquely named file; default ./claude-recordings/
  CLAUDE_TEE_REDACT      file of extra redaction rules, one `name<TAB>RE2` per line
  CLAUDE_TEE_CLI_VERSION version to put in the header instead of asking `<cli> --version`
  CLAUDE_TEE_HEADER_PATHS  `keep` writes local paths into the header as they are; by default
                         the recording's and the CLI's paths become file names, the working
                         directory `.` and the home folder `~`

Exit status: the CLI's own exit status; when the CLI is killed by a signal, claude-tee ends by
the same signal. 2 when claude-tee cannot start: no real CLI, bad redaction rules, recording
file exists or cannot be created, or the CLI cannot be executed.
)";

std::optional<std::string> env_value(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

void keep_standard_fds_open() {
  for (int fd = 0; fd < 3; ++fd) {
    if (::fcntl(fd, F_GETFD) < 0) ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
  }
}

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "claude-tee: " << message << '\n';
  std::exit(kExitBadSetup);
}

}  // namespace

int main(int argc, char** argv) {
  keep_standard_fds_open();
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string_view invoked_as = argc > 0 ? std::string_view(argv[0]) : "";
  if (args.size() == 1 && args[0] == "--help" &&
      std::filesystem::path(invoked_as).filename() == "claude-tee") {
    std::cout << kHelp;
    return 0;
  }

  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) environment.emplace_back(*e);

  std::filesystem::path real_cli;
  Redactor redactor;
  std::unique_ptr<RecordingWriter> writer;
  try {
    RealCliSearch search;
    search.explicit_path = env_value("CLAUDE_TEE_REAL_CLI");
    search.path_variable = env_value("PATH").value_or("");
    search.home = env_value("HOME");
    search.self = file_identity("/proc/self/exe").value_or(FileIdentity{});
    real_cli = locate_real_cli(search);
    if (args.size() == 1 && (args[0] == "-v" || args[0] == "--version")) {
      ::execv(real_cli.c_str(), argv);
      fail(real_cli.string() + ": cannot execute: " + std::strerror(errno));
    }
    redactor = Redactor::with_builtin_rules();
    if (auto rules = env_value("CLAUDE_TEE_REDACT"); rules && !rules->empty()) {
      redactor.add_rules_file(*rules);
    }
    add_secret_env_rules(redactor, environment);
    writer = RecordingWriter::create(resolve_recording_target(env_value("CLAUDE_TEE_OUT")));
  } catch (const RealCliError& e) {
    fail(e.what());
  } catch (const RedactionError& e) {
    fail(e.what());
  } catch (const RecordingError& e) {
    fail(e.what());
  }

  RecordingHeader header;
  header.argv = args;
  header.env = recorded_env(environment);
  std::error_code ec;
  header.cwd = std::filesystem::current_path(ec).string();
  header.cli = real_cli.string();
  header.started_at = utc_timestamp_now();
  if (env_value("CLAUDE_TEE_HEADER_PATHS").value_or("") != "keep") {
    LocalPaths paths;
    paths.recording = std::filesystem::absolute(writer->path(), ec).string();
    paths.real_cli = real_cli.string();
    paths.cwd = header.cwd;
    paths.home = env_value("HOME").value_or("");
    hide_local_paths(header, paths);
  }

  TeeConfig config;
  config.real_cli = real_cli;
  config.args = args;
  config.environment = environment;
  config.cli_version = env_value("CLAUDE_TEE_CLI_VERSION");

  ChildOutcome outcome;
  try {
    outcome = run_tee_session(config, std::move(header), redactor, *writer);
  } catch (const TeeError& e) {
    std::filesystem::remove(writer->path(), ec);
    fail(e.what());
  }
  if (auto losses = writer->losses())
    std::cerr << "claude-tee: recording incomplete: " << *losses << '\n';
  end_like(outcome);
}
