#include "option_args.hpp"

namespace claude::harness {

SplitOption split_option(std::string_view argument) {
  if (const auto eq = argument.find('='); argument.starts_with("--") && eq != argument.npos) {
    return {std::string(argument.substr(0, eq)), std::string(argument.substr(eq + 1))};
  }
  return {std::string(argument), std::nullopt};
}

std::optional<std::string> option_value(const SplitOption& option,
                                        const std::vector<std::string>& args, std::size_t& i) {
  if (option.value) return option.value;
  if (i + 1 >= args.size()) return std::nullopt;
  return args[++i];
}

}  // namespace claude::harness
