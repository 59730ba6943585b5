// Engine: plays a scenario against an SDK, one event at a time.
//
// What it is: the pure core of fake-claude, fed the SDK's stdin lines, stdin EOF and the passing
// of time; it answers with bytes to write and when to wake it next. It never touches file
// descriptors, clocks or signals (run_fake_claude in fake_claude.hpp is the process shell). Rules:
// docs/scenario.md#ordering-and-verdict.
//
// How it fails: never throws for anything an SDK sends; every failure is a `Failure` in the report.
//
// What it costs: each SDK line is parsed once; each waiting step scans the pending queue. Steps
// pause while 1 MiB of output waits to be taken. The bytes of raw, stderr and verbatim steps are
// moved out when written, so memory shrinks as a replay goes on.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "claude/emulator/invocation.hpp"
#include "claude/emulator/report.hpp"
#include "claude/emulator/scenario.hpp"

namespace claude::emulator {

struct Output {
  enum class Stream { stdout_stream, stderr_stream } stream = Stream::stdout_stream;
  std::string bytes;
  std::optional<std::size_t> step;  // the step that wrote it (nullopt: automatic replies)
  // A piece of a chunked send: written by a write(2) of its own. Other stdout outputs taken
  // together go out in one writev(2).
  bool own_write = false;
};

using Environment = std::vector<std::pair<std::string, std::string>>;

struct EngineOptions {
  std::uint64_t seed = 0x2545F4914F6CDD1DULL;  // request ids are reproducible run to run
  int pid = 0;                                 // reported in the default initialize reply
  // Recordings: 0 plays as fast as possible; X > 0 holds each output step until (its t - the
  // anchor's t) / X has passed since the anchor (the last SDK line or stdin EOF a recorded step
  // consumed, or the start) went live.
  double speed = 0;
};

// The SDK lines no step has consumed yet that the engine holds; past this a line is read and
// dropped (Report::dropped_sdk_lines), bounding the memory, the report and the quadratic matching
// work of a flood (~0.5 M matches for 1024 lines). Ignored lines are listed up to the same count.
inline constexpr std::size_t kMaxHeldSdkLines = 1024;
inline constexpr std::size_t kMaxHeldSdkBytes = std::size_t{64} << 20;

class Engine {
 public:
  Engine(Scenario scenario, Invocation invocation, Environment environment,
         EngineOptions options = {});

  void start(Millis now);
  void on_line(std::string_view line, bool partial, Millis now);
  // Print mode: stdin's bytes as they come (they are the prompt's text, not NDJSON lines).
  void on_text(std::string_view bytes, Millis now);
  bool reads_text_prompt() const { return text_prompt_; }
  void on_oversized_line(std::size_t size, Millis now);
  void on_eof(Millis now);
  void on_time(Millis now);
  void on_stdout_closed(Millis now);           // a write failed with EPIPE
  void on_terminated(int signal, Millis now);  // SIGTERM/SIGINT from outside

  std::vector<Output> take_output();
  std::optional<Millis> next_deadline() const;
  bool finished() const { return finished_; }
  const Ending& ending() const { return report_.ending; }
  const Report& report() const { return report_; }
  Report take_report() { return std::move(report_); }  // once the run is over

 private:
  struct Pending {
    std::size_t transcript = 0;
    std::size_t bytes = 0;  // the line's size, counted in held_bytes_
    Json value;             // discarded: not JSON
    bool auto_answered = false;
    bool own_response = false;  // a response to one of our requests: never a leftover
    bool prompt = false;        // print mode: the prompt (only expect_prompt takes it)
    bool json() const { return !value.is_discarded(); }
  };

  // Causal order: a wait that is armed and not yet done.
  struct OpenWait {
    std::size_t step = 0;
    Millis armed_at = 0;
    std::string request_id;  // a request step: the id its response must carry
  };

