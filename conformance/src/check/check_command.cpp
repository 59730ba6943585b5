#include "claude/conformance/check_command.hpp"

#include <unistd.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <optional>
#include <thread>

#include "claude/base/cli.hpp"
#include "claude/base/json.hpp"
#include "claude/conformance/baseline.hpp"
#include "claude/conformance/driver_command.hpp"
#include "claude/conformance/driver_run.hpp"
#include "claude/conformance/progress_line.hpp"
#include "claude/conformance/report_file.hpp"
#include "claude/conformance/run_order.hpp"
#include "claude/conformance/suite_report.hpp"
#include "claude/report_html/html_report.hpp"

namespace claude::conformance {
namespace {

constexpr std::string_view kCommand = "harness check";

namespace fs = std::filesystem;

struct CheckOptions {
  std::string sdk;
  std::optional<fs::path> suite;
  std::optional<fs::path> fake_claude;
  int jobs = 0;
  bool list = false;
  bool force = false;
  bool quiet = false;
  bool verbose = false;
  bool exact = false;
  std::optional<fs::path> junit;
  std::optional<fs::path> json;
  std::optional<fs::path> html;
  std::optional<fs::path> baseline;
  std::vector<std::string> prefixes;
};

struct UsageError {
  std::string message;
};

// The command line as given; -j stays text until finish_options words its error.
struct CheckArgs {
  CheckOptions options;
  std::optional<std::string> jobs;
};

void declare(CLI::App& app, CheckArgs& a) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--sdk", a.options.sdk);
  app.add_option("-j,--jobs", a.jobs);
  for (auto [name, slot] : {std::pair{"--suite", &a.options.suite},
                            {"--fake-claude", &a.options.fake_claude},
                            {"--junit", &a.options.junit},
                            {"--json", &a.options.json},
                            {"--html", &a.options.html},
                            {"--baseline", &a.options.baseline}}) {
    app.add_option(name, *slot);
  }
  app.add_flag("--list", a.options.list);
  app.add_flag("--exact", a.options.exact);
  app.add_flag("--force", a.options.force);
  app.add_flag("-q,--quiet", a.options.quiet);
  app.add_flag("-v,--verbose", a.options.verbose);
  app.add_option("ID-PREFIX", a.options.prefixes);
}

CheckOptions finish_options(CheckArgs a) {
  CheckOptions& o = a.options;
  if (a.jobs) {
    const std::string& text = *a.jobs;
    int jobs = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), jobs);
    if (ec != std::errc() || end != text.data() + text.size() || jobs < 1) {
      throw UsageError{"-j takes a positive whole number, not '" + text + "'"};
    }
    o.jobs = jobs;
  }
  if (o.sdk.empty() && !o.list) throw UsageError{"--sdk NAME|CMD is required"};
  if (o.jobs == 0) o.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return o;
}

int case_deadline_ms(const ConformanceCase& c) {
  int spec_timeout = 20000;
  if (auto it = c.driver.find("timeout_ms"); it != c.driver.end() && it->is_number_integer()) {
    spec_timeout = it->get<int>();
  }
  // The driver enforces the spec's timeout itself; the harness only stops drivers that do not.
  return spec_timeout + 10000;
}

CaseResult run_one(const ConformanceCase& c, const std::vector<std::string>& driver,
                   const fs::path& fake_claude, const fs::path& work_dir,
                   const std::optional<Baseline>& baseline) {
  const fs::path report = work_dir / (c.id + ".report.json");
  DriverRunRequest request;
  request.argv = driver;
  request.env = {{"FAKE_CLAUDE", fake_claude.string()},
                 {"FAKE_CLAUDE_SCENARIO", fs::absolute(c.file).string()},
                 {"FAKE_CLAUDE_REPORT", report.string()}};
  request.deadline = std::chrono::milliseconds(case_deadline_ms(c));
  request.report_path = report;
  // Every claude the driver starts is graded: the first failing run decides (run_files.hpp).
  const fs::path runs = work_dir / (c.id + ".runs");
  std::error_code ec;
  fs::create_directories(runs, ec);
  if (!ec) request.runs_dir = runs;
  CaseResult result{c, {}, run_driver(request), std::nullopt};
  result.grade = grade(c, result.run);
  if (baseline) {
    if (const auto* entry = baseline->find(c.id)) result.baselined = *entry;
  }
  return result;
}

constexpr const char* kCheckUsage = R"(usage: harness check --sdk NAME|CMD [options] [ID-PREFIX...]

Runs the conformance suite against an SDK through its driver (docs/drivers.md) and grades each
case PASS, FAIL, NON-STRICT or SKIPPED (docs/conformance.md).

  --sdk NAME|CMD     cpp (our C++ SDK), ts (the official TypeScript SDK), python (the official
                     Python Agent SDK: importable as claude_agent_sdk, else found in
                     $CLAUDE_HARNESS_PYTHON_SDK_PATH or ../shared/peers/python-sdk/site beside
                     the source tree), ruby (the Ruby Agent SDK gem on `ruby`: loadable as
                     claude_agent_sdk, else the gem's lib/ in $CLAUDE_HARNESS_RUBY_SDK_PATH or
                     ../shared/peers/ruby-sdk/lib), or any driver command (split on spaces, run
                     without a shell)
  -j, --jobs N       cases run at the same time (default: the number of cores); with more than
                     one, the cases expected to take longest start first
  --list             list the selected cases and exit
  --suite DIR        the cases (default: the bundled scenarios/conformance)
  --fake-claude PATH the fake CLI (default: fake-claude beside harness)
  --baseline FILE    expected failures: one case id per line, '# reason' after it
  --junit FILE       write a JUnit XML report
  --json FILE        write a JSON report
  --html FILE        write a self-contained HTML report: verdicts, and each case's session as a
                     sequence diagram with its first mismatch highlighted
  --force            replace existing report files
  --exact            the ids given are whole case ids, not prefixes
  -q, --quiet        only failures and the summary (and no progress line)
  -v, --verbose      explain passing cases too
