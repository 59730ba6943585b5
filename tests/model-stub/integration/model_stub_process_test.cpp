// model-stub as a process: what a client sees on the socket, the request log, and exit codes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "claude/test_support/child_process.hpp"

namespace claude::model_stub::testing {
namespace {

using test_support::ChildProcess;

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;
using Json = nlohmann::json;
using namespace std::chrono_literals;

std::string data_path(const std::string& name) {
  return std::string(CLAUDE_HARNESS_SOURCE_DIR_FOR_TESTS) + "/tests/data/model_stub/" + name;
}

std::string temp_path(const std::string& stem) {
  return (std::filesystem::temp_directory_path() /
          (stem + "_" + std::to_string(getpid()) + ".ndjson"))
      .string();
}

// A running model-stub and the port it printed.
struct RunningStub {
  explicit RunningStub(const std::string& script, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{MODEL_STUB_PATH, "--script", data_path(script), "--port", "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    process = std::make_unique<ChildProcess>(argv);
    const auto line = process->read_stdout_line(10s);
    if (!line || line->rfind("http://127.0.0.1:", 0) != 0) {
      throw std::runtime_error("model-stub did not print its URL: " + line.value_or("<eof>") + " " +
                               process->read_stderr());
    }
    url = *line;
    port = static_cast<unsigned short>(std::stoi(line->substr(line->rfind(':') + 1)));
  }
  std::unique_ptr<ChildProcess> process;
  std::string url;
  unsigned short port = 0;
};

struct Exchange {
  boost::system::error_code error;  // set when the response did not arrive whole
  http::response<http::string_body> response;
};

class Connection {
 public:
  explicit Connection(unsigned short port) : socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::address_v4::loopback(), port));
  }

  Exchange send(http::verb method, const std::string& target, const std::string& body) {
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.set("x-api-key", "sk-ant-fake-integration");
    req.set(http::field::content_type, "application/json");
    req.body() = body;
    req.prepare_payload();
    http::write(socket_, req);
    return read();
  }

  void send_raw(const std::string& bytes) { asio::write(socket_, asio::buffer(bytes)); }

  Exchange read() {
    Exchange exchange;
    http::read(socket_, buffer_, exchange.response, exchange.error);
    return exchange;
  }

 private:
  asio::io_context io_;
  tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
};

std::string prompt_body(const std::string& text, bool stream = true) {
  Json body{{"model", "claude-integration"},
            {"max_tokens", 64},
            {"messages", {{{"role", "user"}, {"content", {{{"type", "text"}, {"text", text}}}}}}}};
  if (stream) body["stream"] = true;
  return body.dump();
}

