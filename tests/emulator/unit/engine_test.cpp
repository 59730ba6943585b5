#include "claude/emulator/engine.hpp"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <csignal>

#include "claude/base/json.hpp"
#include "engine_session.hpp"

namespace claude::emulator {
namespace {

TEST(Engine, AutoInitializeAnswersTheMomentInitializeArrives) {
  Session run(scenario({R"({"expect":{"type":"user"}})", R"({"send":{"type":"result"}})"}));
  run.line(kInit);
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0]["type"], "control_response");
  EXPECT_EQ(sent[0]["response"]["request_id"], "vs9lj41n0l");
  EXPECT_EQ(sent[0]["response"]["response"]["claude_code_version"], "2.1.332");
  run.line(kUser);
  EXPECT_EQ(run.sent().back()["type"], "result");
  run.eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
  EXPECT_EQ(run.engine().ending().code, 0);
}

TEST(Engine, AutoInitializeReplyPayloadComesFromTheHeader) {
  Session run(scenario({}, R"({"scenario":1,"auto_initialize":{"commands":[{"name":"x"}]}})"));
  run.line(kInit);
  EXPECT_EQ(base::dump_json(run.sent()[0]["response"]["response"]),
            R"({"commands":[{"name":"x"}]})");
}

TEST(Engine, WithoutAutoInitializeTheScenarioAnswersItself) {
  Session run(
      scenario({R"({"expect":{"type":"control_request","request":{"subtype":"initialize"}}})",
                R"({"respond":{"commands":[]}})"},
               R"({"scenario":1,"auto_initialize":false})"));
  run.line(kInit).eof();
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(
      base::dump_json(sent[0]),
      R"({"type":"control_response","response":{"subtype":"success","request_id":"vs9lj41n0l","response":{"commands":[]}}})");
  EXPECT_TRUE(run.report().passed);
}

