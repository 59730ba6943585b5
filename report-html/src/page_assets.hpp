// The page's inline style sheet and scripts. The error recorder runs first, so any script error
// later on the page lands in <html data-script-errors>; the main script sets data-report-ready
// when it has wired every case (tests/report-html/integration reads both through Chromium).
#pragma once

#include <string_view>

namespace claude::report_html {

extern const std::string_view kPageStyle;
extern const std::string_view kErrorRecorderScript;
extern const std::string_view kPageScript;

}  // namespace claude::report_html
