// The drift core: loading recorded sets and comparing their shapes (kinds, fields, control
// subtypes, order), never their values.
#include "claude/harness/drift_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "recorded_set_writer.hpp"

namespace claude::harness::testing {
namespace {

RecordedSet load_ok(const std::filesystem::path& dir) {
  auto loaded = load_recorded_set(dir);
  std::string errors;
  for (const auto& e : loaded.errors) errors += e.to_string() + "\n";
  if (!loaded.set) throw std::runtime_error("set does not load:\n" + errors);
  return std::move(*loaded.set);
}

DriftReport compare_dirs(const std::filesystem::path& base, const std::filesystem::path& cand) {
  return compare_sets(load_ok(base), load_ok(cand));
}

bool has_field(const std::vector<FieldChange>& list, const std::string& kind,
               const std::string& path, const std::string& type) {
  return std::any_of(list.begin(), list.end(), [&](const FieldChange& f) {
    return f.kind == kind && f.path == path && f.type == type;
  });
}

TEST(DriftReport, SameShapesWithDifferentValuesAreNoDrift) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"), "2.1.197");
  write_recording(dir / "cand/plain/cpp.ndjson", text_turn("2.1.332", "bbbb"), "2.1.332");
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  EXPECT_FALSE(report.has_drift()) << to_markdown(report);
  EXPECT_EQ(report.sessions_compared, 1u);
  EXPECT_EQ(report.base.cli_versions, std::vector<std::string>{"2.1.197"});
  EXPECT_EQ(report.candidate.cli_versions, std::vector<std::string>{"2.1.332"});
  EXPECT_NE(to_markdown(report).find("**No drift**"), std::string::npos);
  EXPECT_EQ(to_json(report)["drift"], false);
}

TEST(DriftReport, FieldAddedToAKindIsReportedWithItsTypeAndWhereItWasFirstSeen) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  lines[3].message["capabilities"] = Json::array({"interrupt_receipt_v1"});
  write_recording(dir / "cand/plain/cpp.ndjson", lines);
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  ASSERT_EQ(report.fields_added.size(), 2u) << to_markdown(report);
  EXPECT_TRUE(has_field(report.fields_added, "system/init", "/capabilities", "array"));
  EXPECT_TRUE(has_field(report.fields_added, "system/init", "/capabilities/[]", "string"));
  EXPECT_EQ(report.fields_added[0].first_seen.session, "plain/cpp.ndjson");
  EXPECT_EQ(report.fields_added[0].first_seen.line, 5u);  // header, then the 4th message
  EXPECT_TRUE(report.fields_removed.empty());
  EXPECT_TRUE(report.ordering.empty());
  EXPECT_TRUE(report.has_drift());
}

TEST(DriftReport, FieldRemovedFromAKindIsReported) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  lines[5].message.erase("total_cost_usd");
  write_recording(dir / "cand/plain/cpp.ndjson", lines);
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  ASSERT_EQ(report.fields_removed.size(), 1u) << to_markdown(report);
  EXPECT_TRUE(has_field(report.fields_removed, "result/success", "/total_cost_usd", "number"));
  EXPECT_TRUE(report.fields_added.empty());
}

TEST(DriftReport, FieldsInsideArrayElementsAreCollapsedToBrackets) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  lines[4].message["message"]["content"][0]["citations"] = nullptr;
  write_recording(dir / "cand/plain/cpp.ndjson", lines);
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  ASSERT_EQ(report.fields_added.size(), 1u) << to_markdown(report);
  EXPECT_TRUE(has_field(report.fields_added, "assistant", "/message/content/[]/citations", "null"));
}

TEST(DriftReport, ChangedValueTypeIsOneFieldRemovedAndOneAdded) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  lines[3].message["cwd"] = nullptr;
  write_recording(dir / "cand/plain/cpp.ndjson", lines);
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  EXPECT_TRUE(has_field(report.fields_removed, "system/init", "/cwd", "string"));
  EXPECT_TRUE(has_field(report.fields_added, "system/init", "/cwd", "null"));
}

