// Every recording of the bundled set grades what the SDK said: replayed with its own SDK lines it
// passes; with one graded field of one SDK line answered differently it fails, naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "claude/base/json.hpp"
#include "claude/emulator/engine.hpp"
#include "recorded_set.hpp"

namespace claude::emulator {
namespace {

namespace fs = std::filesystem;

struct Mutation {
  std::size_t sdk_line = 0;  // index among the recording's SDK lines
  std::string pointer;       // the graded field changed (JSON Pointer into the line)
  Json value;                // its new value
};

using testing::recordings;
using testing::sdk_lines;

// The CLI's requests of the recording, by id: what an SDK answer answers.
Json cli_requests(const fs::path& recording) {
  std::ifstream in(recording);
  Json requests = Json::object();
  std::string text;
  std::getline(in, text);
  while (std::getline(in, text)) {
    Json event = Json::parse(text);
    if (event.value("dir", "") != "out" || !event.contains("line")) continue;
    Json line = Json::parse(event["line"].get<std::string>(), nullptr, false);
    if (line.is_object() && line.value("type", "") == "control_request") {
      requests[line["request_id"].get<std::string>()] = line["request"];
    }
  }
  return requests;
}

// One graded field per SDK line that has one (an initialize without parameters gains a system
// prompt: a parameter the recording did not send).
std::vector<Mutation> mutations(const fs::path& recording) {
  const std::vector<std::string> lines = sdk_lines(recording);
  const Json requests = cli_requests(recording);
  std::vector<Mutation> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Json line = Json::parse(lines[i]);
    const std::string type = line.value("type", "");
    if (type == "user") {
      out.push_back({i, "/message/content", "a different prompt"});
    } else if (type == "control_request") {
      const Json& request = line["request"];
      const std::string subtype = request.value("subtype", "");
      if (subtype == "set_model") out.push_back({i, "/request/model", "claude-other-model"});
      if (subtype == "set_permission_mode") out.push_back({i, "/request/mode", "plan"});
      if (subtype == "initialize") {
        if (request.contains("hooks") && request["hooks"].contains("PreToolUse")) {
          out.push_back({i, "/request/hooks/PreToolUse/0/matcher", "Write"});
        } else if (request.contains("sdkMcpServers")) {
          out.push_back({i, "/request/sdkMcpServers", Json::array({"other"})});
        } else {
          out.push_back({i, "/request/systemPrompt", "You are a pirate."});
        }
      }
    } else if (type == "control_response") {
      const Json& answer = line["response"]["response"];
      const std::string id = line["response"]["request_id"].get<std::string>();
      const std::string asked = requests.contains(id) ? requests[id].value("subtype", "") : "";
      if (asked == "can_use_tool") {
        out.push_back(
            {i, "/response/response/behavior", answer["behavior"] == "allow" ? "deny" : "allow"});
        if (answer.contains("message")) {
          out.push_back({i, "/response/response/message", "another reason"});
        }
        out.push_back({i, "/response/response/updatedInput", Json::object({{"command", "rm"}})});
        out.push_back({i, "/response/response/interrupt", true});
      } else if (asked == "hook_callback") {
        out.push_back({i, "/response/response/hookSpecificOutput/permissionDecision", "deny"});
      } else if (asked == "mcp_message" &&
                 requests[id]["message"].value("method", "") == "tools/call") {
        out.push_back({i, "/response/response/mcp_response/result/content/0/text", "6"});
      }
    }
  }
  return out;
}

// Feeds `lines` as the SDK, then closes stdin; returns the report.
Report replay(const fs::path& recording, const std::vector<std::string>& lines) {
  auto loaded = load_scenario_file(recording);
  EXPECT_TRUE(loaded.ok()) << loaded.errors.front().to_string();
  Engine engine(
      std::move(*loaded.scenario),
      parse_invocation(std::vector<std::string>{"--output-format", "stream-json", "--verbose",
                                                "--input-format", "stream-json"}),
      {{"CLAUDE_CODE_SDK_READS_SESSION_STATE", "1"}});
  engine.start(0);
  for (const std::string& line : lines) {
    engine.on_line(line, false, 1);
    engine.take_output();
  }
  engine.on_eof(2);
  engine.take_output();
  return engine.report();
}

bool names_field(const Report& report, const std::string& pointer) {
  if (!report.failure || !report.failure->closest) return false;
  for (const Difference& d : report.failure->closest->differences) {
    if (d.pointer.rfind(pointer, 0) == 0 || pointer.rfind(d.pointer, 0) == 0) return true;
  }
  return false;
}

TEST(RecordingGrading, EveryRecordingPassesWithItsOwnSdkLines) {
  const auto files = recordings();
  ASSERT_GE(files.size(), 20u);
  for (const fs::path& file : files) {
    const Report report = replay(file, sdk_lines(file));
    EXPECT_TRUE(report.passed) << file << ": "
                               << (report.failure ? report.failure->message : "no failure");
  }
}

TEST(RecordingGrading, EveryRecordingFailsWhenOneGradedFieldDiffersAndNamesIt) {
  for (const fs::path& file : recordings()) {
    const std::vector<Mutation> changes = mutations(file);
    EXPECT_FALSE(changes.empty()) << file << ": no graded field to change";
    for (const Mutation& change : changes) {
      std::vector<std::string> lines = sdk_lines(file);
      Json line = Json::parse(lines[change.sdk_line]);
      line[Json::json_pointer(change.pointer)] = change.value;
      lines[change.sdk_line] = line.dump();
      const Report report = replay(file, lines);
      EXPECT_FALSE(report.passed) << file << ": " << change.pointer << " changed, yet passed";
      EXPECT_TRUE(names_field(report, change.pointer))
          << file << ": " << change.pointer << " changed; the failure says "
          << (report.failure ? report_text(report) : std::string("nothing"));
    }
  }
}

// A state change recorded between two answered turns must come between them in the replay.
constexpr std::string_view kStateChangeBetweenTurns =
    R"({"recording":1,"argv":[],"env":{},"cli_version":"2.1.332"}
{"t":0.1,"dir":"in","line":"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"one\"}}"}
{"t":0.2,"dir":"out","line":"{\"type\":\"result\",\"subtype\":\"success\"}"}
{"t":0.3,"dir":"in","line":"{\"type\":\"control_request\",\"request_id\":\"r1\",\"request\":{\"subtype\":\"set_model\",\"model\":\"m2\"}}"}
{"t":0.4,"dir":"out","line":"{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"r1\",\"response\":{}}}"}
{"t":0.5,"dir":"in","line":"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"two\"}}"}
{"t":0.6,"dir":"out","line":"{\"type\":\"result\",\"subtype\":\"success\"}"}
{"t":0.7,"eof":"in"}
{"t":0.8,"exit":0}
)";

