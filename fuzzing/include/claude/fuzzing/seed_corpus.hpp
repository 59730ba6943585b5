// Seeds: the scenarios `harness fuzz` mutates, read from scenario directories (docs/fuzz.md).
//
// What it is: every `*.ndjson` below each directory that loads as a scenario or a recording and
// names what the SDK must do (a `driver` spec in its header, or a `spec.json` beside it, as in
// scenarios/recorded/cli-*/CASE/), as a lenient ScenarioDoc with that spec in its header. Model
// scripts and logs, and scenarios without a spec, are passed over. `exclude` globs (fnmatch, `*`
// also crosses '/') drop a seed matching its path below its directory, its full path or its name.
//
// How it fails: a file that does not load, or a spec.json that is not a JSON object, is an
// error "file:line: reason"; callers stop with exit 2 before anything runs.
//
// What it costs: one load per file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "claude/fuzzing/lenient.hpp"
#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing {

struct Seed {
  std::string id;  // directory name and path below it: "conformance/perm/allow.ndjson"
  std::filesystem::path file;
  ScenarioDoc doc;  // lenient, with the driver spec in its header
};

struct SeedLoad {
  std::vector<Seed> seeds;  // in directory order, then by path
  std::vector<std::string> errors;
  std::size_t without_spec = 0;  // scenarios passed over: no driver spec
  std::size_t excluded = 0;
};

SeedLoad load_seeds(const std::vector<std::filesystem::path>& directories,
                    const std::vector<std::string>& exclude, const LenientBounds& bounds);

// One seed from one file (a finding to replay): the same rules, without exclusion.
SeedLoad load_seed_file(const std::filesystem::path& file, const LenientBounds& bounds);

}  // namespace claude::fuzzing
