#include "claude/fuzzing/oracle.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <csignal>
#include <map>
#include <set>

#include "claude/base/json.hpp"
#include "claude/base/line_buffer.hpp"

namespace claude::fuzzing {
namespace {

using claude::conformance::RunOutcome;

std::string signal_name(int signal) {
  static const std::map<int, std::string> kNames = {
      {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
      {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGPIPE, "SIGPIPE"},
      {SIGINT, "SIGINT"},   {SIGTRAP, "SIGTRAP"}};
  auto it = kNames.find(signal);
  return it != kNames.end() ? it->second : "signal-" + std::to_string(signal);
}

// The last "SomethingError" / "SomethingException" named in a driver's stderr.
std::string error_class_in(const std::string& text) {
  static const RE2 kClass(R"(\b([A-Z][A-Za-z]*(?:Error|Exception))\b)");
  std::string last;
  std::string found;
  re2::StringPiece input(text);
  while (RE2::FindAndConsume(&input, kClass, &found)) last = found;
  return last;
}

using base::member;
using base::string_member;

// The `result` messages of complete lines of `bytes` (raw steps), BOM and CR tolerated.
void results_in_bytes(const std::string& bytes, std::vector<Json>& out) {
  base::LineBuffer lines;
  lines.feed(bytes, [&](const base::LineEvent& line) {
    Json value = base::parse_json_or_discarded(line.text);
    if (!value.is_discarded() && string_member(value, "type") == "result") {
      out.push_back(std::move(value));
    }
  });
}

bool step_ran(const Json& report, std::size_t i) {
  const Json* steps = member(report, "steps");
  return steps != nullptr && steps->is_array() && i < steps->size() &&
         string_member((*steps)[i], "status") == "done";
}

struct PlayedFacts {
  std::vector<Json> results_sent;  // result messages of steps that ran
  bool hang_scripted = false;
};

PlayedFacts played_facts(const ScenarioDoc& played, const Json* report) {
  PlayedFacts facts;
  for (std::size_t i = 0; i < played.steps.size(); ++i) {
    const Json& step = played.steps[i];
    if (step.contains("hang")) facts.hang_scripted = true;
    if (report == nullptr || !step_ran(*report, i)) continue;
    if (step.contains("send") && string_member(step["send"], "type") == "result") {
      facts.results_sent.push_back(step["send"]);
    } else if (step.contains("raw") && step["raw"].is_string()) {
      results_in_bytes(step["raw"].get<std::string>(), facts.results_sent);
    }
  }
  return facts;
}

// The control_request a `send` step writes, else null.
const Json* sent_request(const Json& step) {
  const Json* send = member(step, "send");
  return send != nullptr && string_member(*send, "type") == "control_request" ? send : nullptr;
}

std::string subtype_or_none(const Json* request) {
  const std::string subtype = request != nullptr ? string_member(*request, "subtype") : "";
  return subtype.empty() ? "no-subtype" : subtype;
}

struct ControlFacts {
  std::map<std::string, int> requests;  // CLI request id -> times sent
  std::map<std::string, std::string> subtype;
  std::map<std::string, int> answers;  // SDK control_response per request id
};

ControlFacts control_facts(const ScenarioDoc& played, const Json& report) {
  static const RE2 kRequest(R"re("type":"control_request")re");
  static const RE2 kId(R"re("request_id":"([^"]*)")re");
  static const RE2 kSubtype(R"re("subtype":"([^"]*)")re");
  ControlFacts facts;
  // Requests sent by steps that ran: a chunked send reaches the transcript in pieces.
  std::map<std::string, int> by_steps;
  for (std::size_t i = 0; i < played.steps.size(); ++i) {
    const Json* sent = sent_request(played.steps[i]);
    if (sent == nullptr || !step_ran(report, i)) continue;
    const std::string id = string_member(*sent, "request_id");
    if (id.empty()) continue;
    ++by_steps[id];
    facts.subtype.emplace(id, subtype_or_none(member(*sent, "request")));
  }
  static const Json kNone = Json::array();
  const Json* transcript = member(report, "transcript");
  if (transcript == nullptr || !transcript->is_array()) transcript = &kNone;
  for (const Json& entry : *transcript) {
    const std::string dir = string_member(entry, "dir");
    const std::string line = string_member(entry, "line");
    if (dir == "out" && RE2::PartialMatch(line, kRequest)) {
      std::string id;
      if (!RE2::PartialMatch(line, kId, &id)) continue;
      ++facts.requests[id];
      std::string subtype = "?";
      RE2::PartialMatch(line, kSubtype, &subtype);
      facts.subtype.emplace(id, subtype);
    } else if (dir == "in") {
      Json value = claude::base::parse_json_or_discarded(line);
      if (string_member(value, "type") != "control_response") continue;
      const Json* response = member(value, "response");
      if (response == nullptr) continue;
      const std::string id = string_member(*response, "request_id");
      if (!id.empty()) ++facts.answers[id];
    }
  }
  for (const auto& [id, count] : by_steps) facts.requests[id] = std::max(facts.requests[id], count);
  return facts;
}

// The subtype of the CLI request a failed wait was waiting to see answered: a `request` step's
// response, or an `expect` of a control_response to a control_request a step that ran sent.
std::optional<std::string> unanswered_request(const ScenarioDoc& played, const Json& report) {
  const Json* failure = member(report, "failure");
  if (failure == nullptr || string_member(*failure, "kind") != "timeout") return std::nullopt;
  const Json* step_index = member(*failure, "step");
  if (step_index == nullptr || !step_index->is_number_integer() || step_index->get<long long>() < 0)
    return std::nullopt;
  const auto i = step_index->get<std::size_t>();
  if (i >= played.steps.size()) return std::nullopt;
  const Json& step = played.steps[i];
  if (step.contains("request") && step.contains("expect_response")) {
    return subtype_or_none(&step["request"]);
  }
  if (!step.contains("expect") || string_member(step["expect"], "type") != "control_response")
    return std::nullopt;
  const Json* response = member(step["expect"], "response");
  const std::string id = response != nullptr ? string_member(*response, "request_id") : "";
  if (id.empty()) return std::nullopt;
  for (std::size_t j = 0; j < played.steps.size(); ++j) {
    const Json* sent = sent_request(played.steps[j]);
    if (sent != nullptr && string_member(*sent, "request_id") == id && step_ran(report, j)) {
      return subtype_or_none(member(*sent, "request"));
    }
  }
  return std::nullopt;
}

std::string ending_of(const Json* report) {
  if (report == nullptr) return "cli-no-report";
  const Json* ending = member(*report, "ending");
  if (ending != nullptr) {
    if (const Json* code = member(*ending, "exit")) return "cli-exit-" + code->dump();
    if (const Json* sig = member(*ending, "signal")) return "cli-signal-" + sig->dump();
    if (member(*ending, "hang") != nullptr) return "cli-hang";
  }
  return "cli-ended";
}

}  // namespace

bool is_runtime_error_name(const std::string& name) {
  static const std::set<std::string, std::less<>> kRuntime = {
      // JavaScript
      "TypeError", "ReferenceError", "RangeError", "SyntaxError", "URIError", "EvalError",
      "InternalError",
      // Python
      "AttributeError", "KeyError", "IndexError", "NameError", "UnboundLocalError",
      "AssertionError", "RecursionError", "ZeroDivisionError", "UnicodeDecodeError",
      "UnicodeEncodeError", "NotImplementedError", "StopIteration", "RuntimeError",
      // C++ (the cpp driver names exceptions outside the SDK's error types by their class)
      "std::bad_alloc", "std::out_of_range", "std::length_error", "std::logic_error"};
  return kRuntime.contains(name) || name.find("::") != std::string::npos;
}

std::vector<Violation> check_oracles(const ScenarioDoc& played, const RunOutcome& run) {
  std::vector<Violation> out;
  if (run.driver_exit == 4) return out;  // the driver cannot express the case: nothing ran
  const Json* report = run.fake_report ? &*run.fake_report : nullptr;
  const PlayedFacts facts = played_facts(played, report);

  bool ended_by_timeout = run.timed_out;
  bool delivered_result = false;
  std::vector<std::string> documented_errors;
  std::vector<std::pair<std::string, std::string>> runtime_errors;  // name, message
  bool saw_end = false;
  for (const Json& obs : run.observations) {
    const std::string kind = string_member(obs, "obs");
    if (kind == "message") {
      const Json* message = member(obs, "message");
      if (message != nullptr && string_member(*message, "type") == "result")
        delivered_result = true;
    } else if (kind == "error") {
      const std::string name = string_member(obs, "name");
      if (name == "Timeout") {
        ended_by_timeout = true;
      } else if (is_runtime_error_name(name)) {
        runtime_errors.emplace_back(name, string_member(obs, "message"));
      } else {
        documented_errors.push_back(name);
      }
    } else if (kind == "end") {
      saw_end = true;
      const Json* timeout = member(obs, "timeout");
      if (timeout != nullptr && *timeout == true) ended_by_timeout = true;
    }
  }

  // crash
  if (run.driver_signal != 0) {
    out.push_back({"crash", signal_name(run.driver_signal),
                   "the SDK's process died by " + signal_name(run.driver_signal)});
  } else if (run.driver_exit && *run.driver_exit != 0 && *run.driver_exit != 3) {
    const std::string cls = error_class_in(run.driver_stderr);
    out.push_back({"crash",
                   "exit-" + std::to_string(*run.driver_exit) + (cls.empty() ? "" : ":" + cls),
                   "the SDK's process exited " + std::to_string(*run.driver_exit) +
                       (cls.empty() ? "" : " after an uncaught " + cls)});
  } else if (run.driver_exit == 3 && !ended_by_timeout && !saw_end) {
    const std::string cls = error_class_in(run.driver_stderr);
    out.push_back(
        {"crash", "driver-broke" + (cls.empty() ? "" : ":" + cls),
         "the driver broke (exit 3 without a timeout)" + (cls.empty() ? "" : ": " + cls)});
  }

  // hang
  if (ended_by_timeout && !facts.hang_scripted) {
    out.push_back({"hang", ending_of(report),
                   "the session did not end within its bound although the CLI was not hanging (" +
                       ending_of(report) + ")"});
  }

  // result-lost (also when a CLI scripted to hang kept the session open: the result came first)
  const bool excused_hang = ended_by_timeout && facts.hang_scripted;
  if ((!ended_by_timeout || excused_hang) && !facts.results_sent.empty() && !delivered_result &&
      documented_errors.empty() && out.empty()) {
    const bool error_result = std::ranges::any_of(facts.results_sent, [](const Json& r) {
      const Json* is_error = member(r, "is_error");
      return (is_error != nullptr && *is_error == true) || string_member(r, "subtype") != "success";
    });
    const std::string raised = runtime_errors.empty() ? "silent" : runtime_errors.front().first;
    out.push_back(
        {"result-lost",
         std::string(error_result ? "error-result" : "success-result") + ":" + raised,
         "the CLI sent a result; the SDK yielded none and raised " +
             (runtime_errors.empty() ? std::string("nothing")
                                     : runtime_errors.front().first + ": " +
                                           runtime_errors.front().second.substr(0, 160))});
  }

  // uncaught-error
  for (const auto& [name, message] : runtime_errors) {
    out.push_back(
        {"uncaught-error", name, "the SDK raised " + name + ": " + message.substr(0, 160)});
  }

  // control
  if (report != nullptr) {
    if (auto subtype = unanswered_request(played, *report)) {
      out.push_back({"control-unanswered", *subtype,
                     "a " + *subtype + " control_request got no answer while stdin stayed open"});
    }
    const ControlFacts control = control_facts(played, *report);
    for (const auto& [id, answers] : control.answers) {
      auto sent = control.requests.find(id);
      if (sent == control.requests.end() || answers <= sent->second) continue;
      const std::string subtype = control.subtype.at(id);
      out.push_back({"control-answered-twice", subtype,
                     "request " + id + " (" + subtype + ") was answered " +
                         std::to_string(answers) + " times for " + std::to_string(sent->second) +
                         " request(s)"});
    }
  }

  // leaked-process
  if (run.driver_exit == 0 && run.leaked_processes > 0) {
    out.push_back({"leaked-process", "cli",
                   std::to_string(run.leaked_processes) +
                       " process(es) the SDK started still ran after it ended cleanly"});
  }
  return out;
}

}  // namespace claude::fuzzing
