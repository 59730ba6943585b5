#include "claude/report_html/report_html_cli.hpp"

#include <algorithm>
#include <ostream>

#include "claude/base/cli.hpp"
#include "claude/base/excerpt.hpp"
#include "claude/base/input_file.hpp"
#include "claude/base/private_file.hpp"
#include "claude/report_html/html_report.hpp"

namespace claude::report_html {
namespace {

constexpr std::string_view kUsage =
    "usage: claude-report-html [-o FILE [--force]] [--title TEXT] REPORT.json...\n"
    "\n"
    "Writes one self-contained HTML page from `harness check --json` suite reports and\n"
    "fake-claude JSON reports (FAKE_CLAUDE_REPORT, `harness replay --report`).\n"
    "\n"
    "  -o, --output FILE   write the page to FILE (default: standard output), created 0600;\n"
    "                      an existing FILE (or symlink) is kept unless --force replaces it\n"
    "  --title TEXT        the page title (default: claude-harness report)\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit status: 0 written; 2 usage error, unreadable or unrecognised input, or FILE not\n"
    "writable. Failing cases in the input do not change the exit status.\n";

}  // namespace

int run_report_html_cli(const std::vector<std::string>& args, std::ostream& out,
                        std::ostream& err) {
  std::string output;
  std::string title = "claude-harness report";
  bool force = false;
  std::vector<std::string> inputs;
  CLI::App app;
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("-o,--output", output);
  app.add_option("--title", title);
  app.add_flag("--force", force);
  app.add_option("REPORT", inputs);
  const base::CommandLineText usage{"claude-report-html", kUsage, kUsage};
  if (auto exit = base::parse_command_line(app, args, usage, out, err)) return *exit;
  if (inputs.empty()) return base::usage_error(usage, "no report given", err);

  std::vector<ReportSource> sources;
  for (const auto& path : inputs) {
    std::string error;
    const auto text = base::read_input_file(path, error);
    if (!text) {
      err << "claude-report-html: " << path << ": " << error << '\n';
      return kExitUsage;
    }
    try {
      sources.push_back({path, nlohmann::json::parse(*text)});
    } catch (const nlohmann::json::parse_error& e) {
      // nlohmann reports a byte offset; the line is what a person can find in an editor.
      const std::string& content = *text;
      const auto upto = std::min(content.size(), static_cast<std::size_t>(e.byte));
      const auto line = 1 + std::count(content.begin(), content.begin() + upto, '\n');
      err << "claude-report-html: " << path << ":" << line
          << ": not JSON: " << base::excerpt(e.what()) << '\n';
      return kExitUsage;
    }
  }
  const RenderedReport rendered = render_html_report(sources, title);
  if (!rendered.errors.empty()) {
    for (const auto& e : rendered.errors) err << "claude-report-html: " << e << '\n';
    return kExitUsage;
  }
  if (output.empty()) {
    out << rendered.html;
    return out ? kExitOk : kExitUsage;
  }
  if (auto problem = base::write_private_file(output, rendered.html, force)) {
    err << "claude-report-html: " << output << ": cannot write: " << *problem << '\n';
    return kExitUsage;
  }
  err << "claude-report-html: wrote " << output << " (" << rendered.cases << " cases, "
      << rendered.failing_cases << " failing)\n";
  return kExitOk;
}

}  // namespace claude::report_html
