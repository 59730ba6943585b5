#include <algorithm>
#include <array>

#include "claude/base/base64.hpp"
#include "claude/base/json.hpp"
#include "claude/emulator/closest_name.hpp"
#include "parsers.hpp"

namespace claude::emulator::detail {
namespace {

struct VerbSpec {
  std::string_view key;
  Verb verb;
  std::array<std::string_view, 3> modifiers;
};

constexpr VerbSpec kVerbs[] = {
    {"send", Verb::send, {"chunks", "gap_ms", ""}},
    {"raw", Verb::raw, {"", "", ""}},
    {"raw_b64", Verb::raw, {"", "", ""}},
    {"stderr", Verb::stderr_text, {"", "", ""}},
    {"stderr_b64", Verb::stderr_text, {"", "", ""}},
    {"expect", Verb::expect, {"within_ms", "", ""}},
    {"request", Verb::request, {"as", "expect_response", "within_ms"}},
    {"cancel", Verb::cancel, {"", "", ""}},
    {"respond", Verb::respond, {"", "", ""}},
    {"respond_error", Verb::respond_error, {"", "", ""}},
    {"sleep_ms", Verb::sleep, {"", "", ""}},
    {"expect_eof", Verb::expect_eof, {"within_ms", "", ""}},
    {"exit", Verb::exit, {"", "", ""}},
    {"kill", Verb::kill, {"", "", ""}},
    {"hang", Verb::hang, {"", "", ""}},
    {"expect_prompt", Verb::expect_prompt, {"within_ms", "", ""}},
};

// Accepted on every verb; where they make sense is checked with the whole file (resolve_waits).
constexpr std::string_view kOrderModifiers[] = {"label", "after", "malformed", "if_env"};

// " (did you mean 'x'?)" when `word` is a likely typo of one of `names`, else "".
template <typename Names>
std::string did_you_mean(std::string_view word, const Names& names) {
  std::vector<std::string> candidates;
  candidates.reserve(std::size(names));
  for (const auto& name : names) candidates.emplace_back(name);
  const auto close = closest_name(word, candidates);
  return close ? " (did you mean '" + *close + "'?)" : "";
}

// `driver` and the `observe*` members belong to conformance grading (docs/drivers.md); fake-claude
// accepts them and leaves them to `harness check`.
constexpr std::string_view kHeaderKeys[] = {
    "scenario",   "name",      "description",     "cli_version",    "protocol",
    "argv",       "env",       "auto_initialize", "ignore",         "strict",
    "timeout_ms", "driver",    "observe",         "observe_absent", "observe_should",
    "order",      "truncated", "unknown_options", "lenient"};

std::optional<Millis> non_negative_ms(const Json& value) {
  if (!value.is_number_integer() && !value.is_number_unsigned()) return std::nullopt;
  const auto ms = value.get<std::int64_t>();
  if (ms < 0) return std::nullopt;
  return ms;
}

}  // namespace

bool ScenarioParser::check_names_known(std::size_t line, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (!defined_.contains(name)) {
      error(line, "unknown variable '" + name + "' (not captured or named by an earlier step)");
      return false;
    }
  }
  return true;
}

bool ScenarioParser::check_pattern_at(std::size_t line, const Json& pattern, std::string_view what,
                                      bool allow_captures) {
  PatternNames names;
  if (auto problem = check_pattern(pattern, &names)) {
    error(line, std::string(what) + " at '" + problem->pointer + "': " + problem->reason);
    return false;
  }
  if (!allow_captures && !names.captures.empty()) {
    error(line, std::string(what) + ": $capture is not allowed here");
    return false;
  }
  // A $var may read a capture made earlier in the same pattern.
  for (const auto& name : names.captures) defined_.insert(name);
  return check_names_known(line, names.vars);
}

