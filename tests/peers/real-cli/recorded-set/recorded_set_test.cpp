// The recorded real-CLI set (scenarios/recorded/cli-2.1.332): every recording replays green through
// fake-claude to the SDK that recorded it, and that SDK then shows the same observations as in the
// live run; every recording converts and lints; `harness record --offline` and `harness
// record-set` record the pinned real CLI without anything leaving loopback.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "claude/test_support/run.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kSource = SOURCE_DIR;
const fs::path kSet = kSource / "scenarios/recorded/cli-2.1.332";

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs argv (no shell, argv[0] a path) in the temporary directory with `env` changes (empty
// value = unset), stdin empty, stdout and stderr captured in files: a recording's CLI may leave
// children holding a pipe.
Outcome run(const std::vector<std::string>& argv,
            const std::map<std::string, std::string>& env = {}) {
  const claude::test_support::TempDir output("recorded_set_test");
  claude::test_support::SpawnRequest request;
  request.program = argv.front();
  request.args.assign(argv.begin() + 1, argv.end());
  for (const auto& [name, value] : env) {
    if (value.empty())
      request.unset_env.push_back(name);
    else
      request.env[name] = value;
  }
  request.cwd = fs::temp_directory_path();
  request.output_dir = output.path();
  request.timeout = std::chrono::minutes(15);
  const auto result = claude::test_support::run_to_completion(request);
  return {result.status_code(), result.out, result.err};
}

// The pinned CLI's path, from the idempotent, cached install script.
const std::string& real_cli() {
  static const std::string path = [] {
    const Outcome r = run({(kSource / "scripts/install-real-cli").string()});
    std::string p = r.code == 0 ? r.out : "";
    while (!p.empty() && p.back() == '\n') p.pop_back();
    return p;
  }();
  return path;
}

std::vector<std::string> driver_command(const std::string& sdk, const fs::path& spec,
                                        const std::string& cli) {
  if (sdk == "cpp") return {DRIVER_CPP_PATH, "--spec", spec.string(), "--fake-claude", cli};
  return {"node",          (kSource / "drivers/ts/driver.mjs").string(),
          "--spec",        spec.string(),
          "--fake-claude", cli};
}

// Observations without what differs between two runs of the same session:
// - `t_ms`, the driver's wall-clock timing;
// - the interleaving of different observation kinds. Messages, callbacks (can_use_tool, hook,
//   mcp_tool) and control results reach the driver on different paths of the SDK, so whether a
//   callback is observed before or after the message yielded just before it depends on timing,
//   and fake-claude sends its lines without the recorded pauses. Each kind keeps its own order.
// Everything else — every message field, callback input and answer, control result — comes from
// the recorded CLI lines or the spec and must be identical.
Json normalised(const Json& observations) {
  std::map<std::string, Json> by_kind;
  for (Json o : observations) {
    o.erase("t_ms");
    const std::string kind = o.value("obs", "");
    by_kind[kind].push_back(std::move(o));
  }
  return by_kind;
}

Json parse_ndjson(const std::string& text) {
  Json array = Json::array();
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) array.push_back(Json::parse(line));
  }
  return array;
}

struct Recording {
  std::string name, sdk;
};

void PrintTo(const Recording& r, std::ostream* os) {
  *os << r.name << '/' << r.sdk;
}

std::vector<Recording> recordings() {
  std::vector<Recording> all;
  const Json set = Json::parse(slurp(kSet / "set.json"));
  for (const auto& c : set["cases"]) {
    for (const auto& s : c["sdks"]) all.push_back({c["name"], s});
  }
  return all;
}

class RecordedSetReplay : public ::testing::TestWithParam<Recording> {};

TEST_P(RecordedSetReplay, ReplaysGreenWithTheLiveRunsObservations) {
  const auto& [name, sdk] = GetParam();
  const fs::path dir = kSet / name;
  const fs::path report =
      fs::temp_directory_path() / ("recorded_set_report_" + std::to_string(::getpid()) + ".json");
  std::vector<std::string> argv{HARNESS_PATH, "replay",        (dir / (sdk + ".ndjson")).string(),
                                "--report",   report.string(), "--"};
  for (const auto& a : driver_command(sdk, dir / "spec.json", FAKE_CLAUDE_PATH)) argv.push_back(a);
  const Outcome r = run(argv);
  fs::remove(report);
  // harness prints its verdict line after the driver's NDJSON: keep only observations.
  std::string observations;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("{")) observations += line + "\n";
  }
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict pass"), std::string::npos) << r.out;
  const Json live = Json::parse(slurp(dir / (sdk + ".observations.json")));
  const Json replayed = parse_ndjson(observations);
  EXPECT_EQ(normalised(replayed), normalised(live)) << "replayed:\n"
                                                    << normalised(replayed).dump(1) << "\nlive:\n"
                                                    << normalised(live).dump(1);
}

