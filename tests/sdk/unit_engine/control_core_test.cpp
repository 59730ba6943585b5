// ControlCore as a pure function of its inputs: lines, the stream's end, the time and the user
// side's calls in; frames and events out. No transport, no threads, no sleeps: a virtual clock.
#include "control/control_core.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace claude::sdk::control {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

class ControlCoreTest : public ::testing::Test {
 protected:
  ControlCore make(bool bulk_unparsed = false) {
    return ControlCore(CoreConfig{.request_timeout = 1000ms,
                                  .pass_bulk_unparsed = bulk_unparsed,
                                  .id_salt = "salt",
                                  .handled_subtypes = {"can_use_tool"}},
                       t0);
  }
  static void feed(ControlCore& core, const std::string& line, TimePoint now = {}) {
    InboundLine in;
    in.text = line;
    in.size = line.size();
    core.feed_line(std::move(in), now);
  }
  static std::vector<json> frames(ControlCore& core) {
    std::vector<json> out;
    while (auto f = core.next_frame()) out.push_back(json::parse(*f));
    return out;
  }
  static std::vector<Event> events(ControlCore& core) {
    std::vector<Event> out;
    while (auto e = core.next_event()) out.push_back(std::move(*e));
    return out;
  }
  template <class T>
  static T only(ControlCore& core) {
    auto all = events(core);
    EXPECT_EQ(all.size(), 1u);
    EXPECT_TRUE(!all.empty() && std::holds_alternative<T>(all[0]));
    return std::get<T>(std::move(all.at(0)));
  }
  static std::string can_use_tool(const std::string& id) {
    return R"({"type":"control_request","request_id":")" + id +
           R"(","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{}}})";
  }
  static std::string success(const std::string& id, const std::string& payload = "{}") {
    return R"({"type":"control_response","response":{"subtype":"success","request_id":")" + id +
           R"(","response":)" + payload + "}}";
  }
  template <class E>
  static void expect_error(const std::exception_ptr& error) {
    ASSERT_TRUE(error);
    EXPECT_THROW(std::rethrow_exception(error), E);
  }

  TimePoint t0 = TimePoint{} + 1h;
};

TEST_F(ControlCoreTest, OurRequestIsAFrameAndItsAnswerAnOutcome) {
  auto core = make();
  const std::string id = core.start_request("set_model", {{"model", "x"}}, std::nullopt, t0);
  EXPECT_EQ(id, "req_1_salt");
  auto written = frames(core);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0]["request"]["subtype"], "set_model");
  EXPECT_EQ(written[0]["request"]["model"], "x");
  EXPECT_EQ(core.outbound_pending(), 1u);
  feed(core, success(id, R"({"ok":1})"), t0);
  auto outcome = only<event::Outcome>(core);
  EXPECT_EQ(outcome.request_id, id);
  EXPECT_EQ(outcome.payload, json({{"ok", 1}}));
  EXPECT_EQ(core.outbound_pending(), 0u);
  feed(core, success(id), t0);  // a late duplicate is dropped
  EXPECT_TRUE(events(core).empty());
}

TEST_F(ControlCoreTest, ErrorAnswerIsAControlErrorWithItsCode) {
  auto core = make();
  const std::string id = core.start_request("interrupt", json::object(), std::nullopt, t0);
  (void)frames(core);
  feed(core, R"({"type":"control_response","response":{"subtype":"error","request_id":")" + id +
                 R"(","error":"no","error_code":"busy"}})");
  auto outcome = only<event::Outcome>(core);
  try {
    std::rethrow_exception(outcome.error);
  } catch (const ControlError& e) {
    EXPECT_EQ(e.error(), "no");
    EXPECT_EQ(e.error_code(), "busy");
  }
}

