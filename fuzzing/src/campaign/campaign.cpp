#include "claude/fuzzing/campaign.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "claude/fuzzing/finding.hpp"
#include "claude/fuzzing/lenient.hpp"

namespace claude::fuzzing {
namespace {

using Clock = std::chrono::steady_clock;

class SharedState {
 public:
  explicit SharedState(std::size_t seeds) : unsupported_(seeds) {}

  // True when this call claims the signature (the caller minimizes it); false: already known.
  bool claim(const std::string& signature, const std::vector<std::string>& sites) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = hits_.emplace(signature, 0);
    ++it->second;
    // One example per recipe (the mutators applied, whatever their sites).
    std::string recipe;
    for (const auto& site : sites) recipe += site.substr(0, site.find(' ')) + ";";
    auto& seen = hit_sites_[signature];
    if (seen.size() < kHitSitesKept &&
        std::ranges::none_of(seen, [&](const auto& hit) { return hit.first == recipe; })) {
      seen.emplace_back(recipe, sites);
    }
    return inserted;
  }
  void add(FindingReport report) {
    std::lock_guard lock(mutex_);
    findings_.push_back(std::move(report));
  }
  std::vector<FindingReport> findings() {
    std::lock_guard lock(mutex_);
    for (auto& f : findings_) {
      f.hits = hits_[f.violation.signature()];
      f.hit_sites.clear();
      for (const auto& [recipe, sites] : hit_sites_[f.violation.signature()])
        f.hit_sites.push_back(sites);
    }
    return findings_;
  }
  std::vector<std::atomic<bool>> unsupported_;
  std::atomic<std::size_t> execs{0};
  std::atomic<std::size_t> minimize_runs{0};

 private:
  std::mutex mutex_;
  static constexpr std::size_t kHitSitesKept = 24;
  std::map<std::string, std::size_t> hits_;
  // Per signature: (recipe, sites) in the order first seen.
  std::map<std::string, std::vector<std::pair<std::string, std::vector<std::string>>>> hit_sites_;
  std::vector<FindingReport> findings_;
};

bool same_failure(const std::vector<Violation>& violations, const std::string& signature) {
  return std::ranges::any_of(violations,
                             [&](const Violation& v) { return v.signature() == signature; });
}

}  // namespace

CampaignResult run_campaign(const std::vector<Seed>& seeds, const CampaignOptions& options,
                            const Executor& execute, const CampaignEvents& events) {
  const auto started = Clock::now();
  const auto deadline = started + options.duration;
  SharedState state(seeds.size());
  if (seeds.empty()) return {};
  const std::size_t jobs = std::max<std::size_t>(1, options.jobs);

  auto worker = [&](std::size_t w) {
    std::set<std::string> tried;
    MutateOptions mutate_options = options.mutate;
    mutate_options.tried_sites = &tried;
    for (std::uint64_t n = w;; n += jobs) {
      if (Clock::now() >= deadline) return;
      if (options.max_execs != 0 && n >= options.max_execs) return;
      FuzzRng rng(options.seed, n);
      std::size_t pick = rng.below(seeds.size());
      for (std::size_t tries = 0; state.unsupported_[pick] && tries < seeds.size(); ++tries)
        pick = (pick + 1) % seeds.size();
      if (state.unsupported_[pick]) return;
      const Seed& seed = seeds[pick];
      auto mutation = mutate(seed.doc, rng, mutate_options);
      if (!mutation) continue;
      make_lenient(mutation->doc, options.bounds);
      const auto run = execute(mutation->doc);
      ++state.execs;
      if (run.driver_exit == 4) state.unsupported_[pick] = true;
      const auto violations = check_oracles(mutation->doc, run);
      const bool fresh =
          !violations.empty() && state.claim(violations.front().signature(), mutation->sites);
      if (events.on_exec) events.on_exec(fresh);
      if (!fresh) continue;
      const Violation& first = violations.front();
      const std::string signature = first.signature();
      auto still_fails = [&](const ScenarioDoc& candidate) {
        ++state.minimize_runs;
        return same_failure(check_oracles(candidate, execute(candidate)), signature);
      };
      Minimized small = minimize(mutation->doc, still_fails, options.minimize);
      FindingReport report;
      report.violation = first;
      report.file_name = finding_file_name(signature);
      report.text =
          finding_text(small.doc, first, {options.sdk, seed.id, mutation->sites, options.seed, n});
      report.seed_id = seed.id;
      report.sites = mutation->sites;
      report.exec = n;
      report.steps_before = mutation->doc.steps.size();
      report.steps_after = small.doc.steps.size();
      report.minimize_runs = small.runs;
      if (events.on_finding) events.on_finding(report);
      state.add(std::move(report));
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 0; w < jobs; ++w) threads.emplace_back(worker, w);
  for (auto& t : threads) t.join();

  CampaignResult result;
  result.execs = state.execs;
  result.minimize_runs = state.minimize_runs;
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  result.findings = state.findings();
  return result;
}

}  // namespace claude::fuzzing
