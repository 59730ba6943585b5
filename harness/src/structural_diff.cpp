#include "claude/harness/structural_diff.hpp"

#include <algorithm>
#include <optional>

#include "claude/base/json.hpp"

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

std::string kind_of(const Json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string";
  if (v.is_number()) return "a number";
  if (v.is_boolean()) return "a bool";
  return "null";
}

// Whether `a` and `b` have the same shape (the value too where `compare_value`). With `out`, each
// difference is added there as "/pointer: reason"; without, the walk stops at the first.
bool same_shape(const Json& a, const Json& b, bool compare_value,
                std::vector<std::string>* out = nullptr, const std::string& at = "") {
  if (is_operator(a) || is_operator(b)) return true;
  const auto differ = [out](const std::string& where, const std::string& why) {
    if (out != nullptr) out->push_back((where.empty() ? "/" : where) + ": " + why);
    return false;
  };
  // Children's pointers are only needed for `out`.
  const auto below = [&](const std::string& token) {
    return out != nullptr ? at + "/" + emulator::escape_pointer_token(token) : std::string();
  };
  if (a.is_object() && b.is_object()) {
    bool same = a.size() == b.size();
    if (!same && out == nullptr) return false;
    for (const auto& [key, value] : a.items()) {
      const std::string pointer = below(key);
      const auto other = b.find(key);
      same = (other == b.end()
                  ? differ(pointer, "only in A")
                  : same_shape(value, *other, key == "type" || key == "subtype", out, pointer)) &&
             same;
      if (!same && out == nullptr) return false;
    }
    for (const auto& [key, value] : b.items()) {
      if (!a.contains(key)) differ(below(key), "only in B");
    }
    return same;
  }
  if (a.is_array() && b.is_array()) {
    bool same = a.size() == b.size() || differ(at, std::to_string(a.size()) + " items in A, " +
                                                       std::to_string(b.size()) + " in B");
    for (std::size_t i = 0; i < std::min(a.size(), b.size()) && (same || out != nullptr); ++i) {
      same = same_shape(a[i], b[i], false, out, below(std::to_string(i))) && same;
    }
    return same;
  }
  if (a.is_number() && b.is_number()) return true;
  if (a.type() != b.type()) return differ(at, kind_of(a) + " in A, " + kind_of(b) + " in B");
  return !compare_value || a == b || differ(at, a.dump() + " in A, " + b.dump() + " in B");
}

bool same_step(const emulator::Step& a, const emulator::Step& b) {
  if (a.verb != b.verb) return false;
  return same_shape(step_value(a), step_value(b), false);
}

std::string type_of(const Json& v) {
  std::string out = base::string_member(v, "type");
  const Json* sub = base::member(v, "subtype");
  if (const Json* request = base::member(v, "request"); sub == nullptr && request != nullptr) {
    sub = base::member(*request, "subtype");
  }
  if (sub != nullptr && sub->is_string()) out += "/" + sub->get<std::string>();
  return out;
}

// One line describing a step: verb, type/subtype and top-level fields.
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

}  // namespace

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
      if (by_place) same_shape(step_value(sa), step_value(sb), false, &c.fields);
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
