#include "claude/fuzzing/in_process_run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "claude/base/json.hpp"
#include "claude/base/line_buffer.hpp"
#include "claude/emulator/engine.hpp"
#include "driver_run.hpp"
#include "driver_spec.hpp"
#include "observation_log.hpp"
#include "transport/in_memory_transport.hpp"

namespace claude::fuzzing {
namespace {

using Clock = std::chrono::steady_clock;
using claude::sdk::InMemoryTransport;

// What the SDK owns: a Transport forwarding to an InMemoryTransport the pump shares, so the pump
// never touches a transport the SDK has destroyed.
class SharedTransport final : public claude::sdk::Transport {
 public:
  explicit SharedTransport(std::shared_ptr<InMemoryTransport> inner) : inner_(std::move(inner)) {}
  void connect() override { inner_->connect(); }
  void write(std::string_view frame) override { inner_->write(frame); }
  claude::sdk::ReadResult read() override { return inner_->read(); }
  [[nodiscard]] bool has_buffered_line() const override { return inner_->has_buffered_line(); }
  void end_input() override { inner_->end_input(); }
  void close() override { inner_->close(); }
  [[nodiscard]] bool input_open() const override { return inner_->input_open(); }

 private:
  std::shared_ptr<InMemoryTransport> inner_;
};

// The Engine's side of one session.
class EnginePump {
 public:
  EnginePump(claude::emulator::Scenario scenario, std::shared_ptr<InMemoryTransport> transport)
      : engine_(
            std::move(scenario),
            claude::emulator::parse_invocation(std::vector<std::string>{
                "--output-format", "stream-json", "--input-format", "stream-json", "--verbose"}),
            {}),
        transport_(std::move(transport)) {}

  void start() {
    thread_ = std::thread([this] { pump(); });
  }
  // Ends the stream now (the driver's timeout), as if the CLI had been killed.
  void stop() { stop_ = true; }
  // Once the SDK's session is over: the Engine gets up to `grace` to end by itself (stdin EOF,
  // a wait timing out), so its report says how the session ended.
  const claude::emulator::Report& join(std::chrono::milliseconds grace) {
    const auto until = Clock::now() + grace;
    while (!done_ && Clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return engine_.report();
  }

 private:
  // The Engine's clock: real time plus the waits skipped. While the SDK side is quiet (it has read
  // every line, answered every control request of the CLI's, and written nothing for kQuiet), the
  // Engine's next deadline is reached at once instead of waited for: fake-claude's sleeps and waits
  // cost nothing, and a run takes milliseconds. A CLI request still unanswered keeps real time
  // going: the SDK's callback may be running (driver specs delay some on purpose). kQuiet is 20 ms,
  // not less: under ASan on a slow 2-core VM the SDK took over 2 ms to write its next line, and the
  // Engine skipped past the wait for it (the result went missing in 60% of runs at 2 ms).
  static constexpr auto kQuiet = std::chrono::milliseconds(20);

  claude::emulator::Millis now() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_).count() +
           skipped_;
  }

  void deliver() {
    for (auto& out : engine_.take_output()) {
      if (out.stream != claude::emulator::Output::Stream::stdout_stream) continue;
      lines_.feed(out.bytes, [this](const claude::base::LineEvent& e) { push(e); });
    }
  }
  void push(const claude::base::LineEvent& e) {
    if (e.kind != claude::base::LineEvent::Kind::line) return;
    track(e.text, "control_request", true);
    track(e.text, "control_cancel_request", false);
    transport_->push_line(std::string(e.text));
  }
  // Keeps `awaiting_` (the CLI's control requests the SDK has not answered nor seen withdrawn).
  void track(std::string_view line, std::string_view type, bool add) {
    if (line.find(type) == std::string_view::npos) return;
    const Json value = claude::base::parse_json_or_discarded(line);
    const Json* id = claude::base::member(value, "request_id");
    if (claude::base::string_member(value, "type") != type || id == nullptr || !id->is_string())
      return;
    if (add)
      awaiting_.insert(id->get<std::string>());
    else
      awaiting_.erase(id->get<std::string>());
  }
  void answered(std::string_view frame) {
    if (awaiting_.empty() || frame.find("control_response") == std::string_view::npos) return;
    const Json value = claude::base::parse_json_or_discarded(frame);
    const Json* response = claude::base::member(value, "response");
    const Json* id = response != nullptr ? claude::base::member(*response, "request_id") : nullptr;
    if (id != nullptr && id->is_string()) awaiting_.erase(id->get<std::string>());
  }

