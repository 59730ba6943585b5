// The control layer over an in-memory transport: routing, answers, cancellation, timeouts, and
// how the end of the stream reaches waiters.
#include "control/control_protocol.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <latch>
#include <mutex>
#include <vector>

#include "scripted_cli.hpp"

namespace claude::sdk {
namespace {

using namespace testing;

class ControlProtocolTest : public ::testing::Test {
 protected:
  struct Unparsed {
    std::string line;
    std::size_t line_number;
    MessageType type;
  };

  // `bulk_lines_unparsed`: take bulk lines unparsed (ControlListener::on_unparsed), as a session
  // does.
  void start(bool bulk_lines_unparsed = false) {
    transport.connect();
    ControlListener listener{
        [this](Message&& m) {
          std::lock_guard lock(mutex);
          messages.push_back(std::move(m));
        },
        [this](const std::exception_ptr& error, const StreamEnd&) { end.set_value(error); },
        [this](std::string_view line) {
          std::lock_guard lock(mutex);
          noise.emplace_back(line);
        }};
    if (bulk_lines_unparsed) {
      listener.on_unparsed = [this](InboundLine&& line, std::size_t number, MessageType type) {
        std::lock_guard lock(mutex);
        unparsed.push_back({std::string(line.view()), number, type});
      };
    }
    protocol.start(std::move(listener));
  }
  void TearDown() override {
    transport.close();
    protocol.stop();
  }
  std::exception_ptr wait_end() {
    auto f = end.get_future();
    EXPECT_EQ(f.wait_for(kWait), std::future_status::ready);
    return f.get();
  }

  InMemoryTransport transport;
  ControlProtocol protocol{transport, ControlProtocol::Config{}};
  std::mutex mutex;
  std::vector<Message> messages;
  std::vector<std::string> noise;
  std::vector<Unparsed> unparsed;
  std::promise<std::exception_ptr> end;
};

TEST_F(ControlProtocolTest, UnknownInboundSubtypeGetsUnsupportedRequestError) {
  start();
  transport.push_json(control_request("r1", {{"subtype", "ui_copy"}}));
  auto j = transport.next_written_json(kWait);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["type"], "control_response");
  EXPECT_EQ((*j)["response"]["subtype"], "error");
  EXPECT_EQ((*j)["response"]["request_id"], "r1");
  EXPECT_EQ((*j)["response"]["error"], "Unsupported control request subtype: ui_copy");
  EXPECT_EQ((*j)["response"]["error_code"], "unsupported_request");
}

TEST_F(ControlProtocolTest, HandlerReturnValueBecomesTheSuccessPayload) {
  protocol.set_handler("ping_me", [](const ControlRequest& r, const CancelToken&) {
    return json{{"echo", r.request.value()["value"]}};
  });
  start();
  transport.push_json(control_request("r2", {{"subtype", "ping_me"}, {"value", 7}}));
  auto j = transport.next_written_json(kWait);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["response"]["subtype"], "success");
  EXPECT_EQ((*j)["response"]["request_id"], "r2");
  EXPECT_EQ((*j)["response"]["response"], (json{{"echo", 7}}));
}

TEST_F(ControlProtocolTest, SerializedPayloadIsWrittenIntoTheFrameAsItIs) {
  protocol.set_handler("ping_me", [](const ControlRequest& r, const CancelToken&) {
    return ControlPayload::serialized(R"({"z":[1.50],"echo":)" + r.request.text() + "}");
  });
  start();
  transport.push_line(
      R"({"type":"control_request","request_id":"r\"9","request":{"subtype":"ping_me"}})");
  auto line = transport.next_written(kWait);
  ASSERT_TRUE(line);
  EXPECT_EQ(
      *line,
      R"({"response":{"request_id":"r\"9","response":{"z":[1.50],"echo":{"subtype":"ping_me"}},)"
      R"("subtype":"success"},"type":"control_response"})");
}

TEST_F(ControlProtocolTest, ThrowingHandlerIsAnsweredWithTheExceptionText) {
  protocol.set_handler("boom", [](const ControlRequest&, const CancelToken&) -> json {
    throw std::runtime_error("handler exploded");
  });
  start();
  transport.push_json(control_request("r3", {{"subtype", "boom"}}));
  auto j = transport.next_written_json(kWait);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["response"]["subtype"], "error");
  EXPECT_EQ((*j)["response"]["error"], "handler exploded");
  EXPECT_FALSE((*j)["response"].contains("error_code"));
}

