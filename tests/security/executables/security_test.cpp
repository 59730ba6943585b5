// Security properties across the executables: no shell between an argv and a child, no planted
// secret in recordings or reports, private files that are never overwritten, a loopback-only
// model-stub. Buffer caps are rows of the bad-input catalogue (tests/bad_input/catalogue.json).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "claude/sdk/errors.hpp"
#include "claude/sdk/options.hpp"
#include "claude/sdk/query.hpp"
#include "claude/test_support/child_process.hpp"
#include "claude/test_support/run.hpp"

namespace fs = std::filesystem;

namespace {

// Every shell metacharacter that would change the meaning of a command line if a shell saw it.
// A shell would create `pwned` in the working directory from any of the first three.
const std::vector<std::string> kHostileArgs = {
    "a;touch pwned",
    "$(touch pwned)",
    "`touch pwned`",
    "'single quoted'",
    "\"double quoted\"",
    "line one\nline two",
    "| cat",
    "> redirected",
    "* glob ?",
    "$HOME",
    "",
    "trailing space ",
};

// Obviously fake secrets.
constexpr const char* kEnvSecret = "sk-ant-api03-ENVfakeFAKEfake-0123456789";

fs::path source_dir() {
  const char* dir = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  return dir != nullptr ? fs::path(dir) : fs::current_path();
}

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("security_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> echoed_args(const fs::path& file) {
  std::vector<std::string> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    out.push_back(nlohmann::json::parse(line).get<std::string>());
  return out;
}

unsigned mode_of(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return 0;
  return info.st_mode & 0777;
}

TEST(NoShell, ClaudeTePassesHostileArgvToTheCliLiterally) {
  TempDir dir;
  claude::test_support::SpawnRequest run;
  run.program = CLAUDE_TEE_PATH;
  run.args = kHostileArgs;
  run.cwd = dir.path();
  run.env = {{"CLAUDE_TEE_REAL_CLI", ARGV_ECHO_PATH},
             {"CLAUDE_TEE_OUT", (dir.path() / "rec.ndjson").string()},
             {"CLAUDE_TEE_CLI_VERSION", "1.0.0"},
             {"ARGV_ECHO_OUT", (dir.path() / "argv.txt").string()}};
  const auto result = claude::test_support::run_to_completion(run);
  ASSERT_FALSE(result.signaled || result.timed_out) << result.describe();
  EXPECT_EQ(result.exit_code, 1) << "claude-tee passes the CLI's exit code through";
  EXPECT_EQ(echoed_args(dir.path() / "argv.txt"), kHostileArgs);
  const auto header =
      nlohmann::json::parse(read_file(dir.path() / "rec.ndjson")
                                .substr(0, read_file(dir.path() / "rec.ndjson").find('\n')));
  EXPECT_EQ(header.at("argv").get<std::vector<std::string>>(), kHostileArgs);
  EXPECT_FALSE(fs::exists(dir.path() / "pwned"));
}

TEST(NoShell, HarnessReplayPassesHostileArgvToTheCommandLiterally) {
  TempDir dir;
  claude::test_support::SpawnRequest run;
  run.program = HARNESS_PATH;
  run.args = {"replay", (source_dir() / "scenarios/verbs/basic-turn.ndjson").string(), "--",
              ARGV_ECHO_PATH};
  run.args.insert(run.args.end(), kHostileArgs.begin(), kHostileArgs.end());
  run.cwd = dir.path();
  run.env = {{"ARGV_ECHO_OUT", (dir.path() / "argv.txt").string()}};
  const auto result = claude::test_support::run_to_completion(run);
  ASSERT_FALSE(result.signaled || result.timed_out) << result.describe();
  EXPECT_EQ(result.exit_code, 3) << "the command ran but never started claude\n" << result.err;
  EXPECT_EQ(echoed_args(dir.path() / "argv.txt"), kHostileArgs);
  EXPECT_FALSE(fs::exists(dir.path() / "pwned"));
}

TEST(NoShell, SdkPassesHostileOptionValuesToTheCliLiterally) {
  TempDir dir;
  claude::sdk::Options options;
  options.cli_path = ARGV_ECHO_PATH;
  options.cwd = dir.path().string();
  options.env["ARGV_ECHO_OUT"] = (dir.path() / "argv.txt").string();
  options.initialize_timeout = std::chrono::milliseconds(10000);
  std::vector<std::string> expected_tail;
  for (std::size_t i = 0; i < kHostileArgs.size(); ++i) {
    // Values starting with '-' would be joined with '=': none of the hostile ones do.
    options.extra_args.emplace_back("hostile-" + std::to_string(i), kHostileArgs[i]);
    expected_tail.push_back("--hostile-" + std::to_string(i));
    expected_tail.push_back(kHostileArgs[i]);
  }
  // The stand-in exits 1 at once: the SDK fails the initialize write or the read after it.
  EXPECT_THROW(claude::sdk::query("hello; $(touch pwned)", options).collect(),
               claude::sdk::SdkError);
  const auto args = echoed_args(dir.path() / "argv.txt");
  std::vector<std::string> found;
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i].rfind("--hostile-", 0) == 0) {
      found.push_back(args[i]);
      found.push_back(args[i + 1]);
    }
  EXPECT_EQ(found, expected_tail);
  EXPECT_FALSE(fs::exists(dir.path() / "pwned"));
}