TEST_F(ControlCoreTest, DeadlineExpiresOnlyWhenTheClockPassesIt) {
  auto core = make();
  const std::string id = core.start_request("interrupt", json::object(), 50ms, t0);
  (void)frames(core);
  EXPECT_EQ(core.next_deadline(), t0 + 50ms);
  core.advance(t0 + 49ms);
  EXPECT_TRUE(events(core).empty());
  EXPECT_TRUE(frames(core).empty());
  core.advance(t0 + 50ms);
  auto cancel = frames(core);
  ASSERT_EQ(cancel.size(), 1u);
  EXPECT_EQ(cancel[0], json({{"type", "control_cancel_request"}, {"request_id", id}}));
  expect_error<TimeoutError>(only<event::Outcome>(core).error);
  EXPECT_FALSE(core.next_deadline());
  feed(core, success(id));  // the late answer is dropped
  EXPECT_TRUE(events(core).empty());
}

TEST_F(ControlCoreTest, ZeroTimeoutNeverExpires) {
  auto core = make();
  core.start_request("interrupt", json::object(), 0ms, t0);
  core.advance(t0 + 100h);
  EXPECT_FALSE(core.next_deadline());
  (void)frames(core);
  EXPECT_TRUE(events(core).empty());
}

TEST_F(ControlCoreTest, CancellingOursSendsCancelOnce) {
  auto core = make();
  const std::string id = core.start_request("interrupt", json::object(), std::nullopt, t0);
  (void)frames(core);
  core.cancel_request(id);
  EXPECT_EQ(frames(core).size(), 1u);
  expect_error<CancelledError>(only<event::Outcome>(core).error);
  core.cancel_request(id);
  EXPECT_TRUE(frames(core).empty());
  EXPECT_TRUE(events(core).empty());
}

TEST_F(ControlCoreTest, InboundRequestIsAnsweredOnceAndRepeatsAreIgnored) {
  auto core = make();
  feed(core, can_use_tool("c1"), t0 + 1s);
  auto request = only<event::Request>(core);
  EXPECT_EQ(request.request().subtype, "can_use_tool");
  EXPECT_EQ(core.inbound_in_flight(), 1u);
  feed(core, can_use_tool("c1"));
  EXPECT_TRUE(events(core).empty());
  core.answer("c1", ControlPayload(json{{"behavior", "allow"}}), t0 + 2s);
  auto answer = frames(core);
  ASSERT_EQ(answer.size(), 1u);
  EXPECT_EQ(answer[0]["response"]["subtype"], "success");
  EXPECT_EQ(answer[0]["response"]["response"]["behavior"], "allow");
  EXPECT_EQ(core.inbound_in_flight(), 0u);
  EXPECT_EQ(core.last_activity(), t0 + 2s);
  core.answer("c1", ControlPayload(json::object()), t0);  // a second answer is not sent
  EXPECT_TRUE(frames(core).empty());
}

TEST_F(ControlCoreTest, UnhandledSubtypeIsAnsweredUnsupportedByTheCore) {
  auto core = make();
  feed(core, R"({"type":"control_request","request_id":"x","request":{"subtype":"elicit"}})");
  EXPECT_TRUE(events(core).empty());
  auto answer = frames(core);
  ASSERT_EQ(answer.size(), 1u);
  EXPECT_EQ(answer[0]["response"]["error_code"], "unsupported_request");
  EXPECT_EQ(answer[0]["response"]["error"], "Unsupported control request subtype: elicit");
}

TEST_F(ControlCoreTest, InboundCancelSuppressesTheAnswer) {
  auto core = make();
  feed(core, can_use_tool("c1"));
  (void)events(core);
  feed(core, R"({"type":"control_cancel_request","request_id":"c1"})");
  EXPECT_EQ(only<event::Cancel>(core).request_id, "c1");
  core.answer_error("c1", "late", std::nullopt, t0);
  EXPECT_TRUE(frames(core).empty());
  feed(core, R"({"type":"control_cancel_request","request_id":"unknown"})");
  EXPECT_TRUE(events(core).empty());
}

