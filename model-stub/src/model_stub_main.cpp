// model-stub: a scripted fake of the Anthropic Messages API on 127.0.0.1 (docs/model-stub.md).
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <charconv>
#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "claude/model_stub/model_script.hpp"
#include "claude/model_stub/request_log.hpp"
#include "claude/model_stub/scripted_model.hpp"
#include "claude/model_stub/server.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;

constexpr std::string_view kHelp =
    R"(Usage: model-stub --script FILE [--port N] [--log FILE [--force]] [--check]

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
};

int usage_error(const std::string& message) {
  std::cerr << "model-stub: " << message << "\n(see model-stub --help)\n";
  return kExitUsage;
}

std::optional<std::uint16_t> parse_port(std::string_view text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&](std::string_view flag) -> std::optional<std::string> {
      if (arg.substr(0, flag.size()) == flag && arg.size() > flag.size() &&
          arg[flag.size()] == '=') {
        return std::string(arg.substr(flag.size() + 1));
      }
      if (arg == flag && i + 1 < argc) return std::string(argv[++i]);
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kHelp;
      return kExitOk;
    }
    if (arg == "--version") {
      std::cout << "model-stub 0.1.0\n";
      return kExitOk;
    }
    if (arg == "--check") {
      options.check = true;
    } else if (arg == "--force") {
      options.force = true;
    } else if (arg.starts_with("--script")) {
      auto v = value("--script");
      if (!v) return usage_error("--script needs a FILE");
      options.script = *v;
    } else if (arg.starts_with("--log")) {
      auto v = value("--log");
      if (!v) return usage_error("--log needs a FILE");
      options.log = *v;
    } else if (arg.starts_with("--port")) {
      auto v = value("--port");
      auto port = v ? parse_port(*v) : std::nullopt;
      if (!port) return usage_error("--port needs a number from 0 to 65535");
      options.port = *port;
    } else {
      return usage_error("unknown argument '" + std::string(arg) + "'");
    }
  }
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
    claude::model_stub::Server server(io, model, log ? &*log : nullptr, options.port);
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
