// RunOrder: which case `harness check` starts first when it runs several at a time.
//
// What it is: an estimate of how long a case keeps its job busy, read from the case itself
// (the waits its scenario and its driver spec ask for, and whether the fake CLI never exits),
// and the longest-first order built from it. Starting the long cases first keeps one long case
// from being picked up last and running alone while the other jobs sit idle. The estimate only
// orders cases; it never limits or grades them, and reports stay in case id order.
//
// How it fails: it does not; a case without waits is estimated at 0 ms.
//
// What it costs: one pass over a case's steps and driver spec, done while the case is loaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "claude/conformance/conformance_case.hpp"
#include "claude/emulator/scenario.hpp"

namespace claude::conformance {

// A `hang` step keeps the case until the SDK gives up on a CLI that never exits: its close grace
// (5 s in ours) or the driver's timeout. This stands for that wait.
inline constexpr std::int64_t kNeverExitingCliMs = 5000;

// The sum of the scenario's `sleep_ms` steps and pauses between chunks, every `delay_ms` of the
// driver spec (call triggers, delayed answers), and kNeverExitingCliMs when the scenario hangs.
std::int64_t estimated_ms(const claude::emulator::Scenario& scenario, const Json& driver);

// Indices into `cases`, the longest estimate first; equal estimates keep their order in `cases`.
std::vector<std::size_t> longest_first(const std::vector<ConformanceCase>& cases);

}  // namespace claude::conformance
