#include "transport/in_memory_transport.hpp"

#include <csignal>

namespace claude::sdk {

void InMemoryTransport::connect() {
  if (config_.fail_connect) throw ConnectionError("connect: in-memory transport set to fail");
  std::lock_guard lock(mutex_);
  connected_ = true;
  input_open_ = true;
}

void InMemoryTransport::write(std::string_view frame) {
  std::string text(frame);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  {
    std::lock_guard lock(mutex_);
    if (!connected_) throw ConnectionError("write: not connected");
    if (!input_open_) throw ConnectionError("write: the CLI's stdin is already closed");
    unread_written_.push_back(text);
  }
  cv_.notify_all();
  if (config_.responder) config_.responder(text);
}

ReadResult InMemoryTransport::read() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [&] { return !to_sdk_.empty() || end_.has_value(); });
  if (!to_sdk_.empty()) {
    InboundLine line;
    line.text = std::move(to_sdk_.front());
    line.size = line.text.size();
    to_sdk_.pop_front();
    return line;
  }
  return *end_;
}

bool InMemoryTransport::has_buffered_line() const {
  std::lock_guard lock(mutex_);
  return !to_sdk_.empty();
}

void InMemoryTransport::end_input() {
  {
    std::lock_guard lock(mutex_);
    input_open_ = false;
  }
  cv_.notify_all();
}

void InMemoryTransport::close() {
  {
    std::lock_guard lock(mutex_);
    input_open_ = false;
    if (!end_) end_ = StreamEnd{ExitStatus{std::nullopt, SIGTERM, true}, "", ""};
  }
  cv_.notify_all();
}

bool InMemoryTransport::input_open() const {
  std::lock_guard lock(mutex_);
  return input_open_;
}

void InMemoryTransport::push_lines(std::vector<std::string> lines) {
  {
    std::lock_guard lock(mutex_);
    for (auto& line : lines) to_sdk_.push_back(std::move(line));
  }
  cv_.notify_all();
}

void InMemoryTransport::finish(ExitStatus status, std::string stderr_tail) {
  {
    std::lock_guard lock(mutex_);
    if (!end_) end_ = StreamEnd{status, std::move(stderr_tail), ""};
  }
  cv_.notify_all();
}

std::optional<std::string> InMemoryTransport::next_written(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!cv_.wait_for(lock, timeout, [&] { return !unread_written_.empty(); })) return std::nullopt;
  std::string frame = std::move(unread_written_.front());
  unread_written_.pop_front();
  return frame;
}

std::optional<nlohmann::json> InMemoryTransport::next_written_json(
    std::chrono::milliseconds timeout) {
  if (auto frame = next_written(timeout)) return nlohmann::json::parse(*frame);
  return std::nullopt;
}

bool InMemoryTransport::wait_input_ended(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return !input_open_; });
}

}  // namespace claude::sdk
