#include "claude/base/base64.hpp"
#include "claude/base/json.hpp"
#include "claude/base/utf8.hpp"
#include "claude/emulator/scenario.hpp"

namespace claude::emulator {
namespace {

// Bytes that are not UTF-8 cannot be a JSON string without loss: they go out as `KEY_b64`.
void put_bytes(Json& out, const std::string& key, const std::string& bytes) {
  if (base::is_valid_utf8(bytes)) {
    out[key] = bytes;
  } else {
    out[key + "_b64"] = base::base64_encode(bytes);
  }
}

Json header_json(const Scenario& scenario) {
  const Header& h = scenario.header;
  const Header defaults;
  Json out = Json::object({{"scenario", 1}});
  if (!h.name.empty()) out["name"] = h.name;
  if (!h.description.empty()) out["description"] = h.description;
  out["cli_version"] = h.cli_version;
  if (scenario.truncated) out["truncated"] = *scenario.truncated;
  if (h.protocol == Dialect::jsonrpc) out["protocol"] = "jsonrpc";
  if (h.order == Order::causal) out["order"] = "causal";
  // Objects come into being with their first member.
  if (!h.argv_require.empty()) out["argv"]["require"] = h.argv_require;
  if (!h.argv_forbid.empty()) out["argv"]["forbid"] = h.argv_forbid;
  for (const auto& [name, pattern] : h.env_require) out["env"]["require"][name] = pattern;
  out["auto_initialize"] = h.initialize_response.value_or(Json(h.auto_initialize));
  if (!h.ignore.empty()) out["ignore"] = h.ignore;
  if (h.strict != defaults.strict) out["strict"] = h.strict;
  if (h.lenient != defaults.lenient) out["lenient"] = h.lenient;
  if (h.timeout_ms != defaults.timeout_ms) out["timeout_ms"] = h.timeout_ms;
  if (h.driver) out["driver"] = *h.driver;
  return out;
}

Json step_json(const Step& step) {
  Json out = Json::object();
  const std::string key(verb_name(step.verb));
  switch (step.verb) {
    case Verb::send:
      if (step.verbatim) {
        const std::string_view line(step.text.data(), step.text.size() - 1);
        Json parsed = base::parse_json_or_discarded(line);
        if (parsed.is_discarded()) {
          put_bytes(out, "raw", step.text);
        } else {
          out["send"] = std::move(parsed);
        }
      } else {
        out["send"] = step.value;
        if (!step.chunks.empty()) out["chunks"] = step.chunks;
        if (step.gap_ms != 0) out["gap_ms"] = step.gap_ms;
      }
      break;
    case Verb::raw:
    case Verb::stderr_text:
      put_bytes(out, key, step.text);
      break;
    case Verb::request:
      out["request"] = step.value;
      if (!step.text.empty()) out["as"] = step.text;
      if (step.response) out["expect_response"] = *step.response;
      break;
    case Verb::expect:
    case Verb::respond:
    case Verb::expect_prompt:
      out[key] = step.value;
      break;
    case Verb::cancel:
    case Verb::respond_error:
    case Verb::kill:
      out[key] = step.text;
      break;
    case Verb::sleep:
      out[key] = step.ms;
      break;
    case Verb::exit:
      out[key] = step.number;
      break;
    case Verb::expect_eof:
    case Verb::hang:
      out[key] = true;
      break;
  }
  if (step.within_ms) out["within_ms"] = *step.within_ms;
  if (!step.label.empty()) out["label"] = step.label;
  if (!step.malformed.empty()) out["malformed"] = step.malformed;
  if (!step.after.empty()) out["after"] = step.after;
  for (const auto& [name, value] : step.if_env) out["if_env"][name] = value;
  return out;
}

}  // namespace

std::string to_ndjson(const Scenario& scenario) {
  std::string out = base::dump_json(header_json(scenario));
  out += '\n';
  for (const Step& step : scenario.steps) {
    out += base::dump_json(step_json(step));
    out += '\n';
  }
  return out;
}

}  // namespace claude::emulator
