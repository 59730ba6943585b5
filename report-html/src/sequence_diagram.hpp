// fake-claude's transcript as an inline SVG sequence diagram: SDK lifeline on the left, CLI on
// the right, one arrow per line placed by `t_ms` (time flows down, rows keep a minimum gap);
// request/response pairs are bracketed and highlight each other on hover; the entry closest to
// the first mismatch is red.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace claude::report_html {

// `anchor` prefixes the element ids (`<anchor>-t<index>` per transcript entry), unique per page.
std::string sequence_diagram_svg(const nlohmann::json& fake_report, std::string_view anchor);

}  // namespace claude::report_html
