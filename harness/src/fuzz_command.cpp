// `harness fuzz`: the command line and the process shell (temporary files, driver runs) around
// the claude::fuzzing campaign.
#include "claude/harness/fuzz_command.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>

#include "claude/base/cli.hpp"
#include "claude/base/json.hpp"
#include "claude/conformance/driver_command.hpp"
#include "claude/conformance/driver_run.hpp"
#include "claude/conformance/progress_line.hpp"
#include "claude/conformance/report_file.hpp"
#include "claude/emulator/pattern.hpp"
#include "claude/fuzzing/campaign.hpp"
#include "claude/fuzzing/oracle.hpp"
#include "claude/fuzzing/seed_corpus.hpp"
#include "claude/harness/exit_codes.hpp"

namespace claude::harness {
namespace {

constexpr std::string_view kCommand = "harness fuzz";

namespace fs = std::filesystem;
using claude::fuzzing::Json;

struct FuzzOptions {
  std::string sdk;
  double seconds = 60;
  std::uint64_t seed = 1;
  std::size_t jobs = 0;
  std::size_t max_execs = 0;
  fs::path out = "fuzz-findings";
  std::optional<fs::path> json;
  std::optional<fs::path> replay;
  std::vector<fs::path> seeds;
  std::vector<std::string> exclude;
  std::optional<fs::path> fake_claude;
  bool force = false;
  bool quiet = false;
  bool list_mutators = false;
};

struct UsageError {
  std::string message;
};

template <typename Number>
Number parse_number(const std::string& option, const std::string& text) {
  Number value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < Number{0})
    throw UsageError{option + " takes a number ≥ 0, not '" + text + "'"};
  return value;
}

// The command line as given: numbers stay text until finish_options words their errors.
struct FuzzArgs {
  FuzzOptions options;
  std::optional<std::string> time, seed, jobs, max_execs;
  std::vector<std::string> seeds;
};

void declare(CLI::App& app, FuzzArgs& a) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--sdk", a.options.sdk);
  app.add_option("--time", a.time);
  app.add_option("--seed", a.seed);
  app.add_option("-j,--jobs", a.jobs);
  app.add_option("--max-execs", a.max_execs);
  app.add_option("--out", a.options.out);
  app.add_option("--json", a.options.json);
  app.add_option("--replay", a.options.replay);
  app.add_option("--fake-claude", a.options.fake_claude);
  base::add_repeatable(app, "--seeds", a.seeds);
  base::add_repeatable(app, "--exclude", a.options.exclude);
  app.add_flag("--force", a.options.force);
  app.add_flag("-q,--quiet", a.options.quiet);
  app.add_flag("--list-mutators", a.options.list_mutators);
}

FuzzOptions finish_options(FuzzArgs a) {
  FuzzOptions& o = a.options;
  if (a.time) o.seconds = parse_number<double>("--time", *a.time);
  if (a.seed) o.seed = parse_number<std::uint64_t>("--seed", *a.seed);
  if (a.jobs) {
    o.jobs = parse_number<std::size_t>("-j", *a.jobs);
    if (o.jobs == 0) throw UsageError{"-j takes a positive whole number"};
  }
  if (a.max_execs) o.max_execs = parse_number<std::size_t>("--max-execs", *a.max_execs);
  o.seeds.assign(a.seeds.begin(), a.seeds.end());
  if (o.sdk.empty() && !o.list_mutators) throw UsageError{"--sdk NAME|CMD is required"};
  if (o.jobs == 0) o.jobs = std::max(1u, std::thread::hardware_concurrency());
  return o;
}

// The driver runs of one campaign: a private directory for the scenarios and reports.
class DriverExecutor {
 public:
  DriverExecutor(std::vector<std::string> driver, fs::path fake_claude, fs::path work)
      : driver_(std::move(driver)), fake_claude_(std::move(fake_claude)), work_(std::move(work)) {}

  claude::conformance::RunOutcome operator()(const claude::fuzzing::ScenarioDoc& doc) {
    const std::string n = std::to_string(counter_++);
    const fs::path scenario = work_ / ("exec-" + n + ".ndjson");
    const fs::path report = work_ / ("exec-" + n + ".report.json");
    {
      std::ofstream file(scenario, std::ios::binary);
      file << claude::fuzzing::render(doc);
    }
    claude::conformance::DriverRunRequest request;
    request.argv = driver_;
    request.env = {{"FAKE_CLAUDE", fake_claude_.string()},
                   {"FAKE_CLAUDE_SCENARIO", scenario.string()},
                   {"FAKE_CLAUDE_REPORT", report.string()}};
    // The driver stops a session at its spec's timeout_ms; the harness stops drivers that don't.
    std::int64_t session_ms = 10000;
    if (doc.header.contains("driver") && doc.header["driver"].contains("timeout_ms") &&
        doc.header["driver"]["timeout_ms"].is_number_integer())
      session_ms = doc.header["driver"]["timeout_ms"].get<std::int64_t>();
    request.deadline = std::chrono::milliseconds(session_ms + 5000);
    request.report_path = report;
    auto outcome = claude::conformance::run_driver(request);
    std::error_code ec;
    fs::remove(scenario, ec);
    fs::remove(report, ec);
    return outcome;
  }

