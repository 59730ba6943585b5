#include "claude/recorder/redactor.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <sstream>

#include "claude/input_file/input_file.hpp"
#include "claude/recorder/literal_finder.hpp"

namespace claude::recorder {

struct Redactor::Rule {
  std::string name;
  std::string placeholder;
  std::unique_ptr<RE2> re;
  // Every match contains this literal; without one the rule runs on every text.
  std::optional<LiteralFinder> anchor;

  [[nodiscard]] bool may_match(std::string_view text) const {
    return !anchor || anchor->found_in(text);
  }
};

namespace {

RE2::Options rule_options() {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(64 << 20);
  return options;
}

}  // namespace

Redactor::Redactor() = default;
Redactor::~Redactor() = default;
Redactor::Redactor(Redactor&&) noexcept = default;
Redactor& Redactor::operator=(Redactor&&) noexcept = default;

std::string Redactor::placeholder(std::string_view name) {
  std::string out = "<redacted:";
  out.append(name);
  out.push_back('>');
  return out;
}

std::span<const Redactor::BuiltinRule> Redactor::builtin_rules() noexcept {
  // The anchors: both key rules start with `sk-ant-`; `(?i)bearer` folds ASCII only (no other
  // code point folds to b, e, a or r); every JSON token field name ends in `oken"`.
  static constexpr std::array<BuiltinRule, 4> kRules{{
      {"oauth-token", R"(sk-ant-oat[0-9]*-[A-Za-z0-9_\-]+)", "sk-ant-", false},
      {"api-key", R"(sk-ant-[A-Za-z0-9_\-]{8,})", "sk-ant-", false},
      {"bearer-token", R"((?i)\bbearer\s+([A-Za-z0-9._~+/=\-]{8,}))", "bearer", true},
      {"oauth-token",
       R"re("(?:access_token|refresh_token|id_token|accessToken|refreshToken|idToken|oauthToken)"\s*:\s*"([^"\\]{4,})")re",
       "oken\"", false},
  }};
  return kRules;
}

Redactor Redactor::with_builtin_rules() {
  Redactor r;
  for (const BuiltinRule& rule : builtin_rules()) {
    r.add_anchored_rule(std::string(rule.name), rule.pattern, "built-in",
                        LiteralFinder(rule.anchor, rule.anchor_ignores_case));
  }
  return r;
}

void Redactor::add_rule(std::string name, std::string_view re2_pattern, std::string_view origin) {
  add_anchored_rule(std::move(name), re2_pattern, origin, std::nullopt);
}

void Redactor::add_anchored_rule(std::string name, std::string_view re2_pattern,
                                 std::string_view origin, std::optional<LiteralFinder> anchor) {
  auto re = std::make_unique<RE2>(re2_pattern, rule_options());
  if (!re->ok()) {
    throw RedactionError(std::string(origin) + ": rule '" + name + "': " + re->error());
  }
  auto rule = std::make_unique<Rule>();
  rule->placeholder = placeholder(name);
  rule->name = std::move(name);
  rule->re = std::move(re);
  rule->anchor = std::move(anchor);
  rules_.push_back(std::move(rule));
  rebuild_union();
}

void Redactor::add_literal(std::string name, std::string_view value) {
  if (value.size() < kMinLiteralBytes) return;
  add_anchored_rule(std::move(name), RE2::QuoteMeta(value), "literal", LiteralFinder(value, false));
}

void Redactor::add_rules_file(const std::filesystem::path& file) {
  std::string error;
  const auto text = input_file::read_input_file(file, error, {input_file::kMaxConfigFileBytes});
  if (!text) throw RedactionError(file.string() + ": redaction rules file: " + error);
  std::istringstream in(*text);
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    const std::string origin = file.string() + ":" + std::to_string(line_no);
    const auto tab = line.find('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 == line.size()) {
      throw RedactionError(origin + ": expected 'name<TAB>RE2'");
    }
    add_rule(line.substr(0, tab), std::string_view(line).substr(tab + 1), origin);
  }
}

void Redactor::rebuild_union() {
  std::string pattern;
  for (const auto& rule : rules_) {
    if (rule->anchor) continue;
    if (!pattern.empty()) pattern.push_back('|');
    pattern += "(?:";
    pattern += rule->re->pattern();
    pattern += ")";
  }
  distinct_anchors_.clear();
  for (const auto& rule : rules_) {
    if (!rule->anchor) continue;
    const bool seen = std::any_of(distinct_anchors_.begin(), distinct_anchors_.end(),
                                  [&](const LiteralFinder* a) {
                                    return a->literal() == rule->anchor->literal() &&
                                           a->ignores_case() == rule->anchor->ignores_case();
                                  });
    if (!seen) distinct_anchors_.push_back(&*rule->anchor);
  }
  unanchored_union_.reset();
  multiline_unanchored_union_.reset();
  if (pattern.empty()) return;
  auto options = rule_options();
  options.set_never_capture(true);
  unanchored_union_ = std::make_unique<RE2>(pattern, options);
  multiline_unanchored_union_ = std::make_unique<RE2>("(?m)" + pattern, options);
}

bool Redactor::anchor_found_in(std::string_view text) const {
  return std::any_of(distinct_anchors_.begin(), distinct_anchors_.end(),
                     [&](const LiteralFinder* anchor) { return anchor->found_in(text); });
}

bool Redactor::may_match_any_line(std::string_view text) const {
  return anchor_found_in(text) ||
         (multiline_unanchored_union_ && RE2::PartialMatch(text, *multiline_unanchored_union_));
}

bool Redactor::redact(std::string_view text, std::string& out) const {
  if (!anchor_found_in(text) &&
      !(unanchored_union_ && RE2::PartialMatch(text, *unanchored_union_))) {
    return false;
  }
  std::string current(text);
  std::string next;
  bool matched = false;
  for (const auto& rule : rules_) {
    // Earlier rules may have rewritten the text: the anchor is looked for in what this rule sees.
    if (!rule->may_match(current)) continue;
    const RE2& re = *rule->re;
    const int groups = re.NumberOfCapturingGroups() >= 1 ? 2 : 1;
    re2::StringPiece sub[2];
    const re2::StringPiece input(current);
    std::size_t pos = 0;
    bool changed = false;
    next.clear();
    while (pos <= input.size() &&
           re.Match(input, pos, input.size(), RE2::UNANCHORED, sub, groups)) {
      matched = true;
      const re2::StringPiece whole = sub[0];
      const re2::StringPiece target = groups == 2 && sub[1].data() != nullptr ? sub[1] : sub[0];
      const auto whole_end = static_cast<std::size_t>(whole.data() - input.data()) + whole.size();
      if (target.empty()) {
        // An empty match replaces nothing; step past it so the scan always advances.
        const std::size_t stop = std::max(whole_end, pos + 1);
        next.append(input.data() + pos, std::min(stop, input.size()) - pos);
        pos = stop;
        continue;
      }
      const auto target_begin = static_cast<std::size_t>(target.data() - input.data());
      next.append(input.data() + pos, target_begin - pos);
      next += rule->placeholder;
      next.append(target.data() + target.size(), whole_end - (target_begin + target.size()));
      pos = whole_end;
      changed = true;
    }
    if (changed) {
      if (pos < input.size()) next.append(input.data() + pos, input.size() - pos);
      current.swap(next);
    }
  }
  if (!matched) return false;
  out = std::move(current);
  return true;
}

std::string Redactor::redact_copy(std::string_view text) const {
  std::string out;
  if (!redact(text, out)) out.assign(text);
  return out;
}

std::size_t Redactor::rule_count() const noexcept {
  return rules_.size();
}

}  // namespace claude::recorder