Report replay_text(std::string_view recording, const std::vector<std::string>& lines) {
  auto loaded = load_scenario_text(recording, "rec.ndjson");
  EXPECT_TRUE(loaded.ok()) << loaded.errors.front().to_string();
  Engine engine(std::move(*loaded.scenario),
                parse_invocation(std::vector<std::string>{"--output-format", "stream-json"}), {});
  engine.start(0);
  for (const std::string& line : lines) {
    engine.on_line(line, false, 1);
    engine.take_output();
  }
  engine.on_eof(2);
  return engine.report();
}

constexpr const char* kTurnOne = R"({"type":"user","message":{"role":"user","content":"one"}})";
constexpr const char* kTurnTwo = R"({"type":"user","message":{"role":"user","content":"two"}})";
constexpr const char* kSetModel =
    R"({"type":"control_request","request_id":"x","request":{"subtype":"set_model","model":"m2"}})";

TEST(RecordingGrading, AStateChangeBetweenTurnsKeepsItsPlace) {
  EXPECT_TRUE(replay_text(kStateChangeBetweenTurns, {kTurnOne, kSetModel, kTurnTwo}).passed);
  EXPECT_FALSE(replay_text(kStateChangeBetweenTurns, {kSetModel, kTurnOne, kTurnTwo}).passed);
  EXPECT_FALSE(replay_text(kStateChangeBetweenTurns, {kTurnOne, kTurnTwo, kSetModel}).passed);
}

TEST(RecordingGrading, ConvertWritesTheSamePatterns) {
  for (const fs::path& file : recordings()) {
    auto recording = load_scenario_file(file);
    ASSERT_TRUE(recording.ok());
    auto converted = load_scenario_text(to_ndjson(*recording.scenario), "converted.ndjson");
    ASSERT_TRUE(converted.ok()) << file << ": " << converted.errors.front().to_string();
    const auto& a = recording.scenario->steps;
    const auto& b = converted.scenario->steps;
    ASSERT_EQ(a.size(), b.size()) << file;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].verb != Verb::expect) continue;
      EXPECT_EQ(base::dump_json(a[i].value), base::dump_json(b[i].value)) << file << " step " << i;
      EXPECT_EQ(a[i].after, b[i].after) << file << " step " << i;
    }
  }
}

}  // namespace
}  // namespace claude::emulator
