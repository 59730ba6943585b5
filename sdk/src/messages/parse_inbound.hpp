// Parses a line as a transport delivered it, where it lies: a lent line's Message keeps the view
// and takes its lender, an owned line's Message takes its string. Shared by the control engine's
// reader and by the consumer that parses the bulk lines the reader passed on unparsed.
//
// How it fails: a ParseError, with the line left as it was (lent or not).
// What it costs: the parse; no copy of the line.
#pragma once

#include "messages/message_parser.hpp"
#include "claude/sdk/transport.hpp"

namespace claude::sdk::detail {

inline ParseResult parse_inbound(MessageParser& parser, InboundLine& line) {
  return line.lender ? parser.parse_lent(line.lent, std::move(line.lender))
                     : parser.parse_moving(std::move(line.text));
}

}  // namespace claude::sdk::detail
