#include "claude/harness/structural_diff.hpp"

#include <algorithm>

namespace claude::harness {
namespace {

using emulator::Json;

bool is_operator(const Json& v) {
  return v.is_object() && v.size() == 1 && v.begin().key().starts_with("$");
}

// The JSON a step carries: the parsed line of a verbatim recording step, else its value.
Json step_value(const emulator::Step& step) {
  if (step.verbatim) {
    auto parsed = Json::parse(step.text, nullptr, false);
    return parsed.is_discarded() ? Json(step.text) : parsed;
  }
  return step.value;
}

bool same_shape(const Json& a, const Json& b, bool compare_value) {
  if (is_operator(a) || is_operator(b)) return true;
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [key, value] : a.items()) {
      const auto other = b.find(key);
      if (other == b.end()) return false;
      if (!same_shape(value, *other, key == "type" || key == "subtype")) return false;
    }
    return true;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same_shape(a[i], b[i], false)) return false;
    }
    return true;
  }
  if (a.is_number() && b.is_number()) return true;
  if (a.type() != b.type()) return false;
  return !compare_value || a == b;
}

bool same_step(const emulator::Step& a, const emulator::Step& b) {
  if (a.verb != b.verb) return false;
  return same_shape(step_value(a), step_value(b), false);
}

std::string type_of(const Json& v) {
  if (!v.is_object()) return {};
  std::string out;
  if (auto t = v.find("type"); t != v.end() && t->is_string()) out = t->get<std::string>();
  const Json* sub = nullptr;
  if (auto s = v.find("subtype"); s != v.end()) sub = &*s;
  if (auto r = v.find("request"); sub == nullptr && r != v.end() && r->is_object()) {
    if (auto s = r->find("subtype"); s != r->end()) sub = &*s;
  }
  if (sub != nullptr && sub->is_string()) out += "/" + sub->get<std::string>();
  return out;
}

}  // namespace

std::string step_summary(const emulator::Step& step) {
  std::string out(emulator::verb_name(step.verb));
  const Json value = step_value(step);
  if (const auto type = type_of(value); !type.empty()) out += " " + type;
  if (value.is_object()) {
    std::vector<std::string> keys;
    for (const auto& item : value.items()) keys.push_back(item.key());
    std::sort(keys.begin(), keys.end());
    std::string joined;
    for (const auto& k : keys) joined += (joined.empty() ? "" : ",") + k;
    out += " {" + joined + "}";
  }
  return out;
}

std::vector<StepChange> structural_diff(const emulator::Scenario& a, const emulator::Scenario& b) {
  const auto& x = a.steps;
  const auto& y = b.steps;
  const std::size_t n = x.size(), m = y.size();
  // lcs[i][j]: length of the longest common subsequence of x[i..] and y[j..].
  std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      lcs[i][j] =
          same_step(x[i], y[j]) ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::vector<StepChange> changes;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same_step(x[i], y[j])) {
      ++i;
      ++j;
    } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      changes.push_back({StepChange::Kind::removed, x[i].line, step_summary(x[i])});
      ++i;
    } else {
      changes.push_back({StepChange::Kind::added, y[j].line, step_summary(y[j])});
      ++j;
    }
  }
  return changes;
}

}  // namespace claude::harness