 private:
  std::vector<std::string> driver_;
  fs::path fake_claude_;
  fs::path work_;
  std::atomic<std::uint64_t> counter_{0};
};

int replay(const FuzzOptions& options, DriverExecutor& execute, std::ostream& out,
           std::ostream& err) {
  auto load = claude::fuzzing::load_seed_file(*options.replay, {});
  if (!load.errors.empty()) {
    for (const auto& e : load.errors) err << e << "\n";
    return kExitUsage;
  }
  const auto& doc = load.seeds.front().doc;
  const auto run = execute(doc);
  const auto violations = claude::fuzzing::check_oracles(doc, run);
  if (violations.empty()) {
    out << "harness fuzz: " << options.replay->string() << " no longer fails (" << options.sdk
        << ", driver " << (run.driver_exit ? "exit " + std::to_string(*run.driver_exit) : "killed")
        << ")\n";
    return kExitPass;
  }
  out << "harness fuzz: " << options.replay->string() << " still fails:\n";
  for (const auto& v : violations) out << "  " << v.signature() << ": " << v.message << "\n";
  return kExitVerdictFailed;
}

Json summary_json(const FuzzOptions& options, const claude::fuzzing::CampaignResult& result,
                  std::size_t seeds) {
  Json findings = Json::array();
  for (const auto& f : result.findings) {
    findings.push_back({{"signature", f.violation.signature()},
                        {"file", (options.out / f.file_name).string()},
                        {"message", f.violation.message},
                        {"hits", f.hits},
                        {"seed", f.seed_id},
                        {"mutations", f.sites},
                        {"hit_mutations", f.hit_sites},
                        {"exec", f.exec},
                        {"steps", f.steps_after},
                        {"steps_before_minimizing", f.steps_before}});
  }
  return {{"sdk", options.sdk},
          {"seed", options.seed},
          {"jobs", options.jobs},
          {"seeds", seeds},
          {"execs", result.execs},
          {"minimize_runs", result.minimize_runs},
          {"seconds", result.seconds},
          {"execs_per_second",
           result.seconds > 0 ? static_cast<double>(result.execs) / result.seconds : 0.0},
          {"findings", findings}};
}

constexpr const char* kFuzzUsage = R"(usage: harness fuzz --sdk NAME|CMD [options]
       harness fuzz --sdk NAME|CMD --replay FINDING

Fuzzes an SDK at its real boundary, the CLI's stdout and stdin: mutates scenarios (framing,
messages, the control protocol, the CLI process), plays each through fake-claude against the
SDK's driver (as `harness check` does) and checks that the SDK neither crashes, hangs, loses a
result nor mis-answers a control request (docs/fuzz.md). Each finding is minimized and written
to --out as a scenario.

  --sdk NAME|CMD     cpp, ts, python, ruby, or any driver command (see harness check --help)
  --time SECONDS     how long to fuzz (default 60); minimizing a last finding may run over
  --seed N           the run's seed (default 1): the same seed and -j play the same scenarios
  -j, --jobs N       drivers at a time (default: the number of cores)
  --seeds DIR        scenarios to mutate (repeatable; default: the bundled
                     scenarios/conformance and scenarios/recorded)
  --exclude GLOB     leave out seeds whose relative path, full path or scenario name matches
                     (fnmatch; repeatable)
  --out DIR          where findings go (default ./fuzz-findings; a finding's file is replaced
                     when the same signature is found again)
  --json FILE        write a JSON summary: execs, seconds, findings (signature, file)
  --force            replace an existing --json FILE
  --max-execs N      stop after N executions
  --replay FILE      run one finding once; exit 1 while it still fails
  --fake-claude PATH the fake CLI (default: fake-claude beside harness)
  --list-mutators    print the mutators and exit
  -q, --quiet        no progress line

exit: 0 no finding (replay: no longer fails), 1 findings (replay: still fails), 2 usage error or
bad input (file:line: reason)
)";

}  // namespace