TEST(Engine, AutoAnsweredInitializeCanStillBeExpected) {
  Session run(scenario({R"({"expect":{"request":{"subtype":"initialize","systemPrompt":[""]}}})"}));
  run.line(kInit).eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(Engine, ExpectConsumesInCausalNotByteOrder) {
  Session run(scenario({R"({"expect":{"type":"a"}})", R"({"expect":{"type":"b"}})"}));
  run.line(R"({"type":"b"})").line(R"({"type":"a"})").eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(Engine, StrictModeFailsAtOnceOnALineNoStepCanTake) {
  Session run(scenario({R"({"expect":{"type":"a"}})"}));
  run.line(R"({"type":"a"})").line(R"({"type":"extra"})");
  EXPECT_TRUE(run.engine().finished()) << "no wait for stdin EOF or timeout_ms";
  EXPECT_EQ(run.failure_kind(), "unexpected");
  EXPECT_EQ(run.engine().ending().code, 1);
  ASSERT_EQ(run.report().leftover.size(), 1u);
  EXPECT_EQ(run.report().transcript[run.report().leftover[0]].text, R"({"type":"extra"})");
}

TEST(Engine, NonStrictModeAcceptsLeftovers) {
  Session run(scenario({R"({"expect":{"type":"a"}})"}, R"({"scenario":1,"strict":false})"));
  run.line(R"({"type":"extra"})").line(R"({"type":"a"})").eof();
  EXPECT_TRUE(run.report().passed);
  EXPECT_EQ(run.report().leftover.size(), 1u);
}

TEST(Engine, NonJsonSdkLineIsUnexpected) {
  Session run(scenario({}));
  run.line("garbage{").eof();
  EXPECT_EQ(run.failure_kind(), "unexpected");
}

TEST(Engine, AnUnexpectedLineNamesItselfItsNumberAndTheClosestStep) {
  Session run(scenario({R"({"expect":{"type":"user","message":{"text":"hi"}},"within_ms":10000})",
                        R"({"expect":{"type":"control_request"}})"}));
  run.line(R"({"type":"user","message":{"text":"bye"}})", 3);
  ASSERT_EQ(run.failure_kind(), "unexpected");
  const Failure& f = *run.report().failure;
  EXPECT_NE(f.message.find("SDK line 1 "), std::string::npos) << f.message;
  EXPECT_NE(f.message.find(R"("text":"bye")"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("closest step: expect (line 2)"), std::string::npos) << f.message;
  EXPECT_EQ(f.line, 2u);
  ASSERT_TRUE(f.closest);
  EXPECT_EQ(f.closest->transcript_index, 0u);
  ASSERT_FALSE(f.closest->differences.empty());
  EXPECT_EQ(f.closest->differences[0].pointer, "/message/text");
}

TEST(Engine, ALineALaterStepCanTakeWaitsForIt) {
  Session run(scenario({R"({"expect":{"type":"a"}})", R"({"expect":{"type":"b"}})"}));
  run.line(R"({"type":"b"})", 1);
  EXPECT_FALSE(run.engine().finished());
  run.line(R"({"type":"a"})", 2).eof(3);
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(Engine, ALineAVariableNotYetBoundMayMatchIsNotUnexpected) {
  Session run(scenario({R"({"expect":{"type":"a","id":{"$capture":"id"}}})",
                        R"({"expect":{"type":"b","id":{"$var":"id"}}})"}));
  run.line(R"({"type":"b","id":7})", 1);
  EXPECT_FALSE(run.engine().finished());
  run.line(R"({"type":"a","id":7})", 2).eof(3);
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(Engine, IgnorePatternsDropNoise) {
  Session run(scenario({R"({"expect":{"type":"a"}})"},
                       R"({"scenario":1,"ignore":[{"type":"keep_alive"}]})"));
  run.line(R"({"type":"keep_alive"})").line(R"({"type":"a"})").eof();
  EXPECT_TRUE(run.report().passed);
  EXPECT_TRUE(run.report().transcript[0].ignored);
}

TEST(Engine, TimeoutReportsTheClosestLineAndItsFirstDifference) {
  // Not strict: a strict run would end at the first line no step can take ("unexpected").
  Session run(scenario(
      {R"({"expect":{"type":"control_request","request":{"subtype":"can_use_tool"}},"within_ms":100})"},
      R"({"scenario":1,"strict":false})"));
  run.line(R"({"type":"user"})", 1);
  run.line(R"({"type":"control_request","request_id":"1","request":{"subtype":"interrupt"}})", 2);
  run.time(99);
  EXPECT_FALSE(run.engine().finished());
  EXPECT_EQ(run.engine().next_deadline(), 100);
  run.time(100);
  ASSERT_EQ(run.failure_kind(), "timeout");
  const Failure& f = *run.report().failure;
  EXPECT_EQ(f.step, 0u);
  EXPECT_EQ(f.line, 2u);
  ASSERT_TRUE(f.closest);
  EXPECT_EQ(f.closest->transcript_index, 1u);
  ASSERT_FALSE(f.closest->differences.empty());
  EXPECT_EQ(f.closest->differences[0].pointer, "/request/subtype");
}

TEST(Engine, HeaderTimeoutIsTheDefaultWait) {
  Session run(scenario({R"({"expect":{"type":"a"}})"}, R"({"scenario":1,"timeout_ms":30})"));
  run.time(29);
  EXPECT_FALSE(run.engine().finished());
  run.time(30);
  EXPECT_EQ(run.failure_kind(), "timeout");
}

TEST(Engine, StdinClosedWhileAStepWaitsFailsNamingTheStep) {
  Session run(scenario({R"({"send":{"type":"x"}})", R"({"expect":{"type":"user"}})"}));
  run.eof();
  ASSERT_EQ(run.failure_kind(), "eof");
  EXPECT_EQ(run.report().failure->line, 3u);
  EXPECT_NE(run.report().failure->message.find("expect (line 3)"), std::string::npos);
}

TEST(Engine, RequestUsesAFreshUuidAndWaitsForItsResponse) {
  Session run(scenario(
      {R"({"request":{"subtype":"can_use_tool","tool_name":"Bash"},"as":"p","expect_response":{"subtype":"success","response":{"behavior":"allow"}}})",
       R"({"send":{"answered":"${p}"}})"}));
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 1u);
  const std::string id = sent[0]["request_id"];
  EXPECT_TRUE(
      RE2::FullMatch(id, "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"))
      << id;
  EXPECT_EQ(sent[0]["request"]["tool_name"], "Bash");
  run.line(R"({"type":"control_response","response":{"subtype":"success","request_id":")" + id +
           R"(","response":{"behavior":"allow","updatedInput":{}}}})");
  EXPECT_EQ(run.sent().back()["answered"], id);
  run.eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(Engine, RequestIdsDifferFromOneRequestToTheNext) {
  Session run(scenario({R"({"request":{"subtype":"a"}})", R"({"request":{"subtype":"b"}})"}));
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_NE(sent[0]["request_id"], sent[1]["request_id"]);
}

TEST(Engine, ResponseThatDoesNotMatchIsAMismatchWithDiff) {
  Session run(scenario(
      {R"({"request":{"subtype":"can_use_tool"},"expect_response":{"response":{"behavior":"allow"}}})"}));
  const std::string id = run.sent()[0]["request_id"];
  run.line(R"({"type":"control_response","response":{"subtype":"success","request_id":")" + id +
           R"(","response":{"behavior":"deny","message":"no"}}})");
  ASSERT_EQ(run.failure_kind(), "mismatch");
  ASSERT_TRUE(run.report().failure->closest);
  EXPECT_EQ(run.report().failure->closest->differences.at(0).pointer, "/response/behavior");
  EXPECT_EQ(run.report().failure->closest->transcript_index, 1u);
}

