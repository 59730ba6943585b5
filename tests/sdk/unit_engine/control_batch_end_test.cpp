// ControlListener::on_batch_end: when the reader tells its listener that it may stop for a while
// (nothing buffered in the transport, or a handler about to run).
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

#include "control/control_protocol.hpp"
#include "scripted_cli.hpp"

namespace claude::sdk {
namespace {

using namespace testing;

// A transport that does not report its buffer: every read may block as far as the reader knows.
class OpaqueTransport final : public Transport {
 public:
  explicit OpaqueTransport(InMemoryTransport& inner) : inner_(inner) {}
  void connect() override { inner_.connect(); }
  void write(std::string_view frame) override { inner_.write(frame); }
  ReadResult read() override { return inner_.read(); }
  void end_input() override { inner_.end_input(); }
  void close() override { inner_.close(); }
  [[nodiscard]] bool input_open() const override { return inner_.input_open(); }

 private:
  InMemoryTransport& inner_;
};

class ControlBatchEndTest : public ::testing::Test {
 protected:
  void start(Transport& transport) {
    protocol = std::make_unique<ControlProtocol>(transport, ControlProtocol::Config{});
    protocol->set_handler("can_use_tool", [this](const ControlRequest&, const CancelToken&) {
      batch_ends_seen_by_handler = batch_ends.load();
      messages_seen_by_handler = messages.load();
      return json::object();
    });
    transport.connect();
    protocol->start(ControlListener{[this](Message&&) { ++messages; }, nullptr, nullptr,
                                    [this] { ++batch_ends; }});
  }
  void TearDown() override {
    cli.close();
    if (protocol) protocol->stop();
  }
  bool eventually(const std::function<bool()>& condition) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (std::chrono::steady_clock::now() < deadline) {
      if (condition()) return true;
      std::this_thread::sleep_for(1ms);
    }
    return condition();
  }
  static std::vector<std::string> lines(int n) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) out.push_back(assistant_line(std::to_string(i)).dump());
    return out;
  }

  InMemoryTransport cli;
  std::unique_ptr<ControlProtocol> protocol;
  std::atomic<int> messages{0};
  std::atomic<int> batch_ends{0};
  std::atomic<int> batch_ends_seen_by_handler{-1};
  std::atomic<int> messages_seen_by_handler{-1};
};

TEST_F(ControlBatchEndTest, LinesBufferedTogetherEndOneBatch) {
  start(cli);
  cli.push_lines(lines(50));
  ASSERT_TRUE(eventually([&] { return batch_ends.load() == 1; }));
  EXPECT_EQ(messages.load(), 50);
  cli.push_lines(lines(1));
  ASSERT_TRUE(eventually([&] { return batch_ends.load() == 2; }));
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(batch_ends.load(), 2) << "a batch end without a message in between";
}

TEST_F(ControlBatchEndTest, ATransportThatDoesNotReportItsBufferEndsABatchPerMessage) {
  OpaqueTransport opaque(cli);
  start(opaque);
  cli.push_lines(lines(20));
  ASSERT_TRUE(eventually([&] { return batch_ends.load() == 20; }));
  EXPECT_EQ(messages.load(), 20);
}

TEST_F(ControlBatchEndTest, TheBatchEndsBeforeAHandlerRuns) {
  start(cli);
  auto batch = lines(3);
  batch.push_back(control_request("p1", {{"subtype", "can_use_tool"},
                                         {"tool_name", "Bash"},
                                         {"input", json::object()},
                                         {"tool_use_id", "t"}})
                      .dump());
  batch.push_back(assistant_line("after").dump());
  cli.push_lines(std::move(batch));
  auto answer = cli.next_written_json(kWait);
  ASSERT_TRUE(answer);
  EXPECT_EQ(messages_seen_by_handler.load(), 3);
  EXPECT_EQ(batch_ends_seen_by_handler.load(), 1);
  ASSERT_TRUE(eventually([&] { return batch_ends.load() == 2 && messages.load() == 4; }));
}

}  // namespace
}  // namespace claude::sdk
