// Generalises a recording into steps (docs/scenario.md#recordings): the CLI's lines are replayed
// verbatim, the SDK's lines become expectations on what they said (sdk_line_grading.hpp), and ids
// the SDK chose (request ids, hook callback ids) are captured so the recorded lines can carry the
// live ones.
#include <cmath>
#include <csignal>
#include <utility>

#include "claude/base/base64.hpp"
#include "claude/base/excerpt.hpp"
#include "claude/base/json.hpp"
#include "claude/emulator/invocation.hpp"
#include "parsers.hpp"
#include "sdk_line_grading.hpp"

namespace claude::emulator::detail {
namespace {

constexpr const char* kSessionStateVariable = "CLAUDE_CODE_SDK_READS_SESSION_STATE";

int direction_index(char dir) {
  return dir == 'i' ? 0 : dir == 'o' ? 1 : 2;
}

// A recorded kill from outside (the SDK's teardown) is replayed by waiting to be ended the same
// way; a crash signal is reproduced.
bool sent_from_outside(int signal) {
  return signal == SIGTERM || signal == SIGKILL || signal == SIGINT || signal == SIGHUP;
}

Step new_step(std::size_t line, Verb verb, std::string text = {}) {
  Step step;
  step.line = line;
  step.text = std::move(text);
  step.verb = verb;
  return step;
}

}  // namespace

RecordingParser::RecordingParser(std::string file) : ScenarioBuilder(std::move(file)) {
  scenario_.from_recording = true;
  scenario_.header.auto_initialize = false;  // the recorded reply is replayed instead
  scenario_.header.order = Order::causal;
  scenario_.header.lenient = true;  // the real CLI answers an idle interrupt; so does the replay
}

void RecordingParser::header(std::size_t line, const Json& h) {
  if (h["recording"] != 1) {
    return error(line, "unsupported recording version " + base::dump_json(h["recording"]) +
                           " (this fake-claude reads version 1)");
  }
  for (const char* key : {"cli_version", "cwd", "cli", "started_at"}) {
    if (auto it = h.find(key);
        it != h.end() && !it->is_null() &&
        (!it->is_string() || !is_printable(it->get_ref<const std::string&>()))) {
      return error(line, std::string("header \"") + key +
                             "\" must be a string of printable characters, got " +
                             quoted_for_terminal(*it));
    }
  }
  if (auto it = h.find("cli_version"); it != h.end() && it->is_string()) {
    scenario_.header.cli_version = it->get<std::string>();
  }
  scenario_.header.line = line;
  const std::string& file = scenario_.file;
  scenario_.header.name = file.substr(file.find_last_of('/') + 1);
  scenario_.header.description = "generalised from recording " + file;
  // The CLI writes session_state_changed only to an SDK that asked for it through this variable.
  if (auto env = h.find("env"); env != h.end() && env->is_object()) {
    if (auto it = env->find(kSessionStateVariable); it != env->end() && *it == "1") {
      session_state_gated_ = true;
    }
  }
  if (auto it = h.find("argv"); it != h.end() && it->is_array()) {
    std::vector<std::string> args;
    for (const auto& arg : *it) {
      if (arg.is_string()) args.push_back(arg.get<std::string>());
    }
    // The recorded argv is what the real CLI accepted: read by its version's table, and kept
    // whole even if that table does not know an option (a recording of a fork).
    const Invocation invocation = parse_invocation(
        args, emulated_cli_options(scenario_.header.cli_version), UnknownOptions::accept);
    text_prompt_ = invocation.reads_text_prompt();
    prompt_argument_ = invocation.prompt_argument();
  }
}

void RecordingParser::event(std::size_t line, std::string_view text, bool unterminated) {
  Json event;
  try {
    event = base::parse_json(text);
  } catch (const Json::exception& e) {
    // Only the last line may be torn (a recorder that stopped mid-write); it is no event.
    if (unterminated && !ended_) {
      torn_line_ = line;
      return;
    }
    error(line, "invalid JSON: " + base::excerpt(e.what()));
    return;
  }
  if (!event.is_object() || !event.contains("t")) {
    return error(line, "a recording event must be an object with \"t\"");
  }
  if (!event["t"].is_number() || event["t"].get<double>() < 0 ||
      !std::isfinite(event["t"].get<double>())) {
    return error(line, "\"t\" must be a non-negative number of seconds, got " +
                           quoted_for_terminal(event["t"]));
  }
  if (ended_) return error(line, "event after the recorded exit");
  last_event_line_ = line;
  // Every step this event completes keeps its `t`, so a replay can be paced (--speed).
  struct StampNewSteps {
    std::vector<Step>& steps;
    std::size_t first;
    std::optional<double> t;
    ~StampNewSteps() {
      for (std::size_t i = first; i < steps.size(); ++i) steps[i].recorded_t = t;
    }
  } stamp{scenario_.steps, scenario_.steps.size(), event["t"].get<double>()};
  if (auto dir = event.find("dir"); dir != event.end()) {
    if (*dir != "in" && *dir != "out" && *dir != "err") {
      return error(line, "\"dir\" must be \"in\", \"out\" or \"err\"");
    }
    const char d = dir->get_ref<const std::string&>()[0];
    std::string bytes;
    if (auto it = event.find("line"); it != event.end() && it->is_string()) {
      bytes = std::move(it->get_ref<std::string&>());
    } else if (auto b64 = event.find("line_b64"); b64 != event.end() && b64->is_string()) {
      auto decoded = base::base64_decode(b64->get_ref<const std::string&>());
      if (!decoded) return error(line, "\"line_b64\" is not valid base64");
      bytes = std::move(*decoded);
    } else {
      error(line, "a \"dir\" event needs a string \"line\" or \"line_b64\"");
      return;
    }
    // json::value() throws on a non-boolean: check first, so a bad flag is a file:line error.
    for (const char* flag : {"more", "partial"}) {
      if (auto it = event.find(flag); it != event.end() && !it->is_boolean()) {
        error(line, std::string("\"") + flag + "\" must be true or false");
        return;
      }
    }
    const int index = direction_index(d);
    if (piece_line_[index] == 0) piece_line_[index] = line;
    if (event.value("more", false)) {
      pieces_[index] += bytes;
      return;
    }
    if (!pieces_[index].empty()) bytes = std::exchange(pieces_[index], {}) + bytes;
    complete_line(std::exchange(piece_line_[index], 0), d, std::move(bytes),
                  event.value("partial", false));
    return;
  }
  if (auto eof = event.find("eof"); eof != event.end()) {
    if (*eof == "in") {
      add_step(line, Verb::expect_eof);
    } else if (*eof != "out" && *eof != "err") {
      error(line, "\"eof\" must be \"in\", \"out\" or \"err\"");
    }
    return;
  }
  if (auto code = event.find("exit"); code != event.end()) {
    if (!code->is_number_integer() || code->get<std::int64_t>() < 0 ||
        code->get<std::int64_t>() > 255) {
      return error(line,
                   "\"exit\" must be an integer from 0 to 255, got " + quoted_for_terminal(*code));
    }
    add_step(line, Verb::exit).number = static_cast<int>(code->get<std::int64_t>() & 0xFF);
    ended_ = true;
    return;
  }
  if (auto gap = event.find("gap"); gap != event.end()) {
    // claude-tee could not write these events (a full disk): what was recorded replays, but the
    // session is incomplete, like a cut one.
    if (!gap->is_object()) return error(line, "\"gap\" must be an object");
    if (!gap_note_) {
      gap_note_ = scenario_.file + ":" + std::to_string(line) +
                  ": incomplete recording: events the recorder could not write are missing "
                  "here (the disk was full): " +
                  quoted_for_terminal(*gap);
    }
    return;
  }
  if (auto name = event.find("signal"); name != event.end()) {
    auto number = name->is_string() ? signal_number(name->get<std::string>()) : std::nullopt;
    if (!number) return error(line, "unknown signal " + base::dump_json(*name));
    Step& step = add_step(line, sent_from_outside(*number) ? Verb::hang : Verb::kill);
    if (step.verb == Verb::kill) {
      step.number = *number;
      step.text = name->get<std::string>();
    }
    ended_ = true;
    return;
  }
  error(line, "unknown recording event (expected dir, eof, gap, exit or signal)");
}

void RecordingParser::complete_line(std::size_t line, char dir, std::string text, bool partial) {
  if (dir == 'i' && text_prompt_) {
    prompt_text_ += text;
    if (!partial) prompt_text_.push_back('\n');
  } else if (dir == 'i') {
    sdk_line(line, text);
  } else if (dir == 'o') {
    cli_line(line, std::move(text), partial);
  } else {
    if (!partial) text.push_back('\n');
    add_output(new_step(line, Verb::stderr_text, std::move(text)), nullptr);
  }
}

Step& RecordingParser::add_step(std::size_t line, Verb verb) {
  expect_recorded_prompt(line);
  return scenario_.steps.emplace_back(new_step(line, verb));
}

// In print mode the CLI answers the prompt once it has it: everything it writes waits for it.
void RecordingParser::expect_recorded_prompt(std::size_t line) {
  if (!text_prompt_ || prompt_expected_) return;
  prompt_expected_ = true;
  Step& step = scenario_.steps.emplace_back(new_step(line, Verb::expect_prompt));
  step.value = print_mode_prompt(prompt_argument_, prompt_text_);
  step.label = driver_ = "prompt";
}

void RecordingParser::add_output(Step step, const std::string* reply_to) {
  expect_recorded_prompt(step.line);
  const std::string& cause = reply_to != nullptr ? *reply_to : driver_;
  if (!last_turn_.empty() && cause == last_turn_) turn_answered_ = true;
  if (!cause.empty() && awaited_.insert(cause).second) step.after.push_back(cause);
  scenario_.steps.push_back(std::move(step));
}

void RecordingParser::sdk_line(std::size_t line, const std::string& text) {
  Json message = base::parse_json_or_discarded(text);
  // Not JSON: nothing to generalise; the live SDK is not expected to repeat garbage.
  if (message.is_discarded()) return;
  Json pattern;
  std::string label;  // set for the lines that drive what the CLI writes next
  if (!message.is_object() || !message.contains("type") || !message["type"].is_string()) {
    pattern = message;  // a copy: order_among_turns below still reads the message
  } else {
    const std::string& type = message["type"].get_ref<const std::string&>();
    std::string capture;
    if (type == "user") label = "turn_" + std::to_string(++turns_);
    if (const Json* id = base::member(message, "request_id");
        type == "control_request" && id != nullptr && id->is_string()) {
      capture = "sdk_request_" + std::to_string(sdk_request_names_.size() + 1);
      label = capture;
      sdk_request_names_[id->get<std::string>()] = capture;
    } else if (type == "control_response") {
      label = "answer_" + std::to_string(++answers_);
    }
    pattern = graded_sdk_pattern(message, capture, grading_);
  }
  Step step = new_step(line, Verb::expect);
  order_among_turns(step, message, label);
  step.value = std::move(pattern);
  if (!label.empty()) driver_ = step.label = std::move(label);
  scenario_.steps.push_back(std::move(step));
}

// A state change (an SDK control request other than initialize and interrupt) recorded once the
// CLI was answering turn N comes after turn N's line; the next turn comes after it. Changes made
// before the CLI answered anything of the first turn are set-up: SDKs send them before or just
// after the first prompt, and the CLI applies them before the turn either way.
void RecordingParser::order_among_turns(Step& step, const Json& message, const std::string& label) {
  const Json* type = base::member(message, "type");
  if (type == nullptr || label.empty()) return;
  if (*type == "user") {
    step.after = std::move(changes_since_turn_);
    changes_since_turn_.clear();
    last_turn_ = label;
    turn_answered_ = false;
    return;
  }
  const Json* request = base::member(message, "request");
  if (*type != "control_request" || request == nullptr || !request->is_object() ||
      last_turn_.empty() || !turn_answered_) {
    return;
  }
  if (const Json* subtype = base::member(*request, "subtype");
      subtype != nullptr && (*subtype == "initialize" || *subtype == "interrupt")) {
    return;
  }
  step.after.push_back(last_turn_);
  changes_since_turn_.push_back(label);
}

void RecordingParser::cli_line(std::size_t line, std::string text, bool partial) {
  if (partial) {
    add_output(new_step(line, Verb::raw, std::move(text)), nullptr);
    return;
  }
  Step step = new_step(line, Verb::send);
  // Only replies to SDK requests and hook callbacks need rewriting; everything else stays the
  // recorded bytes. The CLI's requests are remembered: they tell what an SDK answer answers.
  // A line that is not JSON is replayed verbatim like any other.
  if (text.find("\"control_request\"") != std::string::npos) {
    Json message = base::parse_json_or_discarded(text);
    const Json* id = base::member(message, "request_id");
    const Json* request = base::member(message, "request");
    if (id != nullptr && id->is_string() && request != nullptr && request->is_object()) {
      grading_.cli_requests[id->get<std::string>()] = *request;
    }
    if (map_hook_callback_id(message, grading_)) {
      step.value = std::move(message);
      add_output(std::move(step), nullptr);
      return;
    }
  }
  if (!sdk_request_names_.empty() && text.find("\"control_response\"") != std::string::npos) {
    static const Json::json_pointer kAnswered("/response/request_id");
    Json message = base::parse_json_or_discarded(text);
    if (const Json* type = base::member(message, "type");
        type != nullptr && *type == "control_response" && message.contains(kAnswered) &&
        message[kAnswered].is_string()) {
      if (auto it = sdk_request_names_.find(message[kAnswered].get_ref<const std::string&>());
          it != sdk_request_names_.end()) {
        message[kAnswered] = "${" + it->second + "}";
        step.value = std::move(message);
        add_output(std::move(step), &it->second);
        return;
      }
    }
  }
  step.verbatim = true;
  if (session_state_gated_ && text.find("\"session_state_changed\"") != std::string::npos) {
    const Json message = base::parse_json_or_discarded(text);
    if (base::string_member(message, "type") == "system" &&
        base::string_member(message, "subtype") == "session_state_changed") {
      step.if_env.emplace_back(kSessionStateVariable, "1");
    }
  }
  step.text = std::move(text);
  step.text.push_back('\n');
  // A replay holds every line until it is sent: no spare capacity. parse_json leaves one spare
  // byte in strings, so this is free unless nlohmann read the line (it grows strings by doubling).
  step.text.shrink_to_fit();
  add_output(std::move(step), nullptr);
}

LoadResult RecordingParser::finish() {
  // A recorder killed mid-line leaves pieces behind: replay what was recorded.
  for (char dir : {'i', 'o', 'e'}) {
    const int index = direction_index(dir);
    if (!pieces_[index].empty()) {
      complete_line(piece_line_[index], dir, std::move(pieces_[index]), true);
    }
  }
  expect_recorded_prompt(scenario_.steps.empty() ? 0 : scenario_.steps.back().line);
  if (gap_note_) {
    scenario_.truncated = *gap_note_;
  } else if (!ended_) {
    scenario_.truncated =
        torn_line_ != 0
            ? scenario_.file + ":" + std::to_string(torn_line_) +
                  ": truncated recording: the last line is cut short and no exit or signal "
                  "event was recorded (the recorder stopped before the session ended)"
            : scenario_.file + ":" + std::to_string(last_event_line_) +
                  ": truncated recording: no exit or signal event after this line (the "
                  "recorder stopped before the session ended)";
  }
  return ScenarioBuilder::finish();
}

}  // namespace claude::emulator::detail
