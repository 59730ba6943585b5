#include "claude/emulator/engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "claude/base/json.hpp"

namespace claude::emulator {
namespace {

constexpr std::size_t kSdkPreviewBytes = 4096;
constexpr std::size_t kOwnPreviewBytes = 120;
// How much of an unexpected SDK line its failure message quotes (the report keeps more).
constexpr std::size_t kUnexpectedPreviewBytes = 300;
// Steps stop running while this much output waits to be written, so a long replay streams
// instead of queueing the whole recording, and stdin is read between writes.
constexpr std::size_t kOutputBacklogBytes = std::size_t{1} << 20;
// Print mode: with a prompt argument the real CLI waits this long for stdin data, then answers
// the argument alone.
constexpr Millis kPromptArgumentStdinWaitMs = 3000;

std::string preview(std::string_view bytes, std::size_t limit) {
  if (!bytes.empty() && bytes.back() == '\n') bytes.remove_suffix(1);
  return std::string(bytes.substr(0, limit));
}

using base::member;

bool is_string_equal(const Json* value, std::string_view text) {
  return value != nullptr && value->is_string() && value->get_ref<const std::string&>() == text;
}

// The id of an SDK request (a control_request, or a JSON-RPC call); nullptr for other lines.
const Json* request_id_of(const Json& line, bool jsonrpc) {
  if (jsonrpc) return member(line, "method") != nullptr ? member(line, "id") : nullptr;
  return is_string_equal(member(line, "type"), "control_request") ? member(line, "request_id")
                                                                  : nullptr;
}

// The id of the request a response line answers; nullptr for other lines.
const Json* response_id_of(const Json& line, bool jsonrpc) {
  if (jsonrpc) return member(line, "method") == nullptr ? member(line, "id") : nullptr;
  const Json* response = is_string_equal(member(line, "type"), "control_response")
                             ? member(line, "response")
                             : nullptr;
  return response != nullptr ? member(*response, "request_id") : nullptr;
}

std::string describe_step(const Step& step) {
  return std::string(verb_name(step.verb)) + " (line " + std::to_string(step.line) + ")";
}

// The success answer to SDK request `id`, in the scenario's dialect.
Json success_reply(Dialect dialect, const Json& id, Json payload) {
  if (dialect == Dialect::jsonrpc) {
    return Json::object({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(payload)}});
  }
  return Json::object({{"type", "control_response"},
                       {"response", Json::object({{"subtype", "success"},
                                                  {"request_id", id},
                                                  {"response", std::move(payload)}})}});
}

bool ends_run(Verb verb) {
  return verb == Verb::exit || verb == Verb::kill || verb == Verb::hang;
}

std::string waiting_for(const Step& step, bool text_prompt) {
  switch (step.verb) {
    case Verb::expect_eof:
      return "stdin EOF";
    case Verb::expect_prompt:
      return text_prompt ? "the prompt"
                         : "the prompt (there is none: fake-claude reads a text prompt only in "
                           "print mode, --print without --input-format stream-json)";
    default:
      return "an SDK line matching the pattern";
  }
}

}  // namespace

Engine::Engine(Scenario scenario, Invocation invocation, Environment environment,
               EngineOptions options)
    : scenario_(std::move(scenario)),
      invocation_(std::move(invocation)),
      environment_(std::move(environment)),
      options_(options),
      rng_state_(options.seed) {
  text_prompt_ = invocation_.reads_text_prompt();
  report_.file = scenario_.file;
  report_.name = scenario_.header.name;
  report_.args = invocation_.args;
  report_.steps.reserve(scenario_.steps.size());
  for (const Step& step : scenario_.steps) {
    report_.steps.push_back(StepOutcome{step.line, step.verb, StepStatus::not_run, std::nullopt});
  }
}

