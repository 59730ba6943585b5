// replay, record and run --cassette: CMD runs with `claude` on its PATH pointing at fake-claude
// or claude-tee; the verdict comes from fake-claude's JSON report.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>

#include "claude/base/cli.hpp"
#include "claude/base/private_file.hpp"
#include "claude/emulator/invocation.hpp"
#include "claude/emulator/scenario.hpp"
#include "claude/harness/command_runner.hpp"
#include "claude/harness/descendants.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/harness_cli.hpp"
#include "claude/harness/shim_directory.hpp"
#include "claude/harness/tool_locator.hpp"
#include "claude/report_html/html_report.hpp"
#include "recording_check.hpp"
#include "run_verdicts.hpp"

namespace claude::harness {
namespace {

namespace fs = std::filesystem;

// The options of replay, record and run (each declares those it takes); CMD is after "--".
struct WiredArgs {
  std::vector<std::string> positionals;
  std::vector<std::string> command;
  std::optional<std::string> output, real_cli, cassette, mode, report, html, speed;
  std::vector<std::string> ignore;
  bool force = false;
  bool relaxed = false;
};

// An option given twice keeps its last value, as these subcommands always did.
void declare_wired(CLI::App& app, WiredArgs& w) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("positionals", w.positionals);
}

std::optional<int> parse_wired(CLI::App& app, const std::vector<std::string>& args, WiredArgs& w,
                               const base::CommandLineText& text, std::ostream& out,
                               std::ostream& err) {
  auto [options, command] = base::split_command(args);
  w.command = std::move(command);
  return base::parse_command_line(app, options, text, out, err);
}

void add_report_options(CLI::App& app, WiredArgs& w) {
  app.add_option("--report", w.report);
  app.add_option("--html", w.html);
  app.add_option("--speed", w.speed);
  app.add_flag("--force", w.force);
}

// Said when no fake-claude session started: the client ran some other `claude`.
constexpr const char* kNoClaudeCauses =
    "  the client likely started another `claude` than the one harness put first on PATH:\n"
    "  - an absolute path option (TypeScript SDK pathToClaudeCodeExecutable, Python SDK cli_path)\n"
    "  - a copy shipped with the SDK (the TypeScript SDK's bundled cli.js, the Python SDK's\n"
    "    _bundled/claude, a vendored ./vendor/claude/claude)\n"
    "  - CLAUDE_CLI_PATH set inside CMD (harness sets it to its own `claude`)\n"
    "  (or CMD failed before it started claude; --version probes do not count)\n";

// The --ignore PATTERNs as the JSON array fake-claude takes in FAKE_CLAUDE_IGNORE; nullopt and a
// message in `error` when one is no valid pattern.
std::optional<nlohmann::json> ignore_patterns(const WiredArgs& w, std::string& error) {
  nlohmann::json ignore = nlohmann::json::array();
  for (const auto& value : w.ignore) {
    auto pattern = emulator::Json::parse(value, nullptr, false);
    if (pattern.is_discarded()) {
      error = "--ignore needs a JSON pattern, got '" + value + "'";
      return std::nullopt;
    }
    if (auto problem = emulator::check_pattern(pattern)) {
      error = "--ignore " + value + ": at '" + problem->pointer + "': " + problem->reason;
      return std::nullopt;
    }
    ignore.push_back(nlohmann::json::parse(value));
  }
  return ignore;
}

// The JSON report and the HTML page follow the one overwrite rule (claude/base/private_file.hpp):
// 0600, never over a file unless --force.
int replay_file(const fs::path& scenario, const WiredArgs& w, std::ostream& out,
                std::ostream& err) {
  std::string bad_ignore;
  const auto ignore = ignore_patterns(w, bad_ignore);
  if (!ignore) {
    err << "harness replay: " << bad_ignore << '\n';
    return kExitUsage;
  }
  if (w.speed && !emulator::parse_speed(*w.speed)) {
    err << "harness: --speed needs a number >= 0 (0: as fast as possible, 1: the recorded pace), "
           "got '"
        << *w.speed << "'\n";
    return kExitUsage;
  }
  // Refused before CMD runs: a file to replace without --force, or no directory to go to.
  for (const auto& [flag, path] :
       {std::pair{"--report", &w.report}, std::pair{"--html", &w.html}}) {
    if (!*path) continue;
    if (auto problem = base::private_file_problem(**path, w.force)) {
      err << "harness: " << flag << " " << **path << ": " << *problem << '\n';
      return kExitUsage;
    }
  }
  if (w.report && w.html && *w.report == *w.html) {
    err << "harness: --report and --html name the same file " << *w.html << '\n';
    return kExitUsage;
  }
  const auto loaded = emulator::load_scenario_parts(scenario);
  if (!loaded.ok()) {
    for (const auto& e : loaded.errors) err << e.to_string() << '\n';
    if (loaded.errors.empty()) err << "harness: " << scenario.string() << ": nothing to play\n";
    return kExitUsage;
  }
  std::vector<std::size_t> parts;
  for (const auto& part : loaded.parts) parts.push_back(part.header.line);
  const auto fake = locate_tool("fake-claude", "harness", err);
  if (!fake) return kExitUsage;
  ShimDirectory shim(*fake);
  const fs::path runs_dir = shim.path() / "runs";
  std::error_code ec;
  fs::create_directory(runs_dir, ec);
  std::map<std::string, std::optional<std::string>> set{
      {"PATH", shim.path_variable()},
      {"FAKE_CLAUDE_SCENARIO", fs::absolute(scenario).string()},
      {"FAKE_CLAUDE_RUNS", runs_dir.string()},
      {"FAKE_CLAUDE_REPORT", std::nullopt},  // each run reports into FAKE_CLAUDE_RUNS
      {"CLAUDE_CLI_PATH", (shim.path() / "claude").string()}};
  if (w.speed) set["FAKE_CLAUDE_SPEED"] = *w.speed;  // otherwise an inherited value applies
  if (w.relaxed) set["FAKE_CLAUDE_STRICT"] = "0";
  if (!ignore->empty()) set["FAKE_CLAUDE_IGNORE"] = ignore->dump();
  const auto env = environment_with(set);
  // Whatever CMD starts stays ours (setsid and double forks included): every fake-claude is
  // waited for before its report is read, and nothing outlives harness.
  adopt_orphans();
  const CommandResult result = run_command(w.command, env);
  settle_descendants([&runs_dir](pid_t pid) { return run_unreported(runs_dir, pid); });
  if (!result.started) {
    err << "harness: " << result.describe() << '\n';
    return kExitCommandFailed;
  }
  const auto runs = read_runs(runs_dir);
  if (runs.empty()) {
    err << "harness: CMD ended (" << result.describe()
        << ") without running claude (no fake-claude session started): no verdict\n"
        << kNoClaudeCauses;
    return kExitCommandFailed;
  }
  const nlohmann::json report = combine_runs(scenario.string(), parts, runs);
  print_runs(report, out);
  if (w.report) {
    if (auto problem = base::write_private_file(*w.report, report.dump(2) + "\n", w.force)) {
      err << "harness: cannot keep report at " << *w.report << ": " << *problem << '\n';
      return kExitUsage;
    }
  }
  if (w.html) {
    std::vector<report_html::ReportSource> sessions;
    sessions.reserve(runs.size());
    for (const auto& run : runs) {
      sessions.push_back(report_html::ReportSource{
          runs.size() == 1 ? scenario.string()
                           : scenario.string() + " (run " + std::to_string(run.number) + ")",
          run.report});
    }
    const auto page = report_html::render_html_report(
        sessions, "claude-harness replay: " + scenario.filename().string());
    if (auto problem = base::write_private_file(*w.html, page.html, w.force)) {
      err << "harness: cannot write HTML report " << *w.html << ": " << *problem << '\n';
      return kExitUsage;
    }
    out << "harness: HTML report " << *w.html << '\n';
  }
  const std::string verdict = report.value("verdict", "");
  if (verdict == "error") return kExitUsage;
  if (verdict != "pass") return kExitVerdictFailed;
  if (!result.succeeded()) {
    err << "harness: the scenario passed but CMD failed (" << result.describe() << ")\n";
    return kExitCommandFailed;
  }
  return kExitPass;
}

std::set<fs::path> files_in(const fs::path& directory) {
  std::set<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    files.insert(it->path());
  }
  return files;
}

