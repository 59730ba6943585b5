// replay, record and run --cassette: CMD runs with `claude` on its PATH pointing at fake-claude
// or claude-tee; the verdict comes from fake-claude's JSON report.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "claude/emulator/scenario.hpp"
#include "claude/harness/command_runner.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/harness_cli.hpp"
#include "claude/harness/shim_directory.hpp"
#include "claude/harness/tool_locator.hpp"

namespace claude::harness {
namespace {

namespace fs = std::filesystem;

struct Parsed {
  std::vector<std::pair<std::string, std::string>> options;  // --name value
  std::vector<std::string> positionals;
  std::vector<std::string> command;  // after "--"
  bool help = false;
  std::optional<std::string> error;
};

// Options that take a value are listed; everything before "--" that is not one is positional.
Parsed parse(const std::vector<std::string>& args, const std::vector<std::string>& valued) {
  Parsed p;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      p.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      return p;
    }
    if (a == "--help" || a == "-h") {
      p.help = true;
      continue;
    }
    std::string name = a, value;
    bool inline_value = false;
    if (const auto eq = a.find('='); a.starts_with("--") && eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      inline_value = true;
    }
    if (std::find(valued.begin(), valued.end(), name) != valued.end()) {
      if (!inline_value) {
        if (i + 1 >= args.size()) {
          p.error = name + " needs a value";
          return p;
        }
        value = args[++i];
      }
      p.options.emplace_back(name, value);
    } else if (a.starts_with("-")) {
      p.error = "unknown option '" + a + "'";
      return p;
    } else {
      p.positionals.push_back(a);
    }
  }
  return p;
}

std::optional<std::string> option(const Parsed& p, std::string_view a, std::string_view b = {}) {
  std::optional<std::string> found;
  for (const auto& [name, value] : p.options) {
    if (name == a || (!b.empty() && name == b)) found = value;
  }
  return found;
}

void print_verdict(const nlohmann::json& report, std::ostream& out) {
  const std::string verdict = report.value("verdict", "?");
  out << "harness: verdict " << verdict << " (" << report.value("scenario", "") << ")\n";
  if (report.contains("errors")) {
    for (const auto& e : report["errors"]) {
      out << "  " << e.value("file", "") << ":" << e.value("line", 0) << ": "
          << e.value("reason", "") << '\n';
    }
  }
  if (!report.contains("failure") || report["failure"].is_null()) return;
  const auto& f = report["failure"];
  out << "  " << f.value("location", "") << ": " << f.value("kind", "") << ": "
      << f.value("message", "") << '\n';
  if (f.contains("expected")) out << "  expected: " << f["expected"].dump() << '\n';
  if (f.contains("closest") && f["closest"].is_object()) {
    const auto& c = f["closest"];
    out << "  closest:  " << c.value("line", "") << '\n';
    if (c.contains("differences")) {
      for (const auto& d : c["differences"]) {
        out << "    at " << d.value("pointer", "") << ": " << d.value("reason", "") << '\n';
      }
    }
  }
}

