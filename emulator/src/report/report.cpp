#include "claude/emulator/report.hpp"

#include "claude/base/excerpt.hpp"
#include "claude/base/json.hpp"

namespace claude::emulator {
namespace {

std::string_view dir_name(char dir) {
  return dir == 'i' ? "in" : dir == 'o' ? "out" : "err";
}

std::string_view status_name(StepStatus status) {
  static constexpr std::string_view kNames[] = {"not_run", "done", "failed"};
  const auto i = static_cast<std::size_t>(status);
  return i < std::size(kNames) ? kNames[i] : "?";
}

Json ending_json(const Ending& ending) {
  switch (ending.kind) {
    case Ending::Kind::exit:
      return Json::object({{"exit", ending.code}});
    case Ending::Kind::kill:
      return Json::object({{"signal", ending.signal}});
    case Ending::Kind::hang:
      return Json::object({{"hang", true}});
  }
  return Json();
}

Json difference_json(const Difference& d) {
  Json out = Json::object({{"pointer", d.pointer}, {"reason", d.reason}, {"expected", d.expected}});
  if (d.actual) {
    // A received value can be megabytes: past the quote limit it is shown as cut text.
    std::string text = base::dump_json(*d.actual);
    if (text.size() <= base::kMaxQuotedBytes) {
      out["actual"] = *d.actual;
    } else {
      out["actual_excerpt"] = base::excerpt(text);
    }
  }
  return out;
}

Json transcript_json(const TranscriptEntry& e, std::size_t index) {
  Json out = Json::object({{"index", index},
                           {"t_ms", e.t_ms},
                           {"dir", dir_name(e.dir)},
                           {"line", e.text},
                           {"bytes", e.size}});
  if (e.text.size() < e.size && !e.oversized) out["truncated"] = true;
  if (e.partial) out["partial"] = true;
  if (e.oversized) out["oversized"] = true;
  if (e.ignored) out["ignored"] = true;
  if (e.auto_answered) out["auto_answered"] = true;
  if (e.prompt) out["prompt"] = true;
  if (e.consumed_by) out["consumed_by_step"] = *e.consumed_by;
  return out;
}

std::string location(const Report& report, std::size_t line) {
  return report.file + ":" + std::to_string(line);
}

}  // namespace

Json report_json(const Report& report) {
  Json out = Json::object();
  out["report"] = 1;
  out["scenario"] = report.file;
  out["name"] = report.name;
  out["verdict"] = report.passed ? "pass" : "fail";
  out["ending"] = ending_json(report.ending);
  out["argv"] = report.args;
  out["dropped_sdk_lines"] = report.dropped_sdk_lines;
  if (report.truncated) out["truncated"] = *report.truncated;
  if (report.failure) {
    const Failure& f = *report.failure;
    Json failure = Json::object({{"kind", f.kind}, {"message", f.message}});
    failure["location"] = location(report, f.line);
    failure["line"] = f.line;
    if (f.step) {
      failure["step"] = *f.step;
      failure["verb"] = verb_name(report.steps[*f.step].verb);
    }
    if (f.expected) failure["expected"] = *f.expected;
    if (f.closest) {
      Json closest = Json::object();
      if (f.closest->transcript_index < report.transcript.size()) {
        closest["transcript_index"] = f.closest->transcript_index;
        closest["line"] = report.transcript[f.closest->transcript_index].text;
      }
      closest["differences"] = Json::array();
      for (const auto& d : f.closest->differences) {
        closest["differences"].push_back(difference_json(d));
      }
      if (!f.closest->differences.empty()) {
        closest["first_difference"] = f.closest->differences.front().pointer;
      }
      failure["closest"] = std::move(closest);
    }
    out["failure"] = std::move(failure);
  }
  out["leftover"] = Json::array();
  for (std::size_t index : report.leftover) {
    out["leftover"].push_back(transcript_json(report.transcript[index], index));
  }
  if (!report.notes.empty()) out["notes"] = report.notes;
  out["steps"] = Json::array();
  for (std::size_t i = 0; i < report.steps.size(); ++i) {
    const StepOutcome& s = report.steps[i];
    Json step = Json::object({{"index", i},
                              {"line", s.line},
                              {"verb", verb_name(s.verb)},
                              {"status", status_name(s.status)}});
    if (s.done_ms) step["t_ms"] = *s.done_ms;
    out["steps"].push_back(std::move(step));
  }
  out["consumed"] = Json::array();
  out["transcript"] = Json::array();
  for (std::size_t i = 0; i < report.transcript.size(); ++i) {
    const TranscriptEntry& e = report.transcript[i];
    if (e.consumed_by) {
      out["consumed"].push_back(Json::object({{"step", *e.consumed_by}, {"transcript_index", i}}));
    }
    out["transcript"].push_back(transcript_json(e, i));
  }
  return out;
}

std::string report_text(const Report& report) {
  const std::string label = report.name.empty() ? report.file : report.name;
  std::size_t done = 0;
  for (const auto& s : report.steps) done += s.status == StepStatus::done ? 1 : 0;
  std::string notes;
  for (const std::string& note : report.notes) notes += "  note: " + note + "\n";
  if (report.passed) {
    return "fake-claude: PASS " + label + " (" + std::to_string(done) + "/" +
           std::to_string(report.steps.size()) + " steps)\n" + notes;
  }
  std::string out = "fake-claude: FAIL " + label + "\n";
  if (report.truncated && !(report.failure && report.failure->kind == "truncated")) {
    out += "  " + *report.truncated + "\n";
  }
  if (!report.failure) return out;
  const Failure& f = *report.failure;
  out += "  " + location(report, f.line) + ": " + f.kind + ": " + f.message + "\n";
  if (f.expected) out += "  expected: " + base::dump_json(*f.expected) + "\n";
  if (f.closest) {
    if (f.closest->transcript_index < report.transcript.size()) {
      out += "  closest:  " + base::excerpt(report.transcript[f.closest->transcript_index].text) +
             "\n";
    }
    for (const auto& d : f.closest->differences) {
      out += "    at " + (d.pointer.empty() ? std::string("(root)") : d.pointer) + ": " + d.reason +
             "\n";
    }
  }
  constexpr std::size_t kListedLeftovers = 20;
  for (std::size_t i = 0; i < report.leftover.size() && i < kListedLeftovers; ++i) {
    out +=
        "  not consumed: " + base::excerpt(report.transcript[report.leftover[i]].text, 200) + "\n";
  }
  if (report.leftover.size() > kListedLeftovers) {
    out += "  … and " + std::to_string(report.leftover.size() - kListedLeftovers) +
           " more lines not consumed (all in the report)\n";
  }
  if (report.dropped_sdk_lines > 0) {
    out += "  " + std::to_string(report.dropped_sdk_lines) +
           " SDK line(s) were dropped unread: more unconsumed lines were waiting than fake-claude "
           "holds (docs/fake-claude.md, \"Limits\"); no step could match them\n";
  }
  return out + notes;
}

}  // namespace claude::emulator
