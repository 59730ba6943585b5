// model-stub: a scripted fake of the Anthropic Messages API on 127.0.0.1 (docs/model-stub.md).
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <charconv>
#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "claude/base/cli.hpp"
#include "claude/model_stub/model_script.hpp"
#include "claude/model_stub/request_log.hpp"
#include "claude/model_stub/scripted_model.hpp"
#include "claude/model_stub/server.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;

constexpr std::string_view kHelp =
    R"(Usage: model-stub --script FILE [--port N] [--log FILE [--force]] [--check] [limits]

A scripted fake of the Anthropic Messages API for running the real Claude Code CLI offline.
Serves POST /v1/messages (SSE when the body has "stream":true, JSON otherwise) on 127.0.0.1
only; every other endpoint gets an Anthropic-style JSON error. Answers come from the model
script (NDJSON, see docs/model-stub.md and docs/model-script.schema.json).

Options:
  --script FILE  the model script (required)
  --port N       TCP port on 127.0.0.1; 0 (the default) lets the system pick a free one
  --log FILE     write one NDJSON line per request served to FILE, created 0600 (secret
                 headers and known secrets in bodies redacted); an existing FILE (or a
                 symlink) is refused unless --force replaces it
  --force        replace an existing --log FILE
  --check        validate the model script and exit
Limits (a connection past a timeout is closed; see docs/model-stub.md):
  --idle-timeout-ms N    wait for the next request on a connection (default 300000)
  --header-timeout-ms N  from a request's first byte to the end of its header (default 30000)
  --body-timeout-ms N    from the end of the header to the end of the body (default 60000)
  --body-budget-mib N    request bodies being received at once, in MiB (default 256); a
                         request past it gets 529 overloaded_error
  --help         this text
  --version      print the version

Once listening, prints one line on stdout, the base URL to use as ANTHROPIC_BASE_URL:
  http://127.0.0.1:PORT
and serves until SIGINT or SIGTERM.

Exit codes: 0 stopped by a signal (or --check passed), 2 usage error, bad model script
(file:line: reason on stderr), log file not writable, or port not available.
)";

struct Options {
  std::string script;
  std::string log;
  bool force = false;
  std::uint16_t port = 0;
  bool check = false;
  claude::model_stub::ServerLimits limits;
};

const claude::base::CommandLineText kText{"model-stub", kHelp, "(see model-stub --help)\n", false,
                                          "unknown argument"};

int usage_error(const std::string& message) {
  return claude::base::usage_error(kText, message, std::cerr);
}

// A whole number from `min` to `max`.
std::optional<std::uint64_t> parse_number(std::string_view text, std::uint64_t min,
                                          std::uint64_t max) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return std::nullopt;
  }
  return value;
}

// The limits, as given: words their own errors, as docs/model-stub.md shows them.
struct LimitArgs {
  std::optional<std::string> port, idle, header, body, budget;
};

std::optional<int> apply_limits(const LimitArgs& given, Options& options) {
  if (given.port) {
    auto port = parse_number(*given.port, 0, 65535);
    if (!port) return usage_error("--port needs a number from 0 to 65535");
    options.port = static_cast<std::uint16_t>(*port);
  }
  for (auto [flag, text, slot] :
       {std::tuple{"--idle-timeout-ms", &given.idle, &options.limits.idle_timeout},
        {"--header-timeout-ms", &given.header, &options.limits.header_timeout},
        {"--body-timeout-ms", &given.body, &options.limits.body_timeout}}) {
    if (!*text) continue;
    auto ms = parse_number(**text, 1, 86'400'000);
    if (!ms) return usage_error(std::string(flag) + " needs milliseconds from 1 to 86400000");
    *slot = std::chrono::milliseconds(*ms);
  }
  if (given.budget) {
    auto mib = parse_number(*given.budget, 1, 1u << 20);
    if (!mib) return usage_error("--body-budget-mib needs a number of MiB from 1 to 1048576");
    options.limits.body_budget_bytes = *mib << 20;
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  LimitArgs limits;
  bool version = false;
  CLI::App app;
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--script", options.script)->type_name("FILE");
  app.add_option("--log", options.log)->type_name("FILE");
  app.add_flag("--force", options.force);
  app.add_flag("--check", options.check);
  app.add_flag("--version", version);
  app.add_option("--port", limits.port);
  app.add_option("--idle-timeout-ms", limits.idle);
  app.add_option("--header-timeout-ms", limits.header);
  app.add_option("--body-timeout-ms", limits.body);
  app.add_option("--body-budget-mib", limits.budget);
  const auto args = claude::base::arguments(argc, argv);
  if (auto exit = claude::base::parse_command_line(app, args, kText, std::cout, std::cerr)) {
    return *exit;
  }
  if (version) {
    std::cout << "model-stub 0.1.0\n";
    return kExitOk;
  }
  if (auto exit = apply_limits(limits, options)) return *exit;
  if (options.script.empty()) return usage_error("--script FILE is required");

  claude::model_stub::ModelScript script;
  try {
    script = claude::model_stub::load_model_script(options.script);
  } catch (const claude::model_stub::ModelScriptError& e) {
    std::cerr << e.what() << '\n';
    return kExitUsage;
  }
  if (options.check) {
    std::cout << options.script << ": " << script.rules.size() << " rules, ok\n";
    return kExitOk;
  }

  try {
    std::optional<claude::model_stub::RequestLog> log;
    if (!options.log.empty()) log.emplace(options.log, options.force);
    claude::model_stub::ScriptedModel model(std::move(script));
    boost::asio::io_context io;
    claude::model_stub::Server server(io, model, log ? &*log : nullptr, options.port,
                                      options.limits);
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code&, int) {
      server.stop();
      io.stop();
    });
    server.start();
    std::cout << "http://127.0.0.1:" << server.port() << std::endl;
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "model-stub: " << e.what() << '\n';
    return kExitUsage;
  }
  return kExitOk;
}
