// Test support: drives an Engine from scenario text and collects what it writes, so engine
// tests read as the SDK's side of a session.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "claude/emulator/engine.hpp"

namespace claude::emulator {

inline const std::vector<std::string> kTsArgv = {"--output-format", "stream-json", "--verbose",
                                                 "--input-format", "stream-json"};

// Drives an Engine from scenario text, collecting what it writes.
class Session {
 public:
  explicit Session(std::string_view text, std::vector<std::string> args = kTsArgv,
                   Environment env = {}) {
    auto loaded = load_scenario_text(text, "s.ndjson");
    if (!loaded.ok()) {
      ADD_FAILURE() << loaded.errors.front().to_string();
      loaded = load_scenario_text("{\"scenario\":1}", "s.ndjson");
    }
    engine_ = std::make_unique<Engine>(std::move(*loaded.scenario), parse_invocation(args),
                                       std::move(env));
    engine_->start(0);
    drain();
  }

  Session& line(std::string_view text, Millis t = 0) {
    engine_->on_line(text, false, t);
    drain();
    return *this;
  }
  Session& eof(Millis t = 0) {
    engine_->on_eof(t);
    drain();
    return *this;
  }
  Session& time(Millis t) {
    engine_->on_time(t);
    drain();
    return *this;
  }

  // stdout split into lines, each parsed.
  std::vector<Json> sent() const {
    std::vector<Json> out;
    std::size_t start = 0;
    while (start < out_.size()) {
      const auto end = out_.find('\n', start);
      out.push_back(Json::parse(out_.substr(start, end - start), nullptr, false));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    return out;
  }

  Engine& engine() { return *engine_; }
  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }
  const std::vector<std::string>& writes() const { return writes_; }
  // Output::own_write of each stdout write.
  const std::vector<bool>& own_writes() const { return own_writes_; }
  const Report& report() const { return engine_->report(); }
  std::string failure_kind() const {
    return report().failure ? report().failure->kind : std::string("none");
  }

 private:
  void drain() {
    for (auto& o : engine_->take_output()) {
      if (o.stream == Output::Stream::stdout_stream) {
        out_ += o.bytes;
        writes_.push_back(o.bytes);
        own_writes_.push_back(o.own_write);
      } else {
        err_ += o.bytes;
      }
    }
  }

  std::unique_ptr<Engine> engine_;
  std::string out_, err_;
  std::vector<std::string> writes_;
  std::vector<bool> own_writes_;
};

inline constexpr const char* kInit =
    R"({"request_id":"vs9lj41n0l","type":"control_request","request":{"subtype":"initialize","systemPrompt":[""]}})";
inline constexpr const char* kUser =
    R"({"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null})";

inline std::string scenario(std::initializer_list<std::string_view> lines,
                            std::string_view header = R"({"scenario":1,"name":"t"})") {
  std::string text(header);
  for (auto l : lines) {
    text += "\n";
    text += l;
  }
  return text + "\n";
}

}  // namespace claude::emulator
