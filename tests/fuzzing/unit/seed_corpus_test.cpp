// Seeds: bundled cases and recorded sets, lenient, with their driver specs; excluded by glob.
#include "claude/fuzzing/seed_corpus.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace claude::fuzzing {
namespace {

bool has_seed(const SeedLoad& load, const std::string& id) {
  return std::any_of(load.seeds.begin(), load.seeds.end(),
                     [&](const Seed& s) { return s.id == id; });
}

TEST(Seeds, ConformanceCasesLoadLenientWithTheirSpecs) {
  auto load = load_seeds({std::string(SCENARIOS_DIR) + "/conformance"}, {}, {});
  ASSERT_TRUE(load.errors.empty()) << load.errors.front();
  ASSERT_GT(load.seeds.size(), 50u);
  for (const auto& s : load.seeds) {
    EXPECT_TRUE(s.id.starts_with("conformance/")) << s.id;
    EXPECT_TRUE(s.doc.header["driver"].is_object()) << s.id;
    EXPECT_EQ(s.doc.header["strict"], false) << s.id;
  }
}

TEST(Seeds, RecordingsTakeTheSpecBesideThem) {
  auto load = load_seeds({std::string(SCENARIOS_DIR) + "/recorded"}, {}, {});
  ASSERT_TRUE(load.errors.empty()) << load.errors.front();
  ASSERT_TRUE(has_seed(load, "recorded/cli-2.1.332/plain-text/cpp.ndjson"));
  for (const auto& s : load.seeds) {
    if (s.id == "recorded/cli-2.1.332/plain-text/cpp.ndjson")
      EXPECT_EQ(s.doc.header["driver"]["prompt"], "Say hello to the stub");
  }
}

TEST(Seeds, ExcludeGlobsMatchNamesAndPaths) {
  auto load = load_seeds({std::string(SCENARIOS_DIR) + "/conformance"},
                         {"errors.error-result-without-errors-field", "*bare-string*"}, {});
  EXPECT_EQ(load.excluded, 2u);
  EXPECT_FALSE(has_seed(load, "conformance/errors/error-result-without-errors-field.ndjson"));
  EXPECT_FALSE(has_seed(load, "conformance/errors/errors-field-bare-string.ndjson"));
  EXPECT_TRUE(has_seed(load, "conformance/errors/error-result-then-exit-1.ndjson"));
}

TEST(Seeds, ASeedThatDoesNotLoadIsAnErrorNamingFileAndLine) {
  auto load = load_seed_file(std::string(FUZZ_TEST_DATA) + "/bad/unknown-verb.ndjson", {});
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_NE(load.errors.front().find("unknown-verb.ndjson:2:"), std::string::npos)
      << load.errors.front();
}

}  // namespace
}  // namespace claude::fuzzing
