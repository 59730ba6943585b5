#include "session_stats.hpp"

#include <variant>

namespace claude::tools {

void SessionStats::feed(std::string_view chunk) {
  buffer_.feed(chunk, [&](const base::LineEvent& e) { on_line(e); });
}

void SessionStats::finish() {
  buffer_.finish([&](const base::LineEvent& e) { on_line(e); });
}

void SessionStats::on_line(const base::LineEvent& event) {
  ++line_number_;
  if (event.kind == base::LineEvent::Kind::oversized) {
    problems_.push_back(
        {line_number_, "line of " + std::to_string(event.size) + " bytes is over the " +
                           std::to_string(buffer_.options().max_line_bytes) + "-byte limit"});
    return;
  }
  if (event.text.find_first_not_of(" \t\r") == std::string_view::npos) return;
  auto result = parser_.parse(event.text);
  if (const auto* error = std::get_if<sdk::ParseError>(&result)) {
    std::string reason = error->message;
    if (event.partial) reason += " (last line, no newline)";
    problems_.push_back({line_number_, std::move(reason)});
    return;
  }
  ++messages_;
  ++counts_[std::string(std::get<sdk::Message>(result).type_name())];
}

}  // namespace claude::tools