TEST(PrivateFiles, ClaudeTeeRecordingIsCreated0600) {
  TempDir dir;
  claude::test_support::SpawnRequest run;
  run.program = CLAUDE_TEE_PATH;
  run.args = {"--scenario", (source_dir() / "tests/security/data/stdin-to-eof.ndjson").string()};
  run.env = {{"CLAUDE_TEE_REAL_CLI", FAKE_CLAUDE_PATH},
             {"CLAUDE_TEE_OUT", (dir.path() / "rec.ndjson").string()},
             {"CLAUDE_TEE_CLI_VERSION", "1.0.0"}};
  ::umask(022);
  const auto result = claude::test_support::run_to_completion(run);
  ASSERT_EQ(result.exit_code, 0) << result.describe() << result.err;
  EXPECT_EQ(mode_of(dir.path() / "rec.ndjson"), 0600u);
}

TEST(PrivateFiles, HarnessReplayReportIsCreated0600) {
  TempDir dir;
  const fs::path report = dir.path() / "report.json";
  claude::test_support::SpawnRequest run;
  run.program = HARNESS_PATH;
  run.args = {"replay",   (source_dir() / "scenarios/verbs/basic-turn.ndjson").string(),
              "--report", report.string(),
              "--",       (source_dir() / "tests/security/data/sdk_session.sh").string()};
  ::umask(022);
  const auto result = claude::test_support::run_to_completion(run);
  ASSERT_EQ(result.exit_code, 0) << result.describe() << result.err;
  ASSERT_TRUE(fs::exists(report));
  EXPECT_EQ(mode_of(report), 0600u);
}

