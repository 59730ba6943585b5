// SessionStats: counts the messages of a stream-json session, by wire `type`.
//
// What it is: the core of the `session-stats` tool. Bytes go in (any chunking), are framed by
// LineBuffer and parsed by MessageParser; each message is counted under its `type` as on the wire
// (unknown types under their own name). Lines that are not messages are kept as `Problem`s with
// their line number and reason, never dropped silently.
//
// How it fails: it does not; bad lines become problems.
// What it costs: one parse per line; memory is the counts plus the problems.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "claude/sdk/line_buffer.hpp"
#include "messages/message_parser.hpp"

namespace claude::tools {

class SessionStats {
 public:
  struct Problem {
    std::size_t line = 0;  // 1-based line number in the input
    std::string reason;
  };

  void feed(std::string_view chunk);
  // Ends the input (a last line without a newline is still counted).
  void finish();

  [[nodiscard]] const std::map<std::string, std::size_t>& counts() const { return counts_; }
  [[nodiscard]] const std::vector<Problem>& problems() const { return problems_; }
  [[nodiscard]] std::size_t messages() const { return messages_; }

 private:
  void on_line(const sdk::LineEvent& event);

  // Blank lines are delivered (and skipped here) so that every event is one input line.
  sdk::LineBuffer buffer_{sdk::LineBufferOptions{.skip_blank = false}};
  sdk::MessageParser parser_;
  std::size_t line_number_ = 0;
  std::size_t messages_ = 0;
  std::map<std::string, std::size_t> counts_;
  std::vector<Problem> problems_;
};

}  // namespace claude::tools