void ScenarioParser::header(std::size_t line, const Json& h) {
  Header& header = scenario_.header;
  header.line = line;
  if (!h.is_object() || !h.contains("scenario")) {
    return error(line, "the first line must be a header {\"scenario\":1,…} or {\"recording\":1,…}");
  }
  if (h["scenario"] != 1) {
    return error(line, "unsupported scenario version " + base::dump_json(h["scenario"]) +
                           " (this fake-claude reads version 1)");
  }
  for (auto it = h.begin(); it != h.end(); ++it) {
    if (std::ranges::count(kHeaderKeys, it.key()) == 0) {
      error(line, "unknown header field '" + it.key() + "'" + did_you_mean(it.key(), kHeaderKeys));
    }
  }
  // Reads `key` when the header has it; `take` returns false for a value it refuses.
  auto field = [&](std::string_view key, const std::string& must_be, auto take) {
    if (auto it = h.find(key); it != h.end() && !take(*it)) {
      error(line, "header '" + std::string(key) + "' must be " + must_be);
    }
  };
  // Printed by `--version` and in verdicts when `printable`: no terminal escape sequences.
  auto text_field = [&](std::string_view key, std::string& out, bool printable = false) {
    field(key, "a string", [&](const Json& v) {
      if (v.is_string()) out = v.get<std::string>();
      return v.is_string();
    });
    if (printable && !is_printable(out)) {
      error(line, "header '" + std::string(key) +
                      "' must be printable (no control characters), got " +
                      quoted_for_terminal(Json(out)));
    }
  };
  auto bool_field = [&](std::string_view key, bool& out) {
    field(key, "a boolean", [&](const Json& v) {
      if (v.is_boolean()) out = v.get<bool>();
      return v.is_boolean();
    });
  };
  text_field("name", header.name, true);
  text_field("description", header.description);
  text_field("cli_version", header.cli_version, true);
  // Converted from a recording cut short: the note travels, and this scenario never passes.
  field("truncated", "a string (why the recording is incomplete)", [&](const Json& v) {
    if (v.is_string()) scenario_.truncated = v.get<std::string>();
    return v.is_string();
  });

  // Two-way choices: the header's defaults are the first of each.
  field("protocol", "\"stream-json\" or \"jsonrpc\"", [&](const Json& v) {
    if (v == "jsonrpc") header.protocol = Dialect::jsonrpc;
    return v == "stream-json" || v == "jsonrpc";
  });
  field("argv", "an object {\"require\":[…],\"forbid\":[…]}", [&](const Json& argv) {
    if (!argv.is_object()) return false;
    for (auto member = argv.begin(); member != argv.end(); ++member) {
      auto* target = member.key() == "require"  ? &header.argv_require
                     : member.key() == "forbid" ? &header.argv_forbid
                                                : nullptr;
      if (target == nullptr) {
        error(line, "unknown field 'argv." + member.key() + "'");
        continue;
      }
      if (!member->is_array()) {
        error(line, "argv." + member.key() + " must be an array of flags");
        continue;
      }
      for (const auto& flag : *member) {
        if (!flag.is_string() || !flag.get_ref<const std::string&>().starts_with("-")) {
          error(line, "argv." + member.key() + " holds " + base::dump_json(flag) +
                          ", expected a flag such as \"--verbose\" or \"--model=x\"");
        } else {
          target->push_back(flag.get<std::string>());
        }
      }
    }
    return true;
  });
  field("env", "{\"require\":{\"NAME\":value-or-pattern}}", [&](const Json& env) {
    if (env.size() != 1 || !env.contains("require") || !env["require"].is_object()) return false;
    for (auto var = env["require"].begin(); var != env["require"].end(); ++var) {
      if (check_pattern_at(line, var.value(), "env.require." + var.key(), false)) {
        header.env_require.emplace_back(var.key(), var.value());
      }
    }
    return true;
  });
  field("auto_initialize", "true, false or the reply payload object", [&](const Json& v) {
    if (v.is_boolean()) header.auto_initialize = v.get<bool>();
    if (v.is_object()) header.initialize_response = v;  // auto_initialize keeps its default, on
    return v.is_boolean() || v.is_object();
  });
  field("ignore", "an array of patterns", [&](const Json& patterns) {
    if (!patterns.is_array()) return false;
    for (const auto& pattern : patterns) {
      if (check_pattern_at(line, pattern, "ignore pattern", false)) {
        header.ignore.push_back(pattern);
      }
    }
    return true;
  });
  field("unknown_options",
        "\"reject\" (the default: options the emulated CLI version does not know are rejected as "
        "it rejects them) or \"accept\" (for a fork of the CLI)",
        [&](const Json& v) {
          header.accept_unknown_options = v == "accept";
          return v == "accept" || v == "reject";
        });
  bool_field("lenient", header.lenient);
  bool_field("strict", header.strict);
  field("timeout_ms", "a positive integer", [&](const Json& v) {
    const auto ms = non_negative_ms(v);
    if (ms && *ms > 0) header.timeout_ms = *ms;
    return ms && *ms > 0;
  });
  field("order", "\"sequential\" or \"causal\"", [&](const Json& v) {
    if (v == "causal") header.order = Order::causal;
    return v == "sequential" || v == "causal";
  });
  field("driver", "an object", [&](const Json& v) {
    if (v.is_object()) header.driver = v;
    return v.is_object();
  });
}

