#include "claude/sdk/cancel_token.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace claude::sdk {

struct CancelToken::State {
  std::atomic<bool> cancelled{false};
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::function<void()>> callbacks;
};

CancelToken::CancelToken() : state_(std::make_shared<State>()) {}

bool CancelToken::cancelled() const noexcept {
  return state_->cancelled.load();
}

void CancelToken::on_cancel(std::function<void()> callback) const {
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->cancelled) {
      state_->callbacks.push_back(std::move(callback));
      return;
    }
  }
  try {
    callback();
  } catch (...) {  // NOLINT(bugprone-empty-catch): the canceller has no one to report to
  }
}

bool CancelToken::wait_for(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(state_->mutex);
  return state_->cv.wait_for(lock, timeout, [&] { return state_->cancelled.load(); });
}

void CancelToken::cancel() const {
  std::vector<std::function<void()>> callbacks;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->cancelled.exchange(true)) return;
    callbacks.swap(state_->callbacks);
  }
  state_->cv.notify_all();
  for (auto& cb : callbacks) {
    try {
      cb();
    } catch (...) {  // NOLINT(bugprone-empty-catch): see header, a cancel callback must not throw
    }
  }
}

}  // namespace claude::sdk
