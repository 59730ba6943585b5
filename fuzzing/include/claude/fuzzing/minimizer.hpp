// Minimizer: the smallest scenario that still fails the same way (fewest steps, then fewest
// bytes), by greedy delta debugging on scenario values.
//
// What it does, in rounds until nothing shrinks or the budget is spent: drop blocks of steps
// (halves, quarters, … single steps); drop optional header members (description, ignore, …);
// drop top-level members of sent messages (never `type`); shorten long strings of sent messages
// and long `raw`/`stderr` texts by halves; drop `chunks`/`gap_ms`. Every candidate must load in
// the emulator (`load_errors`) before `still_fails` is asked; a candidate that fails to load is
// skipped, never run.
//
// How it fails: it does not; when the budget runs out the best doc so far is returned.
//
// What it costs: one `still_fails` call (an SDK run) per candidate that loads, at most
// `max_runs`; the rest is in-memory edits.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>

#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing {

struct MinimizeBudget {
  std::size_t max_runs = 150;
  std::chrono::milliseconds max_time{120000};
};

struct Minimized {
  ScenarioDoc doc;
  std::size_t runs = 0;  // still_fails calls made
};

Minimized minimize(ScenarioDoc doc, const std::function<bool(const ScenarioDoc&)>& still_fails,
                   const MinimizeBudget& budget);

}  // namespace claude::fuzzing
