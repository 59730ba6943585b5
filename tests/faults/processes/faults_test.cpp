// Faults between processes: a side dies or stops reading, and the other side ends by itself,
// on time, saying what happened. Faults already covered elsewhere are listed in
// tests/faults/README.md and not repeated here.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "claude/base/subprocess.hpp"
#include "claude/test_support/command.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

fs::path source_dir() {
  const char* dir = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  return dir != nullptr ? fs::path(dir) : fs::current_path();
}

std::string data(const std::string& name) {
  return (source_dir() / "tests/faults/data" / name).string();
}

// A child whose stdin and stdout are pipes the test holds; its stderr goes to a file.
struct Child {
  pid_t pid = -1;
  int in = -1;   // the child's stdin (write end)
  int out = -1;  // the child's stdout (read end)
};

Child start(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
            const fs::path& stderr_file) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) return {};
  claude::test_support::Command command;
  command.program = argv.front();
  command.args.assign(argv.begin() + 1, argv.end());
  command.env = env;
  const pid_t pid = claude::test_support::start(
      command,
      {claude::base::ChildFd::dup(in[0], 0), claude::base::ChildFd::dup(out[1], 1),
       claude::base::ChildFd::open(2, stderr_file.string(), O_WRONLY | O_CREAT | O_TRUNC, 0600)},
      {SIGPIPE});
  ::close(in[0]);
  ::close(out[1]);
  return {pid, in[1], out[0]};
}

void reap(pid_t pid) {
  ::kill(pid, SIGKILL);
  claude::base::wait_exit(pid);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The report is replaced atomically, so once it parses it is complete.
std::optional<nlohmann::json> wait_for_report(const fs::path& path,
                                              std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    auto json = nlohmann::json::parse(read_file(path), nullptr, false);
    if (!json.is_discarded()) return json;
    std::this_thread::sleep_for(10ms);
  }
  return std::nullopt;
}

TEST(Faults, FakeClaudeWhoseStdoutReaderIsGoneFailsInsteadOfDyingBySigpipe) {
  const claude::test_support::TempDir dir("faults");
  const fs::path report = dir.path() / "report.json";
  const Child fake = start({FAKE_CLAUDE_PATH, "--scenario", data("write-while-stdin-open.ndjson")},
                           {{"FAKE_CLAUDE_REPORT", report.string()}}, dir.path() / "stderr.txt");
  ASSERT_GT(fake.pid, 0);
  ::close(fake.out);  // the reader is gone before the first write
  const auto status = claude::test_support::wait_exit_within(fake.pid, 10s);
  ::close(fake.in);
  if (!status) {
    reap(fake.pid);
    FAIL() << "fake-claude did not end on its own";
  }
  ASSERT_FALSE(status->signaled) << "killed by signal " << status->value;
  EXPECT_EQ(status->value, 1);
  const std::string err = read_file(dir.path() / "stderr.txt");
  EXPECT_NE(err.find("stdout was closed"), std::string::npos) << err;
  const auto json = wait_for_report(report, 1s);
  ASSERT_TRUE(json.has_value());
  EXPECT_EQ(json->at("verdict"), "fail");
}

TEST(Faults, FakeClaudeFailsWhenItsLastSendIsUndeliveredAsItExits) {
  const claude::test_support::TempDir dir("faults");
  const fs::path report = dir.path() / "report.json";
  const Child fake = start({FAKE_CLAUDE_PATH, "--scenario", data("send-then-exit-at-eof.ndjson")},
                           {{"FAKE_CLAUDE_REPORT", report.string()}}, dir.path() / "stderr.txt");
  ASSERT_GT(fake.pid, 0);
  ::close(fake.out);  // the reader is gone; then EOF runs expect_eof, send and exit at once
  ::close(fake.in);
  const auto status = claude::test_support::wait_exit_within(fake.pid, 10s);
  if (!status) {
    reap(fake.pid);
    FAIL() << "fake-claude did not end on its own";
  }
  ASSERT_FALSE(status->signaled) << "killed by signal " << status->value;
  EXPECT_EQ(status->value, 1);
  const std::string err = read_file(dir.path() / "stderr.txt");
  EXPECT_NE(err.find("send-then-exit-at-eof.ndjson:5: stdout_closed: stdout closed by the SDK "
                     "before line 5 was delivered"),
            std::string::npos)
      << err;
  const auto json = wait_for_report(report, 1s);
  ASSERT_TRUE(json.has_value());
  EXPECT_EQ(json->at("verdict"), "fail");
  EXPECT_EQ(json->at("failure").at("kind"), "stdout_closed");
  EXPECT_EQ(json->at("failure").at("line"), 5);
  EXPECT_EQ(json->at("steps").at(1).at("status"), "failed");
}

