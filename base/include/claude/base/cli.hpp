// Command-line parsing for every executable and harness subcommand: a CLI::App (CLI11) declares
// the options, parse_command_line runs it, so usage errors read and exit alike everywhere.
//
// What it is: the glue between CLI11 and our conventions. `--help`/`-h` prints the program's own
// help text verbatim (that text is also the man page's source, cmake/help_to_man.cmake) and
// exits 0. A usage error prints "<program>: <reason>" and the program's usage tail to stderr and
// exits 2 (docs/exit-codes.md). Reasons keep the wording our tests and docs pin: "unknown option
// '--x'", "unexpected argument 'x'", "--x needs a value" (or "a FILE": the option's type_name),
// "--x given twice". How it fails: never throws; every CLI11 parse error becomes a usage error.
// Cost: one CLI11 parse, microseconds. Only executables link it (target claude_base_cli): the
// installed libraries do not depend on CLI11.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace claude::base {

struct CommandLineText {
  std::string_view program;      // "harness drift": the prefix of every usage error
  std::string_view help;         // printed to stdout for --help
  std::string_view usage_tail;   // printed to stderr after a usage error (often the help)
  bool forward_unknown = false;  // unknown arguments stay in app.remaining() (claude-tee)
  std::string_view unknown = "unknown option";  // how an unknown "-x" is called
};

// Parses `args` (without the program name) into `app`. nullopt: go on with the parsed values;
// otherwise the exit status to return (0 after --help, 2 after a usage error).
std::optional<int> parse_command_line(CLI::App& app, const std::vector<std::string>& args,
                                      const CommandLineText& text, std::ostream& out,
                                      std::ostream& err);

// A usage error found after parsing (a missing required value, a bad combination): prints it
// the way parse_command_line does and returns 2.
int usage_error(const CommandLineText& text, std::string_view reason, std::ostream& err);

// A repeatable option, one value per occurrence ("--sdk cpp --sdk ts"), whatever the app's
// default policy for options given twice.
CLI::Option* add_repeatable(CLI::App& app, const std::string& name,
                            std::vector<std::string>& values);

// argv[1..argc) as strings.
std::vector<std::string> arguments(int argc, char** argv);

// Splits at the first "--": the options before it, the command after it (empty without "--").
std::pair<std::vector<std::string>, std::vector<std::string>> split_command(
    const std::vector<std::string>& args);

}  // namespace claude::base