TEST_F(ControlProtocolTest, ControlErrorThrownByHandlerKeepsItsErrorCode) {
  protocol.set_handler("coded", [](const ControlRequest&, const CancelToken&) -> json {
    throw ControlError("coded", "r4", "mode not allowed", "invalid_mode");
  });
  start();
  transport.push_json(control_request("r4", {{"subtype", "coded"}}));
  auto j = transport.next_written_json(kWait);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["response"]["error"], "mode not allowed");
  EXPECT_EQ((*j)["response"]["error_code"], "invalid_mode");
}

TEST_F(ControlProtocolTest, ConcurrentInboundRequestsAreAnsweredOutOfOrder) {
  std::promise<void> second_answered;
  auto gate = second_answered.get_future().share();
  protocol.set_handler("slow", [gate](const ControlRequest&, const CancelToken&) {
    gate.wait();
    return json{{"who", "slow"}};
  });
  protocol.set_handler("fast", [](const ControlRequest&, const CancelToken&) {
    return json{{"who", "fast"}};
  });
  start();
  transport.push_json(control_request("a", {{"subtype", "slow"}}));
  transport.push_json(control_request("b", {{"subtype", "fast"}}));
  auto first = transport.next_written_json(kWait);
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["response"]["request_id"], "b");
  second_answered.set_value();
  auto second = transport.next_written_json(kWait);
  ASSERT_TRUE(second);
  EXPECT_EQ((*second)["response"]["request_id"], "a");
}

TEST_F(ControlProtocolTest, InboundCancelCancelsTheHandlerAndNoAnswerIsSent) {
  std::promise<void> entered;
  protocol.set_handler("wait", [&entered](const ControlRequest&, const CancelToken& cancel) {
    entered.set_value();
    cancel.wait_for(kWait);
    return json{{"late", true}};
  });
  protocol.set_handler("after", [](const ControlRequest&, const CancelToken&) { return json(); });
  start();
  transport.push_json(control_request("c1", {{"subtype", "wait"}}));
  entered.get_future().wait();
  transport.push_json({{"type", "control_cancel_request"}, {"request_id", "c1"}});
  transport.push_json(control_request("c2", {{"subtype", "after"}}));
  auto j = transport.next_written_json(kWait);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["response"]["request_id"], "c2");
  EXPECT_FALSE(transport.next_written(200ms)) << "the cancelled request was answered";
}

TEST_F(ControlProtocolTest, RepeatedInboundIdWhileHandlingIsHandledOnce) {
  std::atomic<int> calls{0};
  std::promise<void> release;
  auto gate = release.get_future().share();
  protocol.set_handler("once", [&calls, gate](const ControlRequest&, const CancelToken&) {
    ++calls;
    gate.wait();
    return json::object();
  });
  start();
  transport.push_json(control_request("dup", {{"subtype", "once"}}));
  transport.push_json(control_request("dup", {{"subtype", "once"}}));
  transport.push_json(assistant_line("marker"));
  for (int i = 0; i < 500 && messages.empty(); ++i) std::this_thread::sleep_for(2ms);
  release.set_value();
  ASSERT_TRUE(transport.next_written(kWait));
  EXPECT_FALSE(transport.next_written(200ms));
  EXPECT_EQ(calls.load(), 1);
}

TEST_F(ControlProtocolTest, OutboundRequestResolvesWithThePayload) {
  start();
  auto pending = protocol.send_request("mcp_status", {{"liveReply", true}});
  auto sent = transport.next_written_json(kWait);
  ASSERT_TRUE(sent);
  EXPECT_EQ((*sent)["request"]["subtype"], "mcp_status");
  EXPECT_EQ((*sent)["request"]["liveReply"], true);
  EXPECT_EQ((*sent)["request_id"], pending.request_id());
  EXPECT_TRUE(pending.request_id().starts_with("req_"));
  transport.push_json({{"type", "control_response"},
                       {"response",
                        {{"subtype", "success"},
                         {"request_id", pending.request_id()},
                         {"response", {{"mcpServers", json::array()}}}}}});
  EXPECT_EQ(pending.wait(), (json{{"mcpServers", json::array()}}));
}

TEST_F(ControlProtocolTest, ErrorReplyThrowsControlErrorWithCode) {
  start();
  auto pending = protocol.send_request("set_model", {{"model", "nope"}});
  transport.push_json({{"type", "control_response"},
                       {"response",
                        {{"subtype", "error"},
                         {"request_id", pending.request_id()},
                         {"error", "model not found"},
                         {"error_code", "not_found"}}}});
  try {
    pending.wait();
    FAIL() << "no exception";
  } catch (const ControlError& e) {
    EXPECT_EQ(e.error(), "model not found");
    EXPECT_EQ(e.error_code(), "not_found");
    EXPECT_EQ(e.subtype(), "set_model");
    EXPECT_NE(std::string(e.what()).find(pending.request_id()), std::string::npos);
  }
}

