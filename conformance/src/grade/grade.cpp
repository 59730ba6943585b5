#include "claude/conformance/grade.hpp"

#include <algorithm>

#include "claude/base/json.hpp"

namespace claude::conformance {
namespace {

using claude::emulator::Bindings;

// The wire verdict, from fake-claude's report ("report":1, docs/fake-claude.md).
void grade_wire(const RunOutcome& run, Grade& out) {
  if (!run.fake_report) {
    out.findings.push_back({.where = "wire",
                            .message = "fake-claude wrote no report: the SDK never started the "
                                       "CLI, or killed it before it could write one"});
    return;
  }
  const Json& report = *run.fake_report;
  if (report.value("verdict", "") == "pass") return;
  Finding finding{.where = "wire",
                  .message = "fake-claude: the SDK did not send what the scenario expects"};
  if (auto failure = report.find("failure"); failure != report.end() && failure->is_object()) {
    finding.message = "fake-claude: " + failure->value("kind", std::string("failure")) + " at " +
                      failure->value("location", std::string("?")) + ": " +
                      failure->value("message", std::string());
    if (auto expected = failure->find("expected"); expected != failure->end()) {
      finding.expected = *expected;
    }
    if (auto closest = failure->find("closest"); closest != failure->end()) {
      if (auto line = closest->find("line"); line != closest->end()) {
        finding.closest = *line;
        const std::string text = line->is_string() ? line->get<std::string>() : "";
        Json parsed = Json::parse(text, nullptr, false);
        if (!parsed.is_discarded()) finding.closest = parsed;
      }
      finding.pointer = closest->value("first_difference", std::string());
    }
  }
  if (auto leftover = report.find("leftover"); leftover != report.end() && !leftover->empty()) {
    finding.detail = "SDK lines no step consumed: " + std::to_string(leftover->size());
    for (const auto& entry : *leftover) {
      finding.detail += "\n  " + entry.value("line", std::string());
    }
  }
  out.findings.push_back(std::move(finding));
}

// The observation that comes closest to `pattern`, for the report.
std::optional<std::pair<Json, std::string>> closest_observation(const Json& pattern,
                                                                const std::vector<Json>& obs,
                                                                const Bindings& bindings) {
  std::optional<std::pair<Json, std::string>> best;
  std::size_t best_score = 0;
  for (const auto& o : obs) {
    Bindings scratch = bindings;
    auto result = claude::emulator::match(pattern, o, scratch);
    if (!best || result.score > best_score) {
      best_score = result.score;
      best = std::pair{o, result.first_difference ? result.first_difference->pointer : ""};
    }
  }
  return best;
}

// Ordered subsequence: each pattern must match an observation after the previous match.
// Returns the index of the first pattern that could not be placed.
std::optional<std::size_t> unmet_in_order(const std::vector<Json>& patterns,
                                          const std::vector<Json>& observations,
                                          Bindings& bindings) {
  auto next = observations.begin();
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    next = std::find_if(next, observations.end(), [&](const Json& o) {
      return claude::emulator::match(patterns[p], o, bindings).matched;
    });
    if (next == observations.end()) return p;
    ++next;
  }
  return std::nullopt;
}

void grade_sequence(const std::vector<Json>& patterns, std::string_view where,
                    const RunOutcome& run, Grade& out) {
  Bindings bindings;
  auto unmet = unmet_in_order(patterns, run.observations, bindings);
  if (!unmet) return;
  const Json& pattern = patterns[*unmet];
  // Present at all (then the order is wrong) or missing?
  Bindings probe = bindings;
  const bool present =
      std::any_of(run.observations.begin(), run.observations.end(), [&](const Json& o) {
        Bindings b = probe;
        return claude::emulator::match(pattern, o, b).matched;
      });
  Finding finding{.where = std::string(where),
                  .message = std::string(where) + "[" + std::to_string(*unmet) + "]: " +
                             (present ? "observed, but not after the expectations before it"
                                      : "the SDK surfaced nothing that matches"),
                  .expected = pattern};
  if (auto closest = closest_observation(pattern, run.observations, bindings)) {
    finding.closest = closest->first;
    finding.pointer = closest->second;
  }
  out.findings.push_back(std::move(finding));
}

void grade_absent(const ConformanceCase& c, const RunOutcome& run, Grade& out) {
  for (std::size_t p = 0; p < c.observe_absent.size(); ++p) {
    const auto o =
        std::find_if(run.observations.begin(), run.observations.end(), [&](const Json& x) {
          Bindings bindings;
          return claude::emulator::match(c.observe_absent[p], x, bindings).matched;
        });
    if (o == run.observations.end()) continue;
    out.findings.push_back(
        {"observe_absent",
         "observe_absent[" + std::to_string(p) + "]: the SDK surfaced something it must not",
         c.observe_absent[p], *o, "", ""});
  }
}

void grade_driver(const RunOutcome& run, Grade& out) {
  std::string message;
  if (run.timed_out) {
    message = "the driver did not finish before the case deadline: the SDK hung";
  } else if (!run.driver_exit) {
    message = "the driver was killed by signal " + std::to_string(run.driver_signal);
  } else if (*run.driver_exit == 3) {
    message = "the driver reported that the session did not end in time (exit 3): the SDK hung";
  } else if (*run.driver_exit == 2) {
    message = "the driver rejected the case's spec (exit 2)";
  } else if (*run.driver_exit != 0) {
    message = "the driver exited with " + std::to_string(*run.driver_exit);
  }
  if (message.empty() && !run.observations.empty() &&
      run.observations.back().value("obs", "") != "end") {
    message = "the driver's observations end without an `end` line";
  }
  if (message.empty() && run.observations.empty()) message = "the driver printed no observations";
  if (!message.empty())
    out.findings.push_back({.where = "driver", .message = message, .detail = run.driver_stderr});
  for (const auto& line : run.bad_lines) {
    out.findings.push_back(
        {.where = "driver", .message = "an observation line is not a JSON object: " + line});
  }
}

}  // namespace

std::string_view to_string(Verdict verdict) {
  static constexpr std::string_view kNames[] = {"PASS", "FAIL", "NON-STRICT", "SKIPPED"};
  const auto i = static_cast<std::size_t>(verdict);
  return i < std::size(kNames) ? kNames[i] : "FAIL";
}

Grade grade(const ConformanceCase& c, const RunOutcome& run) {
  Grade out;
  if (run.driver_exit == 4) {  // the driver's SDK cannot express the case
    out.verdict = Verdict::skipped;
    for (const auto& o : run.observations) {
      if (o.value("obs", "") == "unsupported") {
        out.findings.push_back(
            {.where = "driver",
             .message = "unsupported by this SDK: " + base::dump_json(o.value("feature", Json()))});
      }
    }
    return out;
  }
  grade_driver(run, out);
  grade_wire(run, out);
  grade_sequence(c.observe, "observe", run, out);
  grade_absent(c, run, out);
  if (!out.findings.empty()) {
    out.verdict = Verdict::fail;
    return out;
  }
  grade_sequence(c.observe_should, "observe_should", run, out);
  out.verdict = out.findings.empty() ? Verdict::pass : Verdict::non_strict;
  return out;
}

}  // namespace claude::conformance
