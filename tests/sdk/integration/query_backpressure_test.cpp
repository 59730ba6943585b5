// The SDK's bounded message queue against fake-claude: a consumer slower than the CLI keeps the
// queue under Options::max_queued_message_bytes while the rest waits in the pipe; a control call
// from the consumer while the CLI is blocked on its full pipe is answered; dropping the query then
// ends the CLI promptly. The scenarios are generated (megabytes of `raw` output) in a temp dir.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "claude/sdk/client.hpp"
#include "claude/sdk/query.hpp"
#include "client/message_queue_stats.hpp"

namespace claude::sdk {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kCap = 256u << 10;
constexpr std::size_t kLongestLine = 8u << 10;  // the generated lines are shorter

// `index`-numbered assistant lines as fake-claude `raw` steps of ~64 KiB each.
class ScenarioWriter {
 public:
  explicit ScenarioWriter(const fs::path& path) : out_(path, std::ios::binary) {
    out_ << R"({"scenario":1,"name":"sdk.backpressure","description":"generated stream"})"
         << "\n";
  }
  void line(const json& step) { out_ << step.dump() << "\n"; }
  // About `bytes` of assistant lines; returns the bytes written.
  std::size_t assistant_lines(std::size_t bytes) {
    std::size_t written = 0;
    std::string chunk;
    while (written < bytes) {
      json line = {
          {"type", "assistant"},
          {"uuid", "u-" + std::to_string(next_)},
          {"session_id", "bp"},
          {"parent_tool_use_id", nullptr},
          {"message",
           {{"id", "msg_" + std::to_string(next_)},
            {"type", "message"},
            {"role", "assistant"},
            {"model", "claude-fake"},
            {"content", json::array({{{"type", "text"},
                                      {"text", std::to_string(next_) + " " +
                                                   std::string(200 + (next_ * 37) % 3000, 'x')}}})},
            {"stop_reason", nullptr}}}};
      ++next_;
      std::string text = line.dump() + "\n";
      written += text.size();
      chunk += text;
      if (chunk.size() >= (64u << 10)) {
        line_raw(chunk);
        chunk.clear();
      }
    }
    if (!chunk.empty()) line_raw(chunk);
    return written;
  }
  void result() {
    line({{"send",
           {{"type", "result"},
            {"subtype", "success"},
            {"is_error", false},
            {"duration_ms", 1},
            {"duration_api_ms", 1},
            {"num_turns", 1},
            {"result", "ok"},
            {"session_id", "bp"},
            {"uuid", "u-end"}}}});
  }
  [[nodiscard]] int count() const { return next_; }