void ScenarioParser::step(std::size_t line, Json s) {
  if (!s.is_object()) {
    return error(line, "a step must be a JSON object, got " + std::string(s.type_name()));
  }
  const VerbSpec* spec = nullptr;
  for (const auto& candidate : kVerbs) {
    if (!s.contains(candidate.key)) continue;
    if (spec != nullptr) {
      return error(line, "two verbs on one line: '" + std::string(spec->key) + "' and '" +
                             std::string(candidate.key) + "'");
    }
    spec = &candidate;
  }
  if (spec == nullptr) {
    std::string keys;
    std::vector<std::string> verbs;
    for (const auto& candidate : kVerbs) verbs.emplace_back(candidate.key);
    for (auto it = s.begin(); it != s.end(); ++it) {
      keys += (keys.empty() ? "'" : ", '") + it.key() + "'" + did_you_mean(it.key(), verbs);
    }
    return error(line, "unknown verb (keys " + (keys.empty() ? std::string("none") : keys) +
                           "); expected one of send, raw, raw_b64, stderr, stderr_b64, expect, "
                           "request, cancel, respond, respond_error, sleep_ms, expect_eof, "
                           "expect_prompt, exit, kill, hang");
  }
  std::vector<std::string> known(std::begin(kOrderModifiers), std::end(kOrderModifiers));
  for (const auto& modifier : spec->modifiers) {
    if (!modifier.empty()) known.emplace_back(modifier);
  }
  for (auto it = s.begin(); it != s.end(); ++it) {
    if (it.key() != spec->key && std::ranges::find(known, it.key()) == known.end()) {
      return error(line, "unknown field '" + it.key() + "' for verb '" + std::string(spec->key) +
                             "'" + did_you_mean(it.key(), known));
    }
  }
  if (after_end_) return error(line, "step after exit/kill/hang is never reached");

  Step step;
  step.verb = spec->verb;
  step.line = line;
  Json& arg = s[std::string(spec->key)];

  if (auto it = s.find("within_ms"); it != s.end()) {
    auto ms = non_negative_ms(*it);
    if (!ms || *ms == 0) return error(line, "within_ms must be a positive integer");
    step.within_ms = *ms;
  }
  // A modifier that takes a non-empty string: false when it is there and is not one.
  auto name_field = [&](std::string_view key, std::string& out) {
    auto it = s.find(key);
    if (it == s.end()) return true;
    if (!it->is_string() || it->get_ref<const std::string&>().empty()) return false;
    out = it->get<std::string>();
    return true;
  };
  if (!name_field("label", step.label)) return error(line, "'label' takes a name");
  if (!name_field("malformed", step.malformed)) {
    return error(line, "'malformed' takes the reason the step is meant to be malformed");
  }
  if (auto it = s.find("after"); it != s.end()) {
    const bool names =
        it->is_array() && !it->empty() && std::all_of(it->begin(), it->end(), [](const Json& name) {
          return name.is_string() && !name.get_ref<const std::string&>().empty();
        });
    if (!names) return error(line, "'after' takes a non-empty array of labels");
    for (const auto& name : *it) step.after.push_back(name.get<std::string>());
  }
  if (auto it = s.find("if_env"); it != s.end()) {
    const bool strings =
        it->is_object() && !it->empty() &&
        std::all_of(it->begin(), it->end(), [](const Json& value) { return value.is_string(); });
    if (!strings) return error(line, "'if_env' takes an object of NAME: \"value\" strings");
    if (spec->verb != Verb::send && spec->verb != Verb::raw && spec->verb != Verb::stderr_text) {
      return error(line, "'if_env' conditions a line the fake writes (send, raw, stderr)");
    }
    for (auto env = it->begin(); env != it->end(); ++env) {
      step.if_env.emplace_back(env.key(), env->get<std::string>());
    }
  }

  // Modifiers of one verb only (the check above keeps them off the others).
  if (auto it = s.find("chunks"); it != s.end()) {
    if (!it->is_array() || it->empty()) {
      return error(line, "chunks must be a non-empty array of byte counts");
    }
    for (const auto& n : *it) {
      auto count = non_negative_ms(n);
      if (!count || *count == 0) {
        return error(line,
                     "chunks holds " + base::dump_json(n) + ", expected a positive byte count");
      }
      step.chunks.push_back(static_cast<std::size_t>(*count));
    }
  }
  if (auto it = s.find("gap_ms"); it != s.end()) {
    auto ms = non_negative_ms(*it);
    if (!ms) return error(line, "gap_ms must be a non-negative integer");
    if (step.chunks.empty()) return error(line, "gap_ms needs chunks");
    step.gap_ms = *ms;
  }

  switch (spec->verb) {
    case Verb::send:
    case Verb::respond:
      if (!check_names_known(line, referenced_variables(arg))) return;
      step.value = std::move(arg);
      break;
    case Verb::raw:
    case Verb::stderr_text:
    case Verb::respond_error:
      if (!arg.is_string()) return error(line, "'" + std::string(spec->key) + "' takes a string");
      if (spec->key.ends_with("_b64")) {
        auto bytes = base::base64_decode(arg.get_ref<const std::string&>());
        if (!bytes) {
          return error(line, "'" + std::string(spec->key) +
                                 "' is not valid base64 (RFC 4648, standard alphabet, padded)");
        }
        step.text = std::move(*bytes);
      } else {
        step.text = std::move(arg.get_ref<std::string&>());
      }
      break;
    case Verb::expect:
      if (!check_pattern_at(line, arg, "expect pattern", true)) return;
      step.value = std::move(arg);
      seen_expect_ = true;
      break;
    case Verb::expect_prompt:
      if (!arg.is_string() && !arg.is_object()) {
        return error(line,
                     "'expect_prompt' takes the prompt text or a pattern such as {\"$re\":\"…\"}");
      }
      if (!check_pattern_at(line, arg, "expect_prompt pattern", true)) return;
      step.value = std::move(arg);
      break;
    case Verb::request: {
      if (!arg.is_object()) return error(line, "'request' takes an object");
      const char* key = scenario_.header.protocol == Dialect::jsonrpc ? "method" : "subtype";
      if (!arg.contains(key) || !arg[key].is_string()) {
        return error(line, std::string("'request' needs a string '") + key + "'");
      }
      if (!check_names_known(line, referenced_variables(arg))) return;
      step.value = std::move(arg);
      // The `as` name is bound to the fresh request id before the reply is matched, so the
      // step's own expect_response may refer to it ({"request_id":{"$var":"perm"}}).
      if (!name_field("as", step.text)) return error(line, "'as' takes a name");
      if (!step.text.empty()) defined_.insert(step.text);
      if (auto it = s.find("expect_response"); it != s.end()) {
        if (!check_pattern_at(line, *it, "expect_response pattern", true)) return;
        step.response = std::move(*it);
      }
      break;
    }
    case Verb::cancel:
      if (!arg.is_string()) {
        return error(line, "'cancel' takes the name given with 'as' to an earlier request");
      }
      step.text = arg.get<std::string>();
      if (!defined_.contains(step.text)) {
        return error(line, "cancel: no earlier request named '" + step.text + "'");
      }
      break;
    case Verb::sleep: {
      auto ms = non_negative_ms(arg);
      if (!ms) return error(line, "sleep_ms must be a non-negative integer");
      step.ms = *ms;
      break;
    }
    case Verb::expect_eof:
    case Verb::hang:
      if (arg != true) return error(line, "'" + std::string(spec->key) + "' takes true");
      break;
    case Verb::exit: {
      auto code = non_negative_ms(arg);
      if (!code || *code > 255) return error(line, "exit takes an integer from 0 to 255");
      step.number = static_cast<int>(*code);
      break;
    }
    case Verb::kill: {
      auto number = arg.is_string() ? signal_number(arg.get<std::string>()) : std::nullopt;
      if (!number) {
        return error(line,
                     "kill takes a signal name such as \"SIGSEGV\", got " + base::dump_json(arg));
      }
      step.text = arg.get<std::string>();
      step.number = *number;
      break;
    }
  }
  if ((spec->verb == Verb::respond || spec->verb == Verb::respond_error) && !seen_expect_) {
    return error(line,
                 "'" + std::string(spec->key) +
                     "' answers the last request matched by an expect, but no expect comes before");
  }
  if (spec->verb == Verb::exit || spec->verb == Verb::kill || spec->verb == Verb::hang) {
    after_end_ = true;
  }
  scenario_.steps.push_back(std::move(step));
}

}  // namespace claude::emulator::detail

namespace claude::emulator {

// The name a verb is written with: the first key of kVerbs that gives it.
std::string_view verb_name(Verb verb) {
  for (const auto& spec : detail::kVerbs) {
    if (spec.verb == verb) return spec.key;
  }
  return "?";
}

}  // namespace claude::emulator
