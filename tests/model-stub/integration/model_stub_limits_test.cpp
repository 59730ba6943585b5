// model-stub under hostile clients (issue 31 item 6): connections that stall are closed at their
// timeouts, bodies being received stay within the budget, and at the descriptor limit the accept
// loop backs off with a rate-limited log instead of spinning.
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "claude/test_support/child_process.hpp"

namespace claude::model_stub::testing {
namespace {

using test_support::ChildProcess;

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;
using namespace std::chrono_literals;

std::string script_path() {
  return std::string(CLAUDE_HARNESS_SOURCE_DIR_FOR_TESTS) +
         "/tests/data/model_stub/plain_text.ndjson";
}

// model-stub started through sh, so a test can lower its limits and send its stderr to a file.
struct LimitedStub {
  LimitedStub(const std::string& shell_prefix, const std::vector<std::string>& flags) {
    stderr_file = std::filesystem::temp_directory_path() /
                  ("model_stub_limits_" + std::to_string(::getpid()) + "_" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".err");
    std::string command = shell_prefix + "exec '" + std::string(MODEL_STUB_PATH) + "' --script '" +
                          script_path() + "' --port 0";
    for (const auto& flag : flags) command += " " + flag;
    command += " 2>'" + stderr_file.string() + "'";
    process = std::make_unique<ChildProcess>(std::vector<std::string>{"/bin/sh", "-c", command});
    const auto line = process->read_stdout_line(10s);
    if (!line || line->rfind("http://127.0.0.1:", 0) != 0) {
      throw std::runtime_error("model-stub did not print its URL: " + line.value_or("<eof>"));
    }
    port = static_cast<unsigned short>(std::stoi(line->substr(line->rfind(':') + 1)));
  }
  ~LimitedStub() {
    process.reset();
    std::filesystem::remove(stderr_file);
  }
  std::uintmax_t stderr_bytes() const { return std::filesystem::file_size(stderr_file); }
  std::string stderr_text() const {
    std::ifstream in(stderr_file);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  std::unique_ptr<ChildProcess> process;
  std::filesystem::path stderr_file;
  unsigned short port = 0;
};

// Reads until the server closes the connection; true when it did within `limit`.
bool closed_by_server_within(tcp::socket& socket, std::chrono::milliseconds limit) {
  timeval tv{static_cast<time_t>(limit.count() / 1000),
             static_cast<suseconds_t>((limit.count() % 1000) * 1000)};
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char byte[256];
  for (;;) {
    const ssize_t n = ::recv(socket.native_handle(), byte, sizeof byte, 0);
    if (n == 0) return true;
    if (n < 0) return errno == ECONNRESET;
  }
}

// One whole response, or nullopt when the connection ended first.
std::optional<http::response<http::string_body>> read_response(tcp::socket& socket) {
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> response;
  boost::system::error_code ec;
  http::read(socket, buffer, response, ec);
  if (ec) return std::nullopt;
  return response;
}

const std::string kHeaderOf1000ByteBody =
    "POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
    "content-length: 1000\r\n\r\n";

TEST(ModelStubLimits, AStalledUploadIsClosedAtTheBodyTimeout) {
  LimitedStub stub("", {"--body-timeout-ms", "300"});
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::address_v4::loopback(), stub.port));
  asio::write(socket, asio::buffer(kHeaderOf1000ByteBody + "{\"model\":"));
  EXPECT_TRUE(closed_by_server_within(socket, 5000ms));
  stub.process->stop(SIGTERM);
  EXPECT_NE(stub.stderr_text().find("waited 300 ms for the request body"), std::string::npos)
      << stub.stderr_text();
}

TEST(ModelStubLimits, ASilentConnectionIsClosedAtTheIdleTimeout) {
  LimitedStub stub("", {"--idle-timeout-ms", "300"});
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::address_v4::loopback(), stub.port));
  EXPECT_TRUE(closed_by_server_within(socket, 5000ms));
}

TEST(ModelStubLimits, ABodyPastTheBudgetGets529AndTheConnectionCloses) {
  LimitedStub stub("", {"--body-budget-mib", "1"});
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::address_v4::loopback(), stub.port));
  asio::write(socket, asio::buffer(std::string("POST /v1/messages HTTP/1.1\r\nhost: x\r\n"
                                               "content-length: 2097152\r\n\r\n")));
  const auto response = read_response(socket);
  ASSERT_TRUE(response);
  EXPECT_EQ(response->result_int(), 529u);
  EXPECT_NE(response->body().find("overloaded_error"), std::string::npos) << response->body();
}

TEST(ModelStubLimits, AtTheDescriptorLimitItBacksOffWithABoundedLogAndRecovers) {
  // A handful of descriptors: the listening socket, the log, stdio, and a few connections.
  LimitedStub stub("ulimit -n 16 && ", {});
  asio::io_context io;
  std::vector<std::unique_ptr<tcp::socket>> flood;
  for (int i = 0; i < 40; ++i) {
    auto socket = std::make_unique<tcp::socket>(io);
    socket->connect(tcp::endpoint(asio::ip::address_v4::loopback(), stub.port));
    flood.push_back(std::move(socket));
  }
  std::this_thread::sleep_for(2s);
  const std::uintmax_t logged = stub.stderr_bytes();
  // One line per 10 s; the spinning loop wrote megabytes in that time.
  EXPECT_LT(logged, 1024u) << stub.stderr_text().substr(0, 2000);
  EXPECT_NE(stub.stderr_text().find("accept failed"), std::string::npos);
  flood.clear();
  // Once descriptors are free again, a request is served.
  std::this_thread::sleep_for(1500ms);
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::address_v4::loopback(), stub.port));
  asio::write(socket, asio::buffer(std::string("GET /v1/models HTTP/1.1\r\nhost: x\r\n\r\n")));
  const auto response = read_response(socket);
  ASSERT_TRUE(response);
  EXPECT_EQ(response->result_int(), 404u);
}

}  // namespace
}  // namespace claude::model_stub::testing
