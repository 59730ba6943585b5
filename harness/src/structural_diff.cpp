#include "claude/harness/structural_diff.hpp"

#include <algorithm>
#include <optional>

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
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const Json& x, const Json& y) { return same_shape(x, y, false); });
  }
  if (a.is_number() && b.is_number()) return true;
  if (a.type() != b.type()) return false;
  return !compare_value || a == b;
}

std::string kind_of(const Json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string";
  if (v.is_number()) return "a number";
  if (v.is_boolean()) return "a bool";
  return "null";
}

// Where same_shape(a, b) says no, and why: one "/pointer: reason" per difference.
void shape_differences(const Json& a, const Json& b, bool compare_value, const std::string& at,
                       std::vector<std::string>& out) {
  if (is_operator(a) || is_operator(b)) return;
  const std::string here = at.empty() ? "/" : at;
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : a.items()) {
      const std::string pointer = at + "/" + emulator::escape_pointer_token(key);
      const auto other = b.find(key);
      if (other == b.end())
        out.push_back(pointer + ": only in A");
      else
        shape_differences(value, *other, key == "type" || key == "subtype", pointer, out);
    }
    for (const auto& [key, value] : b.items())
      if (!a.contains(key))
        out.push_back(at + "/" + emulator::escape_pointer_token(key) + ": only in B");
    return;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size())
      out.push_back(here + ": " + std::to_string(a.size()) + " items in A, " +
                    std::to_string(b.size()) + " in B");
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      shape_differences(a[i], b[i], false, at + "/" + std::to_string(i), out);
    return;
  }
  if (a.is_number() && b.is_number()) return;
  if (a.type() != b.type()) {
    out.push_back(here + ": " + kind_of(a) + " in A, " + kind_of(b) + " in B");
  } else if (compare_value && a != b) {
    out.push_back(here + ": " + a.dump() + " in A, " + b.dump() + " in B");
  }
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
  // The unmatched steps, each with the run of differences (hunk) it belongs to.
  struct Unmatched {
    bool in_a;
    std::size_t index;
    std::size_t hunk;
    bool used = false;
  };
  std::vector<Unmatched> unmatched;
  std::size_t hunk = 0;
  bool in_hunk = false;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same_step(x[i], y[j])) {
      ++i;
      ++j;
      if (in_hunk) ++hunk;
      in_hunk = false;
      continue;
    }
    in_hunk = true;
    if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]))
      unmatched.push_back({true, i++, hunk});
    else
      unmatched.push_back({false, j++, hunk});
  }

  std::vector<StepChange> changes;
  // A step only in A whose twin is only in B moved; else one of the same verb and type in the
  // same hunk is that step, changed.
  const auto pair_of = [&](const Unmatched& removed, bool same_hunk_and_type) -> Unmatched* {
    for (auto& added : unmatched) {
      if (added.in_a || added.used) continue;
      const auto& sa = x[removed.index];
      const auto& sb = y[added.index];
      if (same_hunk_and_type ? added.hunk == removed.hunk && sa.verb == sb.verb &&
                                   type_of(step_value(sa)) == type_of(step_value(sb))
                             : same_step(sa, sb))
        return &added;
    }
    return nullptr;
  };
  std::vector<std::optional<StepChange>> paired(unmatched.size());
  for (bool by_place : {false, true}) {
    for (std::size_t k = 0; k < unmatched.size(); ++k) {
      auto& removed = unmatched[k];
      if (!removed.in_a || removed.used) continue;
      Unmatched* added = pair_of(removed, by_place);
      if (added == nullptr) continue;
      removed.used = added->used = true;
      const auto& sa = x[removed.index];
      const auto& sb = y[added->index];
      StepChange c{by_place ? StepChange::Kind::changed : StepChange::Kind::moved,
                   sa.line,
                   sb.line,
                   step_summary(sa),
                   {}};
      if (by_place) shape_differences(step_value(sa), step_value(sb), false, "", c.fields);
      paired[k] = std::move(c);
    }
  }
  for (std::size_t k = 0; k < unmatched.size(); ++k) {
    const auto& u = unmatched[k];
    if (paired[k]) {
      changes.push_back(std::move(*paired[k]));
    } else if (!u.used) {
      const auto& step = u.in_a ? x[u.index] : y[u.index];
      changes.push_back({u.in_a ? StepChange::Kind::removed : StepChange::Kind::added,
                         step.line,
                         0,
                         step_summary(step),
                         {}});
    }
  }
  return changes;
}

}  // namespace claude::harness