int replay_file(const fs::path& scenario, const std::vector<std::string>& command,
                const std::optional<std::string>& keep_report, std::ostream& out,
                std::ostream& err) {
  const auto loaded = emulator::load_scenario_file(scenario);
  if (!loaded.ok()) {
    for (const auto& e : loaded.errors) err << e.to_string() << '\n';
    return kExitUsage;
  }
  fs::path fake;
  try {
    fake = locate_tool("fake-claude");
  } catch (const ToolNotFound& e) {
    err << "harness: " << e.what() << '\n';
    return kExitUsage;
  }
  ShimDirectory shim(fake);
  const fs::path report_path = shim.path() / "report.json";
  const auto env = environment_with({{"PATH", shim.path_variable()},
                                     {"FAKE_CLAUDE_SCENARIO", fs::absolute(scenario).string()},
                                     {"FAKE_CLAUDE_REPORT", report_path.string()}});
  const CommandResult result = run_command(command, env);
  if (!result.started) {
    err << "harness: " << result.describe() << '\n';
    return kExitCommandFailed;
  }
  std::ifstream in(report_path);
  if (!in) {
    err << "harness: CMD ended (" << result.describe() << ") without running claude: no verdict\n";
    return kExitCommandFailed;
  }
  const auto report = nlohmann::json::parse(in, nullptr, false);
  if (report.is_discarded() || !report.is_object()) {
    err << "harness: " << report_path.string() << ": unreadable report\n";
    return kExitCommandFailed;
  }
  if (keep_report) {
    std::error_code ec;
    fs::copy_file(report_path, *keep_report, fs::copy_options::overwrite_existing, ec);
    if (ec)
      err << "harness: cannot keep report at " << *keep_report << ": " << ec.message() << '\n';
  }
  print_verdict(report, out);
  const std::string verdict = report.value("verdict", "");
  if (verdict == "error") return kExitUsage;
  if (verdict != "pass") return kExitVerdictFailed;
  if (!result.succeeded()) {
    err << "harness: the scenario passed but CMD failed (" << result.describe() << ")\n";
    return kExitCommandFailed;
  }
  return kExitPass;
}

int record_file(const fs::path& output, const std::optional<std::string>& real_cli,
                const std::vector<std::string>& command, std::ostream& out, std::ostream& err) {
  fs::path tee;
  try {
    tee = locate_tool("claude-tee");
  } catch (const ToolNotFound& e) {
    err << "harness: " << e.what() << '\n';
    return kExitUsage;
  }
  ShimDirectory shim(tee);
  std::map<std::string, std::optional<std::string>> set{
      {"PATH", shim.path_variable()}, {"CLAUDE_TEE_OUT", fs::absolute(output).string()}};
  if (real_cli) set["CLAUDE_TEE_REAL_CLI"] = fs::absolute(*real_cli).string();
  const CommandResult result = run_command(command, environment_with(set));
  if (!result.started) {
    err << "harness: " << result.describe() << '\n';
    return kExitCommandFailed;
  }
  if (!fs::exists(output)) {
    err << "harness: CMD ended (" << result.describe()
        << ") without running claude: nothing recorded\n";
    return kExitCommandFailed;
  }
  if (!result.succeeded()) {
    err << "harness: CMD failed (" << result.describe() << "); recording kept at "
        << output.string() << '\n';
    return kExitCommandFailed;
  }
  out << "harness: recorded " << output.string() << '\n';
  return kExitPass;
}

// Records into a fresh file beside `cassette` and moves it into place only when CMD succeeded,
// so a failed recording never replaces a good cassette.
int record_cassette(const fs::path& cassette, const std::optional<std::string>& real_cli,
                    const std::vector<std::string>& command, std::ostream& out, std::ostream& err) {
  const fs::path fresh = cassette.string() + ".recording-" + std::to_string(::getpid());
  const int rc = record_file(fresh, real_cli, command, out, err);
  std::error_code ec;
  if (rc != kExitPass) {
    fs::remove(fresh, ec);
    return rc;
  }
  fs::rename(fresh, cassette, ec);
  if (ec) {
    err << "harness: cannot move " << fresh.string() << " to " << cassette.string() << ": "
        << ec.message() << '\n';
    return kExitUsage;
  }
  out << "harness: cassette " << cassette.string() << " recorded\n";
  return kExitPass;
}

constexpr const char* kReplayHelp = R"(Usage: harness replay SCENARIO [--report FILE] -- CMD...

Runs CMD (no shell) with a temporary directory first on PATH holding `claude` -> fake-claude,
and FAKE_CLAUDE_SCENARIO / FAKE_CLAUDE_REPORT set, so whatever CMD starts as `claude` plays
SCENARIO (a scenario or a recording). Prints the verdict; --report keeps the JSON report.
Exit status: 0 pass, 1 failed verdict, 2 bad SCENARIO or usage, 3 CMD failed without a verdict
(never ran claude, or failed although the scenario passed).
)";