// Runs CMD with claude-tee first on PATH (and in CLAUDE_CLI_PATH), recording to `tee_out` (a
// file, or a folder ending in '/'). Every claude-tee still writing is waited for before this
// returns; nothing else CMD started outlives it.
CommandResult run_through_tee(const fs::path& tee, const std::string& tee_out,
                              const std::optional<std::string>& real_cli,
                              const std::vector<std::string>& command) {
  ShimDirectory shim(tee);
  std::map<std::string, std::optional<std::string>> set{{"PATH", shim.path_variable()},
                                                        {"CLAUDE_TEE_OUT", tee_out}};
  if (real_cli) set["CLAUDE_TEE_REAL_CLI"] = fs::absolute(*real_cli).string();
  set["CLAUDE_CLI_PATH"] = (shim.path() / "claude").string();
  adopt_orphans();
  CommandResult result = run_command(command, environment_with(set));
  settle_descendants([&tee](pid_t pid) { return runs_executable(pid, tee); });
  return result;
}

// `harness record -o DIR/`: claude-tee names one file per session there. Each new one must be a
// complete recording that loads; the others are renamed NAME.incomplete and the exit is 3.
int record_into_directory(const fs::path& directory, const fs::path& tee,
                          const std::optional<std::string>& real_cli,
                          const std::vector<std::string>& command, std::ostream& out,
                          std::ostream& err) {
  const std::set<fs::path> before = files_in(directory);
  const CommandResult result =
      run_through_tee(tee, fs::absolute(directory).string() + "/", real_cli, command);
  std::size_t recorded = 0;
  std::size_t unusable = 0;
  for (const fs::path& file : files_in(directory)) {
    if (before.count(file) != 0) continue;
    ++recorded;
    if (auto why = unusable_recording(file)) {
      ++unusable;
      std::error_code ec;
      fs::rename(file, file.string() + ".incomplete", ec);
      err << "harness: " << file.string() << " is not usable, " << *why << "\n";
    }
  }
  if (!command_recorded(result, recorded != 0, err)) return kExitCommandFailed;
  if (unusable != 0 || !result.succeeded()) {
    if (!result.succeeded()) err << "harness: CMD failed (" << result.describe() << ")\n";
    return kExitCommandFailed;
  }
  out << "harness: recorded " << recorded << " session(s) in " << directory.string() << '\n';
  return kExitPass;
}

