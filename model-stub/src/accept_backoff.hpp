// AcceptBackoff: what the accept loop does after accept(2) fails, most often at the descriptor
// limit (EMFILE), where the listening socket stays readable and a loop that retried at once spun
// a core and logged 85 MB in 3 s.
//
// What it is: a state machine fed failures and successes with their time. After a failure the
// loop waits `wait`, doubling from kFirstWait to kLongestWait while failures go on; a success
// resets it. At most one log line per kLogInterval, counting the failures it stands for.
//
// How it fails: it does not. What it costs: nothing beyond a few integers.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace claude::model_stub {

class AcceptBackoff {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kFirstWait{10};
  static constexpr std::chrono::milliseconds kLongestWait{1000};
  static constexpr std::chrono::seconds kLogInterval{10};

  struct Step {
    std::chrono::milliseconds wait;
    std::optional<std::string> log;  // a line for stderr, when one is due
  };

  Step on_failure(std::string_view reason, Clock::time_point now);
  void on_success();

 private:
  std::chrono::milliseconds next_wait_ = kFirstWait;
  std::optional<Clock::time_point> last_log_;
  std::size_t failures_since_log_ = 0;
};

}  // namespace claude::model_stub
