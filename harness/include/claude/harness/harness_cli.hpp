// The `harness` command line: subcommands replay, record, run, convert, lint and diff
// (docs/harness.md). `main` is one call to run_harness so tests can drive every subcommand
// in-process, except that replay/record/run start real processes.
//
// How it fails: returns an exit status from exit_codes.hpp and explains on `err`; never throws.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace claude::harness {

// `args` excludes the program name.
int run_harness(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Subcommands, each given the arguments after its name.
int replay_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int record_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_cassette_command(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err);
int convert_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int lint_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace claude::harness
