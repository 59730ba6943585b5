// Invocation: fake-claude's command line, read the way the real `claude` reads it.
//
// What it is: a parser that accepts every flag an SDK may pass (PROTOCOL.md §1.2), known or not,
// in both `--flag value` and `--flag=value` forms, and keeps them for the scenario's argv checks.
// Flags known to take a value consume the next token; known switches (`--verbose`, `--continue`,
// …) never do; an unknown `--flag` takes the next token as its value unless that token starts
// with '-'. `--scenario FILE` / `--scenario=FILE` and `--speed X` may appear anywhere (the TS SDK
// prepends `executableArgs`); neither is kept among the flags.
//
// How it fails: a flag that needs a value and has none is reported in `error` (exit 2 upstream).
//
// What it costs: one pass over argv.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace claude::emulator {

struct Flag {
  std::string name;                  // with its dashes: "--model", "-p"
  std::optional<std::string> value;  // from "--model=x" or "--model x"
};

struct Invocation {
  std::vector<std::string> args;         // argv[1..] as received
  std::vector<Flag> flags;               // every flag except --scenario, in order
  std::vector<std::string> positionals;  // e.g. a legacy `--print <prompt>` prompt
  std::optional<std::string> scenario_path;
  std::optional<double> speed;  // --speed X: pace a replayed recording (see parse_speed)
  bool version = false;         // -v / --version
  bool help = false;            // -h / --help
  std::optional<std::string> error;

  // True when a flag named `spec` is present ("--flag"), or present with that value
  // ("--flag=value", matching either spelling on the command line).
  bool has(std::string_view spec) const;
  // Print mode with a text prompt: `--print`/`-p` without `--input-format stream-json`. The
  // prompt is then the prompt argument and/or stdin's plain text, not NDJSON.
  bool reads_text_prompt() const;
  // The prompt argument: the first positional (the real CLI ignores any further ones).
  std::optional<std::string> prompt_argument() const;
};

Invocation parse_invocation(std::span<const std::string> args);

// The prompt the real CLI builds in print mode from its argument and stdin's text: the argument,
// a newline and stdin's bytes unchanged when both are there, else whichever is.
std::string print_mode_prompt(const std::optional<std::string>& argument,
                              std::string_view stdin_text);

// A replay speed: a finite decimal number >= 0 ("0", "1", "2.5"). 0 plays as fast as possible,
// 1 at the recorded pace, 2 twice as fast. nullopt for anything else.
std::optional<double> parse_speed(std::string_view text);

// Whether a known `claude` flag takes a value.
bool takes_value(std::string_view flag);

}  // namespace claude::emulator
