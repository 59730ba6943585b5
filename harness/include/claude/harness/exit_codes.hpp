// The exit statuses of `harness` (docs/exit-codes.md).
#pragma once

namespace claude::harness {

inline constexpr int kExitPass = 0;           // verdict passed / files valid / equivalent
inline constexpr int kExitVerdictFailed = 1;  // fake-claude's verdict failed / diff found changes
inline constexpr int kExitUsage = 2;          // bad command line or bad input file
inline constexpr int kExitCommandFailed = 3;  // CMD failed (or never ran claude) without a verdict

}  // namespace claude::harness