int fuzz_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  FuzzOptions options;
  std::vector<std::string> driver;
  const base::CommandLineText text{kCommand, kFuzzUsage, "try 'harness fuzz --help'\n"};
  FuzzArgs given;
  CLI::App app;
  declare(app, given);
  if (auto exit = base::parse_command_line(app, args, text, out, err)) return *exit;
  try {
    options = finish_options(std::move(given));
    if (options.list_mutators) {
      for (const auto& m : claude::fuzzing::all_mutators()) out << m.name << "  " << m.what << "\n";
      return kExitPass;
    }
    driver = claude::conformance::driver_command(options.sdk);
  } catch (const UsageError& e) {
    return base::usage_error(text, e.message, err);
  } catch (const claude::conformance::DriverCommandError& e) {
    err << "harness fuzz: " << e.what() << "\n";
    return kExitUsage;
  }

  const fs::path fake_claude =
      options.fake_claude.value_or(claude::conformance::self_directory() / "fake-claude");
  std::error_code ec;
  if (!fs::exists(fake_claude, ec)) {
    err << "harness fuzz: fake-claude not found at " << fake_claude.string()
        << " (give --fake-claude PATH)\n";
    return kExitUsage;
  }
  std::string work = (fs::temp_directory_path() / "claude-harness-fuzz-XXXXXX").string();
  if (::mkdtemp(work.data()) == nullptr) {
    err << "harness fuzz: cannot create a temporary directory: " << std::strerror(errno) << "\n";
    return kExitUsage;
  }
  DriverExecutor execute(driver, fake_claude, work);
  struct RemoveWork {
    fs::path dir;
    ~RemoveWork() {
      std::error_code e;
      fs::remove_all(dir, e);
    }
  } remove_work{work};

  if (options.replay) return replay(options, execute, out, err);

  if (options.seeds.empty()) {
    const fs::path bundled = claude::conformance::data_directory("scenarios");
    options.seeds = {bundled / "conformance", bundled / "recorded"};
  }
  auto seeds = claude::fuzzing::load_seeds(options.seeds, options.exclude, {});
  if (!seeds.errors.empty()) {
    for (const auto& e : seeds.errors) err << e << "\n";
    return kExitUsage;
  }
  if (seeds.seeds.empty()) {
    err << "harness fuzz: no seed with a driver spec left in the seed directories\n";
    return kExitUsage;
  }
  if (options.json && !options.force && fs::exists(*options.json, ec)) {
    err << "harness fuzz: " << options.json->string() << " exists (use --force to replace it)\n";
    return kExitUsage;
  }
  fs::create_directories(options.out, ec);
  if (ec) {
    err << "harness fuzz: cannot create " << options.out.string() << ": " << ec.message() << "\n";
    return kExitUsage;
  }

  out << "harness fuzz: " << options.sdk << ", " << seeds.seeds.size() << " seeds ("
      << seeds.excluded << " excluded), " << options.seconds << " s, -j " << options.jobs
      << ", --seed " << options.seed << "\n";
  claude::fuzzing::CampaignOptions campaign;
  campaign.sdk = options.sdk;
  campaign.seed = options.seed;
  campaign.duration = std::chrono::milliseconds(static_cast<std::int64_t>(options.seconds * 1000));
  campaign.max_execs = options.max_execs;
  campaign.jobs = options.jobs;

  const bool terminal =
      &out == &std::cout && claude::conformance::is_interactive_terminal(STDOUT_FILENO);
  bool written = true;
  claude::fuzzing::CampaignResult result;
  {
    claude::conformance::ProgressLine progress(out, "harness fuzz: execs", 0,
                                               terminal && !options.quiet, "findings");
    claude::fuzzing::CampaignEvents events;
    events.on_exec = [&](bool new_finding) { progress.advance(new_finding); };
    std::mutex write_mutex;
    events.on_finding = [&](const claude::fuzzing::FindingReport& f) {
      std::lock_guard lock(write_mutex);
      const fs::path file = options.out / f.file_name;
      written &= claude::conformance::write_report_file(file, f.text, true, kCommand, err);
      std::ostringstream line;
      line << "FINDING " << f.violation.signature() << "  " << file.string() << "\n  "
           << f.violation.message << "\n  seed " << f.seed_id << ", exec " << f.exec << ", "
           << f.steps_before << " → " << f.steps_after << " steps in " << f.minimize_runs
           << " minimizing runs\n";
      progress.print_above(line.str());
    };
    result = claude::fuzzing::run_campaign(seeds.seeds, campaign, std::ref(execute), events);
  }
  out << "harness fuzz: " << result.execs << " execs in " << result.seconds << " s ("
      << (result.seconds > 0 ? static_cast<double>(result.execs) / result.seconds : 0)
      << " execs/s), " << result.findings.size() << " finding(s)\n";
  for (const auto& f : result.findings) {
    out << "  " << f.violation.signature() << "  " << (options.out / f.file_name).string() << "  ("
        << f.hits << " hits)\n";
  }
  if (options.json) {
    written &= claude::conformance::write_report_file(
        *options.json,
        claude::base::dump_json(summary_json(options, result, seeds.seeds.size())) + "\n",
        options.force, kCommand, err);
  }
  if (!written) return kExitUsage;
  return result.findings.empty() ? kExitPass : kExitVerdictFailed;
}

}  // namespace claude::harness
