// fake-claude as a function: the process shell around `Engine`.
//
// What it is: everything the executable does — argv and environment, loading the scenario, the
// stdin/stdout/stderr loop (stdin framed by the shared LineBuffer), the clock, signals, the report
// file and the scripted ending — so `main.cpp` is one call.
//
// Contract (docs/fake-claude.md):
//   scenario  `--scenario FILE` / `--scenario=FILE` anywhere in argv, else $FAKE_CLAUDE_SCENARIO
//   report    human text on stderr; JSON at $FAKE_CLAUDE_REPORT when set (mode 0600, replaced
//             atomically)
//   exit      0 pass (or the code a passing scenario's `exit` step gives), 1 verdict failure,
//             2 usage error or bad scenario; `kill` steps die by their signal, `hang` never exits
//   -v, --version  prints "<cli_version> (Claude Code)" and exits 0; -h, --help prints usage
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
