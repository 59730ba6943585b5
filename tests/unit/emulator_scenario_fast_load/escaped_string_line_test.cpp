// match_escaped_string_line against the reference it shortcuts, parse_json_line: a line it takes
// must be one the parser takes as a JsonStringMember with the same key and literal, and a line
// {"raw":"<body>"} the parser takes that way must be taken too (else the fast path is lost).
// decode_json_string_body against simdjson's decode of the same string (a replayed step's bytes).
#include "escaped_string_line.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "claude/emulator/json_text.hpp"

namespace claude::emulator::detail {
namespace {

constexpr std::string_view kKeys[] = {"raw", "stderr"};

// The old path's answer for `line`: the member it keeps escaped, or nullopt (a value or an error).
std::optional<JsonStringMember> reference(const std::string& line) {
  // parse_json_line in place needs kJsonPadding readable bytes after the text.
  std::string padded = line + std::string(kJsonPadding, ' ');
  const std::string_view text(padded.data(), line.size());
  try {
    auto parsed = parse_json_line(text, true, kKeys);
    if (auto* member = std::get_if<JsonStringMember>(&parsed)) {
      // The literal is a view into `padded`: give it back as an offset-free copy's view of `line`.
      const auto offset = static_cast<std::size_t>(member->literal.data() - padded.data());
      return JsonStringMember{member->key,
                              std::string_view(line).substr(offset, member->literal.size())};
    }
  } catch (const Json::exception&) {
  }
  return std::nullopt;
}

// Every instruction set this CPU runs (AVX-512, SSE, portable code), each held to the same answers.
std::vector<StringScan> usable_scans() {
  std::vector<StringScan> scans;
  for (StringScan scan : {StringScan::avx512, StringScan::sse, StringScan::portable}) {
    if (usable_scan(scan) == scan) scans.push_back(scan);
  }
  return scans;
}

// The replay's decode of `body` and simdjson's, both over `body` set between quotes as it lies in
// a scenario file (a '\' at its end must not take the closing quote): equal bytes, or both none;
// and the decode refuses exactly what the load's validation refuses. With every instruction set.
void expect_decodes_alike(std::string_view body) {
  static const std::vector<StringScan> scans = usable_scans();
  std::string quoted(1, '"');
  quoted.append(body).append(1, '"').append(kJsonPadding, '\0');
  const std::string_view literal(quoted.data() + 1, body.size());
  const auto slow = decode_json_string_literal(literal);
  for (StringScan scan : scans) {
    SCOPED_TRACE("scan " + std::to_string(static_cast<int>(scan)));
    const auto fast = decode_json_string_body(literal, scan);
    ASSERT_EQ(fast.has_value(), slow.has_value()) << "body: " << body.substr(0, 300);
    ASSERT_EQ(fast.has_value(), is_json_string_body(body, scan)) << "body: " << body.substr(0, 300);
    if (fast) {
      EXPECT_EQ(*fast, *slow) << "body: " << body.substr(0, 300);
    }
    // Into strings that held other bytes (a step's given-back buffer): longer, shorter, none.
    for (const std::size_t stale : {body.size() + 70, std::size_t{3}, std::size_t{0}}) {
      std::string reused(stale, '#');
      ASSERT_EQ(decode_json_string_body_into(literal, reused, scan), fast.has_value());
      if (fast) {
        EXPECT_EQ(reused, *fast) << "stale bytes " << stale << ", body: " << body.substr(0, 300);
      }
    }
  }
}

// `line` taken by the matcher only as the reference takes it; with `complete`, also taken
// whenever the reference takes it. Returns whether the matcher took it.
bool expect_agrees(const std::string& line, bool complete) {
  SCOPED_TRACE("line: " + line.substr(0, 300));
  const auto fast = match_escaped_string_line(line);
  const auto slow = reference(line);
  if (fast) {
    EXPECT_TRUE(slow.has_value()) << "taken without a parse, refused by the parser";
    if (!slow) return true;
    EXPECT_EQ(fast->key, slow->key);
    EXPECT_EQ(fast->literal.data(), slow->literal.data());
    EXPECT_EQ(fast->literal.size(), slow->literal.size());
  } else if (complete) {
    EXPECT_FALSE(slow.has_value()) << "taken by the parser, missed by the matcher";
  }
  return fast.has_value();
}

std::string raw_line(std::string_view body) {
  return R"({"raw":")" + std::string(body) + R"("})";
}

// The fastest set is one of those held to the answers above, and portable code always is.
TEST(EscapedStringLine, HoldsEveryInstructionSetTheCpuRuns) {
  const auto scans = usable_scans();
  EXPECT_NE(std::find(scans.begin(), scans.end(), usable_scan(StringScan::fastest)), scans.end());
  EXPECT_EQ(scans.back(), StringScan::portable);
  for (StringScan scan : scans) RecordProperty("scan", static_cast<int>(scan));
}

TEST(EscapedStringLine, TakesEveryEscapeAndUtf8) {
  const std::string body =
      R"(nul \u0000 quote \" slash \\ \/ \b\f\n\r\t pair \ud83d\ude00 \uD83D\uDE00 é€😀 )"
      "\x7f";
  ASSERT_TRUE(match_escaped_string_line(raw_line(body)).has_value());
  expect_agrees(raw_line(body), true);
  using namespace std::string_literals;
  EXPECT_EQ(decode_json_string_body(body),
            "nul \0 quote \" slash \\ / \b\f\n\r\t pair \xF0\x9F\x98\x80 \xF0\x9F\x98\x80 "
            "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80 \x7f"s);
  // Every escape at every place of a 16-byte block, and runs that cross one.
  for (std::size_t pad = 0; pad < 40; ++pad) expect_decodes_alike(std::string(pad, 'a') + body);
}

TEST(EscapedStringLine, TakesSpacesAroundEveryTokenAndStderr) {
  const std::string line = " \t{ \"stderr\" :\t\"warn\\n\" }\r";
  const auto match = match_escaped_string_line(line);
  ASSERT_TRUE(match.has_value());
  EXPECT_EQ(match->key, "stderr");
  EXPECT_EQ(match->literal, "warn\\n");
  // The key is not read from the line: the loader may have released the line's pages.
  EXPECT_TRUE(match->key.data() < line.data() || match->key.data() >= line.data() + line.size());
  expect_agrees(line, true);
}

TEST(EscapedStringLine, LeavesOtherShapesToTheParser) {
  for (const std::string line :
       {R"({"raw":"a","raw":"b"})", R"({"raw":"a","stderr":"b"})", R"({"raw":7})",
        R"({"r\u0061w":"escaped key"})", R"({"raw_b64":"AAAA"})", R"({"send":"x"})",
        R"(["raw","x"])", R"({"raw":"x"} x)",
        R"({"raw":"x"})"
        "\xEF\xBB\xBF",
        R"({"raw":"unterminated})", R"({"raw":"})", R"({"raw":"x\"})", R"({"raw""x"})", "", "{",
        R"({"raw":"a"}})", R"({{"raw":"a"})"}) {
    expect_agrees(line, false);
  }
  EXPECT_FALSE(match_escaped_string_line(R"({"r\u0061w":"escaped key"})").has_value());
}

TEST(EscapedStringLine, RefusesWhatTheParserRefuses) {
  for (const std::string& body : std::vector<std::string>{R"(\x)",
                                                          R"(\)",
                                                          R"(\\\)",
                                                          R"(\u12)",
                                                          R"(\u12G4)",
                                                          R"(\ud800)",
                                                          R"(\ud800\u0041)",
                                                          R"(\udc00)",
                                                          R"(\ud800\ud800)",
                                                          R"(\ud800x\udc00)",
                                                          R"(\ud800xxdc00)",
                                                          R"(\ud800\\udc00)",
                                                          R"(\U0041)",
                                                          "tab\tinside",
                                                          std::string("nul\0inside", 10),
                                                          "bad utf8 \xC3\x28",
                                                          "overlong \xC0\xAF",
                                                          "surrogate in utf8 \xED\xA0\x80",
                                                          "truncated \xE2\x82",
                                                          "stray \x80",
                                                          "above \xF4\x90\x80\x80",
                                                          R"(quote " inside)"}) {
    EXPECT_FALSE(match_escaped_string_line(raw_line(body)).has_value()) << body;
    expect_agrees(raw_line(body), true);
    expect_decodes_alike(body);
  }
}

// Every string of up to 7 bytes over an alphabet that makes escapes, surrogates and runs of
// backslashes, at offsets that put it across a 64-byte block boundary.
TEST(EscapedStringLine, AgreesOnEveryShortStringAcrossABlockBoundary) {
  const std::string_view alphabet[] = {"\\",   "\"",   "u", "n",        "d800",
                                       "dc00", "0041", "x", "\xC3\xA9", "\xC3"};
  std::vector<std::string> bodies{""};
  std::vector<std::string> last{""};
  for (int length = 1; length <= 4; ++length) {
    std::vector<std::string> next;
    for (const auto& prefix : last) {
      for (auto piece : alphabet) next.push_back(prefix + std::string(piece));
    }
    bodies.insert(bodies.end(), next.begin(), next.end());
    last = std::move(next);
  }
  std::size_t taken = 0;
  std::size_t tried = 0;
  for (std::size_t pad : {0u, 1u, 58u, 60u, 62u, 63u, 64u, 126u, 127u}) {
    for (const auto& body : bodies) {
      taken += expect_agrees(raw_line(std::string(pad, 'a') + body), true);
      taken += expect_agrees(raw_line(std::string(pad, 'a') + body + "tail"), true);
      expect_decodes_alike(std::string(pad, 'a') + body);
      expect_decodes_alike(std::string(pad, 'a') + body + "tail");
      tried += 2;
      if (HasFailure()) return;
    }
  }
  // Both answers are well represented.
  EXPECT_GT(taken, tried / 20);
  EXPECT_LT(taken, tried - tried / 20);
}

// Long strings like a replay's, with one fault (or none) at a random place: a bad escape, a
// control byte, bad UTF-8, a lone surrogate, an unescaped quote, a trailing backslash.
TEST(EscapedStringLine, AgreesOnLongRandomStrings) {
  std::mt19937 random(20261201);
  const std::string_view good[] = {
      "x", "xxxxxxxxxxxxxxxx", "\\\"", "\\\\", "\\n", "\\/", "\\t", "\\u00e9", "\\ud83d\\ude00",
      "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "{\\\"type\\\":\\\"assistant\\\"}",
      // A JSON line inside a JSON string inside a JSON string (a
      // recording of a recording): escaped backslashes before codes
      // and before letters that are not codes.
      "{\\\\\\\"text\\\\\\\":\\\\\\\"a\\\\nb\\\\\\\"}", "\\\\n", "\\b\\f\\r", "nbtfr", " "};
  const std::string_view bad[] = {"\\x",          "\\",
                                  "\\u12",        "\\ud800",
                                  "\\udc00",      "\\ud800\\u0041",
                                  "\t",           std::string_view("\0", 1),
                                  "\x1f",         "\"",
                                  "\xC3",         "\x80",
                                  "\xED\xA0\x80", "\xF8\x88\x80\x80\x80",
                                  "\\U0041"};
  int taken = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string body;
    const std::size_t target = std::uniform_int_distribution<std::size_t>(0, 3000)(random);
    while (body.size() < target) {
      body += good[std::uniform_int_distribution<std::size_t>(0, std::size(good) - 1)(random)];
    }
    const int faults = std::uniform_int_distribution<int>(0, 2)(random);
    for (int i = 0; i < faults; ++i) {
      const auto at = std::uniform_int_distribution<std::size_t>(0, body.size())(random);
      body.insert(at,
                  bad[std::uniform_int_distribution<std::size_t>(0, std::size(bad) - 1)(random)]);
    }
    taken += expect_agrees(raw_line(body), true);
    expect_decodes_alike(body);
    if (HasFailure()) return;
  }
  EXPECT_GT(taken, 500);
  EXPECT_LT(taken, 2500);
}

}  // namespace
}  // namespace claude::emulator::detail
