#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "claude/emulator/invocation.hpp"

namespace claude::emulator {
namespace {

TEST(ParseSpeed, AcceptsZeroIntegersAndDecimals) {
  EXPECT_EQ(parse_speed("0"), 0.0);
  EXPECT_EQ(parse_speed("1"), 1.0);
  EXPECT_EQ(parse_speed("2.5"), 2.5);
}

TEST(ParseSpeed, RejectsNegativeNonNumericAndNonFinite) {
  for (const char* bad : {"", "-1", "abc", "1x", "inf", "nan", " 1"}) {
    EXPECT_FALSE(parse_speed(bad).has_value()) << bad;
  }
}

TEST(SpeedOption, IsReadAnywhereAndNotKeptAmongTheFlags) {
  const std::vector<std::string> args = {"--verbose", "--speed", "2", "--model", "x"};
  const Invocation inv = parse_invocation(args);
  ASSERT_FALSE(inv.error) << *inv.error;
  EXPECT_EQ(inv.speed, 2.0);
  EXPECT_FALSE(inv.has("--speed"));
  EXPECT_TRUE(inv.has("--model=x"));
}

TEST(SpeedOption, EqualsFormWorks) {
  const std::vector<std::string> args = {"--speed=0.5"};
  EXPECT_EQ(parse_invocation(args).speed, 0.5);
}

TEST(SpeedOption, BadValueIsAUsageErrorNamingTheValue) {
  const std::vector<std::string> args = {"--speed", "fast"};
  const Invocation inv = parse_invocation(args);
  ASSERT_TRUE(inv.error);
  EXPECT_NE(inv.error->find("'fast'"), std::string::npos) << *inv.error;
}

TEST(SpeedOption, MissingValueIsAUsageError) {
  const std::vector<std::string> args = {"--speed"};
  EXPECT_TRUE(parse_invocation(args).error);
}

}  // namespace
}  // namespace claude::emulator