TEST(Faults, SdkKilledMidSessionLeavesFakeClaudeToEndOnItsOwnWithAReport) {
  const claude::test_support::TempDir dir("faults");
  const fs::path report = dir.path() / "report.json";
  const Child host =
      start({SDK_SESSION_HOST_PATH, FAKE_CLAUDE_PATH, data("talk-then-wait.ndjson")},
            {{"FAKE_CLAUDE_REPORT", report.string()}}, dir.path() / "host-stderr.txt");
  ASSERT_GT(host.pid, 0);
  ::close(host.in);
  // "ready": the session is up and the fake waits (20 s step timeout) for a second prompt.
  std::string seen;
  char buffer[256];
  while (seen.find("ready") == std::string::npos) {
    const ssize_t n = ::read(host.out, buffer, sizeof buffer);
    if (n <= 0) break;
    seen.append(buffer, static_cast<std::size_t>(n));
  }
  if (seen.find("ready") == std::string::npos) {
    reap(host.pid);
    FAIL() << "the host never got the first answer: " << read_file(dir.path() / "host-stderr.txt");
  }
  ASSERT_FALSE(fs::exists(report)) << "the fake ended before the SDK was killed";

  const auto killed_at = std::chrono::steady_clock::now();
  ::kill(host.pid, SIGKILL);
  const auto host_status = claude::test_support::wait_exit_within(host.pid, 5s);
  ::close(host.out);
  ASSERT_TRUE(host_status && host_status->signaled);

  // With its SDK gone the fake sees EOF, fails the waiting step and reports, long before 20 s.
  const auto json = wait_for_report(report, 10s);
  ASSERT_TRUE(json.has_value()) << "fake-claude wrote no report after the SDK died";
  EXPECT_LT(std::chrono::steady_clock::now() - killed_at, 10s);
  EXPECT_EQ(json->at("verdict"), "fail");
  EXPECT_NE(json->dump().find("stdin was closed"), std::string::npos) << json->dump(2);
}

TEST(Faults, ClaudeTeeWhoseStdoutReaderIsGoneKeepsRecordingAndEndsWithTheCli) {
  const claude::test_support::TempDir dir("faults");
  const fs::path recording = dir.path() / "rec.ndjson";
  const Child tee = start({CLAUDE_TEE_PATH, "--scenario", data("write-while-stdin-open.ndjson")},
                          {{"CLAUDE_TEE_REAL_CLI", FAKE_CLAUDE_PATH},
                           {"CLAUDE_TEE_OUT", recording.string()},
                           {"CLAUDE_TEE_CLI_VERSION", "1.0.0"}},
                          dir.path() / "stderr.txt");
  ASSERT_GT(tee.pid, 0);
  ::close(tee.out);
  std::this_thread::sleep_for(500ms);
  ::close(tee.in);
  const auto status = claude::test_support::wait_exit_within(tee.pid, 10s);
  if (!status) {
    reap(tee.pid);
    FAIL() << "claude-tee did not end on its own";
  }
  EXPECT_FALSE(status->signaled && status->value == SIGPIPE)
      << "claude-tee died silently by SIGPIPE";
  // Every line is a valid event and the last one is the CLI's end.
  const std::string text = read_file(recording);
  std::istringstream lines(text);
  std::string line, last;
  std::size_t count = 0;
  while (std::getline(lines, line)) {
    ASSERT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded()) << line;
    last = line;
    ++count;
  }
  EXPECT_GE(count, 2u);
  EXPECT_NE(last.find("\"exit\""), std::string::npos) << text;
  EXPECT_NE(text.find("first"), std::string::npos) << "the CLI's output is recorded: " << text;
}

}  // namespace