TEST_F(ControlCoreTest, DataNoiseAndBulkLinesAreRoutedInOrder) {
  auto core = make(true);
  feed(core, "debug output");
  feed(core, R"({"type":"assistant","message":{"content":[]}})");
  feed(core, R"({"type":"system","subtype":"init","session_id":"s"})");
  auto all = events(core);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(std::get<event::Noise>(all[0]).line, "debug output");
  EXPECT_EQ(std::get<event::Unparsed>(all[1]).type, MessageType::assistant);
  EXPECT_EQ(std::get<event::Unparsed>(all[1]).line_number, 2u);
  EXPECT_TRUE(std::get<event::Data>(all[2]).message.is<SystemMessage>());
}

TEST_F(ControlCoreTest, BadLineEndsTheSessionFailsPendingAndCancelsHandlers) {
  auto core = make();
  const std::string id = core.start_request("interrupt", json::object(), std::nullopt, t0);
  feed(core, can_use_tool("c1"));
  (void)events(core);
  feed(core, "{not json");
  auto all = events(core);
  ASSERT_EQ(all.size(), 3u);
  expect_error<MessageParseError>(std::get<event::Outcome>(all[0]).error);
  EXPECT_EQ(std::get<event::Cancel>(all[1]).request_id, "c1");
  expect_error<MessageParseError>(std::get<event::End>(all[2]).error);
  EXPECT_TRUE(core.ended());
  feed(core, can_use_tool("c2"));  // drained, not routed
  EXPECT_TRUE(events(core).empty());
  (void)frames(core);
  core.answer("c1", ControlPayload(json::object()), t0);
  EXPECT_TRUE(frames(core).empty());
  core.start_request("interrupt", json::object(), std::nullopt, t0);  // after the end: at once
  EXPECT_TRUE(frames(core).empty());
  expect_error<MessageParseError>(only<event::Outcome>(core).error);
}

TEST_F(ControlCoreTest, EndClassification) {
  {
    auto core = make();
    core.feed_end(StreamEnd{ExitStatus{.exit_code = 0, .term_signal = std::nullopt}, "", ""});
    EXPECT_FALSE(only<event::End>(core).error);
  }
  {
    auto core = make();
    core.start_request("interrupt", json::object(), std::nullopt, t0);
    core.feed_end(StreamEnd{ExitStatus{.exit_code = 1, .term_signal = std::nullopt}, "boom", ""});
    auto all = events(core);
    ASSERT_EQ(all.size(), 2u);
    expect_error<ProcessError>(std::get<event::Outcome>(all[0]).error);
    expect_error<ProcessError>(std::get<event::End>(all[1]).error);
  }
  {
    auto core = make();
    feed(core, R"({"type":"result","subtype":"error_during_execution","is_error":true,)"
               R"("duration_ms":1,"duration_api_ms":1,"num_turns":1,"session_id":"s",)"
               R"("uuid":"u","errors":["boom"]})");
    EXPECT_TRUE(only<event::Data>(core).message.is<ResultMessage>());
    core.feed_end(StreamEnd{ExitStatus{.exit_code = 1, .term_signal = std::nullopt}, "", ""});
    expect_error<ResultError>(only<event::End>(core).error);
  }
  {
    auto core = make();
    core.start_request("interrupt", json::object(), std::nullopt, t0);
    core.feed_end(
        StreamEnd{ExitStatus{.exit_code = 0, .term_signal = std::nullopt}, "last words", ""});
    auto all = events(core);
    ASSERT_EQ(all.size(), 2u);
    try {
      std::rethrow_exception(std::get<event::Outcome>(all[0]).error);
    } catch (const ConnectionError& e) {
      EXPECT_EQ(e.stderr_tail(), "last words");
    }
  }
}

TEST_F(ControlCoreTest, OversizedLineIsAParseError) {
  auto core = make();
  InboundLine line;
  line.oversized = true;
  line.size = 99;
  core.feed_line(std::move(line), t0);
  expect_error<MessageParseError>(only<event::End>(core).error);
}

}  // namespace
}  // namespace claude::sdk::control