// Runs CMD with claude-tee recording into a fresh file beside `output`, and links that file to
// `output` (never replacing a file) only when it is a complete recording that loads. Anything
// else leaves `output` as it was and exits 3; an incomplete recording is kept as
// OUTPUT.incomplete.
int record_file(const fs::path& output, const std::optional<std::string>& real_cli,
                const std::vector<std::string>& command, std::ostream& out, std::ostream& err) {
  const auto tee_found = locate_tool("claude-tee", "harness", err);
  if (!tee_found) return kExitUsage;
  const fs::path& tee = *tee_found;
  if (output.string().ends_with("/"))
    return record_into_directory(output, tee, real_cli, command, out, err);
  const fs::path fresh = output.string() + ".recording-" + std::to_string(::getpid());
  std::error_code ec;
  fs::remove(fresh, ec);
  const CommandResult result =
      run_through_tee(tee, fs::absolute(fresh).string(), real_cli, command);
  if (!command_recorded(result, fs::exists(fresh), err)) return kExitCommandFailed;
  if (auto why = unusable_recording(fresh)) {
    const fs::path kept = output.string() + ".incomplete";
    fs::rename(fresh, kept, ec);
    err << "harness: the recording is not usable, " << *why << "\n"
        << "harness: " << output.string() << " left as it was"
        << (ec ? "" : "; what was recorded is in " + kept.string()) << '\n';
    if (ec) fs::remove(fresh, ec);
    return kExitCommandFailed;
  }
  const bool placed = ::link(fresh.c_str(), output.c_str()) == 0;
  const std::string why_not = std::strerror(errno);
  fs::remove(fresh, ec);
  if (!placed) {
    err << "harness: cannot put the recording at " << output.string() << ": " << why_not << '\n';
    return kExitUsage;
  }
  if (!result.succeeded()) {
    err << "harness: CMD failed (" << result.describe() << "); recording kept at "
        << output.string() << '\n';
    return kExitCommandFailed;
  }
  out << "harness: recorded " << output.string() << '\n';
  return kExitPass;
}

