#include "claude/emulator/invocation.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>

namespace claude::emulator {
namespace {

// commander's maybeOption: anything of two or more characters that starts with '-'.
bool maybe_option(std::string_view arg) {
  return arg.size() > 1 && arg[0] == '-';
}

std::optional<std::string> invalid_choice(const CliOption& option, const std::string& value) {
  const auto listed = [&value](const auto& values) {
    return std::ranges::count(values, value) > 0;
  };
  if (option.choices.empty() || listed(option.choices) || listed(option.also_accepts)) {
    return std::nullopt;
  }
  std::string allowed;
  for (const auto& choice : option.choices) allowed += (allowed.empty() ? "" : ", ") + choice;
  return "error: option '" + option.flags + "' argument '" + value +
         "' is invalid. Allowed choices are " + allowed + ".";
}

// The pass over argv: the state commander keeps while it parses.
class Parser {
 public:
  Parser(std::span<const std::string> args, const CliOptionTable& table, UnknownOptions unknown)
      : pending_(args.begin(), args.end()),
        table_(table),
        accept_unknown_(unknown == UnknownOptions::accept) {
    inv_.args.assign(args.begin(), args.end());
  }

  Invocation run() {
    while (!pending_.empty()) {
      std::string arg = take();
      if (arg == "--") {
        // After an unknown option commander keeps the rest for it; else they are operands.
        if (!unknown_seen_)
          inv_.positionals.insert(inv_.positionals.end(), pending_.begin(), pending_.end());
        break;
      }
      if (variadic_ != nullptr && !maybe_option(arg)) {
        inv_.flags.push_back(Flag{variadic_name_, arg});
        continue;
      }
      variadic_ = nullptr;
      if (own_option(arg)) continue;
      if (const CliOption* option = maybe_option(arg) ? table_.find(arg) : nullptr) {
        known_option(*option, arg);
        continue;
      }
      if (arg.size() > 2 && arg[0] == '-' && arg[1] != '-') {  // -abc, -n<value>
        if (const CliOption* option = table_.find(arg.substr(0, 2))) {
          if (option->value == CliOption::Value::none) {
            record(*option, arg.substr(0, 2), std::nullopt);
            std::string rest = "-";  // built in two steps: GCC 12 warns on "-" + substr
            rest.append(arg, 2);
            pending_.push_front(std::move(rest));
          } else {
            record(*option, arg.substr(0, 2), arg.substr(2));
          }
          continue;
        }
      }
      if (const auto eq = arg.find('=');
          arg.starts_with("--") && eq != std::string::npos && eq > 2) {  // --flag=value
        const CliOption* option = table_.find(arg.substr(0, eq));
        if (option != nullptr && option->value != CliOption::Value::none) {
          record(*option, arg.substr(0, eq), arg.substr(eq + 1));
          continue;
        }
      }
      if (maybe_option(arg)) {
        unknown_option(arg);
        continue;
      }
      if (!unknown_seen_) inv_.positionals.push_back(std::move(arg));
    }
    if (!inv_.cli_error && first_unknown_) {
      inv_.cli_error =
          "error: unknown option '" + *first_unknown_ + "'" + table_.suggestion(*first_unknown_);
    }
    return std::move(inv_);
  }

 private:
  std::string take() {
    std::string arg = std::move(pending_.front());
    pending_.pop_front();
    return arg;
  }

  // fake-claude's own --scenario and --speed, in both spellings, anywhere in argv.
  bool own_option(const std::string& arg) {
    for (std::string_view name : {"--scenario", "--speed"}) {
      std::optional<std::string> value;
      if (arg == name) {
        if (pending_.empty()) {
          inv_.error = std::string(name) + " needs a value";
          return true;
        }
        value = take();
      } else if (arg.starts_with(std::string(name) + "=")) {
        value = arg.substr(name.size() + 1);
      } else {
        continue;
      }
      if (name == "--scenario") {
        inv_.scenario_path = value;
      } else if (inv_.speed = parse_speed(*value); !inv_.speed) {
        inv_.error =
            "--speed needs a number >= 0 (0: as fast as possible, 1: the recorded pace), got '" +
            *value + "'";
      }
      return true;
    }
    return false;
  }

