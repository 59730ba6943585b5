// The hand-off between the SDK's reader and the consumer (sdk/src/client/session.cpp): one wake-up
// per batch of lines, stdout order across batches, the byte cap with backpressure, and the cases
// where the reader must not wait for room (our control request in flight, close).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <thread>

#include "claude/sdk/client.hpp"
#include "claude/sdk/query.hpp"
#include "client/message_queue_stats.hpp"
#include "scripted_cli.hpp"

namespace claude::sdk {
namespace {

using namespace testing;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kCap = 16u << 10;
constexpr std::size_t kPadding = 400;  // text bytes per assistant line (~600 line bytes)

// Answers every control request the SDK writes (initialize included) with success; the answer
// queues up behind whatever the test pushed before.
std::unique_ptr<InMemoryTransport> answering_every_request() {
  return answering_requests([](const std::string&) { return true; });
}

// A CLI that delays a user message written to it: `before_user_message` runs first.
class DelayingCli final : public ForwardingTransport {
 public:
  DelayingCli(std::unique_ptr<InMemoryTransport> inner,
              std::function<void(const InMemoryTransport&)> before_user_message)
      : ForwardingTransport(std::move(inner)),
        before_user_message_(std::move(before_user_message)) {}
  void write(std::string_view frame) override {
    if (frame.find(R"("type":"user")") != std::string_view::npos) before_user_message_(*inner_);
    inner_->write(frame);
  }

