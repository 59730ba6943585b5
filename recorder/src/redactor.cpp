#include "claude/recorder/redactor.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <sstream>

#include "claude/base/input_file.hpp"
#include "claude/recorder/literal_finder.hpp"

namespace claude::recorder {

struct Redactor::Rule {
  std::string name;
  std::string placeholder;
  std::unique_ptr<RE2> re;
  // Every match contains one of these literals; without any the rule runs on every text.
  std::vector<LiteralFinder> anchors;

  [[nodiscard]] bool may_match(std::string_view text) const {
    return anchors.empty() ||
           std::any_of(anchors.begin(), anchors.end(),
                       [&](const LiteralFinder& anchor) { return anchor.found_in(text); });
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
  return "<redacted:" + std::string(name) + ">";
}

std::span<const Redactor::BuiltinRule> Redactor::builtin_rules() noexcept {
  // The lines are JSON text whose strings may hold JSON again (a tool_result quoting a credentials
  // file), so each rule reads a quote as `\\*"` (any depth of nesting), a separator as `\\+t` as
  // well as a tab, a slash as `\\*/`, and a hyphen of a key as `\\+u002d` as well.
  // The anchors: both key rules contain `sk-ant-` or an escaped hyphen (`u002`); `(?i)bearer` and
  // `(?i)authorization` fold ASCII only (no other code point folds to their letters); every JSON
  // token field name ends in `oken"`, or `oken\` when escaped; a URL with user info contains
  // `://`, or `\/` when its slashes are escaped.
  static constexpr std::array<BuiltinRule, 8> kRules{{
      {"oauth-token",
       R"(sk(?:-|\\+u002[dD])ant(?:-|\\+u002[dD])oat[0-9]*(?:-|\\+u002[dD])(?:[A-Za-z0-9_\-]|\\+u002[dD])+)",
       "sk-ant-", "u002", false},
      {"api-key", R"(sk(?:-|\\+u002[dD])ant(?:-|\\+u002[dD])(?:[A-Za-z0-9_\-]|\\+u002[dD]){8,})",
       "sk-ant-", "u002", false},
      {"bearer-token",
       R"((?i)(?:\b|\\[tnrf])bearer(?:\s|\\+[tnrf]|\\+u00(?:09|20))+((?:[A-Za-z0-9._~+/=\-]|\\+/){8,}))",
       "bearer", "", true},
      {"basic-auth",
       R"((?i)authorization(?:\W|\\[tnrf]){1,16}basic(?:\s|\\+[tnrf]|\\+u00(?:09|20))+((?:[A-Za-z0-9+=._~\-]|\\+/){8,}))",
       "authorization", "", true},
      {"url-userinfo", R"((?i)\b[a-z][a-z0-9+.\-]*:(?:\\*/){2}([^\s/?#@"\\:]*:[^\s/?#@"\\]+)@)",
       "://", "\\/", false},
      {"oauth-token",
       R"re(\\*"(?:access_token|refresh_token|id_token|accessToken|refreshToken|idToken|oauthToken)\\*"\s*:\s*\\*"((?:[^"\\]|\\+[^"\\]){4,}))re",
       "oken\"", "oken\\", false},
      {"oauth-token", R"(\b(?:access_token|refresh_token|id_token)=([^&\s"\\]{4,}))", "_token=", "",
       false},
      {"client-secret",
       R"re((?:\\*"(?:client_secret|clientSecret)\\*"\s*:\s*\\*"|\bclient_secret=)((?:[^"\\&\s]|\\+[^"\\&\s]){4,}))re",
       "client_secret", "clientSecret", false},
  }};
  return kRules;
}

Redactor Redactor::with_builtin_rules() {
  Redactor r;
  for (const BuiltinRule& rule : builtin_rules()) {
    std::vector<LiteralFinder> anchors{LiteralFinder(rule.anchor, rule.anchor_ignores_case)};
    if (!rule.escaped_anchor.empty()) {
      anchors.emplace_back(rule.escaped_anchor, rule.anchor_ignores_case);
    }
    r.add_anchored_rule(std::string(rule.name), rule.pattern, "built-in", std::move(anchors));
  }
  return r;
}

void Redactor::add_rule(std::string name, std::string_view re2_pattern, std::string_view origin) {
  add_anchored_rule(std::move(name), re2_pattern, origin, {});
}

void Redactor::add_anchored_rule(std::string name, std::string_view re2_pattern,
                                 std::string_view origin, std::vector<LiteralFinder> anchors) {
  auto re = std::make_unique<RE2>(re2_pattern, rule_options());
  if (!re->ok()) {
    throw RedactionError(std::string(origin) + ": rule '" + name + "': " + re->error());
  }
  auto rule = std::make_unique<Rule>();
  rule->placeholder = placeholder(name);
  rule->name = std::move(name);
  rule->re = std::move(re);
  rule->anchors = std::move(anchors);
  rules_.push_back(std::move(rule));
  rebuild_union();
}

void Redactor::add_literal(std::string name, std::string_view value) {
  if (value.size() < kMinLiteralBytes) return;
  add_anchored_rule(std::move(name), RE2::QuoteMeta(value), "literal",
                    {LiteralFinder(value, false)});
}

void Redactor::add_rules_file(const std::filesystem::path& file) {
  std::string error;
  const auto text = base::read_input_file(file, error, {base::kMaxConfigFileBytes});
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
    if (!rule->anchors.empty()) continue;
    if (!pattern.empty()) pattern.push_back('|');
    pattern += "(?:";
    pattern += rule->re->pattern();
    pattern += ")";
  }
  distinct_anchors_.clear();
  for (const auto& rule : rules_) {
    for (const LiteralFinder& anchor : rule->anchors) {
      const bool seen = std::any_of(
          distinct_anchors_.begin(), distinct_anchors_.end(), [&](const LiteralFinder* a) {
            return a->literal() == anchor.literal() && a->ignores_case() == anchor.ignores_case();
          });
      if (!seen) distinct_anchors_.push_back(&anchor);
    }
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