TEST(DriftReport, KeysOfModelUsageAreNamesNotFields) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  lines[5].message["modelUsage"] = {{"another-model", {{"inputTokens", 9}}}};
  write_recording(dir / "cand/plain/cpp.ndjson", lines);
  EXPECT_FALSE(compare_dirs(dir / "base", dir / "cand").has_drift());
  const RecordedSet set = load_ok(dir / "cand");
  EXPECT_TRUE(set.sessions[0].fields.contains(
      FieldKey{"result/success", "/modelUsage/*/inputTokens", "number"}));
}

TEST(DriftReport, FieldsInsideAnAddedObjectShareItsMarkdownRow) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  lines[5].message["subagent_stats"] = {{"spawned", 0}, {"killed", {{"user", 0}}}};
  lines[5].message["subagent-count"] = 0;
  write_recording(dir / "cand/plain/cpp.ndjson", lines);
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  EXPECT_EQ(report.fields_added.size(), 5u);
  const std::string md = to_markdown(report);
  EXPECT_NE(md.find("| added | `/subagent_stats` | object | `plain/cpp.ndjson:7` | `killed` "
                    "object, `killed/user` number, `spawned` number |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| added | `/subagent-count` | number | `plain/cpp.ndjson:7` |  |"),
            std::string::npos)
      << md;
}

TEST(DriftReport, NewCliControlRequestAndItsAnswerAreControlSubtypesAdded) {
  TempDir dir;
  write_recording(dir / "base/tool/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  const Json ask{{"type", "control_request"},
                 {"request_id", "cli_req_9"},
                 {"request", {{"subtype", "can_use_tool"}, {"tool_name", "Write"}}}};
  const Json allow{{"type", "control_response"},
                   {"response",
                    {{"subtype", "success"},
                     {"request_id", "cli_req_9"},
                     {"response", {{"behavior", "allow"}}}}}};
  lines.insert(lines.begin() + 5, {cli(ask), sdk(allow)});
  write_recording(dir / "cand/tool/cpp.ndjson", lines);
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  ASSERT_EQ(report.control_added.size(), 2u) << to_markdown(report);
  EXPECT_EQ(report.control_added[0].direction, Direction::cli_to_sdk);
  EXPECT_EQ(report.control_added[0].kind, "control_request/can_use_tool");
  EXPECT_EQ(report.control_added[1].direction, Direction::sdk_to_cli);
  EXPECT_EQ(report.control_added[1].kind, "control_response/success/can_use_tool");
  EXPECT_TRUE(report.kinds_added.empty());
  EXPECT_TRUE(report.fields_added.empty()) << "fields of a new kind are listed with the kind";
  EXPECT_NE(to_markdown(report).find("Top-level fields of added `control_request/can_use_tool`: "
                                     "`/request` object, `/request_id` string, `/type` string; "
                                     "2 nested fields\n"),
            std::string::npos)
      << to_markdown(report);
  const auto& fields = report.control_added[0].fields;
  EXPECT_NE(std::find(fields.begin(), fields.end(),
                      std::pair<std::string, std::string>{"/request/tool_name", "string"}),
            fields.end());
}

TEST(DriftReport, CliAnswerToAnSdkRequestIsNamedAfterTheRequest) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  const RecordedSet set = load_ok(dir / "base");
  ASSERT_EQ(set.sessions.size(), 1u);
  const auto& s = set.sessions[0];
  ASSERT_GE(s.cli_messages.size(), 1u);
  EXPECT_EQ(s.cli_messages[0].kind, "control_response/success/initialize");
  EXPECT_EQ(s.sdk_messages[0].kind, "control_request/initialize");
  EXPECT_EQ(s.sdk_messages[1].kind, "user");
}

