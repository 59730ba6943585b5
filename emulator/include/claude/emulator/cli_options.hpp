// CliOptionTable: the options the main command of a real `claude` version accepts.
//
// What it is: the table `scripts/capture-cli-options` captures from the pinned real CLI into
// scenarios/recorded/cli-VERSION/options.json (each option's names, value kind, choices, and
// whether --help shows it). Every such file is compiled into the emulator, so fake-claude knows
// the option set of each recorded version without any file at run time. parse_invocation reads
// argv by a table the way the CLI's argument parser (commander) does, and reports the CLI's own
// error text for an option the CLI rejects.
//
// How it fails: parse_cli_option_table names the first malformed entry; the compiled-in tables
// are checked by a unit test, so a bad one fails the build's tests, not a user's run.
//
// What it costs: the compiled-in tables are parsed once, on first use (~150 options: well under
// a millisecond); a lookup is a linear scan.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claude/emulator/pattern.hpp"  // Json

namespace claude::emulator {

struct CliOption {
  std::string flags;               // as the CLI declares it: "-r, --resume [value]"
  std::vector<std::string> names;  // "-r", "--resume"; the last one is the long name
  enum class Value { none, required, optional } value = Value::none;
  bool variadic = false;  // <v...>: also takes the following arguments up to the next option
  bool hidden = false;    // not in --help (commander never suggests it after a typo)
  std::vector<std::string> choices;  // enforced by the CLI; empty: any value
  // Values the CLI accepts besides `choices` without listing them in its error (2.1.332 takes
  // `--permission-mode default`, the value SDKs send, while naming only the other modes).
  std::vector<std::string> also_accepts;
};

struct CliOptionTable {
  std::string cli_version;
  std::vector<CliOption> options;

  const CliOption* find(std::string_view name) const;
  // commander's "(Did you mean --x?)" line for an unknown `--flag`: the visible long names at
  // the smallest edit distance (at most 3, similarity above 0.4). "" when none is close.
  std::string suggestion(std::string_view unknown_flag) const;
};

// Reads an options.json value. nullopt with `error` set for a malformed table.
std::optional<CliOptionTable> parse_cli_option_table(const Json& json, std::string& error);

// The compiled-in table of `cli_version`, or nullptr when no recorded set has one.
const CliOptionTable* cli_option_table(std::string_view cli_version);
// The compiled-in table of the newest version: used when a scenario names a version that has
// none (docs/fake-claude.md).
const CliOptionTable& newest_cli_option_table();
// The table fake-claude emulates for a scenario of `cli_version`: its own, else the newest.
const CliOptionTable& emulated_cli_options(std::string_view cli_version);

}  // namespace claude::emulator
