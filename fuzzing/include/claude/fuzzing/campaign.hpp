// Campaign: the fuzzing loop of `harness fuzz` — mutate a seed, run it, judge it, keep findings.
//
// What it is: worker w of `jobs` plays executions w, w+jobs, …; execution n draws its seed and
// mutations from FuzzRng(seed, n) and the sites its worker tried, so one --seed and -j give the
// same scenarios every run. Each scenario goes to the Executor (a driver process for `harness
// fuzz`; anything returning a RunOutcome), then to the oracles. The first execution of each new
// signature is minimized (through the same Executor) into a FindingReport; later hits only count.
// A seed whose driver says "unsupported" (exit 4) is not drawn again.
//
// How it fails: it does not throw for anything an SDK does; an Executor that throws ends the run
// with that exception.
//
// What it costs: one Executor call per execution and per minimization candidate; the findings'
// texts are held in memory.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "claude/conformance/grade.hpp"
#include "claude/fuzzing/minimizer.hpp"
#include "claude/fuzzing/mutator.hpp"
#include "claude/fuzzing/oracle.hpp"
#include "claude/fuzzing/seed_corpus.hpp"

namespace claude::fuzzing {

using Executor = std::function<claude::conformance::RunOutcome(const ScenarioDoc& doc)>;

struct CampaignOptions {
  std::string sdk;  // for the findings' replay hint
  std::uint64_t seed = 1;
  std::chrono::milliseconds duration{60000};
  std::size_t max_execs = 0;  // 0: until `duration`
  std::size_t jobs = 1;
  MutateOptions mutate;  // tried_sites is set per worker
  LenientBounds bounds;  // applied again after mutating (inserted requests get answer_ms)
  MinimizeBudget minimize;
};

struct FindingReport {
  Violation violation;
  std::string file_name;  // finding_file_name(signature)
  std::string text;       // the minimized scenario (finding_text)
  std::string seed_id;
  std::vector<std::string> sites;
  std::uint64_t exec = 0;
  std::size_t hits = 1;  // executions that failed with this signature
  // The mutations of the first hit of each recipe (the set of mutators applied), first first.
  std::vector<std::vector<std::string>> hit_sites;
  std::size_t steps_before = 0;
  std::size_t steps_after = 0;
  std::size_t minimize_runs = 0;
};

struct CampaignEvents {
  std::function<void(bool new_finding)> on_exec;         // after each execution
  std::function<void(const FindingReport&)> on_finding;  // a new signature, minimized
};

struct CampaignResult {
  std::size_t execs = 0;  // executions of mutated seeds (minimization runs not counted)
  std::size_t minimize_runs = 0;
  double seconds = 0;
  std::vector<FindingReport> findings;  // in the order found
};

CampaignResult run_campaign(const std::vector<Seed>& seeds, const CampaignOptions& options,
                            const Executor& execute, const CampaignEvents& events = {});

}  // namespace claude::fuzzing