INSTANTIATE_TEST_SUITE_P(Set, RecordedSetReplay, ::testing::ValuesIn(recordings()),
                         [](const ::testing::TestParamInfo<Recording>& param_info) {
                           std::string n = param_info.param.name + "_" + param_info.param.sdk;
                           for (char& c : n) {
                             if (c == '-') c = '_';
                           }
                           return n;
                         });

TEST(RecordedSet, ListsEveryIssueCaseWithItsFiles) {
  const Json set = Json::parse(slurp(kSet / "set.json"));
  EXPECT_EQ(set["cli_version"], "2.1.332");
  std::vector<std::string> names;
  for (const auto& c : set["cases"]) {
    names.push_back(c["name"]);
    for (const char* f : {"model-script.ndjson", "spec.json"}) {
      EXPECT_TRUE(fs::is_regular_file(kSet / c["name"].get<std::string>() / f)) << c.dump();
    }
    for (const auto& s : c["sdks"]) {
      const fs::path rec = kSet / c["name"].get<std::string>() / (s.get<std::string>() + ".ndjson");
      EXPECT_TRUE(fs::is_regular_file(rec)) << rec;
      std::ifstream in(rec);
      std::string header;
      std::getline(in, header);
      EXPECT_EQ(Json::parse(header).value("cli_version", ""), "2.1.332") << rec;
    }
    EXPECT_TRUE(!c["sdks"].empty()) << c.dump();
  }
  for (const char* wanted :
       {"plain-text", "partial-messages", "tool-allowed", "tool-denied", "hook-pretooluse",
        "mcp-tool", "interrupt", "set-model", "set-permission-mode", "multi-turn"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), wanted), names.end()) << wanted;
  }
}

TEST(RecordedSet, EveryRecordingConvertsAndLints) {
  const fs::path tmp =
      fs::temp_directory_path() / ("recorded_set_convert_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  for (const auto& [name, sdk] : recordings()) {
    const fs::path rec = kSet / name / (sdk + ".ndjson");
    const fs::path scenario = tmp / (name + "." + sdk + ".scenario.ndjson");
    const Outcome convert = run({HARNESS_PATH, "convert", rec.string(), "-o", scenario.string()});
    EXPECT_EQ(convert.code, 0) << rec << '\n' << convert.out << convert.err;
    const Outcome lint = run({HARNESS_PATH, "lint", rec.string(), scenario.string()});
    EXPECT_EQ(lint.code, 0) << rec << '\n' << lint.out << lint.err;
  }
  fs::remove_all(tmp);
}

class OfflineRecord : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("offline_record_test_" + std::to_string(::getpid()));
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
  }
  void TearDown() override { fs::remove_all(tmp_); }
  fs::path tmp_;
};

bool namespace_possible() {
  return std::system("unshare -n true >/dev/null 2>&1") == 0;
}