std::string Engine::fresh_request_id() {
  // splitmix64, formatted as a version-4 UUID like the real CLI's ids.
  auto next = [this] {
    std::uint64_t z = (rng_state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  const std::uint64_t hi = (next() & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;
  const std::uint64_t lo = (next() & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xFFFF), static_cast<unsigned>(hi & 0xFFFF),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFULL));
  return text;
}

std::optional<Millis> Engine::paced_until(const Step& step) const {
  // A recording's steps that write or end are paced (it has no request, respond or sleep steps).
  if (is_wait(step.verb) || step.verb == Verb::hang || options_.speed <= 0 || !step.recorded_t) {
    return std::nullopt;
  }
  const double gap_s = *step.recorded_t - anchor_recorded_;
  if (gap_s <= 0) return std::nullopt;
  return anchor_live_ + static_cast<Millis>(std::llround(gap_s * 1000.0 / options_.speed));
}

Millis Engine::timeout_of(const Step& step) const {
  return step.within_ms.value_or(scenario_.header.timeout_ms);
}

void Engine::write(std::string bytes, std::optional<std::size_t> step, Output::Stream stream) {
  add_transcript(bytes, stream == Output::Stream::stdout_stream ? 'o' : 'e');
  output_bytes_ += bytes.size();
  output_.push_back(Output{stream, std::move(bytes), step});
}

std::optional<Json> Engine::substituted(const Json& value, std::size_t step) {
  std::vector<std::string> unbound;
  Json out = substitute(value, bindings_, &unbound);
  if (unbound.empty()) return out;
  fail("unbound_variable", step, "variable '" + unbound.front() + "' is not bound");
  return std::nullopt;
}

void Engine::write_message(const Json& message, std::optional<std::size_t> step) {
  std::string line = base::dump_json(message);
  line.push_back('\n');
  write(std::move(line), step);
}

Json Engine::auto_initialize_reply(const Json& request_id) const {
  const Header& header = scenario_.header;
  return success_reply(header.protocol, request_id,
                       header.initialize_response.value_or(Json::object({
                           {"commands", Json::array()},
                           {"agents", Json::array()},
                           {"output_style", "default"},
                           {"available_output_styles", Json::array({"default"})},
                           {"models", Json::array()},
                           {"account", Json::object()},
                           {"pid", options_.pid},
                           {"claude_code_version", header.cli_version},
                           {"current_permission_mode", "default"},
                       })));
}

void Engine::start(Millis now) {
  start_ = now;
  now_ = now;
  anchor_live_ = now;
  check_invocation();
  advance(now);
}

void Engine::check_invocation() {
  // The first failure is the verdict: fail() ignores those after it.
  const Header& header = scenario_.header;
  for (const auto& spec : header.argv_require) {
    if (!invocation_.has(spec)) {
      fail("argv", std::nullopt, "argv.require: " + spec + " is not on the command line");
    }
  }
  for (const auto& spec : header.argv_forbid) {
    if (invocation_.has(spec)) {
      fail("argv", std::nullopt, "argv.forbid: " + spec + " is on the command line");
    }
  }
  for (const auto& [name, expected] : header.env_require) {
    auto it = std::ranges::find(environment_, name, &Environment::value_type::first);
    if (it == environment_.end()) {
      fail("env", std::nullopt, "env.require: " + name + " is not set");
      continue;
    }
    Bindings scratch;
    const Json actual = it->second;
    if (!match(expected, actual, scratch).matched) {
      fail("env", std::nullopt,
           "env.require: " + name + "=" + base::dump_json(actual) + " does not match " +
               base::dump_json(expected));
    }
  }
}

TranscriptEntry& Engine::add_transcript(std::string_view bytes, char dir) {
  // Control messages keep as much as SDK lines do: a report links each request to its reply by
  // the request_id inside, which a 120-byte preview of a long reply loses.
  const bool whole = dir == 'i' || bytes.find("\"type\":\"control_") != std::string::npos;
  return report_.transcript.emplace_back(
      TranscriptEntry{.t_ms = now_ - start_,
                      .dir = dir,
                      .text = preview(bytes, whole ? kSdkPreviewBytes : kOwnPreviewBytes),
                      .size = bytes.size(),
                      .consumed_by = std::nullopt});
}

bool Engine::dropped_over_hold() {
  if (finished_ || (pending_.size() < kMaxHeldSdkLines && held_bytes_ < kMaxHeldSdkBytes)) {
    return false;
  }
  ++report_.dropped_sdk_lines;
  return true;
}

void Engine::hold(Pending pending) {
  held_bytes_ += pending.bytes;
  pending_.push_back(std::move(pending));
}

void Engine::release(std::deque<Pending>::iterator it) {
  held_bytes_ -= it->bytes;
  pending_.erase(it);
}

void Engine::on_line(std::string_view line, bool partial, Millis now) {
  now_ = now;
  // Nothing changes for the steps, so there is nothing to advance: a flood past the hold costs
  // a count per line.
  if (dropped_over_hold()) return;
  const std::size_t index = report_.transcript.size();
  add_transcript(line).partial = partial;
  if (finished_) return;

  Pending pending{
      .transcript = index, .bytes = line.size(), .value = base::parse_json_or_discarded(line)};
  if (pending.json()) {
    Bindings scratch;
    if (std::ranges::any_of(scenario_.header.ignore, [&](const Json& pattern) {
          return match(pattern, pending.value, scratch).matched;
        })) {
      if (ignored_kept_ < kMaxHeldSdkLines) {
        ++ignored_kept_;
        report_.transcript[index].ignored = true;
      } else {
        report_.transcript.pop_back();
        ++report_.dropped_sdk_lines;
      }
      return;
    }
    const Json& v = pending.value;
    const Json* id = request_id_of(v, jsonrpc());
    const Json* request = member(v, "request");
    const bool is_initialize =
        id != nullptr &&
        (jsonrpc()
             ? is_string_equal(member(v, "method"), "initialize")
             : request != nullptr && is_string_equal(member(*request, "subtype"), "initialize"));
    // An automatic reply waits for a chunked send in progress to finish.
    auto auto_reply = [&](const Json& reply) {
      pending.auto_answered = true;
      report_.transcript[index].auto_answered = true;
      std::string bytes = base::dump_json(reply);
      bytes.push_back('\n');
      if (chunk_bytes_.empty()) {
        write(std::move(bytes), std::nullopt);
      } else {
        deferred_.push_back(Output{Output::Stream::stdout_stream, std::move(bytes), std::nullopt});
      }
    };
    if (is_initialize && scenario_.header.auto_initialize) auto_reply(auto_initialize_reply(*id));
    if (!pending.auto_answered && scenario_.header.lenient && !jsonrpc() && id != nullptr) {
      if (auto reply = lenient_reply(v, *id)) {
        report_.notes.push_back(
            "SDK line " + std::to_string(index + 1) + ": " +
            base::dump_json(*member(*request, "subtype")) +
            " that no step expects, answered as the real CLI does (a strict scenario says "
            "\"lenient\":false)");
        auto_reply(*reply);
      }
    }
    const Json* response_id = response_id_of(v, jsonrpc());
    pending.own_response = response_id != nullptr && response_id->is_string() &&
                           own_request_ids_.contains(response_id->get_ref<const std::string&>());
  }
  hold(std::move(pending));
  advance(now);
  fail_if_unexpected(index);
}

void Engine::fail_if_unexpected(std::size_t transcript) {
  if (finished_ || !scenario_.header.strict) return;
  const auto it = std::ranges::find(pending_, transcript, &Pending::transcript);
  if (it == pending_.end() || it->auto_answered || it->own_response || it->prompt) return;
  // Every expect not done yet (armed, or still to come) could take the line later. A pattern
  // whose first difference is a variable no step has bound yet might match once it is bound.
  std::optional<std::size_t> closest;
  std::size_t closest_score = 0;
  for (std::size_t i = 0; i < scenario_.steps.size(); ++i) {
    const Step& step = scenario_.steps[i];
    if (step.verb != Verb::expect || report_.steps[i].status != StepStatus::not_run) continue;
    if (!it->json()) {  // no pattern takes a line that is not JSON: the next expect is closest
      if (!closest) closest = i;
      continue;
    }
    Bindings scratch = bindings_;
    const MatchResult result = match(step.value, it->value, scratch);
    if (result.matched) return;
    if (result.first_difference && result.first_difference->reason.ends_with("is not bound")) {
      return;
    }
    if (!closest || result.score > closest_score) {
      closest = i;
      closest_score = result.score;
    }
  }
  const auto sdk_line = static_cast<std::size_t>(
      std::count_if(report_.transcript.begin(),
                    report_.transcript.begin() + static_cast<std::ptrdiff_t>(transcript) + 1,
                    [](const TranscriptEntry& e) { return e.dir == 'i'; }));
  const std::string line = preview(report_.transcript[transcript].text, kUnexpectedPreviewBytes);
  std::string message = "SDK line " + std::to_string(sdk_line) +
                        " matches no step that waits or is still to come (strict mode)" +
                        (it->json() ? ": " : ", it is not JSON: ") + line;
  message += closest ? "; closest step: " + describe_step(scenario_.steps[*closest])
                     : std::string("; no expect is left to take it");
  fail("unexpected", closest, std::move(message),
       closest ? &scenario_.steps[*closest].value : nullptr, it->json() ? &it->value : nullptr,
       transcript);
}

std::optional<Json> Engine::lenient_reply(const Json& message, const Json& request_id) const {
  const Json* request = member(message, "request");
  const Json* subtype = request != nullptr ? member(*request, "subtype") : nullptr;
  if (subtype == nullptr || (*subtype != "interrupt" && *subtype != "initialize")) {
    return std::nullopt;
  }
  // A step that still waits for it (armed or not) takes it as usual; an initialize is a repeat
  // only once every step expecting an initialize is done (else it is the session's own, graded).
  for (std::size_t i = 0; i < scenario_.steps.size(); ++i) {
    const Step& step = scenario_.steps[i];
    if (step.verb != Verb::expect || report_.steps[i].status == StepStatus::done) continue;
    Bindings scratch = bindings_;
    if (match(step.value, message, scratch).matched) return std::nullopt;
    const Json* expected = member(step.value, "request");
    if (*subtype == "initialize" && expected != nullptr &&
        is_string_equal(member(*expected, "subtype"), "initialize")) {
      return std::nullopt;
    }
  }
  if (*subtype == "initialize") return auto_initialize_reply(request_id);
  // CLI 2.1.332 with no turn running: success, nothing queued (its reply to a live interrupt
  // lists the prompts still queued in the same field).
  return success_reply(Dialect::stream_json, request_id,
                       Json::object({{"still_queued", Json::array()}}));
}

bool Engine::environment_has(const Environment& wanted) const {
  return std::ranges::all_of(
      wanted, [&](const auto& entry) { return std::ranges::count(environment_, entry) > 0; });
}

void Engine::on_text(std::string_view bytes, Millis now) {
  now_ = now;
  if (prompt_complete_) {
    // Like the real CLI, which stopped reading once it had its prompt: shown, never graded.
    add_transcript(bytes).ignored = true;
    return;
  }
  prompt_stdin_.append(bytes);
  if (!finished_) advance(now);
}

std::optional<Millis> Engine::prompt_due() const {
  if (!text_prompt_ || prompt_complete_ || !prompt_stdin_.empty() ||
      !invocation_.prompt_argument()) {
    return std::nullopt;
  }
  return start_ + kPromptArgumentStdinWaitMs;
}

void Engine::complete_prompt(Millis now) {
  if (!text_prompt_ || prompt_complete_) return;
  prompt_complete_ = true;
  std::string prompt = print_mode_prompt(invocation_.prompt_argument(), prompt_stdin_);
  prompt_stdin_.clear();
  now_ = now;
  add_transcript(prompt).prompt = true;
  hold(Pending{
      .transcript = report_.transcript.size() - 1, .value = std::move(prompt), .prompt = true});
}

void Engine::on_oversized_line(std::size_t size, Millis now) {
  now_ = now;
  if (dropped_over_hold()) return;
  TranscriptEntry& entry = add_transcript({});
  entry.size = size;
  entry.oversized = true;
  if (finished_) return;
  hold(Pending{.transcript = report_.transcript.size() - 1,
               .value = Json(Json::value_t::discarded)});
  advance(now);
}

void Engine::on_eof(Millis now) {
  now_ = now;
  if (!eof_) eof_at_ = now;
  eof_ = true;
  complete_prompt(now);
  if (!finished_) advance(now);
}

void Engine::on_time(Millis now) {
  now_ = now;
  if (!finished_) advance(now);
}

std::optional<std::size_t> Engine::current_step() const {
  return cursor_ < scenario_.steps.size() ? std::optional<std::size_t>(cursor_) : std::nullopt;
}

void Engine::on_stdout_closed(Millis now) {
  now_ = now;
  if (finished_) return;
  const std::optional<std::size_t> step = current_step();
  fail("stdout_closed", step,
       "stdout was closed by the SDK (EPIPE) while the fake was writing" +
           (step ? " at step " + describe_step(scenario_.steps[*step]) : std::string()));
}

void Engine::on_terminated(int signal, Millis now) {
  now_ = now;
  if (finished_) return;
  const std::optional<std::size_t> step = current_step();
  fail("terminated", step,
       "terminated by signal " + std::to_string(signal) +
           (step ? " while at step " + describe_step(scenario_.steps[*step])
                 : std::string(" after the last step, before stdin was closed")));
  report_.ending = Ending{Ending::Kind::kill, 0, signal};
}

std::vector<Output> Engine::take_output() {
  output_bytes_ = 0;
  return std::exchange(output_, {});
}

std::optional<Millis> Engine::next_deadline() const {
  if (finished_) return std::nullopt;
  if (paused_for_output_) return now_;
  std::optional<Millis> due;
  auto consider = [&](Millis at) {
    if (!due || at < *due) due = at;
  };
  if (wake_at_) consider(*wake_at_);
  if (const auto prompt = prompt_due()) consider(*prompt);
  for (const OpenWait& wait : open_waits_) {
    consider(wait.armed_at + timeout_of(scenario_.steps[wait.step]));
  }
  if (!entered_ || wake_at_) return due;
  if (cursor_ >= scenario_.steps.size()) {
    consider(entered_at_ + scenario_.header.timeout_ms);
  } else if (const Step& step = scenario_.steps[cursor_];
             !causal() && (is_wait(step.verb) || step.verb == Verb::request)) {
    consider(entered_at_ + timeout_of(step));
  }
  return due;
}

void Engine::consume(std::deque<Pending>::iterator it, std::size_t step) {
  report_.transcript[it->transcript].consumed_by = step;
  if (consumed_line_.size() < scenario_.steps.size()) consumed_line_.resize(scenario_.steps.size());
  consumed_line_[step] = it->transcript;
  // Causal waits are satisfied out of file order: the pacing anchor only moves forward.
  if (const auto& t = scenario_.steps[step].recorded_t;
      t && (!causal() || *t >= anchor_recorded_)) {
    anchor_live_ = start_ + report_.transcript[it->transcript].t_ms;
    anchor_recorded_ = *t;
  }
  if (const Json* request_id = request_id_of(it->value, jsonrpc())) {
    last_request_id_ = *request_id;
    if (causal()) expect_requests_.emplace_back(step, *request_id);
  }
  release(it);
}

void Engine::advance(Millis now) {
  paused_for_output_ = false;
  while (!finished_) {
    if (output_bytes_ >= kOutputBacklogBytes) {
      paused_for_output_ = true;
      return;
    }
    if (const auto due = prompt_due(); due && now >= *due) complete_prompt(now);
    if (causal()) {
      settle_waits(now);
      if (finished_) return;
    }
    if (wake_at_ && now < *wake_at_) return;
    const bool past_last_step = cursor_ >= scenario_.steps.size();
    if (past_last_step && !open_waits_.empty()) return;  // their deadlines, or stdin EOF, decide
    if (!entered_) {
      entered_ = true;
      entered_at_ = now;
    }
    if (past_last_step) {
      if (eof_) {
        end_run(Ending{Ending::Kind::exit, 0, 0});
      } else if (now - entered_at_ >= scenario_.header.timeout_ms) {
        fail("timeout", std::nullopt,
             "stdin still open " + std::to_string(scenario_.header.timeout_ms) +
                 " ms after the last step (the SDK never closed it)");
      }
      return;
    }
    Step& step = scenario_.steps[cursor_];
    if (causal() && is_wait(step.verb)) {
      open_waits_.push_back(OpenWait{cursor_, now, {}});
    } else {
      if (causal() && !waits_done(step)) return;
      if (!run_step(step, cursor_, now)) return;
      // A causal request with expect_response is done when its response comes (settle_waits).
      const bool answered_later = causal() && step.verb == Verb::request && step.response;
      if (!answered_later) mark_done(cursor_, now);
      if (finished_) return;
    }
    ++cursor_;
    entered_ = false;
    wake_at_.reset();
  }
}

void Engine::mark_done(std::size_t index, Millis now) {
  StepOutcome& outcome = report_.steps[index];
  if (outcome.status == StepStatus::failed) return;
  outcome.status = StepStatus::done;
  outcome.done_ms = now - start_;
}

bool Engine::waits_done(const Step& step) const {
  if (ends_run(step.verb) && !open_waits_.empty()) return false;
  return std::all_of(step.waits_for.begin(), step.waits_for.end(), [&](std::size_t wait) {
    return report_.steps[wait].status == StepStatus::done;
  });
}

void Engine::settle_waits(Millis now) {
  // Satisfied waits leave the list; after each one the scan restarts in file order, since a value
  // it bound may let an earlier wait's $var match.
  for (bool progress = true; progress && !finished_;) {
    progress = false;
    for (std::size_t i = 0; i < open_waits_.size(); ++i) {
      const OpenWait& wait = open_waits_[i];
      const Step& step = scenario_.steps[wait.step];
      const bool came = step.verb == Verb::request ? take_response(step, wait.step, wait.request_id)
                                                   : try_wait(step, wait.step);
      if (finished_) return;
      if (!came) continue;
      mark_done(wait.step, now);
      open_waits_.erase(open_waits_.begin() + static_cast<std::ptrdiff_t>(i));
      progress = true;
      break;
    }
  }
  for (const OpenWait& wait : open_waits_) {
    wait_or_fail(wait.step, now, wait.armed_at, wait.request_id);
    if (finished_) return;
  }
}

bool Engine::wait_or_fail(std::size_t index, Millis now, Millis since,
                          std::string_view request_id) {
  const Step& step = scenario_.steps[index];
  const bool request = step.verb == Verb::request;
  const std::string waiting = request ? "the response to request " + std::string(request_id)
                                      : waiting_for(step, text_prompt_);
  const Json* expected = request                         ? &*step.response
                         : step.verb == Verb::expect_eof ? nullptr
                                                         : &step.value;
  if (eof_) {
    fail("eof", index, "stdin was closed while " + describe_step(step) + " waited for " + waiting,
         expected);
    return false;
  }
  const Millis limit = timeout_of(step);
  if (now - since >= limit) {
    fail("timeout", index,
         describe_step(step) + " timed out after " + std::to_string(limit) + " ms waiting for " +
             waiting,
         expected);
  }
  return false;
}

bool Engine::run_step(Step& step, std::size_t index, Millis now) {
  // A chunked send resumes after its own gap.
  if (const auto due = paced_until(step); due && now < *due && chunk_bytes_.empty()) {
    wake_at_ = due;
    return false;
  }
  if (!step.if_env.empty() && !environment_has(step.if_env)) {
    if (std::exchange(if_env_noted_, true)) return true;
    report_.notes.push_back("line " + std::to_string(step.line) +
                            " (and any like it) not written: the SDK's environment lacks " +
                            step.if_env.front().first + "=" + step.if_env.front().second +
                            ", without which the real CLI does not write it");
    return true;
  }
  switch (step.verb) {
    case Verb::send: {
      if (chunk_bytes_.empty()) {  // else a chunked send resumes after its gap
        std::string line;
        if (step.verbatim) {
          line = std::move(step.text);
          line.pop_back();  // the newline is added back below, within the same capacity
        } else {
          auto message = substituted(step.value, index);
          if (!message) return false;
          line = base::dump_json(*message);
        }
        line.push_back('\n');
        if (step.chunks.empty()) {
          write(std::move(line), index);
        } else {
          chunk_bytes_ = std::move(line);
          chunk_next_ = 0;
        }
      }
      while (!chunk_bytes_.empty()) {
        // Past the listed sizes, the rest goes in one piece.
        const std::size_t n =
            chunk_next_ < step.chunks.size() ? step.chunks[chunk_next_++] : chunk_bytes_.size();
        write(chunk_bytes_.substr(0, n), index);
        output_.back().own_write = true;
        chunk_bytes_.erase(0, n);
        if (!chunk_bytes_.empty() && step.gap_ms > 0) {
          wake_at_ = now + step.gap_ms;
          return false;
        }
      }
      for (auto& out : deferred_) write(std::move(out.bytes), std::nullopt);
      deferred_.clear();
      break;
    }
    case Verb::raw:
    case Verb::stderr_text:
      write(std::move(step.text), index,
            step.verb == Verb::raw ? Output::Stream::stdout_stream : Output::Stream::stderr_stream);
      break;
    case Verb::expect:
    case Verb::expect_eof:
    case Verb::expect_prompt:
      if (try_wait(step, index)) return true;
      if (finished_) return false;
      return wait_or_fail(index, now, entered_at_);
    case Verb::request: {
      if (!awaited_request_id_) {
        auto body = substituted(step.value, index);
        if (!body) return false;
        const std::string id = fresh_request_id();
        Json message = jsonrpc() ? Json::object({{"jsonrpc", "2.0"}, {"id", id}})
                                 : Json::object({{"type", "control_request"},
                                                 {"request_id", id},
                                                 {"request", std::move(*body)}});
        if (jsonrpc()) message.update(*body);
        own_request_ids_.insert(id);
        if (!step.text.empty()) {
          request_names_.emplace_back(step.text, id);
          bindings_[step.text] = id;
        }
        write_message(message, index);
        if (!step.response) return true;
        if (causal()) {
          // Its response is awaited without holding up later steps.
          open_waits_.push_back(OpenWait{index, now, id});
          return true;
        }
        awaited_request_id_ = id;
      }
      const std::string id = awaited_request_id_->get<std::string>();
      if (take_response(step, index, id)) {
        awaited_request_id_.reset();
        return !finished_;
      }
      return wait_or_fail(index, now, entered_at_, id);
    }
    case Verb::cancel: {
      const std::string& id =
          std::ranges::find(request_names_, step.text, &NamedRequest::first)->second;
      write_message(jsonrpc()
                        ? Json::object({{"jsonrpc", "2.0"},
                                        {"method", "notifications/cancelled"},
                                        {"params", Json::object({{"requestId", id}})}})
                        : Json::object({{"type", "control_cancel_request"}, {"request_id", id}}),
                    index);
      break;
    }
    case Verb::respond:
    case Verb::respond_error: {
      const std::optional<Json> answered = take_request_to_answer(index);
      if (!answered) {
        fail("no_request", index,
             describe_step(step) +
                 ": no SDK request is waiting for an answer (the last expect "
                 "did not match a request, or it was answered already)");
        return false;
      }
      const Json& id = *answered;
      Json message;
      if (step.verb == Verb::respond) {
        auto payload = substituted(step.value, index);
        if (!payload) return false;
        message = success_reply(scenario_.header.protocol, id, std::move(*payload));
      } else {
        message = jsonrpc()
                      ? Json::object(
                            {{"jsonrpc", "2.0"},
                             {"id", id},
                             {"error", Json::object({{"code", -32603}, {"message", step.text}})}})
                      : Json::object({{"type", "control_response"},
                                      {"response", Json::object({{"subtype", "error"},
                                                                 {"request_id", id},
                                                                 {"error", step.text}})}});
      }
      write_message(message, index);
      break;
    }
    case Verb::sleep:
      if (!wake_at_) {
        wake_at_ = now + step.ms;
        if (step.ms > 0) return false;
      }
      break;
    case Verb::exit:
      end_run(Ending{Ending::Kind::exit, step.number, 0});
      return true;
    case Verb::kill:
      end_run(Ending{Ending::Kind::kill, 0, step.number});
      return true;
    case Verb::hang:
      end_run(Ending{Ending::Kind::hang, 0, 0});
      return true;
  }
  return true;
}

bool Engine::try_wait(const Step& step, std::size_t index) {
  switch (step.verb) {
    case Verb::expect: {
      // An expect with `after` (causal order): only lines that came after those its labelled
      // waits took, once they are done (a state change keeps its place among the turns).
      std::optional<std::size_t> after;
      if (causal()) {
        for (std::size_t wait : step.waits_for) {
          if (report_.steps[wait].status != StepStatus::done) return false;
          if (wait < consumed_line_.size()) after = std::max(after, consumed_line_[wait]);
        }
      }
      for (auto it = pending_.begin(); it != pending_.end(); ++it) {
        if (!it->json() || it->prompt || (after && it->transcript <= *after)) continue;
        if (match(step.value, it->value, bindings_).matched) {
          consume(it, index);
          return true;
        }
      }
      return false;
    }
    case Verb::expect_eof:
      if (!eof_) return false;
      if (step.recorded_t && (!causal() || *step.recorded_t >= anchor_recorded_)) {
        anchor_live_ = eof_at_;
        anchor_recorded_ = *step.recorded_t;
      }
      return true;
    case Verb::expect_prompt: {
      auto it = std::ranges::find(pending_, true, &Pending::prompt);
      if (it == pending_.end()) return false;
      if (match(step.value, it->value, bindings_).matched) {
        consume(it, index);
        return true;
      }
      // There is one prompt per process: nothing else can come.
      fail("mismatch", index, describe_step(step) + ": the prompt does not match", &step.value,
           &it->value, it->transcript);
      return false;
    }
    default:
      return false;
  }
}

bool Engine::take_response(const Step& step, std::size_t index, const std::string& id) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (!it->own_response || !is_string_equal(response_id_of(it->value, jsonrpc()), id)) continue;
    const Json target = jsonrpc() ? it->value : *member(it->value, "response");
    report_.transcript[it->transcript].consumed_by = index;
    const std::size_t transcript = it->transcript;
    release(it);
    if (!match(*step.response, target, bindings_).matched) {
      fail("mismatch", index,
           describe_step(step) + ": the response to request " + id +
               " does not match expect_response",
           &*step.response, &target, transcript);
    }
    return true;
  }
  return false;
}