constexpr const char* kRecordHelp = R"(Usage: harness record -o FILE [--real-cli PATH] -- CMD...

Runs CMD (no shell) with `claude` -> claude-tee first on PATH and CLAUDE_TEE_OUT=FILE, so the
session CMD starts is recorded. The real CLI is PATH (CLAUDE_TEE_REAL_CLI), else the next
`claude` on PATH or in the usual install places. FILE is never overwritten; a FILE ending in '/'
is a directory that receives one recording per session.
Exit status: 0 recorded, 2 usage error or FILE exists, 3 CMD failed or never ran claude.
)";

constexpr const char* kRunHelp =
    R"(Usage: harness run --cassette FILE [--mode auto|once|replay|record] [--real-cli PATH] [--report FILE] -- CMD...

The VCR workflow. Modes:
  once     replay FILE when it exists, otherwise record it with the real CLI
  replay   only replay; a missing FILE is an error (exit 2)
  record   always record again; FILE is replaced only when CMD succeeds
  auto     the default: `replay` when the environment has CI=true (CI never records
           silently), `once` otherwise
Replay is strict: a scripted step that never ran fails the verdict.
Exit status: as for replay and record.
)";

}  // namespace

int replay_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Parsed p = parse(args, {"--report"});
  if (p.help) {
    out << kReplayHelp;
    return kExitPass;
  }
  if (p.error || p.positionals.size() != 1 || p.command.empty()) {
    err << "harness replay: " << p.error.value_or("need SCENARIO and -- CMD...") << '\n'
        << kReplayHelp;
    return kExitUsage;
  }
  return replay_file(p.positionals[0], p.command, option(p, "--report"), out, err);
}

int record_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Parsed p = parse(args, {"-o", "--output", "--real-cli"});
  if (p.help) {
    out << kRecordHelp;
    return kExitPass;
  }
  const auto output = option(p, "-o", "--output");
  if (p.error || !output || !p.positionals.empty() || p.command.empty()) {
    err << "harness record: " << p.error.value_or("need -o FILE and -- CMD...") << '\n'
        << kRecordHelp;
    return kExitUsage;
  }
  if (!output->ends_with("/") && fs::exists(*output)) {
    err << "harness record: " << *output
        << " exists; recordings are never overwritten (use `harness run --mode record`)\n";
    return kExitUsage;
  }
  return record_file(*output, option(p, "--real-cli"), p.command, out, err);
}

int run_cassette_command(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err) {
  const Parsed p = parse(args, {"--cassette", "--mode", "--real-cli", "--report"});
  if (p.help) {
    out << kRunHelp;
    return kExitPass;
  }
  const auto cassette = option(p, "--cassette");
  std::string mode = option(p, "--mode").value_or("auto");
  if (p.error || !cassette || !p.positionals.empty() || p.command.empty() ||
      (mode != "auto" && mode != "once" && mode != "replay" && mode != "record")) {
    err << "harness run: " << p.error.value_or("need --cassette FILE, a known --mode and -- CMD...")
        << '\n'
        << kRunHelp;
    return kExitUsage;
  }
  if (mode == "auto") {
    const char* ci = std::getenv("CI");
    mode = ci != nullptr && std::string_view(ci) == "true" ? "replay" : "once";
  }
  const bool exists = fs::exists(*cassette);
  if (mode == "replay" && !exists) {
    err << "harness run: cassette " << *cassette
        << " does not exist and mode is replay (CI=true implies replay); record it locally "
           "with --mode once or --mode record\n";
    return kExitUsage;
  }
  if (mode == "record" || (mode == "once" && !exists)) {
    return record_cassette(*cassette, option(p, "--real-cli"), p.command, out, err);
  }
  return replay_file(*cassette, p.command, option(p, "--report"), out, err);
}

}  // namespace claude::harness