TEST(DriftReport, MessageKindRemovedIsReportedOnceWithItsDirection) {
  TempDir dir;
  auto lines = text_turn("2.1.197", "a");
  lines.insert(lines.begin() + 4, cli(Json{{"type", "system"},
                                           {"subtype", "status"},
                                           {"status", "requesting"},
                                           {"uuid", "u"},
                                           {"session_id", "s"}}));
  write_recording(dir / "base/plain/cpp.ndjson", lines);
  write_recording(dir / "base/other/cpp.ndjson", lines);
  write_recording(dir / "cand/plain/cpp.ndjson", text_turn("2.1.332", "a"));
  write_recording(dir / "cand/other/cpp.ndjson", text_turn("2.1.332", "a"));
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  ASSERT_EQ(report.kinds_removed.size(), 1u) << to_markdown(report);
  EXPECT_EQ(report.kinds_removed[0].kind, "system/status");
  EXPECT_EQ(report.kinds_removed[0].first_seen.session, "other/cpp.ndjson");
  EXPECT_EQ(report.ordering.size(), 2u);
  const std::string md = to_markdown(report);
  // Both sessions changed the same way: one diff block lists both.
  EXPECT_NE(md.find("### CLI → SDK in `other/cpp.ndjson`, `plain/cpp.ndjson`"), std::string::npos)
      << md;
  EXPECT_NE(md.find("- system/status\n"), std::string::npos) << md;
}

TEST(DriftReport, ReorderedMessagesGiveAnEditScript) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  std::swap(lines[3], lines[4]);  // assistant before init
  write_recording(dir / "cand/plain/cpp.ndjson", lines);
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  EXPECT_TRUE(report.kinds_added.empty());
  EXPECT_TRUE(report.fields_added.empty());
  ASSERT_EQ(report.ordering.size(), 1u) << to_markdown(report);
  const auto& change = report.ordering[0];
  EXPECT_EQ(change.session, "plain/cpp.ndjson");
  EXPECT_EQ(change.direction, Direction::cli_to_sdk);
  std::vector<std::string> script;
  for (const auto& s : change.steps) {
    script.push_back((s.op == OrderStep::Op::same      ? " "
                      : s.op == OrderStep::Op::removed ? "-"
                                                       : "+") +
                     s.kind);
  }
  const std::vector<std::string> expected{" control_response/success/initialize", "-system/init",
                                          " assistant", "+system/init", " result/success"};
  EXPECT_EQ(script, expected);
  const Json json = to_json(report);
  ASSERT_EQ(json["ordering"][0]["edits"].size(), 2u);
  EXPECT_EQ(json["ordering"][0]["edits"][0]["op"], "removed");
  EXPECT_EQ(json["ordering"][0]["edits"][0]["base_line"], 5);
  EXPECT_EQ(json["ordering"][0]["edits"][1]["op"], "added");
  EXPECT_EQ(json["ordering"][0]["edits"][1]["candidate_line"], 6);
}

TEST(DriftReport, SessionPresentInOneSetOnlyIsReported) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  write_recording(dir / "base/plain/ts.ndjson", text_turn("2.1.197", "a"));
  write_recording(dir / "cand/plain/cpp.ndjson", text_turn("2.1.332", "a"));
  write_recording(dir / "cand/extra/cpp.ndjson", text_turn("2.1.332", "a"));
  const DriftReport report = compare_dirs(dir / "base", dir / "cand");
  EXPECT_EQ(report.only_in_base, std::vector<std::string>{"plain/ts.ndjson"});
  EXPECT_EQ(report.only_in_candidate, std::vector<std::string>{"extra/cpp.ndjson"});
  EXPECT_EQ(report.sessions_compared, 1u);
  EXPECT_TRUE(report.has_drift());
}

TEST(DriftReport, ModelScriptsAndRequestLogsOfTheSetAreNotRecordings) {
  TempDir dir;
  write_recording(dir / "set/plain/cpp.ndjson", text_turn("2.1.332", "a"));
  write_text(dir / "set/plain/model-script.ndjson",
             "{\"model_script\":1,\"name\":\"x\"}\n{\"when\":{},\"reply\":{}}\n");
  write_text(dir / "set/plain/cpp.model-log.ndjson", "{\"method\":\"POST\"}\n");
  write_text(dir / "set/plain/empty.ndjson", "");
  write_text(dir / "set/set.json", "{\"cli_version\":\"2.1.332\",\"cases\":[]}\n");
  const RecordedSet set = load_ok(dir / "set");
  ASSERT_EQ(set.sessions.size(), 1u);
  EXPECT_EQ(set.sessions[0].name, "plain/cpp.ndjson");
}