TEST_F(ControlProtocolTest, UnansweredRequestTimesOutAndIsWithdrawn) {
  start();
  auto pending = protocol.send_request("interrupt", {}, 50ms);
  EXPECT_THROW(pending.wait(), TimeoutError);
  ASSERT_TRUE(transport.next_written_json(kWait));  // the request itself
  auto cancel = transport.next_written_json(kWait);
  ASSERT_TRUE(cancel);
  EXPECT_EQ((*cancel)["type"], "control_cancel_request");
  EXPECT_EQ((*cancel)["request_id"], pending.request_id());
}

TEST_F(ControlProtocolTest, CancellingOwnRequestSendsCancelAndIgnoresTheLateAnswer) {
  start();
  auto pending = protocol.send_request("get_context_usage");
  pending.cancel();
  EXPECT_THROW(pending.wait(), CancelledError);
  transport.next_written_json(kWait);
  auto cancel = transport.next_written_json(kWait);
  ASSERT_TRUE(cancel);
  EXPECT_EQ((*cancel)["type"], "control_cancel_request");
  transport.push_json(
      {{"type", "control_response"},
       {"response", {{"subtype", "success"}, {"request_id", pending.request_id()}}}});
  transport.push_json(assistant_line("still routing"));
  for (int i = 0; i < 500 && messages.empty(); ++i) std::this_thread::sleep_for(2ms);
  std::lock_guard lock(mutex);
  ASSERT_EQ(messages.size(), 1u);
}

TEST_F(ControlProtocolTest, PendingRequestFailsAtOnceWithProcessErrorWhenTheCliDies) {
  start();
  auto pending = protocol.send_request("interrupt");
  transport.finish(ExitStatus{1, std::nullopt, false}, "fatal: out of memory");
  auto begin = std::chrono::steady_clock::now();
  try {
    pending.wait();
    FAIL() << "no exception";
  } catch (const ProcessError& e) {
    EXPECT_EQ(e.exit_code(), 1);
    EXPECT_EQ(e.stderr_tail(), "fatal: out of memory");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);
  EXPECT_TRUE(wait_end());
}

TEST_F(ControlProtocolTest, ErrorResultFollowedByNonZeroExitIsResultError) {
  start();
  transport.push_json(result_line(true));
  transport.finish(ExitStatus{1, std::nullopt, false});
  auto error = wait_end();
  ASSERT_TRUE(error);
  try {
    std::rethrow_exception(error);
  } catch (const ResultError& e) {
    EXPECT_EQ(e.result().subtype, "error_during_execution");
    EXPECT_EQ(e.exit_code(), 1);
  }
}

TEST_F(ControlProtocolTest, CleanExitIsNotAnError) {
  start();
  transport.finish(ExitStatus{0, std::nullopt, false});
  EXPECT_FALSE(wait_end());
}

TEST_F(ControlProtocolTest, SigtermAfterOwnCloseIsNotAnError) {
  start();
  transport.close();
  EXPECT_FALSE(wait_end());
}

TEST_F(ControlProtocolTest, PendingRequestAtCleanEndFailsWithConnectionError) {
  start();
  auto pending = protocol.send_request("mcp_status");
  transport.finish(ExitStatus{0, std::nullopt, false});
  EXPECT_THROW(pending.wait(), ConnectionError);
}

