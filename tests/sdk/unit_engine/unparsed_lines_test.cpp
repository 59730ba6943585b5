// Bulk lines parsed on the consumer's thread (Session, over ControlListener::on_unparsed, whose
// choice of lines control_protocol_test.cpp covers): the messages are the ones the reader would
// have parsed, in stdout order, and a bad one ends the session where the consumer reaches it.
#include <gtest/gtest.h>

#include <vector>

#include "claude/sdk/query.hpp"
#include "messages/leading_type.hpp"
#include "messages/message_parser.hpp"
#include "scripted_cli.hpp"

namespace claude::sdk {
namespace {

using namespace testing;

TEST(LeadingTypeTest, ReadsAPlainStringTypeOnlyWhenItIsTheFirstMember) {
  using detail::leading_type;
  EXPECT_EQ(leading_type(R"({"type":"assistant","x":1})"), "assistant");
  EXPECT_EQ(leading_type(" \t{ \"type\"\r: \"user\" }"), "user");
  EXPECT_EQ(leading_type(R"({"type":""})"), "");
  EXPECT_EQ(leading_type(R"({"type":"user)"), std::nullopt);         // no closing quote
  EXPECT_EQ(leading_type(R"({"type":"us\"er"})"), std::nullopt);     // an escape
  EXPECT_EQ(leading_type(R"({"typ\u0065":"user"})"), std::nullopt);  // an escaped name
  EXPECT_EQ(leading_type(R"({"types":"user"})"), std::nullopt);
  EXPECT_EQ(leading_type(R"({"uuid":"u","type":"user"})"), std::nullopt);
  EXPECT_EQ(leading_type(R"({"type":7})"), std::nullopt);
  EXPECT_EQ(leading_type(R"(["type","user"])"), std::nullopt);
  EXPECT_EQ(leading_type(""), std::nullopt);
  EXPECT_EQ(leading_type(R"({"type")"), std::nullopt);
}

Message parsed(const std::string& line) {
  MessageParser parser;
  auto result = parser.parse(line);
  EXPECT_TRUE(std::holds_alternative<Message>(result)) << line;
  return std::get<Message>(std::move(result));
}

// query() over a CLI that writes `lines` after the prompt, then exits 0.
Query query_over(const std::vector<std::string>& lines) {
  auto cli = answering_initialize();
  InMemoryTransport& raw = *cli;
  auto q = query("go", Options{}, std::move(cli));  // returns once the prompt is written
  raw.push_lines(lines);
  raw.finish(ExitStatus{0, std::nullopt, false});
  return q;
}

TEST(UnparsedLinesQueryTest, MessagesAreTheReadersInStdoutOrder) {
  const std::vector<std::string> lines{kSystem, kAssistant, kStreamEvent, kUser, kResult};
  auto q = query_over(lines);
  std::vector<Message> got;
  while (auto m = q.next()) got.push_back(std::move(*m));
  ASSERT_EQ(got.size(), lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(got[i], parsed(lines[i])) << i;
    EXPECT_EQ(got[i].line(), lines[i]) << i;
  }
}

// Where a bad bulk line is reached, the consumer gets the reader's error for it, again on every
// later call, after every message before it. Line 1 is the answer to `initialize`.
void expect_ends_at_line_4(const std::string& bad, ParseError::Kind kind,
                           const std::string& field) {
  auto q = query_over({kAssistant, kStreamEvent, bad, kUser, kResult});
  ASSERT_TRUE(q.next());
  ASSERT_TRUE(q.next());
  for (int call = 0; call < 2; ++call) {
    try {
      (void)q.next();
      ADD_FAILURE() << "no exception for " << bad;
    } catch (const MessageParseError& e) {
      EXPECT_EQ(e.line_number(), 4u) << bad;
      EXPECT_EQ(e.detail().kind, kind) << bad;
      EXPECT_EQ(e.detail().field, field) << bad;
      EXPECT_NE(std::string(e.what()).find(bad.substr(0, 20)), std::string::npos) << e.what();
    }
  }
}

TEST(UnparsedLinesQueryTest, InvalidJsonEndsTheSessionWhereTheConsumerReachesIt) {
  expect_ends_at_line_4(R"({"type":"assistant","message":)", ParseError::Kind::not_json, "");
}

TEST(UnparsedLinesQueryTest, AMissingFieldEndsTheSessionWhereTheConsumerReachesIt) {
  expect_ends_at_line_4(R"({"type":"stream_event","uuid":"u","session_id":"s"})",
                        ParseError::Kind::missing_field, "/event");
}

TEST(UnparsedLinesQueryTest, ADuplicateTypeMemberThatNamesAnotherTypeEndsTheSession) {
  // The parser takes the last `type`: a control request hidden behind "user" would have skipped
  // the control engine.
  expect_ends_at_line_4(
      R"({"type":"user","type":"control_request","request_id":"r","request":{"subtype":"x"}})",
      ParseError::Kind::wrong_type, "/type");
}

// Marks the line `last` as cut short by the end of the stream, as a CLI that died mid-write leaves
// it (SubprocessTransport sets InboundLine::partial; the in-memory transport never does).
class CutShort final : public ForwardingTransport {
 public:
  CutShort(std::unique_ptr<InMemoryTransport> inner, std::string last)
      : ForwardingTransport(std::move(inner)), last_(std::move(last)) {}
  ReadResult read() override {
    ReadResult r = inner_->read();
    if (auto* line = std::get_if<InboundLine>(&r); line && line->view() == last_)
      line->partial = true;
    return r;
  }

 private:
  std::string last_;
};

TEST(UnparsedLinesQueryTest, ATruncatedLastBulkLineIsSkippedAsTheReaderSkipsIt) {
  const std::string cut = kStreamEvent.substr(0, 40);
  auto cli = answering_initialize();
  InMemoryTransport& raw = *cli;
  auto q = query("go", Options{}, std::make_unique<CutShort>(std::move(cli), cut));
  raw.push_lines({kAssistant, kResult, cut});
  raw.finish(ExitStatus{0, std::nullopt, false});
  const auto all = q.collect();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_TRUE(all[1].is<ResultMessage>());
}

TEST(UnparsedLinesQueryTest, ControlRequestsAfterABadBulkLineAreAnsweredUntilTheConsumerGetsThere) {
  auto cli = answering_initialize();
  InMemoryTransport& raw = *cli;
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    return PermissionDecision::allowed();
  };
  auto q = query("go", o, std::move(cli));
  EXPECT_EQ(next_non_initialize(raw)["type"], "user");
  raw.push_lines({R"({"type":"assistant",)", control_request("r2", {{"subtype", "can_use_tool"},
                                                                    {"tool_name", "Bash"},
                                                                    {"input", json::object()},
                                                                    {"tool_use_id", "t"}})
                                                 .dump()});
  const json answer = next_non_initialize(raw);
  EXPECT_EQ(answer["response"]["request_id"], "r2");
  EXPECT_EQ(answer["response"]["subtype"], "success");
  EXPECT_THROW((void)q.next(), MessageParseError);
  // From there on the session is over: later requests are read and dropped, not answered.
  raw.push_json(control_request("r3", {{"subtype", "can_use_tool"},
                                       {"tool_name", "Bash"},
                                       {"input", json::object()},
                                       {"tool_use_id", "t3"}}));
  EXPECT_FALSE(raw.next_written_json(200ms));
  raw.finish(ExitStatus{0, std::nullopt, false});
}

}  // namespace
}  // namespace claude::sdk
