// InMemoryTransport: a Transport whose other end is the test itself, so the control protocol,
// query() and Client run in unit tests without a process. The test plays the CLI: `push_line`
// makes a line appear on the SDK's stdout, `next_written` returns the frames the SDK wrote,
// `finish` ends the stream; a `responder` can answer frames as they are written (on the writer's
// thread).
//
// How it fails: `connect()` throws `ConnectionError` when built with `fail_connect`, `write()`
// after `end_input()`/`close()`; `next_written` returns nullopt on timeout.
// Threading: every member is thread-safe. What it costs: one mutex and one copy per line.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "claude/sdk/transport.hpp"

namespace claude::sdk {

class InMemoryTransport final : public Transport {
 public:
  struct Config {
    bool fail_connect = false;
    // Called with each frame the SDK writes (without '\n'), after it is recorded.
    std::function<void(const std::string& frame)> responder;
  };

  InMemoryTransport() = default;
  explicit InMemoryTransport(Config config) : config_(std::move(config)) {}

  void connect() override;
  void write(std::string_view frame) override;
  ReadResult read() override;
  [[nodiscard]] bool has_buffered_line() const override;
  void end_input() override;
  void close() override;
  [[nodiscard]] bool input_open() const override;

  // The CLI's side.
  void push_line(std::string line) { push_lines({std::move(line)}); }
  void push_json(const nlohmann::json& value) { push_line(value.dump()); }
  // Several lines at once, as one chunk of a pipe: the reader sees them all buffered.
  void push_lines(std::vector<std::string> lines);
  void finish(ExitStatus status, std::string stderr_tail = "");
  // The next frame the SDK wrote that the test has not taken yet (without '\n').
  std::optional<std::string> next_written(std::chrono::milliseconds timeout);
  std::optional<nlohmann::json> next_written_json(std::chrono::milliseconds timeout);
  bool wait_input_ended(std::chrono::milliseconds timeout);

 private:
  Config config_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::string> to_sdk_;
  std::optional<StreamEnd> end_;
  std::deque<std::string> unread_written_;
  bool connected_ = false;
  bool input_open_ = false;
};

}  // namespace claude::sdk
