// Causal order (docs/scenario.md, "Ordering"): which earlier waits each step needs done before it
// runs. Shared by scenario files and recordings, so a converted recording and the recording
// itself replay the same way.
#include <algorithm>
#include <map>
#include <optional>

#include "parsers.hpp"

namespace claude::emulator::detail {
namespace {

bool takes_label(const Step& step) {
  return is_wait(step.verb) || (step.verb == Verb::request && step.response.has_value());
}

// The variables a step reads when it runs (substituted into what it writes).
std::vector<std::string> variables_read(const Step& step) {
  const bool substitutes =
      step.verb == Verb::send || step.verb == Verb::request || step.verb == Verb::respond;
  return substitutes ? referenced_variables(step.value) : std::vector<std::string>();
}

// The variables a wait binds when it is satisfied ($capture in its pattern).
std::vector<std::string> variables_bound(const Step& step) {
  PatternNames names;
  if (step.verb == Verb::expect || step.verb == Verb::expect_prompt) {
    check_pattern(step.value, &names);
  } else if (step.verb == Verb::request && step.response) {
    check_pattern(*step.response, &names);
  }
  return names.captures;
}

}  // namespace

LoadResult resolve_waits(Scenario scenario, std::vector<LoadError> errors) {
  const bool causal = scenario.header.order == Order::causal;
  auto error = [&](const Step& step, std::string reason) {
    errors.push_back(LoadError{scenario.file, step.line, std::move(reason)});
  };
  std::map<std::string, std::size_t, std::less<>> labels;
  std::map<std::string, std::size_t, std::less<>> bound_by;  // variable -> the wait binding it
  std::optional<std::size_t> last_expect;
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    Step& step = scenario.steps[i];
    if (!causal && (!step.label.empty() || !step.after.empty())) {
      error(step, "'label' and 'after' need \"order\":\"causal\" in the header");
      continue;
    }
    if (!step.label.empty()) {
      if (!takes_label(step)) {
        error(step,
              "'label' names a wait (expect, expect_eof, expect_prompt, or a request with "
              "expect_response); " +
                  std::string(verb_name(step.verb)) + " does not wait");
      } else if (!labels.emplace(step.label, i).second) {
        error(step, "label '" + step.label + "' is already used by line " +
                        std::to_string(scenario.steps[labels[step.label]].line));
      }
    }
    // On an expect, `after` orders the SDK's lines: it takes only a line that came after those
    // of its labelled waits. Other waits take what they take.
    if (!step.after.empty() && is_wait(step.verb) && step.verb != Verb::expect) {
      error(step, "'after' orders the steps that write or end, and expects; a wait (" +
                      std::string(verb_name(step.verb)) + ") is armed in file order");
      continue;
    }
    auto needs = [&](std::size_t wait) {
      if (std::ranges::count(step.waits_for, wait) == 0) step.waits_for.push_back(wait);
    };
    for (const auto& name : step.after) {
      auto it = labels.find(name);
      if (it == labels.end() || it->second == i) {
        error(step, "after: no earlier step is labelled '" + name + "'");
      } else {
        needs(it->second);
      }
    }
    if (causal) {
      for (const auto& name : variables_read(step)) {
        if (auto it = bound_by.find(name); it != bound_by.end()) needs(it->second);
      }
      if ((step.verb == Verb::respond || step.verb == Verb::respond_error) && last_expect) {
        needs(*last_expect);
      }
    }
    for (const auto& name : variables_bound(step)) bound_by[name] = i;
    if (step.verb == Verb::expect) last_expect = i;
  }
  if (!errors.empty()) return LoadResult{std::nullopt, std::move(errors)};
  return LoadResult{std::move(scenario), {}};
}

}  // namespace claude::emulator::detail