TEST(Engine, ResponseToARequestWithoutExpectResponseIsNeverALeftover) {
  Session run(scenario({R"({"request":{"subtype":"hook_callback"},"as":"h"})"}));
  const std::string id = run.sent()[0]["request_id"];
  run.line(R"({"type":"control_response","response":{"subtype":"success","request_id":")" + id +
           R"(","response":{}}})")
      .eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(Engine, CancelSendsAControlCancelRequestForTheNamedRequest) {
  Session run(
      scenario({R"({"request":{"subtype":"can_use_tool"},"as":"p"})", R"({"cancel":"p"})"}));
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(base::dump_json(sent[1]), R"({"type":"control_cancel_request","request_id":)" +
                                          base::dump_json(sent[0]["request_id"]) + "}");
}

TEST(Engine, RespondAndRespondErrorAnswerTheLastMatchedRequest) {
  Session run(
      scenario({R"({"expect":{"type":"control_request","request":{"subtype":"set_model"}}})",
                R"({"respond":{"model":"m"}})",
                R"({"expect":{"type":"control_request","request":{"subtype":"mcp_status"}}})",
                R"({"respond_error":"nope"})"}));
  run.line(
      R"({"type":"control_request","request_id":"a1","request":{"subtype":"set_model","model":"m"}})");
  run.line(R"({"type":"control_request","request_id":"a2","request":{"subtype":"mcp_status"}})");
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(
      base::dump_json(sent[0]),
      R"({"type":"control_response","response":{"subtype":"success","request_id":"a1","response":{"model":"m"}}})");
  EXPECT_EQ(
      base::dump_json(sent[1]),
      R"({"type":"control_response","response":{"subtype":"error","request_id":"a2","error":"nope"}})");
}

TEST(Engine, RespondWithNothingToAnswerFails) {
  Session run(scenario({R"({"expect":{"type":"user"}})", R"({"respond":{}})"}));
  run.line(kUser);
  EXPECT_EQ(run.failure_kind(), "no_request");
}

TEST(Engine, SendSubstitutesCapturedValues) {
  Session run(scenario({R"({"expect":{"type":"user","session_id":{"$capture":"sid"}}})",
                        R"({"send":{"type":"system","session_id":"${sid}","note":"id=${sid}"}})"}));
  run.line(R"({"type":"user","session_id":"S1"})");
  EXPECT_EQ(base::dump_json(run.sent()[0]),
            R"({"type":"system","session_id":"S1","note":"id=S1"})");
}

TEST(Engine, ChunksAreSeparateWritesAndGapsWaitForTheClock) {
  Session run(scenario({R"({"send":{"type":"x"},"chunks":[3,4],"gap_ms":10})"}));
  ASSERT_EQ(run.writes().size(), 1u);
  EXPECT_EQ(run.writes()[0], R"({"t)");
  EXPECT_EQ(run.engine().next_deadline(), 10);
  run.time(10);
  ASSERT_EQ(run.writes().size(), 2u);
  EXPECT_EQ(run.writes()[1], R"(ype")");
  run.time(20);
  ASSERT_EQ(run.writes().size(), 3u);
  EXPECT_EQ(run.writes()[2], ":\"x\"}\n");
}

TEST(Engine, ChunksWithoutAGapAreStillWrittenOnTheirOwn) {
  Session run(scenario(
      {R"({"send":{"type":"a"}})", R"({"send":{"type":"x"},"chunks":[3,4]})", R"({"raw":"b\n"})"}));
  ASSERT_EQ(run.writes().size(), 5u);
  EXPECT_EQ(run.writes()[1], R"({"t)");
  EXPECT_EQ(run.writes()[3], ":\"x\"}\n");
  // Only the pieces of the chunked send: the shell gathers the other outputs into one writev.
  EXPECT_EQ(run.own_writes(), (std::vector<bool>{false, true, true, true, false}));
}

TEST(Engine, AutoInitializeReplyWaitsForAChunkedSendToFinish) {
  Session run(scenario({R"({"send":{"type":"x"},"chunks":[2],"gap_ms":10})"}));
  run.line(kInit, 5);
  EXPECT_EQ(run.out(), R"({")");
  run.time(10);
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0]["type"], "x");
  EXPECT_EQ(sent[1]["type"], "control_response");
}