// One real session recorded offline through the C++ driver. Inside the namespace CMD first lists
// the network interfaces, so the test sees that loopback was the only one.
TEST_F(OfflineRecord, RecordsTheRealCliWithOnlyLoopbackReachable) {
  ASSERT_FALSE(real_cli().empty()) << "scripts/install-real-cli failed";
  const fs::path rec = tmp_ / "plain.ndjson";
  const fs::path interfaces = tmp_ / "interfaces.txt";
  std::vector<std::string> argv{
      HARNESS_PATH,
      "record",
      "--offline",
      "--model-script",
      (kSet / "plain-text/model-script.ndjson").string(),
      "--real-cli",
      real_cli(),
      "-o",
      rec.string(),
      "--",
      "sh",
      "-c",
      "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' > \"$0\" && exec \"$@\"",
      interfaces.string()};
  for (const auto& a : driver_command("cpp", kSet / "plain-text/spec.json", CLAUDE_TEE_PATH)) {
    argv.push_back(a);
  }
  // A caller's key and CLAUDE_* settings must not reach the CLI.
  const Outcome r = run(argv, {{"ANTHROPIC_API_KEY", "sk-ant-fake-caller-key-must-not-leak"},
                               {"CLAUDE_LEAK_CHECK", "caller"},
                               {"CLAUDE_TEE_REAL_CLI", ""}});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"result\":\"Hello from model-stub, offline.\""), std::string::npos)
      << r.out;
  if (namespace_possible()) {
    EXPECT_NE(r.out.find("harness: offline run isolated in a fresh network namespace"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(slurp(interfaces), "lo\n");
  } else {
    EXPECT_NE(r.out.find("harness: offline run NOT isolated"), std::string::npos) << r.out;
  }
  // The recording: the CLI's environment had only the offline variables, and it exited 0.
  std::ifstream in(rec);
  std::string line, last;
  std::getline(in, line);
  const Json header = Json::parse(line);
  EXPECT_EQ(header["env"].value("ANTHROPIC_BASE_URL", "").rfind("http://127.0.0.1:", 0), 0u)
      << header.dump();
  EXPECT_FALSE(header["env"].contains("CLAUDE_LEAK_CHECK")) << header.dump();
  EXPECT_EQ(header["env"].value("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", ""), "1");
  while (std::getline(in, line)) last = line;
  EXPECT_EQ(Json::parse(last).value("exit", -1), 0) << last;
  EXPECT_EQ(slurp(rec).find("must-not-leak"), std::string::npos);
  // The stub served the turn: every request was a Messages API call answered by a rule.
  const Json log = parse_ndjson(slurp(rec.string() + ".model-log.ndjson"));
  ASSERT_GE(log.size(), 1u);
  for (const auto& request : log) {
    EXPECT_EQ(request["target"].get<std::string>().rfind("/v1/messages", 0), 0u) << request.dump();
    EXPECT_EQ(request["status"], 200) << request.dump();
  }
}

TEST_F(OfflineRecord, RefusesToRunWithoutIsolationWhenRequiredAndImpossible) {
  if (namespace_possible()) GTEST_SKIP() << "this machine allows network namespaces";
  const Outcome r =
      run({HARNESS_PATH, "record", "--offline", "--netns", "required", "--model-script",
           (kSet / "plain-text/model-script.ndjson").string(), "--real-cli", real_cli(), "-o",
           (tmp_ / "x.ndjson").string(), "--", "true"});
  EXPECT_EQ(r.code, 3) << r.err;
}

TEST_F(OfflineRecord, BadModelScriptIsAUsageErrorNamingFileAndLine) {
  const fs::path bad = kSource / "tests/data/model_stub/bad/unknown_key.ndjson";
  const Outcome r = run({HARNESS_PATH, "record", "--offline", "--model-script", bad.string(),
                         "--real-cli", real_cli().empty() ? "/bin/true" : real_cli(), "-o",
                         (tmp_ / "x.ndjson").string(), "--", "true"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(bad.string() + ":"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp_ / "x.ndjson"));
}

TEST_F(OfflineRecord, UsageErrorsExitTwo) {
  const std::string script = (kSet / "plain-text/model-script.ndjson").string();
  const std::string out = (tmp_ / "x.ndjson").string();
  const std::vector<std::vector<std::string>> cases{
      {"record", "--offline", "-o", out, "--", "true"},                 // no script
      {"record", "--offline", "--model-script", script, "--", "true"},  // no -o
      {"record", "--offline", "--model-script", script, "-o", out},     // no CMD
      {"record", "--offline", "--model-script", script, "-o", out, "--netns", "maybe", "--",
       "true"},
      {"record", "--offline", "--bogus", "--model-script", script, "-o", out, "--", "true"},
      {"record", "--offline", "--model-script", (tmp_ / "missing.ndjson").string(), "-o", out,
       "--real-cli", "/bin/true", "--", "true"},
  };
  for (const auto& args : cases) {
    std::vector<std::string> argv{HARNESS_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    const Outcome r = run(argv);
    EXPECT_EQ(r.code, 2) << ::testing::PrintToString(args) << '\n' << r.err;
    EXPECT_FALSE(r.err.empty());
  }
}

TEST_F(OfflineRecord, NoRealCliIsAClearUsageError) {
  const Outcome r = run({HARNESS_PATH, "record", "--offline", "--model-script",
                         (kSet / "plain-text/model-script.ndjson").string(), "-o",
                         (tmp_ / "x.ndjson").string(), "--", "true"},
                        {{"CLAUDE_TEE_REAL_CLI", ""}, {"PATH", "/nonexistent-bin"}});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no real CLI"), std::string::npos) << r.err;
}

TEST_F(OfflineRecord, ExistingOutputIsNeverOverwritten) {
  const fs::path out = tmp_ / "x.ndjson";
  std::ofstream(out) << "keep\n";
  const Outcome r = run({HARNESS_PATH, "record", "--offline", "--model-script",
                         (kSet / "plain-text/model-script.ndjson").string(), "--real-cli",
                         "/bin/true", "-o", out.string(), "--", "true"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(slurp(out), "keep\n");
}

TEST_F(OfflineRecord, RecordSetRegeneratesOneCaseIntoAnotherDirectory) {
  ASSERT_FALSE(real_cli().empty()) << "scripts/install-real-cli failed";
  const fs::path out = tmp_ / "set";
  const Outcome r = run({HARNESS_PATH, "record-set", kSet.string(), "-o", out.string(),
                         "--real-cli", real_cli(), "--sdk", "cpp", "--case", "multi-turn"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const Json set = Json::parse(slurp(out / "set.json"));
  EXPECT_EQ(set["cli_version"], "2.1.332");
  ASSERT_EQ(set["cases"].size(), 1u) << set.dump();
  EXPECT_EQ(set["cases"][0]["name"], "multi-turn");
  EXPECT_EQ(set["cases"][0]["sdks"], Json::array({"cpp"}));
  for (const char* f : {"model-script.ndjson", "spec.json", "cpp.ndjson", "cpp.observations.json",
                        "cpp.model-log.ndjson"}) {
    EXPECT_TRUE(fs::is_regular_file(out / "multi-turn" / f)) << f;
  }
  // The fresh recording replays green with the same observations as its live run.
  const fs::path dir = out / "multi-turn";
  std::vector<std::string> argv{HARNESS_PATH, "replay", (dir / "cpp.ndjson").string(), "--"};
  for (const auto& a : driver_command("cpp", dir / "spec.json", FAKE_CLAUDE_PATH)) {
    argv.push_back(a);
  }
  const Outcome replay = run(argv);
  EXPECT_EQ(replay.code, 0) << replay.out << replay.err;
  std::string observations;
  std::istringstream lines(replay.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("{")) observations += line + "\n";
  }
  EXPECT_EQ(normalised(parse_ndjson(observations)),
            normalised(Json::parse(slurp(dir / "cpp.observations.json"))));
}

// The driver turns the SDK's error into an observation and exits 0; the missing `result` in the
// recording is what shows that the "CLI" never ran a session.
TEST_F(OfflineRecord, RecordSetFailsWhenTheCliRunsNoSession) {
  const fs::path out = tmp_ / "set";
  const Outcome r = run({HARNESS_PATH, "record-set", kSet.string(), "-o", out.string(),
                         "--real-cli", "/bin/false", "--sdk", "cpp", "--case", "plain-text"});
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("printed no `result`"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("plain-text/cpp: recording failed"), std::string::npos) << r.err;
}

TEST_F(OfflineRecord, RecordSetRejectsABadSetFileWithItsLine) {
  const fs::path set = tmp_ / "bad-set";
  fs::create_directories(set);
  std::ofstream(set / "set.json") << "{\n  \"cli_version\": \"2.1.332\",\n  \"cases\": [,]\n}\n";
  const Outcome r = run({HARNESS_PATH, "record-set", set.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find((set / "set.json").string() + ":3:"), std::string::npos) << r.err;
  std::ofstream(set / "set.json", std::ios::trunc)
      << R"({"cli_version":"2.1.332","cases":[{"name":"nope","sdks":["rust"]}]})";
  const Outcome unknown = run({HARNESS_PATH, "record-set", set.string()});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown sdk \"rust\""), std::string::npos) << unknown.err;
}

}  // namespace
