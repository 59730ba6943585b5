// Findings: a lint-clean scenario that says what it found.
#include "claude/fuzzing/finding.hpp"

#include <gtest/gtest.h>

#include "claude/emulator/scenario.hpp"

namespace claude::fuzzing {
namespace {

TEST(Finding, IsALoadableScenarioWhoseCommentNamesTheSignature) {
  ScenarioDoc doc = *parse_doc(R"({"scenario":1,"name":"x","driver":{"prompt":"hi"},"strict":false}
{"send":{"type":"result","is_error":true}}
)");
  const Violation v{"result-lost", "error-result:TypeError", "the SDK raised TypeError: boom"};
  const std::string text = finding_text(
      doc, v, {"ts", "conformance/errors/x.ndjson", {"message.drop_field result errors"}, 1, 42});
  EXPECT_TRUE(text.starts_with("# harness fuzz finding: result-lost:error-result:TypeError\n"));
  EXPECT_NE(text.find("# mutations: message.drop_field result errors\n"), std::string::npos);
  EXPECT_NE(text.find("--seed 1, exec 42"), std::string::npos);
  const auto load = claude::emulator::load_scenario_text(text, "finding.ndjson");
  ASSERT_TRUE(load.ok()) << (load.errors.empty() ? "" : load.errors.front().to_string());
  EXPECT_EQ(load.scenario->header.name, "fuzz.result-lost-error-result-TypeError");
}

TEST(Finding, FileNamesAreTheSignatureWithSafeCharacters) {
  EXPECT_EQ(finding_file_name("crash:exit-1:KeyError"), "crash-exit-1-KeyError.ndjson");
  EXPECT_EQ(finding_file_name("uncaught-error:nlohmann::detail::type_error"),
            "uncaught-error-nlohmann-detail-type_error.ndjson");
  EXPECT_EQ(finding_file_name("::"), "finding.ndjson");
}

}  // namespace
}  // namespace claude::fuzzing
