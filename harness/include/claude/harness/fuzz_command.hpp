// `harness fuzz`: the command line around claude::fuzzing (docs/fuzz.md). Each execution writes
// its mutated scenario to a temporary file and runs the SDK's driver on it as `harness check`
// does; each minimized finding is kept as a scenario in --out DIR.
//
// How it fails: never throws; problems go to `err`. Exit codes: 0 no finding (replay: it no
// longer fails), 1 findings (replay: it still fails), 2 usage error or bad input ("file:line:
// reason") before anything runs.
// What it costs: one driver process group per execution and per minimization candidate.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace claude::harness {

int fuzz_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace claude::harness