TEST(DriftReport, CliVersionComesFromInitElseFromTheHeader) {
  TempDir dir;
  write_recording(dir / "set/a/cpp.ndjson", text_turn("2.1.197", "a"), "");
  write_recording(dir / "set/b/cpp.ndjson", {sdk(user_prompt("b"))}, "2.1.200");
  write_recording(dir / "set/c/cpp.ndjson", {sdk(user_prompt("c"))}, "");
  const RecordedSet set = load_ok(dir / "set");
  ASSERT_EQ(set.sessions.size(), 3u);
  EXPECT_EQ(set.sessions[0].cli_version, "2.1.197");
  EXPECT_EQ(set.sessions[1].cli_version, "2.1.200");
  EXPECT_FALSE(set.sessions[2].cli_version.has_value());
}

TEST(DriftReport, RecordingWithABadEventIsAnErrorNamingFileAndLine) {
  TempDir dir;
  write_text(dir / "set/plain/cpp.ndjson",
             "{\"recording\":1,\"cli_version\":\"2.1.332\"}\n"
             "{\"t\":0.1,\"dir\":\"out\",\"line\":\"{}\"}\n"
             "{\"t\":0.2,\"dir\":\"sideways\",\"line\":\"{}\"}\n");
  const auto loaded = load_recorded_set(dir / "set");
  EXPECT_FALSE(loaded.set.has_value());
  ASSERT_EQ(loaded.errors.size(), 1u);
  EXPECT_EQ(loaded.errors[0].file, (dir / "set/plain/cpp.ndjson").string());
  EXPECT_EQ(loaded.errors[0].line, 3u);
  EXPECT_NE(loaded.errors[0].reason.find("dir"), std::string::npos) << loaded.errors[0].reason;
}

TEST(DriftReport, NdjsonFileWhoseFirstLineIsNotAnObjectIsAnError) {
  TempDir dir;
  write_recording(dir / "set/plain/cpp.ndjson", text_turn("2.1.332", "a"));
  write_text(dir / "set/plain/ts.ndjson", "not json at all\n");
  const auto loaded = load_recorded_set(dir / "set");
  EXPECT_FALSE(loaded.set.has_value());
  ASSERT_EQ(loaded.errors.size(), 1u);
  EXPECT_EQ(loaded.errors[0].to_string(),
            (dir / "set/plain/ts.ndjson").string() +
                ":1: first line is not a JSON object (not a recording nor a model script or log)");
}

TEST(DriftReport, DirectoryWithoutRecordingsIsAnError) {
  TempDir dir;
  write_text(dir / "set/notes.txt", "nothing here\n");
  const auto loaded = load_recorded_set(dir / "set");
  ASSERT_EQ(loaded.errors.size(), 1u);
  EXPECT_NE(loaded.errors[0].reason.find("no recordings"), std::string::npos);
  const auto missing = load_recorded_set(dir / "absent");
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_NE(missing.errors[0].reason.find("not a directory"), std::string::npos);
}

TEST(DriftReport, JsonReportFollowsTheDocumentedSchema) {
  TempDir dir;
  write_recording(dir / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
  auto lines = text_turn("2.1.332", "a");
  lines[3].message["effort"] = "high";
  write_recording(dir / "cand/plain/cpp.ndjson", lines);
  const Json json = to_json(compare_dirs(dir / "base", dir / "cand"));
  EXPECT_EQ(json["drift_report"], 1);
  EXPECT_EQ(json["drift"], true);
  EXPECT_EQ(json["base"]["cli_versions"], Json::array({"2.1.197"}));
  EXPECT_EQ(json["candidate"]["recordings"], 1);
  EXPECT_EQ(json["recordings"]["compared"], 1);
  EXPECT_EQ(json["message_kinds"]["added"], Json::array());
  EXPECT_EQ(json["control_subtypes"]["removed"], Json::array());
  const Json expected{{"direction", "cli_to_sdk"},
                      {"kind", "system/init"},
                      {"path", "/effort"},
                      {"type", "string"},
                      {"first_seen", {{"recording", "plain/cpp.ndjson"}, {"line", 5}}}};
  EXPECT_EQ(json["fields"]["added"], Json::array({expected}));
  EXPECT_EQ(json["ordering"], Json::array());
}

}  // namespace
}  // namespace claude::harness::testing
