// Baseline: the expected failures of one SDK, with the reason for each.
//
// What it is: a text file, one case id per line; text after `#` is the explanation (kept for
// reports); blank lines are ignored. Ids may be exact or end in `*` to cover a prefix.
//
// How it fails: an unreadable file or a malformed id gives "file:line: reason" errors.
//
// What it costs: one read of a small file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace claude::conformance {

struct BaselineEntry {
  std::string id;      // exact id, or a prefix when it ends in '*'
  std::string reason;  // the comment after '#'
  std::size_t line = 0;
};

struct Baseline {
  std::vector<BaselineEntry> entries;
  // The entry covering `case_id`, if any.
  [[nodiscard]] const BaselineEntry* find(const std::string& case_id) const;
};

struct BaselineLoad {
  std::optional<Baseline> baseline;
  std::vector<std::string> errors;
};

BaselineLoad load_baseline(const std::filesystem::path& file);

}  // namespace claude::conformance
