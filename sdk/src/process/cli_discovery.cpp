#include "process/cli_discovery.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "claude/base/subprocess.hpp"
#include "claude/sdk/errors.hpp"
#include "process/argv_builder.hpp"
#include "process/subprocess_transport.hpp"

namespace claude::sdk {
namespace {

std::string getenv_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// `$SHELL -l -c 'command -v claude'`, argv vector, own process group, 5 s limit.
std::optional<std::string> ask_login_shell(const std::string& shell) {
  SubprocessOptions options;
  options.grace = std::chrono::milliseconds(0);
  options.term_wait = std::chrono::milliseconds(500);
  SubprocessTransport t({{shell, "-l", "-c", "command -v claude"}, host_environment(), "", true},
                        options);
  try {
    t.connect();
  } catch (const ConnectionError&) {
    return std::nullopt;
  }
  t.end_input();
  std::jthread watchdog([&t](const std::stop_token& stop) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    cv.wait_for(lock, stop, std::chrono::seconds(5), [] { return false; });
    if (!stop.stop_requested()) t.close();
  });
  std::optional<std::string> found;
  for (;;) {
    ReadResult r = t.read();
    auto* line = std::get_if<InboundLine>(&r);
    if (!line) break;
    // Login shells may print banners; the answer is the line that is an absolute path.
    if (!line->text.empty() && line->text[0] == '/') found = line->text;
  }
  watchdog.request_stop();
  watchdog.join();
  t.close();
  return found;
}

}  // namespace

DiscoveryEnvironment DiscoveryEnvironment::from_host() {
  return {getenv_or_empty("PATH"), getenv_or_empty("HOME"), getenv_or_empty("SHELL")};
}

std::string find_cli(const std::string& cli_path, bool search_login_shell,
                     const DiscoveryEnvironment& env) {
  std::vector<std::string> searched;
  if (!cli_path.empty()) {
    if (base::is_executable_file(cli_path)) return cli_path;
    throw CLINotFoundError({"Options::cli_path " + cli_path + " (missing or not executable)"});
  }
  for (std::size_t start = 0, end = 0; start <= env.path.size(); start = end + 1) {
    end = std::min(env.path.find(':', start), env.path.size());
    const std::string dir = env.path.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/claude";
    if (base::is_executable_file(candidate)) return candidate;
    searched.push_back("PATH entry " + candidate);
  }
  for (std::string candidate :
       {"~/.npm-global/bin/claude", "/usr/local/bin/claude", "~/.local/bin/claude",
        "~/node_modules/.bin/claude", "~/.yarn/bin/claude", "~/.claude/local/claude"}) {
    if (candidate[0] == '~' && env.home.empty()) continue;
    if (candidate[0] == '~') candidate.replace(0, 1, env.home);
    if (base::is_executable_file(candidate)) return candidate;
    searched.push_back("known location " + candidate);
  }
  if (search_login_shell) {
    if (env.shell.empty()) {
      searched.emplace_back("login shell (skipped: $SHELL is not set)");
    } else {
      auto found = ask_login_shell(env.shell);
      if (found && base::is_executable_file(*found)) return *found;
      searched.push_back("login shell " + env.shell + " -l -c 'command -v claude'" +
                         (found ? " (answered " + *found + ", not executable)" : ""));
    }
  } else {
    searched.emplace_back("login shell (not asked: Options::search_login_shell is off)");
  }
  throw CLINotFoundError(std::move(searched));
}

}  // namespace claude::sdk