// A cassette is replaced only by a complete recording that loads, and only when CMD succeeded:
// a failed or cut recording never replaces a good cassette.
int record_cassette(const fs::path& cassette, const std::optional<std::string>& real_cli,
                    const std::vector<std::string>& command, std::ostream& out, std::ostream& err) {
  const fs::path fresh = cassette.string() + ".complete-" + std::to_string(::getpid());
  const int rc = record_file(fresh, real_cli, command, out, err);
  std::error_code ec;
  if (rc != kExitPass) {
    fs::remove(fresh, ec);
    fs::remove(fresh.string() + ".incomplete", ec);
    return rc;
  }
  fs::rename(fresh, cassette, ec);
  if (ec) {
    err << "harness: cannot move " << fresh.string() << " to " << cassette.string() << ": "
        << ec.message() << '\n';
    fs::remove(fresh, ec);
    return kExitUsage;
  }
  out << "harness: cassette " << cassette.string() << " recorded\n";
  return kExitPass;
}

constexpr const char* kReplayHelp =
    R"(Usage: harness replay SCENARIO [--report FILE] [--html FILE] [--force] [--speed X]
                      [--relaxed] [--ignore PATTERN]... -- CMD...

Runs CMD (no shell) with a temporary directory first on PATH holding `claude` -> fake-claude,
and FAKE_CLAUDE_SCENARIO / FAKE_CLAUDE_REPORT set, so whatever CMD starts as `claude` plays
SCENARIO (a scenario or a recording). Prints the verdict; --report keeps the JSON report
(created 0600; an existing FILE is an error unless --force replaces it). --html FILE writes the
session as one self-contained HTML page: the verdict, the findings and the SDK <-> CLI sequence
diagram with the first mismatch highlighted (same rules for an existing FILE).
--speed X paces a recording's replies at their recorded times: 1 the recorded pace, 2 twice as
fast, 0 (the default) as fast as the SDK's requests allow (FAKE_CLAUDE_SPEED).
--relaxed: SDK lines no step consumed do not fail the run (the scenario's "strict":false).
--ignore PATTERN (repeatable): SDK lines matching the JSON pattern are dropped, as the
scenario's "ignore" does; e.g. --ignore '{"type":"control_request","request":{"subtype":"interrupt"}}'.
Exit status: 0 pass, 1 failed verdict, 2 bad SCENARIO, a bad --ignore PATTERN, usage, or the report FILE exists (without
--force) or cannot be written, 3 CMD failed without a verdict (never ran claude, or failed
although the scenario passed).
)";

constexpr const char* kRecordHelp = R"(Usage: harness record -o FILE [--real-cli PATH] -- CMD...

Runs CMD (no shell) with `claude` -> claude-tee first on PATH and CLAUDE_TEE_OUT=FILE, so the
session CMD starts is recorded. The real CLI is PATH (CLAUDE_TEE_REAL_CLI), else the next
`claude` on PATH or in the usual install places. FILE is never overwritten; a FILE ending in '/'
is a directory that receives one recording per session. The session is recorded beside FILE and
put at FILE only once it is a complete recording (ending in its exit or signal event) that loads.
Exit status: 0 recorded, 2 usage error or FILE exists, 3 CMD failed, never ran claude, or the
recording is incomplete or does not load (a full disk, a killed recorder): FILE is then left as
it was and what was recorded is kept as FILE.incomplete.
With --offline the real CLI talks to model-stub instead of the API, in a loopback-only network
namespace: `harness record --offline --help`.
)";