TEST(Engine, RawAndStderrWriteBytesAsGiven) {
  Session run(scenario({R"({"raw":"garbage\r\n{\"type\":"})", R"({"stderr":"warn\n"})"}));
  EXPECT_EQ(run.out(), "garbage\r\n{\"type\":");
  EXPECT_EQ(run.err(), "warn\n");
}

TEST(Engine, SleepWaitsForTheClock) {
  Session run(scenario({R"({"sleep_ms":50})", R"({"send":{"type":"x"}})"}));
  EXPECT_TRUE(run.out().empty());
  run.time(49);
  EXPECT_TRUE(run.out().empty());
  run.time(50);
  EXPECT_FALSE(run.out().empty());
}

TEST(Engine, ExpectEofPassesWhenStdinCloses) {
  Session run(scenario({R"({"expect_eof":true,"within_ms":100})", R"({"exit":3})"}));
  EXPECT_FALSE(run.engine().finished());
  run.eof(5);
  EXPECT_TRUE(run.report().passed);
  EXPECT_EQ(run.engine().ending().code, 3);
}

TEST(Engine, ExpectEofTimesOut) {
  Session run(scenario({R"({"expect_eof":true,"within_ms":100})"}));
  run.time(100);
  EXPECT_EQ(run.failure_kind(), "timeout");
}

TEST(Engine, ExitKillAndHangEndTheRunAsScripted) {
  Session killed(scenario({R"({"kill":"SIGSEGV"})"}));
  EXPECT_EQ(killed.engine().ending().kind, Ending::Kind::kill);
  EXPECT_EQ(killed.engine().ending().signal, SIGSEGV);
  Session hung(scenario({R"({"hang":true})"}));
  EXPECT_EQ(hung.engine().ending().kind, Ending::Kind::hang);
  EXPECT_TRUE(hung.report().passed);
}

TEST(Engine, AScriptedEndingStillFailsOnLeftovers) {
  // Both lines could be taken by the expect when they come; only one is.
  Session run(scenario({R"({"sleep_ms":5})", R"({"expect":{"type":"a"}})", R"({"exit":0})"}));
  run.line(R"({"type":"a"})", 1).line(R"({"type":"a"})", 1).time(5);
  EXPECT_EQ(run.failure_kind(), "leftover");
  EXPECT_EQ(run.engine().ending().code, 1);
}

TEST(Engine, AfterTheLastStepItWaitsForStdinEofThenPasses) {
  Session run(scenario({R"({"send":{"type":"x"}})"}, R"({"scenario":1,"timeout_ms":100})"));
  EXPECT_FALSE(run.engine().finished());
  run.eof(50);
  EXPECT_TRUE(run.report().passed);
}

TEST(Engine, AfterTheLastStepStdinLeftOpenTimesOut) {
  Session run(scenario({}, R"({"scenario":1,"timeout_ms":100})"));
  run.time(100);
  EXPECT_EQ(run.failure_kind(), "timeout");
  EXPECT_FALSE(run.report().failure->step);
}

TEST(Engine, ArgvRequireAndForbidAreChecked) {
  const char* header = R"({"scenario":1,"argv":{"require":["--permission-prompt-tool=stdio"]}})";
  Session missing(scenario({}, header));
  EXPECT_EQ(missing.failure_kind(), "argv");
  EXPECT_EQ(missing.report().failure->line, 1u);
  auto args = kTsArgv;
  args.push_back("--permission-prompt-tool=stdio");
  Session present(scenario({}, header), args);
  present.eof();
  EXPECT_TRUE(present.report().passed);
  Session forbidden(scenario({}, R"({"scenario":1,"argv":{"forbid":["--verbose"]}})"));
  EXPECT_EQ(forbidden.failure_kind(), "argv");
}

TEST(Engine, EnvRequireAcceptsExactValuesAndPatterns) {
  const char* header =
      R"({"scenario":1,"env":{"require":{"CLAUDE_CODE_ENTRYPOINT":"sdk-ts","CLAUDE_AGENT_SDK_VERSION":{"$re":"^0\\."}}}})";
  Session ok(scenario({}, header), kTsArgv,
             {{"CLAUDE_CODE_ENTRYPOINT", "sdk-ts"}, {"CLAUDE_AGENT_SDK_VERSION", "0.3.332"}});
  ok.eof();
  EXPECT_TRUE(ok.report().passed) << report_text(ok.report());
  Session wrong(scenario({}, header), kTsArgv,
                {{"CLAUDE_CODE_ENTRYPOINT", "sdk-py"}, {"CLAUDE_AGENT_SDK_VERSION", "0.3.332"}});
  EXPECT_EQ(wrong.failure_kind(), "env");
  Session unset(scenario({}, header));
  EXPECT_EQ(unset.failure_kind(), "env");
}

TEST(Engine, ClosedStdoutIsAFailure) {
  Session run(scenario({R"({"send":{"type":"x"}})", R"({"expect":{"type":"user"}})"}));
  run.engine().on_stdout_closed(1);
  EXPECT_EQ(run.failure_kind(), "stdout_closed");
}

TEST(Engine, TerminationBeforeTheEndIsAFailureEndingWithThatSignal) {
  Session run(scenario({R"({"expect":{"type":"user"}})"}));
  run.engine().on_terminated(SIGTERM, 1);
  EXPECT_EQ(run.failure_kind(), "terminated");
  EXPECT_EQ(run.engine().ending().kind, Ending::Kind::kill);
  EXPECT_EQ(run.engine().ending().signal, SIGTERM);
}

TEST(Engine, JsonrpcDialectCorrelatesByIdAndMethod) {
  Session run(scenario(
      {R"({"expect":{"method":"tools/list"}})", R"({"respond":{"tools":[]}})",
       R"({"request":{"method":"sampling/createMessage","params":{}},"as":"r","expect_response":{"result":{"ok":true}}})",
       R"({"cancel":"r"})"},
      R"({"scenario":1,"protocol":"jsonrpc"})"));
  run.line(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  run.line(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(base::dump_json(sent[0]["id"]), "1");
  EXPECT_TRUE(sent[0].contains("result"));
  EXPECT_EQ(base::dump_json(sent[1]), R"({"jsonrpc":"2.0","id":2,"result":{"tools":[]}})");
  EXPECT_EQ(sent[2]["method"], "sampling/createMessage");
  const std::string id = sent[2]["id"];
  run.line(R"({"jsonrpc":"2.0","id":")" + id + R"(","result":{"ok":true}})");
  sent = run.sent();
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[3]["method"], "notifications/cancelled");
  EXPECT_EQ(sent[3]["params"]["requestId"], id);
  run.eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(Engine, RecordingReplayAnswersWithTheLiveRequestId) {
  const std::string recording =
      R"({"recording":1,"cli_version":"2.1.332"})"
      "\n"
      R"({"t":0.1,"dir":"in","line":"{\"type\":\"control_request\",\"request_id\":\"recorded\",\"request\":{\"subtype\":\"initialize\"}}"})"
      "\n"
      R"({"t":0.2,"dir":"out","line":"{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"recorded\",\"response\":{}}}"})"
      "\n"
      R"({"t":0.3,"dir":"in","line":"{\"type\":\"user\"}"})"
      "\n"
      R"({"t":0.4,"dir":"out","line":"{\"type\":\"result\",\"subtype\":\"success\"}"})"
      "\n"
      R"({"t":0.5,"eof":"in"})"
      "\n"
      R"({"t":0.6,"exit":0})"
      "\n";
  Session run(recording);
  run.line(kInit).line(kUser).eof();
  auto sent = run.sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0]["response"]["request_id"], "vs9lj41n0l");
  EXPECT_EQ(run.out().substr(run.out().find('\n') + 1),
            "{\"type\":\"result\",\"subtype\":\"success\"}\n");
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(Engine, StepsPauseWhileAMebibyteOfOutputWaitsToBeTaken) {
  const std::string big(std::size_t{1} << 20, 'x');
  auto loaded = load_scenario_text("{\"scenario\":1}\n{\"raw\":\"" + big + "\"}\n{\"raw\":\"y\"}\n",
                                   "big.ndjson");
  ASSERT_TRUE(loaded.ok());
  Engine engine(std::move(*loaded.scenario), parse_invocation(kTsArgv), {});
  engine.start(3);
  EXPECT_EQ(engine.take_output().size(), 1u);
  EXPECT_EQ(engine.next_deadline(), 3);
  engine.on_time(4);
  auto rest = engine.take_output();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].bytes, "y");
}

TEST(Engine, TranscriptRecordsBothDirectionsWithTimes) {
  Session run(scenario({R"({"expect":{"type":"user"}})", R"({"send":{"type":"x"}})"}));
  run.line(kUser, 7);
  const auto& t = run.report().transcript;
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].dir, 'i');
  EXPECT_EQ(t[0].t_ms, 7);
  EXPECT_EQ(t[0].consumed_by, 0u);
  EXPECT_EQ(t[1].dir, 'o');
  EXPECT_EQ(t[1].t_ms, 7);
}

}  // namespace
}  // namespace claude::emulator
