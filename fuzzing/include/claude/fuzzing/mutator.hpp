// Mutators: protocol-level edits of a scenario that fake-claude still plays (docs/fuzz.md).
//
// What it is: a fixed table of named mutators in four families — `framing.*` (how lines reach
// the SDK), `message.*` (what a line says), `control.*` (the control protocol) and `process.*`
// (how the CLI ends or stalls); `harness fuzz --list-mutators` lists them. Each edits a
// ScenarioDoc in place from a FuzzRng and names the *site* it edited ("message.drop_field
// result/error_max_turns errors"), so a campaign can prefer sites it has not tried yet.
//
// How it fails: a mutator that does not apply to a doc returns nullopt and leaves it unchanged;
// `mutate` keeps only results the emulator's loader accepts, and returns nullopt when no attempt
// gave one.
//
// What it costs: each mutation copies the doc once and loads it once (in memory).
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claude/fuzzing/fuzz_rng.hpp"
#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing {

struct Mutator {
  std::string_view name;  // family.name, e.g. "framing.crlf"
  std::string_view what;  // one line, for docs and --list-mutators
  // Edits `doc`; returns the site edited, nullopt (doc unchanged) when it does not apply.
  std::optional<std::string> (*apply)(ScenarioDoc& doc, FuzzRng& rng);
  // Leaves fake-claude running until it is killed (process.hang): not for in-process runs.
  bool hangs = false;
  // How often it is drawn relative to the others (the field edits, whose sites are the most
  // numerous, are drawn more often).
  std::size_t weight = 1;
};

std::span<const Mutator> all_mutators();
const Mutator* find_mutator(std::string_view name);

struct MutateOptions {
  std::size_t max_stack = 3;  // mutations per scenario: 1 (most often) to max_stack
  std::size_t attempts = 16;  // tries per mutation before giving up on it
  bool allow_hang = true;
  // Sites tried so far; when given, untried sites are preferred and the applied ones added.
  std::set<std::string>* tried_sites = nullptr;
};

struct Mutation {
  ScenarioDoc doc;
  std::vector<std::string> sites;  // what was applied, in order
};

std::optional<Mutation> mutate(const ScenarioDoc& seed, FuzzRng& rng, const MutateOptions& options);

}  // namespace claude::fuzzing
