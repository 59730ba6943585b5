// CHECK(condition) for the fuzz targets' oracles: on failure it names the oracle on stderr, then
// aborts, so a finding says what it broke. No cost when the condition holds.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CHECK(condition) claude_fuzz_check((condition), #condition)

inline void claude_fuzz_check(bool condition, const char* oracle) {
  if (condition) return;
  std::fprintf(stderr, "oracle failed: %s\n", oracle);
  std::abort();
}