  void known_option(const CliOption& option, const std::string& arg) {
    std::optional<std::string> value;
    if (option.value == CliOption::Value::required) {
      if (pending_.empty()) {
        fail("error: option '" + option.flags + "' argument missing");
      } else {
        value = take();
      }
    } else if (option.value == CliOption::Value::optional && !pending_.empty() &&
               !maybe_option(pending_.front())) {
      value = take();
    }
    record(option, arg, value);
    if (option.variadic) {
      variadic_ = &option;
      variadic_name_ = arg;
    }
  }

  void record(const CliOption& option, const std::string& name, std::optional<std::string> value) {
    if (value) {
      if (auto bad = invalid_choice(option, *value)) fail(std::move(*bad));
    }
    if (std::ranges::count(option.names, "--version") > 0) inv_.version = true;
    if (std::ranges::count(option.names, "--help") > 0) inv_.help = true;
    inv_.flags.push_back(Flag{name, std::move(value)});
  }

  void unknown_option(const std::string& arg) {
    if (accept_unknown_) {
      Flag flag{arg, std::nullopt};
      if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos) {
        flag = Flag{arg.substr(0, eq), arg.substr(eq + 1)};
      } else if (arg.starts_with("--") && !pending_.empty() && !pending_.front().starts_with("-")) {
        flag.value = take();
      }
      if (flag.name == "-h" || flag.name == "--help") inv_.help = true;
      inv_.flags.push_back(std::move(flag));
      return;
    }
    // commander checks `--help` among the unknown options before it reports them.
    if (arg == "-h" || arg == "--help") {
      inv_.help = true;
      inv_.flags.push_back(Flag{arg, std::nullopt});
      return;
    }
    unknown_seen_ = true;
    if (!first_unknown_) first_unknown_ = arg;
  }

  // commander stops at the first missing or invalid option-argument; the parse goes on here
  // only to find fake-claude's own options, and the first error is the one printed.
  void fail(std::string message) {
    if (!inv_.cli_error) inv_.cli_error = std::move(message);
  }

  Invocation inv_;
  std::deque<std::string> pending_;
  const CliOptionTable& table_;
  bool accept_unknown_ = false;
  bool unknown_seen_ = false;
  std::optional<std::string> first_unknown_;
  const CliOption* variadic_ = nullptr;
  std::string variadic_name_;
};

}  // namespace

std::optional<double> parse_speed(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  return value;
}

bool Invocation::has(std::string_view spec) const {
  const auto eq = spec.find('=');
  const std::string_view name = spec.substr(0, eq);
  return std::any_of(flags.begin(), flags.end(), [&](const Flag& flag) {
    if (flag.name != name) return false;
    if (eq == std::string_view::npos) return true;
    return flag.value && *flag.value == spec.substr(eq + 1);
  });
}

bool Invocation::reads_text_prompt() const {
  return (has("--print") || has("-p")) && !has("--input-format=stream-json");
}

std::optional<std::string> Invocation::prompt_argument() const {
  if (positionals.empty()) return std::nullopt;
  return positionals.front();
}

std::string print_mode_prompt(const std::optional<std::string>& argument,
                              std::string_view stdin_text) {
  if (!argument) return std::string(stdin_text);
  if (stdin_text.empty()) return *argument;
  return *argument + "\n" + std::string(stdin_text);
}

Invocation parse_invocation(std::span<const std::string> args, const CliOptionTable& table,
                            UnknownOptions unknown) {
  return Parser(args, table, unknown).run();
}

Invocation parse_invocation(std::span<const std::string> args) {
  return parse_invocation(args, newest_cli_option_table());
}

}  // namespace claude::emulator
