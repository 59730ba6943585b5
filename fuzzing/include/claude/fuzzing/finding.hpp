// Findings: what `harness fuzz` keeps of a failing execution — a scenario file that replays it.
//
// What it is: `finding_text` writes a minimized doc as a lint-clean scenario (`harness lint`)
// whose leading comment says what it found (the signature and the oracle's message), where it
// came from (seed file, the mutations applied, --seed and exec number) and how to replay it; the
// header's name becomes "fuzz.<slug>". `finding_file_name` is the file name for a signature
// ("result-lost-error-result-TypeError.ndjson").
//
// How it fails: it does not; the caller writes the file.
//
// What it costs: one render of the doc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "claude/fuzzing/oracle.hpp"
#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing {

struct FindingOrigin {
  std::string sdk;                 // as given to --sdk
  std::string seed_file;           // the seed the doc was mutated from
  std::vector<std::string> sites;  // the mutations applied
  std::uint64_t run_seed = 0;
  std::uint64_t exec = 0;
};

// Letters, digits, '-', '.', '_' of the signature, other runs of bytes as one '-'.
std::string finding_slug(const std::string& signature);
std::string finding_file_name(const std::string& signature);

std::string finding_text(ScenarioDoc doc, const Violation& violation, const FindingOrigin& origin);

}  // namespace claude::fuzzing