 private:
  void line_raw(const std::string& chunk) { line({{"raw", chunk}}); }
  std::ofstream out_;
  int next_ = 0;
};

int number_of(const Message& m) {
  const auto* a = m.get_if<AssistantMessage>();
  return a ? std::stoi(a->content[0].text) : -1;
}

// A deadlock cannot be undone from inside the test: one that outlasts `limit` ends the binary.
Clock::duration run_within(Clock::duration limit, const char* what, std::function<void()> fn) {
  const auto begin = Clock::now();
  auto task = std::async(std::launch::async, std::move(fn));
  if (task.wait_for(limit) != std::future_status::ready) {
    std::fprintf(stderr, "FATAL: %s did not finish in time: deadlock\n", what);
    std::fflush(stderr);
    std::_Exit(1);
  }
  task.get();
  return Clock::now() - begin;
}

bool reader_waited(const std::function<MessageQueueStats()>& stats) {
  const auto deadline = Clock::now() + 10s;
  while (Clock::now() < deadline) {
    if (stats().reader_waits > 0) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

class QueryBackpressureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("sdk-bp-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  Options options() const {
    Options o;
    o.cli_path = FAKE_CLAUDE_PATH;
    o.cli_prefix_args = {"--scenario", (dir / "scenario.ndjson").string()};
    o.env["FAKE_CLAUDE_REPORT"] = (dir / "report.json").string();
    o.max_queued_message_bytes = kCap;
    o.initialize_timeout = 10s;
    o.control_timeout = 20s;
    o.message_inactivity_timeout = 20s;
    return o;
  }
  std::string verdict() const {
    std::ifstream in(dir / "report.json");
    json report = json::parse(in, nullptr, false);
    return report.is_object() ? report.value("verdict", "?") : "(no report)";
  }
  fs::path dir;
};

TEST_F(QueryBackpressureTest, ASlowConsumerOfALongStreamKeepsTheQueueUnderTheCap) {
  std::size_t bytes;
  int count;
  {
    ScenarioWriter s(dir / "scenario.ndjson");
    s.line({{"expect", {{"type", "user"}}}, {"within_ms", 10000}});
    bytes = s.assistant_lines(16u << 20);
    count = s.count();
    s.result();
    s.line({{"exit", 0}});
  }
  auto q = query("stream", options());
  std::size_t got = 0;
  int expected = 0;
  while (auto m = q.next()) {
    if (m->is<ResultMessage>()) continue;
    ASSERT_EQ(number_of(*m), expected++);
    got += m->line().size() + 1;
    if (expected == 1) {
      // Fall a whole cap behind for sure, however fast or slow fake-claude is (asan): stop
      // consuming until the reader has had to wait for us.
      const auto give_up = std::chrono::steady_clock::now() + 10s;
      while (message_queue_stats(q).reader_waits == 0 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(1ms);
    }
    if (expected % 500 == 0) std::this_thread::sleep_for(2ms);
  }
  EXPECT_EQ(expected, count);
  EXPECT_EQ(got, bytes);
  auto stats = message_queue_stats(q);
  EXPECT_LE(stats.peak_queued_bytes, kCap + kLongestLine);
  EXPECT_GT(stats.reader_waits, 0u) << "the consumer never fell a cap behind";
  EXPECT_EQ(verdict(), "pass");
}

TEST_F(QueryBackpressureTest, AnInterruptWhileTheCliIsBlockedOnItsFullPipeIsAnswered) {
  int before;
  {
    ScenarioWriter s(dir / "scenario.ndjson");
    s.line({{"expect", {{"type", "user"}}}, {"within_ms", 10000}});
    s.assistant_lines(4u << 20);
    before = s.count();
    s.line({{"expect", {{"type", "control_request"}, {"request", {{"subtype", "interrupt"}}}}},
            {"within_ms", 20000}});
    s.line({{"respond", json::object()}});
    s.assistant_lines(1u << 20);
    s.result();
    s.line({{"exit", 0}});
  }
  Client client(options());
  client.connect();
  client.query("stream");
  ASSERT_EQ(number_of(*client.receive_message()), 0);
  ASSERT_TRUE(reader_waited([&] { return message_queue_stats(client); }));
  // fake-claude writes 4 MiB before it reads the interrupt: only a reader that reads past the cap
  // gets it there and brings the answer back.
  auto took = run_within(30s, "interrupt() while fake-claude is blocked on its pipe",
                         [&] { client.interrupt(); });
  EXPECT_LT(took, 10s);
  int expected = 1;
  for (;;) {
    auto m = client.receive_message();
    ASSERT_TRUE(m);
    if (m->is<ResultMessage>()) break;
    ASSERT_EQ(number_of(*m), expected++);
  }
  EXPECT_GT(expected, before);
  client.disconnect();
  EXPECT_EQ(verdict(), "pass");
}

TEST_F(QueryBackpressureTest, DroppingTheQueryWhileTheCliIsBlockedOnItsPipeEndsPromptly) {
  {
    ScenarioWriter s(dir / "scenario.ndjson");
    s.line({{"expect", {{"type", "user"}}}, {"within_ms", 10000}});
    s.assistant_lines(16u << 20);
    s.result();
    s.line({{"exit", 0}});
  }
  Options o = options();
  o.close_grace = 200ms;
  o.term_wait = 200ms;
  auto q = std::make_unique<Query>(query("stream", o));
  ASSERT_EQ(number_of(*q->next()), 0);
  ASSERT_TRUE(reader_waited([&] { return message_queue_stats(*q); }));
  auto took = run_within(30s, "~Query while fake-claude is blocked", [&] { q.reset(); });
  EXPECT_LT(took, 5s);
}

}  // namespace
}  // namespace claude::sdk