  void pump() {
    engine_.start(now());
    deliver();
    bool eof = false;
    while (!engine_.finished() && !stop_) {
      if (auto frame = transport_->next_written(kQuiet)) {
        answered(*frame);
        engine_.on_line(*frame, false, now());
      } else if (!eof && !transport_->input_open()) {
        eof = true;
        engine_.on_eof(now());
      } else if (awaiting_.empty() && !transport_->has_buffered_line()) {
        const auto deadline = engine_.next_deadline();
        const auto at = now();
        if (deadline && *deadline > at) skipped_ += *deadline - at;
      }
      engine_.on_time(now());
      deliver();
    }
    lines_.finish([this](const claude::base::LineEvent& e) { push(e); });
    claude::sdk::ExitStatus status;
    const auto& ending = engine_.ending();
    if (!engine_.finished()) {
      status.term_signal = 9;
    } else if (ending.kind == claude::emulator::Ending::Kind::kill) {
      status.term_signal = ending.signal;
    } else {
      status.exit_code = ending.code;
    }
    transport_->finish(status);
    done_ = true;
  }

  claude::emulator::Engine engine_;
  std::shared_ptr<InMemoryTransport> transport_;
  claude::base::LineBuffer lines_;
  Clock::time_point started_ = Clock::now();
  claude::emulator::Millis skipped_ = 0;  // pump thread only
  std::set<std::string> awaiting_;        // pump thread only
  std::atomic<bool> stop_{false};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

std::vector<Json> observation_lines(const std::string& text, std::vector<std::string>& bad) {
  std::vector<Json> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    Json value = claude::base::parse_json_or_discarded(std::string_view(text).substr(at, end - at));
    if (value.is_object()) {
      out.push_back(std::move(value));
    } else {
      bad.push_back(text.substr(at, std::min<std::size_t>(end - at, 200)));
    }
    at = end + 1;
  }
  return out;
}

}  // namespace

bool runs_in_process(const ScenarioDoc& doc) {
  const Json* driver = doc.header.contains("driver") ? &doc.header["driver"] : nullptr;
  if (driver == nullptr || !driver->is_object() || driver->contains("control")) return false;
  return std::ranges::none_of(doc.steps, [](const Json& step) {
    return step.contains("hang") || step.contains("expect_prompt");
  });
}

std::optional<claude::conformance::RunOutcome> run_in_process(const ScenarioDoc& doc) {
  if (!runs_in_process(doc)) return std::nullopt;
  auto load = claude::emulator::load_scenario_text(render(doc), "in-process.ndjson");
  if (!load.ok()) return std::nullopt;
  claude::driver::DriverInvocation invocation;
  try {
    invocation.spec = claude::driver::parse_driver_spec(
        nlohmann::json::parse(claude::base::dump_json(doc.header["driver"])));
    claude::driver::check_options(invocation.spec);
  } catch (const std::exception&) {
    return std::nullopt;  // a spec the C++ driver does not take: exit 2 or 4 as a process
  }

  auto transport = std::make_shared<InMemoryTransport>();
  EnginePump pump(std::move(*load.scenario), transport);
  invocation.transport = [transport] { return std::make_unique<SharedTransport>(transport); };
  invocation.on_timeout = [&pump] { pump.stop(); };

  char* buffer = nullptr;
  std::size_t length = 0;
  std::FILE* stream = ::open_memstream(&buffer, &length);
  if (stream == nullptr) return std::nullopt;
  const auto started = Clock::now();
  int exit_code = 0;
  {
    claude::driver::ObservationLog log(stream);
    pump.start();
    exit_code = claude::driver::run_driver(invocation, log);
  }
  const auto& report = pump.join(std::chrono::milliseconds(2000));
  std::fclose(stream);
  const std::string text(buffer, length);
  std::free(buffer);

  claude::conformance::RunOutcome outcome;
  outcome.driver_exit = exit_code;
  outcome.observations = observation_lines(text, outcome.bad_lines);
  outcome.fake_report = claude::emulator::report_json(report);
  outcome.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return outcome;
}

}  // namespace claude::fuzzing
