// The consumer's wait while a user callback runs: the inactivity timer is paused, and the thread
// in receive_message() sleeps instead of looping on the deadline the callback outlasted (issue 31
// item 9). Counted in process CPU time, which a spinning waiter burns as fast as wall time.
#include <gtest/gtest.h>
#include <time.h>

#include <memory>
#include <thread>

#include "claude/sdk/client.hpp"
#include "client/message_queue_stats.hpp"
#include "scripted_cli.hpp"

namespace claude::sdk {
namespace {

using namespace testing;

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

json permission_request(const std::string& id) {
  return control_request(id, {{"subtype", "can_use_tool"},
                              {"tool_name", "Bash"},
                              {"input", json::object()},
                              {"tool_use_id", "t-" + id}});
}

// A connected client whose permission callback takes `callback` and whose inactivity timeout is
// `timeout`, over an in-memory CLI.
struct SlowCallbackClient {
  SlowCallbackClient(std::chrono::milliseconds timeout, std::chrono::milliseconds callback) {
    auto slot = std::make_shared<InMemoryTransport*>(nullptr);
    auto owned = answering_initialize(slot);
    cli = owned.get();
    Options o;
    o.message_inactivity_timeout = timeout;
    o.can_use_tool = [callback](const ToolPermissionRequest&, const CancelToken&) {
      std::this_thread::sleep_for(callback);
      return PermissionDecision::allowed();
    };
    client = std::make_unique<Client>(o, std::move(owned));
    client->connect();
  }
  InMemoryTransport* cli = nullptr;
  std::unique_ptr<Client> client;
};

TEST(CallbackWaitTest, ConsumerSleepsWhileCallbacksOutlastTheInactivityTimeout) {
  // A timeout far shorter than the callbacks: on a passed deadline the old wait returned at
  // once, over and over.
  SlowCallbackClient slow(50ms, 1200ms);
  InMemoryTransport& cli = *slow.cli;
  Client& client = *slow.client;
  std::thread script([&] {
    cli.push_json(permission_request("p1"));
    next_non_initialize(cli);  // the first answer
    cli.push_json(permission_request("p2"));
    next_non_initialize(cli);
    cli.push_json(result_line());
  });
  const double cpu_before = process_cpu_seconds();
  const auto wall_before = std::chrono::steady_clock::now();
  std::optional<Message> m;
  try {
    m = client.receive_message();
  } catch (...) {
    script.join();
    throw;
  }
  script.join();
  const double cpu = process_cpu_seconds() - cpu_before;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_before).count();
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->is<ResultMessage>());
  EXPECT_GE(wall, 2.0);
  // A waiter that blocks costs milliseconds here; the spinning one cost a core for the whole wait.
  EXPECT_LT(cpu, 0.3) << "process CPU " << cpu << " s over " << wall << " s of callbacks";
  // The same in wake-ups, which a loaded machine cannot blur: a few, not one per spin.
  EXPECT_LT(message_queue_stats(client).consumer_wakeups, 20u);
}

TEST(CallbackWaitTest, InactivityTimeoutStillFiresAfterTheCallbacksEnd) {
  SlowCallbackClient slow(300ms, 600ms);
  slow.cli->push_json(permission_request("p1"));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(slow.client->receive_message(), TimeoutError);
  const auto waited = std::chrono::steady_clock::now() - start;
  // The timer restarts when the callback ends: callback + timeout, not the timeout alone.
  EXPECT_GE(waited, 850ms);
  EXPECT_LT(waited, 5000ms);
}

}  // namespace
}  // namespace claude::sdk
