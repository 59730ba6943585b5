// fake-claude as a function: the process shell around `Engine`.
//
// What it is: everything the executable does (argv, environment, the scenario, the stdio loop,
// the clock, signals, the report file, the scripted ending), so `main.cpp` is one call; see
// fake_claude_usage() and docs/fake-claude.md.
//
// How it fails: never silently: a closed stdout (EPIPE; SIGPIPE is ignored) or SIGTERM/SIGINT/
// SIGHUP before the scenario ends are failures written to the report before exiting.
//
// What it costs: start-up is argv parsing plus one streaming pass over the scenario file.
#pragma once

#include <span>
#include <string>

#include "claude/emulator/engine.hpp"

namespace claude::emulator {

// Runs fake-claude on the process's own stdin/stdout/stderr. May not return (kill/hang steps).
int run_fake_claude(std::span<const std::string> args, const Environment& environment);

// The process environment as name/value pairs.
Environment current_environment();

// The usage text printed by --help.
std::string fake_claude_usage();

}  // namespace claude::emulator
