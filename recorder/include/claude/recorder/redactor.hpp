// Redactor: removes secrets from claude-tee's copies (never from forwarded bytes) before they
// reach the recording; fake-claude's reports and stderr use the same rules (library
// claude::recorded_text, which needs only RE2 and simdjson).
//
// What it is: an ordered list of named RE2 rules. A match becomes `<redacted:NAME>`; with a
// capturing group only the first group is replaced, so `"access_token":"…"` keeps its key and
// stays JSON. Built-in rules cover `sk-ant-…` keys and OAuth tokens, bearer tokens,
// `Authorization: Basic`, a URL's user:password, OAuth token fields and `client_secret`, also in
// JSON strings nested at any depth (builtin_rules()). Users add rules from a file
// (`name<TAB>RE2` per line); claude-tee adds secret-named environment values as literals.
//
// How it fails: a rule that RE2 rejects throws RedactionError naming its origin (`file:line`)
// and RE2's reason; an unreadable rules file throws too. Redacting never fails.
//
// What it costs: a prefilter, then RE2 only where a rule may match. Built-in and literal rules
// carry a literal every match contains (`sk-ant-`, `bearer`, …), found by memchr (LiteralFinder,
// about 1.3 GB/s for all built-in anchors); users' rules have none, so one RE2 scan over their
// union runs on every text. Lines without secrets are not copied. \A and \z hold per line only.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "claude/recorder/literal_finder.hpp"

namespace re2 {
class RE2;
}

namespace claude::recorder {

class RedactionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Redactor {
 public:
  // Shortest secret-env value redacted inside stream lines; shorter values ("1", "true") would
  // shred the recording. Header values of secret-named variables are always redacted.
  static constexpr std::size_t kMinLiteralBytes = 8;

  Redactor();
  ~Redactor();
  Redactor(Redactor&&) noexcept;
  Redactor& operator=(Redactor&&) noexcept;

  // A built-in rule and its prefilter: every match of `pattern` contains `anchor` or, when set,
  // `escaped_anchor` (the form the anchor takes inside an escaped JSON string); both ASCII case
  // folded when `anchor_ignores_case`.
  struct BuiltinRule {
    std::string_view name;
    std::string_view pattern;
    std::string_view anchor;
    std::string_view escaped_anchor;
    bool anchor_ignores_case = false;
  };
  // The built-in rules, in order: oauth-token (sk-ant-oat…), api-key (sk-ant-…), bearer-token,
  // basic-auth, url-userinfo, oauth-token (JSON token fields and form fields), client-secret.
  [[nodiscard]] static std::span<const BuiltinRule> builtin_rules() noexcept;
  [[nodiscard]] static Redactor with_builtin_rules();

  // `origin` names where the rule came from, for the error message.
  void add_rule(std::string name, std::string_view re2_pattern, std::string_view origin);
  // Redacts every occurrence of `value` verbatim; ignored when shorter than kMinLiteralBytes.
  void add_literal(std::string name, std::string_view value);
  // One rule per line: `name<TAB>RE2`. Blank lines and lines starting with '#' are skipped.
  void add_rules_file(const std::filesystem::path& file);

  // Writes the redacted text to `out` and returns true when some rule matched; returns false
  // and leaves `out` untouched otherwise. Rules apply in order, each to the text the previous
  // ones left.
  bool redact(std::string_view text, std::string& out) const;
  [[nodiscard]] std::string redact_copy(std::string_view text) const;

  // Whether some rule may match inside some line of `text` (several lines at once). False means
  // no line of `text` needs redacting: the rules run in multi-line mode here, so `^`/`$` still
  // match at line boundaries. One scan is much cheaper than one per line.
  [[nodiscard]] bool may_match_any_line(std::string_view text) const;

  [[nodiscard]] std::size_t rule_count() const noexcept;
  [[nodiscard]] static std::string placeholder(std::string_view name);

 private:
  struct Rule;
  void add_anchored_rule(std::string name, std::string_view re2_pattern, std::string_view origin,
                         std::vector<LiteralFinder> anchors);
  void rebuild_union();
  [[nodiscard]] bool anchor_found_in(std::string_view text) const;

  std::vector<std::unique_ptr<Rule>> rules_;
  std::vector<const LiteralFinder*> distinct_anchors_;  // of the anchored rules, each once
  // The rules without an anchor (users' rules), as one pattern; null when there are none.
  std::unique_ptr<re2::RE2> unanchored_union_;
  std::unique_ptr<re2::RE2> multiline_unanchored_union_;
};

// Secret-named environment variables: names ending in _KEY, _TOKEN, _SECRET or _PASSWORD.
[[nodiscard]] bool is_secret_env_name(std::string_view name) noexcept;

// Adds a literal rule `env:NAME` for every secret-named variable in `environment` ("NAME=VALUE"
// entries).
void add_secret_env_rules(Redactor& redactor, const std::vector<std::string>& environment);

}  // namespace claude::recorder
