#include "claude/emulator/invocation.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace claude::emulator {
namespace {

// Valued flags of the CLI as the official SDKs emit them (PROTOCOL.md §1.2).
constexpr std::string_view kValued[] = {"--output-format",
                                        "--input-format",
                                        "--system-prompt",
                                        "--system-prompt-file",
                                        "--append-system-prompt",
                                        "--tools",
                                        "--allowedTools",
                                        "--allowed-tools",
                                        "--max-turns",
                                        "--max-budget-usd",
                                        "--disallowedTools",
                                        "--disallowed-tools",
                                        "--task-budget",
                                        "--model",
                                        "--fallback-model",
                                        "--betas",
                                        "--permission-prompt-tool",
                                        "--permission-mode",
                                        "--resume",
                                        "-r",
                                        "--session-id",
                                        "--settings",
                                        "--add-dir",
                                        "--mcp-config",
                                        "--resume-session-at",
                                        "--resume-drops-turn",
                                        "--setting-sources",
                                        "--plugin-dir",
                                        "--plugin-dir-no-mcp",
                                        "--thinking",
                                        "--max-thinking-tokens",
                                        "--thinking-display",
                                        "--effort",
                                        "--json-schema",
                                        "--agent",
                                        "--agents",
                                        "--debug-file",
                                        "--permission-prompts",
                                        "--channels",
                                        "--project-config-root",
                                        "--initialize-fields",
                                        "--managed-settings",
                                        "--scenario",
                                        "--speed"};

// Switches: never followed by a value of their own.
constexpr std::string_view kSwitches[] = {"--verbose",
                                          "--continue",
                                          "-c",
                                          "--include-partial-messages",
                                          "--include-hook-events",
                                          "--strict-mcp-config",
                                          "--fork-session",
                                          "--session-mirror",
                                          "--debug",
                                          "--allow-dangerously-skip-permissions",
                                          "--dangerously-skip-permissions",
                                          "--await-initialize",
                                          "--no-session-persistence",
                                          "--managed-settings-in-initialize",
                                          "--print",
                                          "-p",
                                          "--replay-user-messages",
                                          "--version",
                                          "-v",
                                          "--help",
                                          "-h"};

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

}  // namespace

std::optional<double> parse_speed(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  return value;
}

bool takes_value(std::string_view flag) {
  return contains(kValued, flag);
}

bool Invocation::has(std::string_view spec) const {
  const auto eq = spec.find('=');
  const std::string_view name = spec.substr(0, eq);
  return std::any_of(flags.begin(), flags.end(), [&](const Flag& flag) {
    if (flag.name != name) return false;
    if (eq == std::string_view::npos) return true;
    return flag.value && *flag.value == spec.substr(eq + 1);
  });
}

bool Invocation::reads_text_prompt() const {
  return (has("--print") || has("-p")) && !has("--input-format=stream-json");
}

std::optional<std::string> Invocation::prompt_argument() const {
  if (positionals.empty()) return std::nullopt;
  return positionals.front();
}

std::string print_mode_prompt(const std::optional<std::string>& argument,
                              std::string_view stdin_text) {
  if (!argument) return std::string(stdin_text);
  if (stdin_text.empty()) return *argument;
  return *argument + "\n" + std::string(stdin_text);
}

Invocation parse_invocation(std::span<const std::string> args) {
  Invocation inv;
  inv.args.assign(args.begin(), args.end());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--") {
      inv.positionals.insert(inv.positionals.end(), args.begin() + static_cast<long>(i) + 1,
                             args.end());
      break;
    }
    if (token.size() < 2 || token[0] != '-') {
      inv.positionals.push_back(token);
      continue;
    }
    Flag flag;
    if (const auto eq = token.find('='); token.starts_with("--") && eq != std::string::npos) {
      flag.name = token.substr(0, eq);
      flag.value = token.substr(eq + 1);
    } else {
      flag.name = token;
      const bool has_next = i + 1 < args.size();
      if (takes_value(token)) {
        if (!has_next) {
          inv.error = token + " needs a value";
          continue;
        }
        flag.value = args[++i];
      } else if (!contains(kSwitches, token) && token.starts_with("--") && has_next &&
                 !args[i + 1].starts_with("-")) {
        flag.value = args[++i];
      }
    }
    if (flag.name == "--scenario") {
      inv.scenario_path = flag.value;
      continue;
    }
    if (flag.name == "--speed") {
      inv.speed = parse_speed(flag.value.value_or(""));
      if (!inv.speed) {
        inv.error =
            "--speed needs a number >= 0 (0: as fast as possible, 1: the recorded pace), "
            "got '" +
            flag.value.value_or("") + "'";
      }
      continue;
    }
    if (flag.name == "-v" || flag.name == "--version") inv.version = true;
    if (flag.name == "-h" || flag.name == "--help") inv.help = true;
    inv.flags.push_back(std::move(flag));
  }
  return inv;
}

}  // namespace claude::emulator