 private:
  std::function<void(const InMemoryTransport&)> before_user_message_;
};

// Plays a CLI blocked on its full stdout pipe, as Node is (it writes to a pipe synchronously): a
// user message written to it goes through only once the SDK has read every line it had written.
std::unique_ptr<Transport> stdout_bound(std::unique_ptr<InMemoryTransport> inner) {
  return std::make_unique<DelayingCli>(std::move(inner), [](const InMemoryTransport& cli) {
    const auto deadline = Clock::now() + 5s;
    while (cli.has_buffered_line()) {
      if (Clock::now() > deadline)
        throw ConnectionError("test CLI: stdin blocked for 5 s; the SDK stopped reading stdout");
      std::this_thread::sleep_for(1ms);
    }
  });
}

// Plays a CLI whose stdin takes a while to accept a user message without being blocked on its
// stdout, as a consumer that loses its CPU to the CLI it has just woken looks to the reader.
std::unique_ptr<Transport> slow_stdin(std::unique_ptr<InMemoryTransport> inner) {
  return std::make_unique<DelayingCli>(
      std::move(inner), [](const InMemoryTransport&) { std::this_thread::sleep_for(20ms); });
}

// Assistant lines whose texts are "<index> xxx…", `first` to `first + count - 1`.
std::vector<std::string> numbered_lines(int first, int count) {
  std::vector<std::string> lines;
  for (int i = first; i < first + count; ++i)
    lines.push_back(assistant_line(std::to_string(i) + " " + std::string(kPadding, 'x')).dump());
  return lines;
}

int number_of(const Message& m) {
  const auto* a = m.get_if<AssistantMessage>();
  return a ? std::stoi(a->content[0].text) : -1;
}

std::size_t longest(const std::vector<std::string>& lines) {
  std::size_t n = 0;
  for (const auto& l : lines) n = std::max(n, l.size());
  return n;
}

bool eventually(const std::function<bool()>& condition) {
  const auto deadline = Clock::now() + kWait;
  while (Clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return condition();
}

// Runs `fn` and returns how long it took. A deadlock cannot be undone from inside the test, so
// one that outlasts `limit` ends the test binary with a message instead of hanging it.
Clock::duration run_within(Clock::duration limit, const char* what, std::function<void()> fn) {
  const auto begin = Clock::now();
  auto task = std::async(std::launch::async, std::move(fn));
  if (task.wait_for(limit) != std::future_status::ready) {
    std::fprintf(stderr, "FATAL: %s did not finish within %lld ms: deadlock\n", what,
                 static_cast<long long>(
                     std::chrono::duration_cast<std::chrono::milliseconds>(limit).count()));
    std::fflush(stderr);
    std::_Exit(1);
  }
  task.get();
  return Clock::now() - begin;
}

Options capped(std::size_t cap) {
  Options o;
  o.max_queued_message_bytes = cap;
  o.control_timeout = 10s;
  o.message_inactivity_timeout = 10s;
  return o;
}

TEST(SessionQueueTest, AWaitingConsumerIsWokenOncePerBatchNotOncePerMessage) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Client client(capped(8u << 20), std::move(owned));
  client.connect();
  std::vector<int> got;
  std::thread consumer([&] {
    for (int i = 0; i < 500; ++i) got.push_back(number_of(*client.receive_message()));
  });
  std::this_thread::sleep_for(50ms);  // let the consumer wait; if it did not, it wakes 0 times
  cli.push_lines(numbered_lines(0, 500));
  consumer.join();
  ASSERT_EQ(got.size(), 500u);
  for (int i = 0; i < 500; ++i) ASSERT_EQ(got[i], i);
  EXPECT_LE(message_queue_stats(client).consumer_wakeups, 2u);
}

TEST(SessionQueueTest, TheLastMessageOfABatchArrivesWithoutFurtherInput) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Options o = capped(8u << 20);
  o.message_inactivity_timeout = 2s;  // a batch held back for more input ends in TimeoutError
  Client client(o, std::move(owned));
  client.connect();
  for (int batch = 0; batch < 3; ++batch) {
    cli.push_lines(numbered_lines(batch * 3, 3));
    for (int i = 0; i < 3; ++i) EXPECT_EQ(number_of(*client.receive_message()), batch * 3 + i);
  }
}

TEST(SessionQueueTest, MessagesKeepStdoutOrderAcrossBatchesAndPausesOfTheReader) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Client client(capped(kCap), std::move(owned));
  client.connect();
  std::thread cli_side([&] {
    for (int batch = 0; batch < 20; ++batch) {
      cli.push_lines(numbered_lines(batch * 100, 100));
      std::this_thread::sleep_for(1ms);
    }
    cli.push_json(result_line());
  });
  int expected = 0;
  while (auto m = client.receive_message()) {
    if (m->is<ResultMessage>()) break;
    ASSERT_EQ(number_of(*m), expected++);
    if (expected % 100 == 0) std::this_thread::sleep_for(1ms);  // lag: the reader waits at times
  }
  cli_side.join();
  EXPECT_EQ(expected, 2000);
}

TEST(SessionQueueTest, ASlowConsumerKeepsTheQueueUnderItsCapAndTheRestInThePipe) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Client client(capped(kCap), std::move(owned));
  client.connect();
  auto lines = numbered_lines(0, 1000);
  const std::size_t line_max = longest(lines);
  cli.push_lines(std::move(lines));
  ASSERT_TRUE(eventually([&] { return message_queue_stats(client).reader_waits > 0; }));
  std::this_thread::sleep_for(20ms);  // a reader that did not stop would go on reading now
  EXPECT_LE(message_queue_stats(client).queued_bytes, kCap + line_max);
  EXPECT_TRUE(cli.has_buffered_line()) << "the reader read on although the queue was full";
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(number_of(*client.receive_message()), i);
    if (i % 50 == 0) std::this_thread::sleep_for(1ms);
  }
  auto stats = message_queue_stats(client);
  EXPECT_LE(stats.peak_queued_bytes, kCap + line_max);
  EXPECT_EQ(stats.queued_bytes, 0u);
  EXPECT_GT(stats.reader_waits, 1u);
}

