#include "accept_backoff.hpp"

#include <algorithm>

namespace claude::model_stub {

AcceptBackoff::Step AcceptBackoff::on_failure(std::string_view reason, Clock::time_point now) {
  Step step{next_wait_, std::nullopt};
  next_wait_ = std::min(next_wait_ * 2, kLongestWait);
  ++failures_since_log_;
  if (!last_log_ || now - *last_log_ >= kLogInterval) {
    std::string line = "model-stub: accept failed: " + std::string(reason);
    if (failures_since_log_ > 1) {
      line += " (" + std::to_string(failures_since_log_) + " failures since the last message)";
    }
    line += "; retrying after up to " + std::to_string(kLongestWait.count()) +
            " ms, this message at most every " + std::to_string(kLogInterval.count()) + " s";
    step.log = std::move(line);
    last_log_ = now;
    failures_since_log_ = 0;
  }
  return step;
}

void AcceptBackoff::on_success() {
  // The log interval stays: a server flapping at the limit still logs once per interval.
  next_wait_ = kFirstWait;
}

}  // namespace claude::model_stub