On a terminal a live line at the bottom shows cases done, failures so far and the elapsed time;
piped output (CI logs) gets plain lines only.
  ID-PREFIX          run only cases whose id starts with one of these (e.g. perm. hooks.concurrent)

exit: 0 all passed (NON-STRICT, SKIPPED and baselined failures allowed), 1 a case failed or a
baselined case passes (stale), 2 usage error or a bad case or baseline file
)";

}  // namespace

int run_check(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  CheckOptions options;
  std::vector<std::string> driver;
  const base::CommandLineText text{kCommand, kCheckUsage, "try 'harness check --help'\n"};
  CheckArgs given;
  CLI::App app;
  declare(app, given);
  const std::vector<std::string> arguments(args.begin(), args.end());
  if (auto exit = base::parse_command_line(app, arguments, text, out, err)) return *exit;
  try {
    options = finish_options(std::move(given));
    if (!options.list) driver = driver_command(options.sdk);
  } catch (const DriverCommandError& e) {
    err << "harness check: " << e.what() << "\n"
        << "try 'harness check --help'\n";
    return 2;
  } catch (const UsageError& e) {
    return base::usage_error(text, e.message, err);
  }

  const fs::path suite_dir = options.suite.value_or(data_directory("scenarios") / "conformance");
  auto suite = find_cases(suite_dir);
  if (!suite.errors.empty()) {
    for (const auto& e : suite.errors) err << e << "\n";
    return 2;
  }
  auto cases = select_cases(suite.cases, options.prefixes, options.exact);
  if (options.list) {
    for (const auto& c : cases) out << c.id << "  " << c.description << "\n";
    return 0;
  }
  if (cases.empty()) {
    err << "harness check: no case in " << suite_dir.string() << " matches the selection\n";
    return 2;
  }

  std::optional<Baseline> baseline;
  if (options.baseline) {
    auto load = load_baseline(*options.baseline);
    if (!load.errors.empty()) {
      for (const auto& e : load.errors) err << e << "\n";
      return 2;
    }
    baseline = std::move(load.baseline);
  }

  const fs::path fake_claude = options.fake_claude.value_or(self_directory() / "fake-claude");
  std::error_code ec;
  if (!fs::exists(fake_claude, ec)) {
    err << "harness check: fake-claude not found at " << fake_claude.string()
        << " (give --fake-claude PATH)\n";
    return 2;
  }
  std::string work_template = (fs::temp_directory_path() / "claude-harness-check-XXXXXX").string();
  if (::mkdtemp(work_template.data()) == nullptr) {
    err << "harness check: cannot create a temporary directory: " << std::strerror(errno) << "\n";
    return 2;
  }
  const fs::path work_dir = work_template;

  const bool terminal = &out == &std::cout && is_interactive_terminal(STDOUT_FILENO);
  const bool colour = terminal && std::getenv("NO_COLOR") == nullptr;
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::optional<CaseResult>> results(cases.size());
  const int jobs = std::min<int>(options.jobs, static_cast<int>(cases.size()));
  // One job runs the cases in id order; several start the longest first, so no long case is
  // left to run alone at the end. Results keep their id order either way.
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (jobs > 1) order = longest_first(cases);
  std::atomic<std::size_t> next{0};
  {
    ProgressLine progress(out, "harness check", cases.size(), terminal && !options.quiet);
    auto worker = [&] {
      for (std::size_t n = next++; n < order.size(); n = next++) {
        const std::size_t i = order[n];
        auto result = run_one(cases[i], driver, fake_claude, work_dir, baseline);
        const bool interesting = result.grade.verdict != Verdict::pass || result.baselined;
        if (!options.quiet || interesting)
          progress.print_above(case_text(result, colour, options.verbose));
        progress.advance(result.grade.verdict == Verdict::fail && !result.baselined);
        results[i] = std::move(result);
      }
    };
    std::vector<std::jthread> workers(static_cast<std::size_t>(jobs));
    for (auto& w : workers) w = std::jthread(worker);
  }
  fs::remove_all(work_dir, ec);

  SuiteResult suite_result;
  suite_result.sdk = options.sdk;
  suite_result.suite = suite_dir.string();
  suite_result.jobs = options.jobs;
  suite_result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (auto& r : results) suite_result.cases.push_back(std::move(*r));
  out << "\n" << summary_text(suite_result);

  bool written = true;
  if (options.junit)
    written &=
        write_report_file(*options.junit, junit_xml(suite_result), options.force, kCommand, err);
  if (options.json || options.html) {
    const Json report = suite_json(suite_result);
    if (options.json) {
      written &= write_report_file(*options.json, claude::base::dump_json(report) + "\n",
                                   options.force, kCommand, err);
    }
    if (options.html) {
      auto page = claude::report_html::render_html_report(
          {{suite_dir.string(), nlohmann::json::parse(claude::base::dump_json(report))}},
          "claude-harness conformance: " + suite_result.sdk);
      written &= write_report_file(*options.html, page.html, options.force, kCommand, err);
    }
  }
  if (!written) return 2;
  return suite_result.ok() ? 0 : 1;
}

}  // namespace claude::conformance
