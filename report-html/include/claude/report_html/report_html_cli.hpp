// claude-report-html: `claude-report-html [-o FILE] [--title TEXT] REPORT.json…` reads suite
// reports and fake-claude reports and writes one HTML page (to FILE, else stdout).
//
// How it fails: returns 2, naming the file and reason on `err`, for a usage error, an unreadable
// or non-JSON input, a document of neither kind, or an output file that cannot be written
// (written beside and renamed, so a failed run never leaves half a page). Returns 0 otherwise —
// failing cases in the input are the report's content, not an error of this tool.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace claude::report_html {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 2;

// `args` excludes the program name.
int run_report_html_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace claude::report_html
