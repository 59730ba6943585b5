// The CLI's argv and environment for a session, built from Options (docs/protocol.md §1.2, §1.3).
//
// argv: `<cli> [cli_prefix_args] --output-format stream-json --verbose --input-format stream-json`,
// then one flag per option that is set, in the order the members appear in Options. Values go
// in a separate token, except values that start with '-' (they could be read as a flag) and the
// session ids (`--resume=`, `--session-id=`), which use the single `--flag=value` token.
// `--permission-prompt-tool stdio` is added whenever a can_use_tool callback is set.
// `--system-prompt ""` is sent by default (no Claude Code prompt), like the official SDKs.
// In-process MCP servers in the `mcp_config` style join the external ones in `--mcp-config` as
// {"type":"sdk","name":N}.
//
// environment: the parent's, with `CLAUDECODE` removed, then `CLAUDE_CODE_ENTRYPOINT=sdk-cpp`
// and `CLAUDE_CODE_SDK_READS_SESSION_STATE=1` (both overridable by Options::env), Options::env
// merged on top, `PWD` set to the cwd when one is given, and `CLAUDE_AGENT_SDK_VERSION` last.
//
// How it fails: std::invalid_argument naming the options when they contradict each other
// (a can_use_tool callback together with another permission_prompt_tool; fallback_model equal
// to model; a setting that makes no sense, e.g. a negative max_turns).
// What it costs: a few small strings.
#pragma once

#include <string>
#include <vector>

#include "claude/sdk/options.hpp"

namespace claude::sdk {

std::vector<std::string> build_argv(const Options& options, const std::string& cli_path);

// `parent` is "NAME=value" entries (normally the host's `environ`).
std::vector<std::string> build_environment(const Options& options,
                                           const std::vector<std::string>& parent);
// The host's environment as "NAME=value" entries.
std::vector<std::string> host_environment();

}  // namespace claude::sdk
