// ConformanceCase: one case of the conformance suite, read from its scenario file.
//
// What it is: the grading side of a scenario whose header carries a `driver` spec
// (docs/drivers.md) — the case id (`name`, `group.case`), its description with the source it
// cites, and what the SDK must surface: `observe` (patterns the driver's observations must match
// in order), `observe_absent` (patterns none may match) and `observe_should` (like `observe`,
// but unmet → NON-STRICT instead of FAIL). The steps themselves are fake-claude's business; the
// loader still runs fake-claude's scenario loader so a broken case is reported before it runs.
//
// How it fails: `load_case` returns every problem as "file:line: reason"; `find_cases` also
// reports unreadable directories and duplicate ids.
//
// What it costs: reading each file once (the emulator loader streams it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claude/emulator/pattern.hpp"

namespace claude::conformance {

using Json = claude::emulator::Json;

struct ConformanceCase {
  std::string id;     // header `name`, e.g. "perm.deny-with-message"
  std::string group;  // the part before the first '.'
  std::string description;
  std::filesystem::path file;
  std::size_t line = 0;  // the header line, where the case (its spec and expectations) is written
  Json driver;           // the driver spec, passed to drivers as is
  std::vector<Json> observe;
  std::vector<Json> observe_absent;
  std::vector<Json> observe_should;
  std::int64_t estimated_ms = 0;  // how long it keeps a job busy, for the run order (run_order.hpp)
};

struct CaseLoad {
  std::optional<ConformanceCase> conformance_case;
  std::vector<std::string> errors;  // "file:line: reason"
};

CaseLoad load_case(const std::filesystem::path& file);

struct SuiteLoad {
  std::vector<ConformanceCase> cases;  // sorted by id
  std::vector<std::string> errors;
};

// Every *.ndjson below `root` (recursively).
SuiteLoad find_cases(const std::filesystem::path& root);

// Cases whose id starts with one of `prefixes` (equals one, when `exact`); all when empty.
std::vector<ConformanceCase> select_cases(const std::vector<ConformanceCase>& cases,
                                          const std::vector<std::string>& prefixes,
                                          bool exact = false);

}  // namespace claude::conformance
