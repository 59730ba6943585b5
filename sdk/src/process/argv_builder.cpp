#include "process/argv_builder.hpp"

#include <unistd.h>

#include <sstream>
#include <stdexcept>

extern char** environ;

namespace claude::sdk {
namespace {

std::string join(const std::vector<std::string>& items, char sep = ',') {
  std::string out;
  for (const auto& i : items) {
    if (!out.empty()) out += sep;
    out += i;
  }
  return out;
}

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

std::vector<std::string> build_argv(const Options& o, const std::string& cli_path) {
  if (o.can_use_tool && o.permission_prompt_tool && *o.permission_prompt_tool != "stdio")
    throw std::invalid_argument(
        "Options: can_use_tool needs permission_prompt_tool \"stdio\"; it is set to \"" +
        *o.permission_prompt_tool + "\"");
  if (o.model && o.fallback_model && *o.model == *o.fallback_model)
    throw std::invalid_argument("Options: fallback_model must differ from model (" + *o.model +
                                ")");
  if (o.max_turns && *o.max_turns < 1)
    throw std::invalid_argument("Options: max_turns must be at least 1");
  if (o.max_budget_usd && *o.max_budget_usd < 0)
    throw std::invalid_argument("Options: max_budget_usd must not be negative");

  std::vector<std::string> argv{cli_path};
  argv.insert(argv.end(), o.cli_prefix_args.begin(), o.cli_prefix_args.end());
  for (const char* base :
       {"--output-format", "stream-json", "--verbose", "--input-format", "stream-json"})
    argv.emplace_back(base);
  auto flag = [&](const std::string& name) { argv.push_back("--" + name); };
  auto joined = [&](const std::string& name, const std::string& v) {
    argv.push_back("--" + name + "=" + v);
  };
  auto value = [&](const std::string& name, const std::string& v) {
    // A value beginning with '-' would be taken for a flag by the CLI's parser.
    if (!v.empty() && v[0] == '-') return joined(name, v);
    flag(name);
    argv.push_back(v);
  };

  if (const SystemPrompt& sp = o.system_prompt; !o.system_prompt_in_initialize) {
    if (sp.kind == SystemPrompt::Kind::text) value("system-prompt", sp.value);
    if (sp.kind == SystemPrompt::Kind::file) value("system-prompt-file", sp.value);
    if (sp.kind == SystemPrompt::Kind::preset && !sp.append.empty())
      value("append-system-prompt", sp.append);
  }
  if (o.model) value("model", *o.model);
  if (o.fallback_model) value("fallback-model", *o.fallback_model);
  if (o.permission_mode) value("permission-mode", std::string(to_string(*o.permission_mode)));
  if (o.can_use_tool)
    value("permission-prompt-tool", "stdio");
  else if (o.permission_prompt_tool)
    value("permission-prompt-tool", *o.permission_prompt_tool);
  if (o.max_turns) value("max-turns", std::to_string(*o.max_turns));
  if (o.max_budget_usd) value("max-budget-usd", number(*o.max_budget_usd));
  if (!o.allowed_tools.empty()) value("allowedTools", join(o.allowed_tools));
  if (!o.disallowed_tools.empty()) value("disallowedTools", join(o.disallowed_tools));
  if (o.tools) value("tools", join(*o.tools));

  nlohmann::json servers = o.mcp_servers.is_object() ? o.mcp_servers : nlohmann::json::object();
  if (o.sdk_mcp_style == SdkMcpStyle::mcp_config)
    for (const auto& server : o.sdk_mcp_servers)
      servers[server->name()] = {{"type", "sdk"}, {"name", server->name()}};
  if (o.mcp_config)
    value("mcp-config", *o.mcp_config);
  else if (!servers.empty())
    value("mcp-config", nlohmann::json{{"mcpServers", servers}}.dump());
  if (o.strict_mcp_config) flag("strict-mcp-config");
  if (o.include_partial_messages) flag("include-partial-messages");
  if (o.continue_conversation) flag("continue");
  if (o.resume) joined("resume", *o.resume);
  if (o.session_id) joined("session-id", *o.session_id);
  if (o.fork_session) flag("fork-session");
  for (const auto& dir : o.add_dirs) value("add-dir", dir);
  if (o.settings) value("settings", *o.settings);
  if (o.setting_sources) joined("setting-sources", join(*o.setting_sources));
  if (o.effort) value("effort", *o.effort);
  // An enabled budget of 0 tokens means the CLI's own (adaptive) choice.
  if (o.thinking && o.thinking->kind == ThinkingConfig::Kind::enabled &&
      o.thinking->budget_tokens > 0)
    value("max-thinking-tokens", std::to_string(o.thinking->budget_tokens));
  else if (o.thinking)
    value("thinking", o.thinking->kind == ThinkingConfig::Kind::disabled ? "disabled" : "adaptive");
  if (!o.betas.empty()) value("betas", join(o.betas));
  for (const auto& [name, arg] : o.extra_args) {
    if (arg)
      value(name, *arg);
    else
      flag(name);
  }
  return argv;
}

std::vector<std::string> build_environment(const Options& o,
                                           const std::vector<std::string>& parent) {
  std::map<std::string, std::string> env;
  for (const auto& entry : parent) {
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  // A CLI started from inside another Claude Code session would otherwise think it is nested.
  env.erase("CLAUDECODE");
  env["CLAUDE_CODE_ENTRYPOINT"] = "sdk-cpp";
  env["CLAUDE_CODE_SDK_READS_SESSION_STATE"] = "1";
  if (o.enable_file_checkpointing) env["CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"] = "true";
  for (const auto& [k, v] : o.env) env[k] = v;
  if (!o.cwd.empty()) env["PWD"] = o.cwd;
  env["CLAUDE_AGENT_SDK_VERSION"] = std::string(kSdkVersion);
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

std::vector<std::string> host_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) out.emplace_back(*e);
  return out;
}

}  // namespace claude::sdk
