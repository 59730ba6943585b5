// Mutators: every one applies to some bundled seed and gives a scenario fake-claude loads; a
// mutation is a function of the seed and the RNG.
#include "claude/fuzzing/mutator.hpp"

#include <gtest/gtest.h>

#include <set>

#include "claude/fuzzing/seed_corpus.hpp"

namespace claude::fuzzing {
namespace {

const std::vector<Seed>& bundled_seeds() {
  static const auto load = load_seeds(
      {std::string(SCENARIOS_DIR) + "/conformance", std::string(SCENARIOS_DIR) + "/recorded"}, {},
      {});
  return load.seeds;
}

TEST(Mutators, EveryMutatorAppliesToSomeBundledSeedAndTheResultLoads) {
  ASSERT_FALSE(bundled_seeds().empty());
  for (const auto& m : all_mutators()) {
    std::size_t loaded = 0;
    for (std::size_t i = 0; i < bundled_seeds().size() && loaded < 3; ++i) {
      ScenarioDoc doc = bundled_seeds()[i].doc;
      FuzzRng rng(7, i);
      auto site = m.apply(doc, rng);
      if (!site) continue;
      EXPECT_TRUE(site->starts_with(m.name)) << *site;
      const auto errors = load_errors(doc);
      if (errors.empty()) ++loaded;
    }
    EXPECT_GT(loaded, 0u) << m.name << " never gave a loadable scenario";
  }
}

TEST(Mutators, NamesAreUniqueAndFamilyPrefixed) {
  std::set<std::string_view> names;
  for (const auto& m : all_mutators()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    const bool family = m.name.starts_with("framing.") || m.name.starts_with("message.") ||
                        m.name.starts_with("control.") || m.name.starts_with("process.");
    EXPECT_TRUE(family) << m.name;
    EXPECT_EQ(find_mutator(m.name), &m);
  }
}

TEST(Mutators, MutateOnlyReturnsScenariosThatLoad) {
  for (std::uint64_t n = 0; n < 300; ++n) {
    FuzzRng rng(1, n);
    const Seed& seed = bundled_seeds()[rng.below(bundled_seeds().size())];
    auto mutation = mutate(seed.doc, rng, {});
    if (!mutation) continue;
    EXPECT_FALSE(mutation->sites.empty());
    EXPECT_TRUE(load_errors(mutation->doc).empty()) << seed.id << " exec " << n;
  }
}

TEST(Mutators, TheSameSeedAndStreamGiveTheSameScenario) {
  const ScenarioDoc& seed = bundled_seeds().front().doc;
  for (std::uint64_t n = 0; n < 20; ++n) {
    FuzzRng a(42, n);
    FuzzRng b(42, n);
    auto x = mutate(seed, a, {});
    auto y = mutate(seed, b, {});
    ASSERT_EQ(x.has_value(), y.has_value());
    if (x) EXPECT_EQ(render(x->doc), render(y->doc));
  }
}

TEST(Mutators, DifferentRunSeedsGiveDifferentScenarios) {
  const ScenarioDoc& seed = bundled_seeds().front().doc;
  std::set<std::string> texts;
  for (std::uint64_t run = 1; run <= 10; ++run) {
    FuzzRng rng(run, 0);
    if (auto m = mutate(seed, rng, {})) texts.insert(render(m->doc));
  }
  EXPECT_GT(texts.size(), 5u);
}

TEST(Mutators, TriedSitesArePreferredUntilExhausted) {
  std::set<std::string> tried;
  MutateOptions options;
  options.tried_sites = &tried;
  options.max_stack = 1;
  const ScenarioDoc& seed = bundled_seeds().front().doc;
  std::size_t fresh = 0;
  for (std::uint64_t n = 0; n < 30; ++n) {
    FuzzRng rng(3, n);
    const std::size_t before = tried.size();
    if (mutate(seed, rng, options) && tried.size() > before) ++fresh;
  }
  EXPECT_GE(fresh, 25u);  // nearly every mutation found a site not tried before
}

TEST(Mutators, HangIsLeftOutWhenNotAllowed) {
  MutateOptions options;
  options.allow_hang = false;
  options.max_stack = 3;
  for (std::uint64_t n = 0; n < 200; ++n) {
    FuzzRng rng(5, n);
    const Seed& seed = bundled_seeds()[rng.below(bundled_seeds().size())];
    auto m = mutate(seed.doc, rng, options);
    if (!m) continue;
    for (const auto& site : m->sites) EXPECT_FALSE(site.starts_with("process.hang")) << site;
  }
}

TEST(Mutators, DropFieldRemovesOneMemberOfAMessage) {
  ScenarioDoc doc = *parse_doc(
      R"({"scenario":1,"driver":{"prompt":"hi"}}
{"expect":{"type":"user"}}
{"send":{"type":"result","subtype":"success","is_error":false,"errors":[]}}
)");
  FuzzRng rng(1, 0);
  auto site = find_mutator("message.drop_field")->apply(doc, rng);
  ASSERT_TRUE(site);
  EXPECT_TRUE(site->starts_with("message.drop_field result/success ")) << *site;
  EXPECT_EQ(doc.steps[1]["send"].size(), 3u);
  EXPECT_EQ(doc.steps[1]["send"]["type"], "result");
}

TEST(Mutators, CutMidLineWritesAPrefixAndExits) {
  ScenarioDoc doc = *parse_doc(
      R"({"scenario":1,"driver":{"prompt":"hi"}}
{"expect":{"type":"user"}}
{"send":{"type":"assistant","message":{"content":[]}}}
{"send":{"type":"result","subtype":"success"}}
{"expect_eof":true}
)");
  FuzzRng rng(2, 0);
  ASSERT_TRUE(find_mutator("framing.cut_mid_line")->apply(doc, rng));
  ASSERT_GE(doc.steps.size(), 3u);
  EXPECT_TRUE(doc.steps.back().contains("exit"));
  const Json& cut = doc.steps[doc.steps.size() - 2];
  ASSERT_TRUE(cut.contains("raw"));
  EXPECT_FALSE(cut["raw"].get<std::string>().ends_with("\n"));
  EXPECT_TRUE(load_errors(doc).empty());
}

}  // namespace
}  // namespace claude::fuzzing
