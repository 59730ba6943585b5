// `harness fuzz`: fuzzes an SDK through fake-claude and keeps each finding as a scenario
// (docs/fuzz.md).
//
// What it is: the command line around claude::fuzzing. It loads the seeds (the bundled
// conformance cases and recorded sets, or --seeds DIR…, minus --exclude GLOB…), runs a campaign
// for --time seconds with -j drivers at a time — each execution writes its mutated scenario to
// a temporary file and runs the SDK's driver on it exactly as `harness check` does (DriverRun,
// with a bounded deadline) — writes each minimized finding to --out DIR and a JSON summary to
// --json FILE. `--replay FILE` runs one finding once and reports whether it still fails.
//
// Exit codes: 0 no finding (replay: it no longer fails), 1 findings (replay: it still fails),
// 2 usage error or bad input (a seed or finding that does not load, as "file:line: reason";
// an existing --json FILE without --force) before anything runs.
//
// How it fails: never throws; problems go to `err`.
//
// What it costs: one driver process group per execution and per minimization candidate.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace claude::harness {

int fuzz_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string fuzz_usage();

}  // namespace claude::harness