constexpr const char* kRunHelp =
    R"(Usage: harness run --cassette FILE [--mode auto|once|replay|record] [--real-cli PATH] [--report FILE] [--html FILE] [--force] [--speed X] -- CMD...

The VCR workflow. Modes:
  once     replay FILE when it exists, otherwise record it with the real CLI
  replay   only replay; a missing FILE is an error (exit 2)
  record   always record again; FILE is replaced only when CMD succeeds and the new
           recording is complete and loads (else exit 3 and FILE stays as it was)
  auto     the default: `replay` when the environment has CI=true (CI never records
           silently), `once` otherwise
Replay is strict: a scripted step that never ran fails the verdict. --report, --html and --force
as for `harness replay` (a replay only). --speed X paces a replay
as for `harness replay`.
Exit status: as for replay and record.
)";

}  // namespace

int replay_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  WiredArgs w;
  CLI::App app;
  declare_wired(app, w);
  add_report_options(app, w);
  app.add_flag("--relaxed", w.relaxed);
  base::add_repeatable(app, "--ignore", w.ignore);
  const base::CommandLineText text{"harness replay", kReplayHelp, kReplayHelp};
  if (auto exit = parse_wired(app, args, w, text, out, err)) return *exit;
  if (w.positionals.size() != 1 || w.command.empty()) {
    return base::usage_error(text, "need SCENARIO and -- CMD...", err);
  }
  return replay_file(w.positionals[0], w, out, err);
}

int record_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  WiredArgs w;
  CLI::App app;
  declare_wired(app, w);
  app.add_option("-o,--output", w.output);
  app.add_option("--real-cli", w.real_cli);
  const base::CommandLineText text{"harness record", kRecordHelp, kRecordHelp};
  if (auto exit = parse_wired(app, args, w, text, out, err)) return *exit;
  if (!w.output || !w.positionals.empty() || w.command.empty()) {
    return base::usage_error(text, "need -o FILE and -- CMD...", err);
  }
  if (!w.output->ends_with("/") && fs::exists(*w.output)) {
    err << "harness record: " << *w.output
        << " exists; recordings are never overwritten (use `harness run --mode record`)\n";
    return kExitUsage;
  }
  return record_file(*w.output, w.real_cli, w.command, out, err);
}

int run_cassette_command(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err) {
  WiredArgs w;
  CLI::App app;
  declare_wired(app, w);
  add_report_options(app, w);
  app.add_option("--cassette", w.cassette);
  app.add_option("--mode", w.mode);
  app.add_option("--real-cli", w.real_cli);
  const base::CommandLineText text{"harness run", kRunHelp, kRunHelp};
  if (auto exit = parse_wired(app, args, w, text, out, err)) return *exit;
  std::string mode = w.mode.value_or("auto");
  if (!w.cassette || !w.positionals.empty() || w.command.empty() ||
      (mode != "auto" && mode != "once" && mode != "replay" && mode != "record")) {
    return base::usage_error(text, "need --cassette FILE, a known --mode and -- CMD...", err);
  }
  const std::string& cassette = *w.cassette;
  if (mode == "auto") {
    const char* ci = std::getenv("CI");
    mode = ci != nullptr && std::string_view(ci) == "true" ? "replay" : "once";
  }
  const bool exists = fs::exists(cassette);
  if (mode == "replay" && !exists) {
    err << "harness run: cassette " << cassette
        << " does not exist and mode is replay (CI=true implies replay); record it locally "
           "with --mode once or --mode record\n";
    return kExitUsage;
  }
  if (mode == "record" || (mode == "once" && !exists)) {
    return record_cassette(cassette, w.real_cli, w.command, out, err);
  }
  return replay_file(cassette, w, out, err);
}

}  // namespace claude::harness