  bool causal() const { return scenario_.header.order == Order::causal; }
  bool jsonrpc() const { return scenario_.header.protocol == Dialect::jsonrpc; }
  void advance(Millis now);
  // Strict mode: a line no pending expect can match fails now instead of after timeout_ms.
  void fail_if_unexpected(std::size_t transcript);
  bool run_step(Step& step, std::size_t index, Millis now);  // true when the step is done
  // A wait step's attempt: true when satisfied (or failed: then finished_ is set).
  bool try_wait(const Step& step, std::size_t index);
  // The response to our request `id` (step `index`): true when it came (matched or failed).
  bool take_response(const Step& step, std::size_t index, const std::string& id);
  // The id respond/respond_error answers (taken: each request is answered once). Sequential
  // order: the last request an expect consumed; causal: the one the nearest expect before it did.
  std::optional<Json> take_request_to_answer(std::size_t respond_step);
  // Causal order: open waits done, timed out, or made hopeless by stdin EOF.
  void settle_waits(Millis now);
  bool waits_done(const Step& step) const;
  void mark_done(std::size_t index, Millis now);
  // Fails the run if the wait armed at `since` timed out or stdin EOF made it hopeless; false.
  bool wait_or_fail(std::size_t index, Millis now, Millis since, std::string_view request_id = {});
  void complete_prompt(Millis now);
  TranscriptEntry& add_transcript(std::string_view bytes, char dir = 'i');  // at now_
  std::optional<Millis> prompt_due() const;
  void write(std::string bytes, std::optional<std::size_t> step,
             Output::Stream stream = Output::Stream::stdout_stream);
  // nullopt (the run failed) when a variable is unbound.
  std::optional<Json> substituted(const Json& value, std::size_t step);
  void write_message(const Json& message, std::optional<std::size_t> step);
  void hold(Pending pending);
  bool dropped_over_hold();  // a line that comes when the hold is full is only counted
  void release(std::deque<Pending>::iterator it);
  void consume(std::deque<Pending>::iterator it, std::size_t step);
  // Without `target`, the failure shows the pending line closest to `expected`.
  void fail(std::string kind, std::optional<std::size_t> step, std::string message,
            const Json* expected = nullptr, const Json* target = nullptr,
            std::size_t target_transcript = 0);
  void end_run(Ending ending);
  std::vector<std::size_t> unconsumed() const;      // transcript indices of pending SDK lines
  std::optional<std::size_t> current_step() const;  // the cursor's step, if any is left
  void check_invocation();
  std::string fresh_request_id();
  Json auto_initialize_reply(const Json& request_id) const;
  // Header::lenient: the real CLI's answer to a control request no step expects, if it has one.
  std::optional<Json> lenient_reply(const Json& request, const Json& request_id) const;
  bool environment_has(const Environment& wanted) const;
  Millis timeout_of(const Step& step) const;
  std::optional<Millis> paced_until(const Step& step) const;

  Scenario scenario_;
  Invocation invocation_;
  Environment environment_;
  EngineOptions options_;
  Report report_;

  std::deque<Pending> pending_;
  std::size_t held_bytes_ = 0;    // sum of pending_'s line sizes
  std::size_t ignored_kept_ = 0;  // ignored lines in the transcript
  Bindings bindings_;
  using NamedRequest = std::pair<std::string, std::string>;  // `as` name -> request id
  std::vector<NamedRequest> request_names_;
  std::set<std::string, std::less<>> own_request_ids_;
  std::optional<Json> last_request_id_;                // of the last SDK request an expect matched
  std::optional<Json> awaited_request_id_;             // request step waiting for its response
  std::vector<OpenWait> open_waits_;                   // causal order, in file order
  using ExpectRequest = std::pair<std::size_t, Json>;  // causal: expect -> request id
  std::vector<ExpectRequest> expect_requests_;
  // Print mode with a text prompt.
  bool text_prompt_ = false;
  bool prompt_complete_ = false;
  std::string prompt_stdin_;  // stdin's bytes so far

  std::vector<Output> output_;
  std::size_t output_bytes_ = 0;    // bytes in output_
  bool paused_for_output_ = false;  // advance() stopped until output_ is taken
  std::vector<Output> deferred_;    // automatic replies held while a chunked send is under way
  std::size_t cursor_ = 0;
  bool entered_ = false;  // the step at cursor_ has started
  Millis entered_at_ = 0;
  std::optional<Millis> wake_at_;  // sleep_ms or the next chunk
  std::string chunk_bytes_;        // rest of a chunked send
  std::size_t chunk_next_ = 0;     // index of the next chunk size
  Millis start_ = 0;
  Millis now_ = 0;              // time of the event being handled
  Millis anchor_live_ = 0;      // --speed: when the anchor happened in this run
  double anchor_recorded_ = 0;  // --speed: the anchor's recorded t (s)
  Millis eof_at_ = 0;           // when stdin EOF arrived
  bool eof_ = false;
  bool finished_ = false;
  bool if_env_noted_ = false;  // one note for the lines if_env kept back
  // Causal order: the transcript index of the SDK line each expect step consumed (for `after`).
  std::vector<std::optional<std::size_t>> consumed_line_;
  std::uint64_t rng_state_;
};

}  // namespace claude::emulator
