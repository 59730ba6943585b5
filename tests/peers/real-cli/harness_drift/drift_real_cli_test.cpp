// `harness drift` re-recording mode with a second real CLI version from npm: one case of the
// committed 2.1.332 set is recorded again with 2.1.197 (offline, model-stub) through the C++
// driver, and the two are compared.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "claude/emulator/pattern.hpp"
#include "claude/harness/harness_cli.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::harness::testing {
namespace {

namespace fs = std::filesystem;
using emulator::Json;

const std::string kSource = CLAUDE_HARNESS_SOURCE_DIR_FOR_TESTS;
const fs::path kSet = fs::path(kSource) / "scenarios/recorded/cli-2.1.332";

// Path of the CLI binary of `version`, from the (idempotent, cached) install script.
std::string installed_cli(const std::string& version) {
  FILE* pipe = popen((kSource + "/scripts/install-real-cli " + version).c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (pclose(pipe) != 0) return "";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

Json read_json(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

using claude::test_support::TempDir;

TEST(HarnessDriftRealCli, ReRecordingACaseWithCli2_1_197ComparesBothVersionsByShape) {
  ASSERT_TRUE(fs::exists(kSet / "set.json")) << "the committed recorded set is missing: " << kSet;
  const std::string cli = installed_cli("2.1.197");
  ASSERT_FALSE(cli.empty()) << "scripts/install-real-cli 2.1.197 failed";
  const std::string case_name = "plain-text";
  ASSERT_TRUE(fs::exists(kSet / case_name / "cpp.ndjson"));

  const TempDir dir("harness-drift-real");
  const fs::path keep = dir.path() / "cli-2.1.197";
  const fs::path report = dir.path() / "report.json";
  std::ostringstream out, err;
  const int status =
      run_harness({"drift", kSet.string(), "--real-cli", cli, "--case", case_name, "--sdk", "cpp",
                   "--keep", keep.string(), "--json", report.string()},
                  out, err);
  // 2.1.332 added system/session_state_changed (docs/drift/2.1.197-to-2.1.332.md): drift.
  ASSERT_EQ(status, 1) << err.str() << out.str();
  EXPECT_TRUE(fs::exists(keep / case_name / "cpp.ndjson")) << "--keep holds the new recording";

  const Json json = read_json(report);
  EXPECT_EQ(json["drift"], true);
  const Json expected_removed{{"direction", "cli_to_sdk"},
                              {"kind", "system/session_state_changed"}};
  bool found = false;
  for (const Json& kind : json["message_kinds"]["removed"]) {
    found = found || (kind["direction"] == expected_removed["direction"] &&
                      kind["kind"] == expected_removed["kind"]);
  }
  EXPECT_TRUE(found) << json["message_kinds"].dump(2);
  EXPECT_EQ(json["control_subtypes"]["added"], Json::array());
  EXPECT_EQ(json["control_subtypes"]["removed"], Json::array());
  EXPECT_EQ(json["base"]["cli_versions"], Json::array({"2.1.332"}));
  EXPECT_EQ(json["candidate"]["cli_versions"], Json::array({"2.1.197"}));
  EXPECT_EQ(json["recordings"]["compared"], 1);
  EXPECT_EQ(json["recordings"]["only_in_base"], Json::array());
  EXPECT_EQ(json["recordings"]["only_in_candidate"], Json::array());
  EXPECT_NE(out.str().find("# CLI drift report: 2.1.332 → 2.1.197"), std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace claude::harness::testing
