#include <gtest/gtest.h>

#include "claude/base/json.hpp"
#include "claude/emulator/pattern.hpp"

namespace claude::emulator {
namespace {

Json json_of(const char* text) {
  return Json::parse(text);
}

TEST(Substitute, WholeStringPlaceholderTakesTheBoundValueAndType) {
  Bindings b{{"n", 42}, {"id", "req_1"}};
  EXPECT_EQ(substitute(json_of(R"({"a":"${n}","b":"${id}"})"), b),
            json_of(R"({"a":42,"b":"req_1"})"));
}

TEST(Substitute, PlaceholderInsideTextIsInterpolated) {
  Bindings b{{"id", "req_1"}, {"n", 3}};
  EXPECT_EQ(substitute(Json("id=${id}, n=${n}"), b), Json("id=req_1, n=3"));
}

TEST(Substitute, VarObjectIsReplaced) {
  Bindings b{{"tool", json_of(R"({"x":1})")}};
  EXPECT_EQ(substitute(json_of(R"({"input":{"$var":"tool"}})"), b),
            json_of(R"({"input":{"x":1}})"));
}

TEST(Substitute, UnboundNamesAreReportedAndLeftInPlace) {
  std::vector<std::string> unbound;
  EXPECT_EQ(substitute(Json("${nope}"), Bindings{}, &unbound), Json("${nope}"));
  EXPECT_EQ(unbound, std::vector<std::string>{"nope"});
}

TEST(Substitute, KeyOrderOfTheMessageIsKept) {
  const Json out = substitute(json_of(R"({"type":"x","a":1,"b":2})"), Bindings{});
  EXPECT_EQ(base::dump_json(out), R"({"type":"x","a":1,"b":2})");
}

TEST(Substitute, ReferencedVariablesFindsBothForms) {
  auto names = referenced_variables(json_of(R"({"a":"${x} and ${y}","b":{"$var":"z"}})"));
  EXPECT_EQ(names, (std::vector<std::string>{"x", "y", "z"}));
}

}  // namespace
}  // namespace claude::emulator