TEST(PrivateFiles, HarnessReplayKeepsAnExistingReportWithoutForce) {
  TempDir dir;
  const fs::path report = dir.path() / "report.json";
  std::ofstream(report) << "keep me\n";
  claude::test_support::SpawnRequest run;
  run.program = HARNESS_PATH;
  run.args = {"replay",   (source_dir() / "scenarios/verbs/basic-turn.ndjson").string(),
              "--report", report.string(),
              "--",       (source_dir() / "tests/security/data/sdk_session.sh").string()};
  const auto result = claude::test_support::run_to_completion(run);
  EXPECT_EQ(result.exit_code, 2) << result.describe() << result.err;
  EXPECT_NE(result.err.find("exists; files are never overwritten without --force"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(read_file(report), "keep me\n");
}

TEST(PrivateFiles, HarnessReplayWithForceReplacesAReportAs0600) {
  TempDir dir;
  const fs::path report = dir.path() / "report.json";
  std::ofstream(report) << "old\n";
  fs::permissions(report, fs::perms(0644));
  claude::test_support::SpawnRequest run;
  run.program = HARNESS_PATH;
  run.args = {"replay",
              (source_dir() / "scenarios/verbs/basic-turn.ndjson").string(),
              "--report",
              report.string(),
              "--force",
              "--",
              (source_dir() / "tests/security/data/sdk_session.sh").string()};
  const auto result = claude::test_support::run_to_completion(run);
  ASSERT_EQ(result.exit_code, 0) << result.describe() << result.err;
  EXPECT_NE(read_file(report).find("\"verdict\": \"pass\""), std::string::npos);
  EXPECT_EQ(mode_of(report), 0600u);
}

TEST(PrivateFiles, HarnessRunKeepsAnExistingReportWithoutForce) {
  TempDir dir;
  const fs::path report = dir.path() / "report.json";
  std::ofstream(report) << "keep me\n";
  claude::test_support::SpawnRequest run;
  run.program = HARNESS_PATH;
  run.args = {"run",
              "--cassette",
              (source_dir() / "scenarios/verbs/basic-turn.ndjson").string(),
              "--mode",
              "replay",
              "--report",
              report.string(),
              "--",
              (source_dir() / "tests/security/data/sdk_session.sh").string()};
  const auto result = claude::test_support::run_to_completion(run);
  EXPECT_EQ(result.exit_code, 2) << result.describe() << result.err;
  EXPECT_EQ(read_file(report), "keep me\n");
}

TEST(PrivateFiles, HarnessConvertOutputIsCreated0600AndNeverReplacedWithoutForce) {
  TempDir dir;
  const fs::path scenario = dir.path() / "converted.ndjson";
  const std::string input = (source_dir() / "scenarios/verbs/basic-turn.ndjson").string();
  claude::test_support::SpawnRequest run;
  run.program = HARNESS_PATH;
  run.args = {"convert", input, "-o", scenario.string()};
  ::umask(022);
  auto result = claude::test_support::run_to_completion(run);
  ASSERT_EQ(result.exit_code, 0) << result.describe() << result.err;
  EXPECT_EQ(mode_of(scenario), 0600u);
  std::ofstream(scenario, std::ios::trunc) << "keep me\n";
  result = claude::test_support::run_to_completion(run);
  EXPECT_EQ(result.exit_code, 2) << result.describe() << result.err;
  EXPECT_EQ(read_file(scenario), "keep me\n");
  const fs::path victim = dir.path() / "victim.txt";
  std::ofstream(victim) << "untouched\n";
  const fs::path link = dir.path() / "link.ndjson";
  fs::create_symlink(victim, link);
  run.args = {"convert", input, "-o", link.string(), "--force"};
  result = claude::test_support::run_to_completion(run);
  EXPECT_EQ(result.exit_code, 0) << result.describe() << result.err;
  EXPECT_EQ(read_file(victim), "untouched\n");
  EXPECT_FALSE(fs::is_symlink(link));
  EXPECT_EQ(mode_of(link), 0600u);
}

TEST(Secrets, EnvironmentSecretNeverReachesFakeClaudeReports) {
  TempDir dir;
  const fs::path report = dir.path() / "report.json";
  claude::test_support::SpawnRequest run;
  run.program = FAKE_CLAUDE_PATH;
  run.args = {"--scenario", (source_dir() / "tests/security/data/expect-user.ndjson").string()};
  run.env = {{"ANTHROPIC_API_KEY", kEnvSecret}, {"FAKE_CLAUDE_REPORT", report.string()}};
  run.stdin_bytes = "{\"type\":\"not-user\"}\n";
  const auto result = claude::test_support::run_to_completion(run);
  ASSERT_EQ(result.exit_code, 1) << result.describe() << result.err;
  EXPECT_EQ(result.err.find(kEnvSecret), std::string::npos);
  EXPECT_EQ(result.out.find(kEnvSecret), std::string::npos);
  ASSERT_TRUE(fs::exists(report));
  EXPECT_EQ(read_file(report).find(kEnvSecret), std::string::npos);
}

// The argv and the unconsumed stdin line reach the report's argv, transcript, closest line and
// differences, and the stderr summary: all go through the recorder's redaction rules.
TEST(Secrets, ArgvAndStdinSecretsNeverReachFakeClaudeReports) {
  constexpr const char* kArgvSecret = "sk-ant-api03-ARGVfakeFAKEfake-0123456789";
  constexpr const char* kStdinSecret = "sk-ant-api03-STDINfakeFAKEfake-0123456789";
  TempDir dir;
  const fs::path report = dir.path() / "report.json";
  claude::test_support::SpawnRequest run;
  run.program = FAKE_CLAUDE_PATH;
  run.args = {"--scenario", (source_dir() / "tests/security/data/expect-user.ndjson").string(),
              "--append-system-prompt", kArgvSecret};
  run.env = {{"FAKE_CLAUDE_REPORT", report.string()}};
  run.stdin_bytes = std::string("{\"type\":\"not-user\",\"key\":\"") + kStdinSecret + "\"}\n";
  const auto result = claude::test_support::run_to_completion(run);
  ASSERT_EQ(result.exit_code, 1) << result.describe() << result.err;
  for (const char* secret : {kArgvSecret, kStdinSecret}) {
    EXPECT_EQ(result.err.find(secret), std::string::npos) << secret;
    EXPECT_EQ(read_file(report).find(secret), std::string::npos) << secret;
  }
  EXPECT_NE(read_file(report).find("<redacted:api-key>"), std::string::npos);
  EXPECT_NE(result.err.find("<redacted:api-key>"), std::string::npos) << result.err;
}

// A tool_result quoting a credentials file: the token fields sit in an escaped JSON string, one
// with escaped slashes; a Basic credential and a URL password ride along.
TEST(Secrets, EscapedTokenFieldsNeverReachFakeClaudeReports) {
  const std::vector<std::string> secrets = {"ya29.FAKEaccessFAKE", "0FAKErefreshFAKE",
                                            "dXNlcjpGQUtFcGFzcw==", "FAKEurlPass"};
  TempDir dir;
  const fs::path report = dir.path() / "report.json";
  claude::test_support::SpawnRequest run;
  run.program = FAKE_CLAUDE_PATH;
  run.args = {"--scenario", (source_dir() / "tests/security/data/expect-user.ndjson").string()};
  run.env = {{"FAKE_CLAUDE_REPORT", report.string()}};
  run.stdin_bytes =
      R"({"type":"not-user","content":"{\"access_token\":\"ya29.FAKEaccessFAKE\",)"
      R"(\"refresh_token\":\"1\\/\\/0FAKErefreshFAKE\"}",)"
      R"("h":"Authorization: Basic dXNlcjpGQUtFcGFzcw==","u":"https://me:FAKEurlPass@example.com"})"
      "\n";
  const auto result = claude::test_support::run_to_completion(run);
  ASSERT_EQ(result.exit_code, 1) << result.describe() << result.err;
  ASSERT_TRUE(fs::exists(report));
  const std::string written = read_file(report);
  for (const std::string& secret : secrets) {
    EXPECT_EQ(result.err.find(secret), std::string::npos) << secret << "\n" << result.err;
    EXPECT_EQ(written.find(secret), std::string::npos) << secret;
  }
  EXPECT_NE(written.find("<redacted:oauth-token>"), std::string::npos);
}

TEST(Loopback, ModelStubListensOn127001Only) {
  const std::string script = (source_dir() / "tests/data/model_stub/plain_text.ndjson").string();
  claude::test_support::ChildProcess stub({MODEL_STUB_PATH, "--script", script});
  const std::optional<std::string> first_line = stub.read_stdout_line(std::chrono::seconds(30));
  const bool got = first_line.has_value();
  const std::string url = first_line.value_or("");
  const auto colon = url.rfind(':');
  const int port = colon == std::string::npos ? -1 : std::atoi(url.c_str() + colon + 1);
  // Every listening socket (state 0A) of that port, IPv4 and IPv6: addresses as in /proc/net.
  std::vector<std::string> listeners;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string row;
    std::getline(in, row);
    while (std::getline(in, row)) {
      std::istringstream fields(row);
      std::string slot, local, remote, state;
      fields >> slot >> local >> remote >> state;
      const auto sep = local.find(':');
      if (state == "0A" && sep != std::string::npos &&
          std::stoi(local.substr(sep + 1), nullptr, 16) == port)
        listeners.push_back(local.substr(0, sep));
    }
  }
  const claude::test_support::ProcessEnd end = stub.stop(SIGTERM);
  ASSERT_TRUE(got) << "model-stub printed no URL";
  EXPECT_EQ(url.rfind("http://127.0.0.1:", 0), 0u) << url;
  ASSERT_FALSE(listeners.empty()) << "no listening socket on port " << port;
  for (const auto& address : listeners) EXPECT_EQ(address, "0100007F") << "listens beyond loopback";
  EXPECT_EQ(end.status_code(), 0);
}

}  // namespace
