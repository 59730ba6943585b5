#include "claude/base/cli.hpp"

#include <algorithm>

namespace claude::base {
namespace {

// The option's name as the user typed it: CLI11 names "-o,--output" by its long name.
std::string as_typed(const CLI::App& app, const std::string& name,
                     const std::vector<std::string>& args) {
  const CLI::Option* option = app.get_option_no_throw(name);
  if (option == nullptr) return name;
  for (auto arg = args.rbegin(); arg != args.rend(); ++arg) {
    if (option->check_name(arg->substr(0, arg->find('=')))) return arg->substr(0, arg->find('='));
  }
  return name;
}

// CLI11 2.1 names the option first in an ArgumentMismatch ("--x: 1 required FILE missing",
// "--x: At Most 1 required but received 2"); we reword those two, which our tests pin. The
// value's name is the option's type_name ("FILE"); CLI11's default "TEXT" reads "a value".
std::string mismatch_reason(const CLI::App& app, const std::string& what,
                            const std::vector<std::string>& args) {
  const auto colon = what.find(':');
  if (colon == std::string::npos) return what;
  const std::string name = as_typed(app, what.substr(0, colon), args);
  if (const auto missing = what.find(" missing"); missing != std::string::npos) {
    const auto type = what.rfind(' ', missing - 1) + 1;
    const std::string type_name = what.substr(type, missing - type);
    return name + " needs a " + (type_name == "TEXT" ? "value" : type_name);
  }
  if (what.find("At Most") != std::string::npos) return name + " given twice";
  return what;
}

}  // namespace

int usage_error(const CommandLineText& text, std::string_view reason, std::ostream& err) {
  err << text.program << ": " << reason << '\n' << text.usage_tail;
  return 2;
}

std::optional<int> parse_command_line(CLI::App& app, const std::vector<std::string>& args,
                                      const CommandLineText& text, std::ostream& out,
                                      std::ostream& err) {
  app.allow_extras(true);  // unknown arguments are reported below, in our wording
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << text.help;
    return 0;
  } catch (const CLI::ArgumentMismatch& e) {
    return usage_error(text, mismatch_reason(app, e.what(), args), err);
  } catch (const CLI::ParseError& e) {
    return usage_error(text, e.what(), err);
  }
  if (text.forward_unknown || app.remaining().empty()) return std::nullopt;
  const std::string extra = app.remaining().front();
  if (extra.size() > 1 && extra.starts_with('-')) {
    return usage_error(text, std::string(text.unknown) + " '" + extra + "'", err);
  }
  return usage_error(text, "unexpected argument '" + extra + "'", err);
}

CLI::Option* add_repeatable(CLI::App& app, const std::string& name,
                            std::vector<std::string>& values) {
  return app.add_option(name, values)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

std::vector<std::string> arguments(int argc, char** argv) {
  return argc > 1 ? std::vector<std::string>(argv + 1, argv + argc) : std::vector<std::string>{};
}

std::pair<std::vector<std::string>, std::vector<std::string>> split_command(
    const std::vector<std::string>& args) {
  const auto dash = std::find(args.begin(), args.end(), "--");
  if (dash == args.end()) return {args, {}};
  return {std::vector<std::string>(args.begin(), dash),
          std::vector<std::string>(dash + 1, args.end())};
}

}  // namespace claude::base