TEST(ModelStubProcess, PrintsItsLoopbackUrlAndStreamsAReply) {
  RunningStub stub("plain_text.ndjson");
  Connection connection(stub.port);
  const Exchange exchange =
      connection.send(http::verb::post, "/v1/messages?beta=true", prompt_body("hello"));
  ASSERT_FALSE(exchange.error) << exchange.error.message();
  EXPECT_EQ(exchange.response.result_int(), 200u);
  EXPECT_EQ(exchange.response[http::field::content_type], "text/event-stream");
  const std::string& body = exchange.response.body();
  EXPECT_EQ(body.rfind("event: message_start\ndata: ", 0), 0u) << body;
  EXPECT_NE(body.find("\"text_delta\",\"text\":\"Hello from model-stub.\""), std::string::npos)
      << body;
  EXPECT_NE(body.find("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
            std::string::npos);
}

TEST(ModelStubProcess, ServesSeveralRequestsOnOneKeptAliveConnection) {
  RunningStub stub("plain_text.ndjson");
  Connection connection(stub.port);
  const Exchange probe = connection.send(http::verb::post, "/v1/messages", prompt_body("x", false));
  ASSERT_FALSE(probe.error);
  EXPECT_EQ(Json::parse(probe.response.body())["content"][0]["text"], "ok");
  const Exchange streamed =
      connection.send(http::verb::post, "/v1/messages", prompt_body("anything"));
  ASSERT_FALSE(streamed.error);
  EXPECT_NE(streamed.response.body().find("model-stub fallback answer"), std::string::npos);
}

TEST(ModelStubProcess, UnknownEndpointGetsAnthropicNotFoundJson) {
  RunningStub stub("plain_text.ndjson");
  Connection connection(stub.port);
  const Exchange exchange = connection.send(http::verb::get, "/v1/models", "");
  ASSERT_FALSE(exchange.error);
  EXPECT_EQ(exchange.response.result_int(), 404u);
  EXPECT_EQ(exchange.response[http::field::content_type], "application/json");
  EXPECT_EQ(Json::parse(exchange.response.body())["error"]["type"], "not_found_error");
}

TEST(ModelStubProcess, GarbageInsteadOfHttpGetsA400AndTheStubKeepsServing) {
  RunningStub stub("plain_text.ndjson");
  {
    Connection garbage(stub.port);
    garbage.send_raw("\x01\x02 not http at all\r\n\r\n");
    const Exchange exchange = garbage.read();
    ASSERT_FALSE(exchange.error) << exchange.error.message();
    EXPECT_EQ(exchange.response.result_int(), 400u);
    EXPECT_EQ(Json::parse(exchange.response.body())["error"]["type"], "invalid_request_error");
  }
  Connection next(stub.port);
  EXPECT_EQ(next.send(http::verb::post, "/v1/messages", prompt_body("hello")).response.result_int(),
            200u);
}

TEST(ModelStubProcess, ScriptedRateLimitCarriesRetryAfter) {
  RunningStub stub("faults.ndjson");
  Connection connection(stub.port);
  const Exchange limited =
      connection.send(http::verb::post, "/v1/messages", prompt_body("rate limit once"));
  EXPECT_EQ(limited.response.result_int(), 429u);
  EXPECT_EQ(limited.response["retry-after"], "0");
  const Exchange overloaded =
      connection.send(http::verb::post, "/v1/messages", prompt_body("overloaded"));
  EXPECT_EQ(overloaded.response.result_int(), 529u);
  EXPECT_EQ(Json::parse(overloaded.response.body())["error"]["type"], "overloaded_error");
}

TEST(ModelStubProcess, DroppedStreamEndsTheConnectionMidResponse) {
  RunningStub stub("faults.ndjson");
  Connection connection(stub.port);
  const Exchange exchange = connection.send(http::verb::post, "/v1/messages", prompt_body("drop"));
  EXPECT_TRUE(exchange.error);
  EXPECT_EQ(exchange.response.body().find("message_stop"), std::string::npos);
}

TEST(ModelStubProcess, SlowStreamTakesAtLeastItsDelays) {
  RunningStub stub("faults.ndjson");
  Connection connection(stub.port);
  const auto start = std::chrono::steady_clock::now();
  const Exchange exchange = connection.send(http::verb::post, "/v1/messages", prompt_body("slow"));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(exchange.error);
  // 11 events at 30 ms each: message_start, block start, ping, 4 deltas, stop, delta, stop.
  EXPECT_GE(elapsed, 300ms);
  EXPECT_NE(exchange.response.body().find("message_stop"), std::string::npos);
}

TEST(ModelStubProcess, LogsEveryRequestWithTheKeyRedacted) {
  const std::string log = temp_path("model_stub_integration_log");
  std::filesystem::remove(log);
  {
    RunningStub stub("plain_text.ndjson", {"--log", log});
    Connection connection(stub.port);
    connection.send(http::verb::post, "/v1/messages?beta=true", prompt_body("hello"));
    connection.send(http::verb::get, "/v1/models", "");
    EXPECT_EQ(stub.process->stop(SIGTERM).status_code(), 0);
  }
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("sk-ant-fake-integration"), std::string::npos);
  std::istringstream lines(text);
  std::string first;
  std::string second;
  ASSERT_TRUE(std::getline(lines, first));
  ASSERT_TRUE(std::getline(lines, second));
  const Json a = Json::parse(first);
  EXPECT_EQ(a["target"], "/v1/messages?beta=true");
  EXPECT_EQ(a["headers"]["x-api-key"], "[redacted]");
  EXPECT_EQ(a["rule_line"], 4);
  EXPECT_EQ(a["body"]["messages"][0]["content"][0]["text"], "hello");
  EXPECT_EQ(Json::parse(second)["status"], 404);
  std::filesystem::remove(log);
}

TEST(ModelStubProcess, BadScriptExitsTwoNamingFileAndLine) {
  ChildProcess stub({MODEL_STUB_PATH, "--script", data_path("bad/unknown_key.ndjson")});
  EXPECT_EQ(stub.wait().status_code(), 2);
  EXPECT_NE(stub.read_stderr().find("unknown_key.ndjson:3: unknown key \"user_txt\""),
            std::string::npos);
  EXPECT_FALSE(stub.read_stdout_line(1s).has_value());
}

TEST(ModelStubProcess, CheckValidatesWithoutListening) {
  ChildProcess ok({MODEL_STUB_PATH, "--check", "--script", data_path("faults.ndjson")});
  EXPECT_EQ(ok.wait().status_code(), 0);
  EXPECT_NE(ok.read_stdout_line(1s).value_or("").find("7 rules, ok"), std::string::npos);
}

TEST(ModelStubProcess, MissingScriptFlagIsAUsageError) {
  ChildProcess stub({MODEL_STUB_PATH, "--port", "0"});
  EXPECT_EQ(stub.wait().status_code(), 2);
  EXPECT_NE(stub.read_stderr().find("--script FILE is required"), std::string::npos);
}

TEST(ModelStubProcess, StopsCleanlyOnSigterm) {
  RunningStub stub("plain_text.ndjson");
  EXPECT_EQ(stub.process->stop(SIGTERM).status_code(), 0);
}

}  // namespace
}  // namespace claude::model_stub::testing
