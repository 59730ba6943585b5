// Parses a line as a transport delivered it, where it lies: the Message takes the line's string.
// Shared by the control core and by the consumer that parses the bulk lines the core passed on
// unparsed.
//
// How it fails: a ParseError, with the line left as it was.
// What it costs: the parse; no copy of the line.
#pragma once

#include "messages/message_parser.hpp"
#include "claude/sdk/transport.hpp"

namespace claude::sdk::detail {

inline ParseResult parse_inbound(MessageParser& parser, InboundLine& line) {
  return parser.parse_moving(std::move(line.text));
}

}  // namespace claude::sdk::detail
