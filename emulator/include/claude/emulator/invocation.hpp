// Invocation: fake-claude's command line, read the way the real `claude` reads it.
//
// What it is: a parser that reads argv by the option table of the emulated CLI version
// (cli_options.hpp) with the rules of the CLI's argument parser, commander: an option declared
// `<value>` takes the next argument whatever it is; `[value]` takes it unless it starts with '-';
// a variadic `<values...>` also takes every following argument up to the next one starting with
// '-'; a switch takes none (and `--switch=x` is an unknown option); `-abc` is `-a -b -c` when
// `-a` is a switch and `-a bc` when it takes a value; `--flag=value` works for options that take
// one; `--` ends the options. The prompt is the first argument that is no option and no option's
// value. Once an unknown option is seen, the arguments after it are no prompt either (commander
// keeps them for the unknown option): an unknown flag's value never becomes the prompt.
// fake-claude's own `--scenario FILE` and `--speed X` may appear anywhere (the TS SDK prepends
// `executableArgs`) and are not kept among the flags.
//
// How it fails: `error` is fake-claude's own usage error (exit 2 upstream: `--scenario` or
// `--speed` without a usable value); `cli_error` is what the emulated CLI prints for this argv
// (an unknown option with commander's "Did you mean" line, a missing option-argument, a value
// outside the option's choices), and fake-claude prints it and exits 1 as the CLI does. With
// UnknownOptions::accept (a scenario for a fork of the CLI) unknown options are kept instead, an
// unknown `--flag` taking the next argument unless it starts with '-'.
//
// What it costs: one pass over argv, a table lookup per option.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claude/emulator/cli_options.hpp"

namespace claude::emulator {

struct Flag {
  std::string name;                  // as written, with its dashes: "--model", "-p"
  std::optional<std::string> value;  // from "--model=x" or "--model x"; a variadic option's
                                     // further values are further Flags of the same name
};

enum class UnknownOptions { reject, accept };

struct Invocation {
  std::vector<std::string> args;         // argv[1..] as received
  std::vector<Flag> flags;               // every flag except --scenario, in order
  std::vector<std::string> positionals;  // arguments that are no option: the prompt first
  std::optional<std::string> scenario_path;
  std::optional<double> speed;           // --speed X: pace a replayed recording (see parse_speed)
  bool version = false;                  // -v / --version
  bool help = false;                     // -h / --help
  std::optional<std::string> error;      // fake-claude's own usage error
  std::optional<std::string> cli_error;  // the emulated CLI's message for this argv, if it
                                         // rejects it ("error: unknown option '--x'")

  // True when a flag named `spec` is present ("--flag"), or present with that value
  // ("--flag=value", matching either spelling on the command line).
  bool has(std::string_view spec) const;
  // Print mode with a text prompt: `--print`/`-p` without `--input-format stream-json`. The
  // prompt is then the prompt argument and/or stdin's plain text, not NDJSON.
  bool reads_text_prompt() const;
  // The prompt argument: the first positional (the real CLI ignores any further ones).
  std::optional<std::string> prompt_argument() const;
};

Invocation parse_invocation(std::span<const std::string> args, const CliOptionTable& table,
                            UnknownOptions unknown = UnknownOptions::reject);
// The same by the newest compiled-in table.
Invocation parse_invocation(std::span<const std::string> args);

// The prompt the real CLI builds in print mode from its argument and stdin's text: the argument,
// a newline and stdin's bytes unchanged when both are there, else whichever is.
std::string print_mode_prompt(const std::optional<std::string>& argument,
                              std::string_view stdin_text);

// A replay speed: a finite decimal number >= 0 ("0", "1", "2.5"). 0 plays as fast as possible,
// 1 at the recorded pace, 2 twice as fast. nullopt for anything else.
std::optional<double> parse_speed(std::string_view text);

}  // namespace claude::emulator
