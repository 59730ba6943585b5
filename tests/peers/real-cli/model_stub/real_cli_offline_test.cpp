// The pinned real CLI, offline, against model-stub: a stream-json `user` frame in, a `result`
// with the model script's text out, and the request in the stub's log.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "claude/test_support/child_process.hpp"

namespace claude::model_stub::testing {
namespace {

using test_support::ChildProcess;

using Json = nlohmann::json;
using namespace std::chrono_literals;

const std::string kSource = CLAUDE_HARNESS_SOURCE_DIR_FOR_TESTS;

// Path of the pinned binary, from the (idempotent, cached) install script.
std::string real_cli_path() {
  FILE* pipe = popen((kSource + "/scripts/install-real-cli").c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (pclose(pipe) != 0) return "";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

bool network_namespace_available() {
  return std::system("unshare -n true >/dev/null 2>&1") == 0;
}

Json user_frame(const std::string& prompt) {
  return Json{{"type", "user"},
              {"session_id", ""},
              {"message", {{"role", "user"}, {"content", {{{"type", "text"}, {"text", prompt}}}}}},
              {"parent_tool_use_id", nullptr}};
}

// One real CLI process under offline-run, driven over stream-json.
class OfflineSession {
 public:
  explicit OfflineSession(const std::string& script)
      : claude_(real_cli_path()),
        log_(std::filesystem::temp_directory_path() /
             ("model_stub_real_cli_" + std::to_string(getpid()) + "_" + script)) {
    if (claude_.empty()) throw std::runtime_error("scripts/install-real-cli failed");
    std::filesystem::remove(log_);
    cli_ = std::make_unique<ChildProcess>(std::vector<std::string>{
        kSource + "/tests/peers/real-cli/model_stub/offline-run", MODEL_STUB_PATH,
        kSource + "/tests/data/model_stub/" + script, log_.string(), "--", claude_,
        "--output-format", "stream-json", "--verbose", "--input-format", "stream-json"});
  }
  ~OfflineSession() { std::filesystem::remove(log_); }

  void send(const Json& frame) { cli_->write_stdin(frame.dump() + "\n"); }

  // Reads CLI lines until one of `type` (and `request_id` for control responses) arrives.
  std::optional<Json> read_until(const std::string& type) {
    while (auto line = cli_->read_stdout_line(120s)) {
      Json message = Json::parse(*line, nullptr, false);
      if (message.is_discarded()) continue;
      lines.push_back(message);
      if (message.value("type", "") == type) return message;
    }
    return std::nullopt;
  }

  // Closes stdin, waits for the CLI and offline-run to exit; returns the exit code.
  int finish() {
    cli_->close_stdin();
    const int code = cli_->wait().status_code();
    stderr_text = cli_->read_stderr();
    std::ifstream in(log_);
    for (std::string line; std::getline(in, line);) log.push_back(Json::parse(line));
    return code;
  }

  std::vector<Json> lines;  // every JSON line the CLI printed so far
  std::vector<Json> log;    // the stub's request log, after finish()
  std::string stderr_text;

 private:
  std::string claude_;
  std::filesystem::path log_;
  std::unique_ptr<ChildProcess> cli_;
};

struct OfflineRun {
  std::vector<Json> stdout_lines;
  std::optional<Json> result;
  std::vector<Json> log;
  std::string stderr_text;
  int exit_code = -1;
};

// One turn: a user frame in, lines up to `result` out, then stdin closed.
OfflineRun run_turn(const std::string& script, const std::string& prompt) {
  OfflineSession session(script);
  session.send(user_frame(prompt));
  OfflineRun run;
  run.result = session.read_until("result");
  run.exit_code = session.finish();
  run.stdout_lines = session.lines;
  run.log = session.log;
  run.stderr_text = session.stderr_text;
  return run;
}

TEST(ModelStubRealCli, TextTurnReturnsTheScriptedTextAndTheStubLogsTheRequest) {
  const OfflineRun run = run_turn("real_cli_text.ndjson", "Say hello to the stub");
  ASSERT_TRUE(run.result.has_value()) << run.stderr_text;
  EXPECT_EQ((*run.result)["subtype"], "success") << run.result->dump();
  EXPECT_EQ((*run.result)["is_error"], false);
  EXPECT_EQ((*run.result)["result"], "Hello from model-stub, offline.");
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;

  ASSERT_FALSE(run.log.empty());
  bool answered = false;
  for (const Json& entry : run.log) {
    // With the traffic-disabling variables the CLI asks the API for nothing but messages.
    EXPECT_EQ(entry["target"].get<std::string>().rfind("/v1/messages", 0), 0u) << entry["target"];
    EXPECT_EQ(entry["headers"]["x-api-key"], "[redacted]");
    EXPECT_EQ(entry.dump().find("sk-ant-fake-offline-run"), std::string::npos);
    if (entry["rule_line"] == 2) {
      answered = true;
      EXPECT_EQ(entry["method"], "POST");
      EXPECT_EQ(entry["body"]["stream"], true);
    }
  }
  EXPECT_TRUE(answered) << "no logged request was answered by the text rule";
}

TEST(ModelStubRealCli, RunsInsideALoopbackOnlyNetworkNamespaceWhenTheMachineAllows) {
  if (!network_namespace_available()) GTEST_SKIP() << "unshare -n is not permitted here";
  const OfflineRun run = run_turn("real_cli_text.ndjson", "Say hello to the stub");
  EXPECT_NE(run.stderr_text.find("isolated in a fresh network namespace"), std::string::npos)
      << run.stderr_text;
  ASSERT_TRUE(run.result.has_value()) << run.stderr_text;
  EXPECT_EQ((*run.result)["result"], "Hello from model-stub, offline.");
}

TEST(ModelStubRealCli, ToolLoopRunsTheScriptedBashCallAndFeedsItsOutputBack) {
  const OfflineRun run = run_turn("real_cli_tool_loop.ndjson", "Run the marker command");
  ASSERT_TRUE(run.result.has_value()) << run.stderr_text;
  EXPECT_EQ((*run.result)["result"], "The command printed stub-marker-7.") << run.result->dump();
  bool saw_tool_use = false;
  for (const Json& message : run.stdout_lines) {
    if (message.value("type", "") != "assistant") continue;
    for (const Json& block : message["message"]["content"]) {
      if (block["type"] == "tool_use") {
        saw_tool_use = true;
        EXPECT_EQ(block["name"], "Bash");
        EXPECT_EQ(block["input"]["command"], "echo stub-marker-7");
      }
    }
  }
  EXPECT_TRUE(saw_tool_use);
  std::size_t tool_result_requests = 0;
  for (const Json& entry : run.log) tool_result_requests += entry["rule_line"] == 2 ? 1u : 0u;
  EXPECT_EQ(tool_result_requests, 1u);
}

TEST(ModelStubRealCli, RateLimitedRequestIsRetriedAndThenAnswered) {
  const OfflineRun run = run_turn("real_cli_retry.ndjson", "Retry until it works");
  ASSERT_TRUE(run.result.has_value()) << run.stderr_text;
  EXPECT_EQ((*run.result)["result"], "Answered after one 429.");
  ASSERT_GE(run.log.size(), 2u);
  EXPECT_EQ(run.log[0]["status"], 429);
}

TEST(ModelStubRealCli, SetModelProbeIsAnsweredWithoutStreamingAndTheNextTurnUsesTheModel) {
  OfflineSession session("real_cli_set_model.ndjson");
  session.send(Json{{"type", "control_request"},
                    {"request_id", "req_set_model"},
                    {"request", {{"subtype", "set_model"}, {"model", "claude-haiku-4-5"}}}});
  const auto response = session.read_until("control_response");
  ASSERT_TRUE(response.has_value()) << session.stderr_text;
  EXPECT_EQ((*response)["response"]["subtype"], "success") << response->dump();
  session.send(user_frame("Which model answers?"));
  const auto result = session.read_until("result");
  EXPECT_EQ(session.finish(), 0) << session.stderr_text;
  ASSERT_TRUE(result.has_value()) << session.stderr_text;
  EXPECT_EQ((*result)["result"], "Answered by claude-haiku-4-5.");
  ASSERT_EQ(session.log.size(), 2u);
  EXPECT_EQ(session.log[0]["rule_line"], 2);
  EXPECT_FALSE(session.log[0]["body"].contains("stream"));
  EXPECT_EQ(session.log[0]["body"]["max_tokens"], 1);
  EXPECT_EQ(session.log[1]["rule_line"], 3);
}

}  // namespace
}  // namespace claude::model_stub::testing
