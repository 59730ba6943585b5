// Options: everything that shapes one session — how the CLI is found and started, its argv,
//
//   claude::sdk::Options options{.cli_path = "/usr/local/bin/claude",
//                                .permission_mode = claude::sdk::PermissionMode::accept_edits,
//                                .max_turns = 3};
//
// its environment, callbacks, in-process MCP servers, timeouts and teardown.
//
// What it is: a plain struct; members left at their defaults add nothing to the argv (see
// argv_builder.hpp for the exact mapping, docs/protocol.md §1.2). A timeout of 0 disables it.
//
// How it fails: contradictory values are reported when the session starts (`build_argv` throws
// std::invalid_argument naming the option).
// What it costs: nothing until used.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claude/sdk/hooks.hpp"
#include "claude/sdk/mcp_server.hpp"
#include "claude/sdk/permissions.hpp"

namespace claude::sdk {

struct SystemPrompt {
  enum class Kind { text, file, preset };
  Kind kind = Kind::text;
  std::string value;   // text, or the file path
  std::string append;  // preset: text appended to Claude Code's own prompt
};

struct ThinkingConfig {
  enum class Kind { adaptive, enabled, disabled };
  Kind kind = Kind::adaptive;
  int budget_tokens = 0;  // enabled
};

// How in-process MCP servers are announced to the CLI (both are answered over mcp_message).
enum class SdkMcpStyle {
  initialize_manifests,  // TS: `sdkMcpServers` + `sdkMcpServerManifests` in `initialize`
  mcp_config             // Python: `--mcp-config` entries {"type":"sdk","name":N}
};

struct Options {
  // --- finding and starting the CLI ----------------------------------------------------------
  std::string cli_path;                      // empty: discovery (cli_discovery.hpp)
  bool search_login_shell = false;           // discovery may ask `$SHELL -l -c 'command -v claude'`
  std::vector<std::string> cli_prefix_args;  // put before the protocol flags (e.g. --scenario F)
  std::string cwd;                           // empty: the host's
  std::map<std::string, std::string> env;    // merged over the host's environment
  bool own_process_group = false;            // terminal Ctrl-C reaches only the host
  std::function<void(std::string_view line)> on_stderr;

  // --- argv ------------------------------------------------------------------------------------
  SystemPrompt system_prompt;                // default: empty text, i.e. no Claude Code prompt
  bool system_prompt_in_initialize = false;  // send it in `initialize` instead of argv
  std::optional<std::string> model;
  std::optional<std::string> fallback_model;
  std::optional<PermissionMode> permission_mode;
  std::optional<std::string> permission_prompt_tool;  // forced to "stdio" by can_use_tool
  std::optional<int> max_turns;
  std::optional<double> max_budget_usd;
  std::vector<std::string> allowed_tools;
  std::vector<std::string> disallowed_tools;
  std::optional<std::vector<std::string>> tools;          // base tool set ([] = none)
  nlohmann::json mcp_servers = nlohmann::json::object();  // external servers: name → config
  std::optional<std::string> mcp_config;                  // path or JSON text, used verbatim
  bool strict_mcp_config = false;
  bool include_partial_messages = false;
  bool continue_conversation = false;
  std::optional<std::string> resume;
  std::optional<std::string> session_id;
  bool fork_session = false;
  std::vector<std::string> add_dirs;
  std::optional<std::string> settings;  // path or JSON text
  std::optional<std::vector<std::string>> setting_sources;
  std::optional<std::string> effort;
  std::optional<ThinkingConfig> thinking;
  std::vector<std::string> betas;
  // --flag value (or --flag when the value is nullopt); insertion order kept.
  std::vector<std::pair<std::string, std::optional<std::string>>> extra_args;

  // --- in-session ------------------------------------------------------------------------------
  CanUseTool can_use_tool;
  HookMap hooks;
  nlohmann::json agents = nullptr;  // name → agent definition, sent in `initialize`
  std::vector<std::shared_ptr<const McpServer>> sdk_mcp_servers;
  SdkMcpStyle sdk_mcp_style = SdkMcpStyle::initialize_manifests;
  bool enable_file_checkpointing = false;

  // --- limits and timeouts ---------------------------------------------------------------------
  std::size_t max_line_bytes = 32u << 20;
  // Line bytes of messages read ahead of the consumer (`receive_*`, `Query::next`). At the cap the
  // reader stops reading until the consumer has taken half of them: the CLI's stdout pipe fills
  // and the CLI waits, so memory stays bounded whatever the session's length. Not while one of
  // our control requests awaits its answer (the answer must be read), while we write to the
  // CLI's stdin (a CLI blocked on stdout may not read it), or after close(). A single line may
  // overshoot the cap by up to `max_line_bytes`. 0: unbounded.
  std::size_t max_queued_message_bytes = 2u << 20;
  std::chrono::milliseconds initialize_timeout{60000};
  std::chrono::milliseconds control_timeout{60000};
  std::chrono::milliseconds message_inactivity_timeout{120000};
  std::chrono::milliseconds close_grace{5000};  // after EOF, before SIGTERM
  std::chrono::milliseconds term_wait{5000};    // after SIGTERM, before SIGKILL
};

// The SDK's version, sent as CLAUDE_AGENT_SDK_VERSION.
inline constexpr std::string_view kSdkVersion = "0.1.0";

}  // namespace claude::sdk