TEST(SessionQueueTest, ZeroCapReadsAheadWithoutLimit) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Client client(capped(0), std::move(owned));
  client.connect();
  auto lines = numbered_lines(0, 1000);
  std::size_t total = 0;
  for (const auto& l : lines) total += l.size();
  cli.push_lines(std::move(lines));
  EXPECT_TRUE(eventually([&] { return message_queue_stats(client).queued_bytes == total; }));
  EXPECT_EQ(message_queue_stats(client).reader_waits, 0u);
}

TEST(SessionQueueTest, AControlCallFromTheConsumerWhileTheQueueIsFullIsAnsweredAtOnce) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Client client(capped(kCap), std::move(owned));
  client.connect();
  cli.push_lines(numbered_lines(0, 1000));
  ASSERT_TRUE(eventually([&] { return message_queue_stats(client).reader_waits > 0; }));
  // The answer is queued behind ~600 KB of messages: the reader must read past the cap to get it.
  auto took = run_within(8s, "interrupt() with a full queue", [&] { client.interrupt(); });
  EXPECT_LT(took, 1s);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(number_of(*client.receive_message()), i);
  // Answered: the cap applies again.
  const auto waits = message_queue_stats(client).reader_waits;
  cli.push_lines(numbered_lines(1000, 1000));
  EXPECT_TRUE(eventually([&] { return message_queue_stats(client).reader_waits > waits; }));
  for (int i = 1000; i < 2000; ++i) ASSERT_EQ(number_of(*client.receive_message()), i);
}

TEST(SessionQueueTest, AMessageFromTheConsumerToACliBlockedOnStdoutGoesThrough) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Client client(capped(kCap), stdout_bound(std::move(owned)));
  client.connect();
  cli.push_lines(numbered_lines(0, 1000));
  ASSERT_TRUE(eventually([&] { return message_queue_stats(client).reader_waits > 0; }));
  auto took = run_within(8s, "query() to a CLI blocked on stdout", [&] { client.query("more"); });
  EXPECT_LT(took, 1s);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(number_of(*client.receive_message()), i);
}

// A write of ours that goes through does not let the reader run past the cap meanwhile: it reads
// on only once a write has outlasted the grace period (the test above).
TEST(SessionQueueTest, AWriteThatGoesThroughDoesNotLetTheReaderPassTheCap) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Client client(capped(kCap), slow_stdin(std::move(owned)));
  client.connect();
  auto lines = numbered_lines(0, 1000);
  const std::size_t line_max = longest(lines);
  cli.push_lines(std::move(lines));
  ASSERT_TRUE(eventually([&] { return message_queue_stats(client).reader_waits > 0; }));
  client.query("more");
  EXPECT_LE(message_queue_stats(client).peak_queued_bytes, kCap + line_max);
  EXPECT_TRUE(cli.has_buffered_line()) << "the reader read on while the message was written";
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(number_of(*client.receive_message()), i);
}

TEST(SessionQueueTest, DisconnectWhileTheReaderWaitsForRoomEndsPromptly) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  Client client(capped(kCap), std::move(owned));
  client.connect();
  cli.push_lines(numbered_lines(0, 1000));
  ASSERT_TRUE(eventually([&] { return message_queue_stats(client).reader_waits > 0; }));
  auto took = run_within(8s, "disconnect() with a full queue", [&] { client.disconnect(); });
  EXPECT_LT(took, 1s);
}

TEST(SessionQueueTest, DestroyingAQueryWhoseReaderWaitsForRoomEndsPromptly) {
  auto owned = answering_every_request();
  InMemoryTransport& cli = *owned;
  auto q = std::make_unique<Query>(query("hi", capped(kCap), std::move(owned)));
  cli.push_lines(numbered_lines(0, 1000));
  ASSERT_TRUE(eventually([&] { return message_queue_stats(*q).reader_waits > 0; }));
  ASSERT_EQ(number_of(*q->next()), 0);
  auto took = run_within(8s, "~Query with a full queue", [&] { q.reset(); });
  EXPECT_LT(took, 1s);
}

}  // namespace
}  // namespace claude::sdk