TEST_F(ControlProtocolTest, PendingRequestAtCleanEndCarriesTheStderrTail) {
  start();
  auto pending = protocol.send_request("initialize");
  transport.finish(ExitStatus{0, std::nullopt, false}, "No conversation found with session ID x");
  try {
    pending.wait();
    FAIL() << "no exception";
  } catch (const ConnectionError& e) {
    EXPECT_EQ(e.stderr_tail(), "No conversation found with session ID x");
    EXPECT_NE(std::string(e.what()).find("stderr tail:\nNo conversation found with session ID x"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(ControlProtocolTest, RequestAfterTheEndFailsImmediately) {
  start();
  transport.finish(ExitStatus{2, std::nullopt, false});
  wait_end();
  auto pending = protocol.send_request("interrupt");
  EXPECT_TRUE(pending.ready());
  EXPECT_THROW(pending.wait(), ProcessError);
}

TEST_F(ControlProtocolTest, MalformedJsonLineEndsTheSessionWithMessageParseError) {
  start();
  auto pending = protocol.send_request("interrupt");
  transport.push_line(R"({"type":"assistant",)");
  auto error = wait_end();
  ASSERT_TRUE(error);
  try {
    std::rethrow_exception(error);
  } catch (const MessageParseError& e) {
    EXPECT_EQ(e.line_number(), 1u);
    EXPECT_EQ(e.detail().kind, ParseError::Kind::not_json);
  }
  EXPECT_THROW(pending.wait(), MessageParseError);
}

TEST_F(ControlProtocolTest, NonJsonStdoutNoiseIsSkippedAndReported) {
  start();
  transport.push_line("[SandboxDebug] starting");
  transport.push_json(assistant_line("hi"));
  transport.finish(ExitStatus{0, std::nullopt, false});
  EXPECT_FALSE(wait_end());
  std::lock_guard lock(mutex);
  ASSERT_EQ(noise.size(), 1u);
  EXPECT_EQ(noise[0], "[SandboxDebug] starting");
  ASSERT_EQ(messages.size(), 1u);
}

TEST_F(ControlProtocolTest, DataMessagesArriveInStdoutOrderAroundControlTraffic) {
  protocol.set_handler("h", [](const ControlRequest&, const CancelToken&) {
    std::this_thread::sleep_for(5ms);
    return json::object();
  });
  start();
  for (int i = 0; i < 50; ++i) {
    transport.push_json(assistant_line(std::to_string(i)));
    transport.push_json(control_request("h" + std::to_string(i), {{"subtype", "h"}}));
  }
  transport.finish(ExitStatus{0, std::nullopt, false});
  wait_end();
  std::lock_guard lock(mutex);
  ASSERT_EQ(messages.size(), 50u);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(messages[i].get_if<AssistantMessage>()->content[0].text, std::to_string(i));
}

TEST_F(ControlProtocolTest, OnlyBulkLinesWhoseStartNamesTheirTypeArePassedOnUnparsed) {
  start(/*bulk_lines_unparsed=*/true);
  transport.push_lines({
      kAssistant,                                          // 1: unparsed
      kStreamEvent,                                        // 2: unparsed (spaces around tokens)
      kUser,                                               // 3: unparsed
      kSystem,                                             // 4: parsed
      R"({"uuid":"u5","type":"assistant","message":{}})",  // 5: `type` not first: parsed (and bad)
  });
  auto error = wait_end();
  ASSERT_TRUE(error);  // line 5 has no message.content: the reader's own parse fails it
  std::lock_guard lock(mutex);
  ASSERT_EQ(unparsed.size(), 3u);
  EXPECT_EQ(unparsed[0].line, kAssistant);
  EXPECT_EQ(unparsed[0].line_number, 1u);
  EXPECT_EQ(unparsed[0].type, MessageType::assistant);
  EXPECT_EQ(unparsed[1].line_number, 2u);
  EXPECT_EQ(unparsed[1].type, MessageType::stream_event);
  EXPECT_EQ(unparsed[2].type, MessageType::user);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_TRUE(messages[0].is<SystemMessage>());
  try {
    std::rethrow_exception(error);
  } catch (const MessageParseError& e) {
    EXPECT_EQ(e.line_number(), 5u);
  }
}

TEST_F(ControlProtocolTest, ControlMessagesEscapedTypesAndOtherTypesAreParsedByTheReader) {
  start(/*bulk_lines_unparsed=*/true);
  transport.push_lines({
      R"({"type":"assist\u0061nt")" +
          kAssistant.substr(std::string(R"({"type":"assistant")").size()),
      R"({"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}})",
      R"({"type":"keep_alive"})",
      R"({"type":"control_request","request_id":"r1","request":{"subtype":"nope"}})",
      kResult,
  });
  auto answer = transport.next_written_json(kWait);  // the reader answered the request
  ASSERT_TRUE(answer);
  EXPECT_EQ((*answer)["response"]["request_id"], "r1");
  transport.finish(ExitStatus{0, std::nullopt, false});
  EXPECT_FALSE(wait_end());
  std::lock_guard lock(mutex);
  EXPECT_TRUE(unparsed.empty());
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_TRUE(messages[0].is<AssistantMessage>());
  EXPECT_TRUE(messages[3].is<ResultMessage>());
}

TEST_F(ControlProtocolTest, FailEndsTheSessionForEveryWaiterAndDrainsTheRest) {
  start(/*bulk_lines_unparsed=*/true);
  auto pending = protocol.send_request("interrupt");
  const auto error = std::make_exception_ptr(
      MessageParseError(ParseError{ParseError::Kind::not_json, "", "bad"}, 7, "{"));
  protocol.fail(error);
  EXPECT_EQ(wait_end(), error);
  EXPECT_THROW(pending.wait(), MessageParseError);
  transport.push_json(result_line());  // read and dropped
  transport.finish(ExitStatus{0, std::nullopt, false});
  protocol.stop();
  std::lock_guard lock(mutex);
  EXPECT_TRUE(messages.empty());
}

}  // namespace
}  // namespace claude::sdk