std::optional<Json> Engine::take_request_to_answer(std::size_t respond_step) {
  if (!causal()) {
    std::optional<Json> id = std::move(last_request_id_);
    last_request_id_.reset();
    return id;
  }
  // Causal order: the request the nearest expect before this step consumed.
  std::size_t expect = respond_step;
  while (expect > 0 && scenario_.steps[--expect].verb != Verb::expect) {
  }
  auto it = std::ranges::find(expect_requests_, expect, &ExpectRequest::first);
  if (it == expect_requests_.end()) return std::nullopt;
  Json id = std::move(it->second);
  expect_requests_.erase(it);
  return id;
}

void Engine::fail(std::string kind, std::optional<std::size_t> step, std::string message,
                  const Json* expected, const Json* target, std::size_t target_transcript) {
  if (finished_) return;
  const std::size_t line = step ? scenario_.steps[*step].line : scenario_.header.line;
  Failure failure{std::move(kind), step, line, std::move(message), std::nullopt, std::nullopt};
  // A wait that failed after lines were dropped may have failed for the drop, not for the SDK's
  // timing: say so where the verdict is read.
  if (report_.dropped_sdk_lines > 0) {
    failure.message += " (" + std::to_string(report_.dropped_sdk_lines) +
                       " SDK line(s) were dropped before this over the hold limit of " +
                       std::to_string(kMaxHeldSdkLines) +
                       " unconsumed lines; the awaited line may be among them)";
  }
  if (expected != nullptr && target == nullptr) {
    // The closest candidate: the pending line that satisfies most of the pattern.
    std::size_t best_score = 0;
    for (const Pending& candidate : pending_) {
      if (!candidate.json() || candidate.auto_answered) continue;
      Bindings scratch = bindings_;
      const std::size_t score = match(*expected, candidate.value, scratch).score;
      if (target == nullptr || score > best_score) {
        target = &candidate.value;
        target_transcript = candidate.transcript;
        best_score = score;
      }
    }
  }
  if (expected != nullptr) failure.expected = *expected;
  if (expected != nullptr && target != nullptr) {
    failure.closest = ClosestLine{target_transcript, differences(*expected, *target, bindings_)};
  }
  if (step) report_.steps[*step].status = StepStatus::failed;
  report_.failure = std::move(failure);
  report_.passed = false;
  report_.ending = Ending{Ending::Kind::exit, 1, 0};
  finished_ = true;
  report_.leftover = unconsumed();
}

std::vector<std::size_t> Engine::unconsumed() const {
  std::vector<std::size_t> out;
  for (const Pending& p : pending_) {
    if (!p.auto_answered && !p.own_response) out.push_back(p.transcript);
  }
  return out;
}

void Engine::end_run(Ending ending) {
  std::vector<std::size_t> leftover = unconsumed();
  if (scenario_.header.strict && !leftover.empty()) {
    fail("leftover", std::nullopt,
         std::to_string(leftover.size()) +
             " SDK line(s) were not consumed by any step (strict mode)");
    return;
  }
  report_.leftover = std::move(leftover);
  report_.passed = true;
  report_.ending = ending;
  finished_ = true;
}

}  // namespace claude::emulator
