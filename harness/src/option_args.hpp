// Options of the harness subcommands, "--name value" and "--name=value" alike.
//
// What it is: the one place that splits "--name=value" and takes an option's value from the next
// argument. How it fails: a missing value is nullopt; the caller words the usage error. Cost:
// one copy of the argument.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace claude::harness {

struct SplitOption {
  std::string name;                  // "--name" of "--name=value", else the whole argument
  std::optional<std::string> value;  // "value" of "--name=value"
};

SplitOption split_option(std::string_view argument);

// The value of `option`, found at args[i]: its inline value, else args[i + 1] (and i moves on to
// it). nullopt when there is neither.
std::optional<std::string> option_value(const SplitOption& option,
                                        const std::vector<std::string>& args, std::size_t& i);

}  // namespace claude::harness
