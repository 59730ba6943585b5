// CLI discovery: where the `claude` executable is (docs/protocol.md §1.1).
//
// Order: Options::cli_path (used as given; it must exist and be executable), then every `$PATH`
// entry, then the known install locations (~/.npm-global/bin, /usr/local/bin, ~/.local/bin,
// ~/node_modules/.bin, ~/.yarn/bin, ~/.claude/local), then — only when `search_login_shell` is
// set — the user's login shell, `$SHELL -l -c 'command -v claude'` (finds nvm, mise and asdf
// installs that only a login shell puts on PATH; run with an argv vector, 5 s limit).
//
// How it fails: `CLINotFoundError` listing every candidate, in order.
// What it costs: a stat per candidate; the login shell, when asked for, is a process start.
#pragma once

#include <optional>
#include <string>

namespace claude::sdk {

struct DiscoveryEnvironment {
  std::string path;   // $PATH
  std::string home;   // $HOME
  std::string shell;  // $SHELL

  static DiscoveryEnvironment from_host();
};

// Throws CLINotFoundError.
std::string find_cli(const std::string& cli_path, bool search_login_shell,
                     const DiscoveryEnvironment& env = DiscoveryEnvironment::from_host());

}  // namespace claude::sdk
