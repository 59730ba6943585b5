#include "claude/fuzzing/minimizer.hpp"

#include <string>
#include <vector>

namespace claude::fuzzing {
namespace {

using Clock = std::chrono::steady_clock;

class Search {
 public:
  Search(const std::function<bool(const ScenarioDoc&)>& still_fails, const MinimizeBudget& budget)
      : still_fails_(still_fails), budget_(budget), deadline_(Clock::now() + budget.max_time) {}

  bool exhausted() const { return runs_ >= budget_.max_runs || Clock::now() >= deadline_; }
  std::size_t runs() const { return runs_; }

  // True (and `best` replaced) when `candidate` loads and still fails.
  bool accept(ScenarioDoc& best, ScenarioDoc candidate) {
    if (exhausted() || !load_errors(candidate).empty()) return false;
    ++runs_;
    if (!still_fails_(candidate)) return false;
    best = std::move(candidate);
    return true;
  }

 private:
  const std::function<bool(const ScenarioDoc&)>& still_fails_;
  MinimizeBudget budget_;
  Clock::time_point deadline_;
  std::size_t runs_ = 0;
};

bool drop_step_blocks(ScenarioDoc& best, Search& search) {
  bool shrunk = false;
  for (std::size_t block = std::max<std::size_t>(1, best.steps.size() / 2); block >= 1;
       block /= 2) {
    for (std::size_t at = 0; at < best.steps.size() && !search.exhausted();) {
      ScenarioDoc candidate = best;
      const std::size_t end = std::min(at + block, candidate.steps.size());
      candidate.steps.erase(candidate.steps.begin() + static_cast<std::ptrdiff_t>(at),
                            candidate.steps.begin() + static_cast<std::ptrdiff_t>(end));
      if (search.accept(best, std::move(candidate))) {
        shrunk = true;  // the next block now sits at `at`
      } else {
        at += block;
      }
    }
    if (block == 1) break;
  }
  return shrunk;
}

bool drop_header_members(ScenarioDoc& best, Search& search) {
  bool shrunk = false;
  for (const char* key : {"description", "ignore", "cli_version", "auto_initialize"}) {
    if (!best.header.contains(key)) continue;
    ScenarioDoc candidate = best;
    candidate.header.erase(key);
    shrunk |= search.accept(best, std::move(candidate));
  }
  return shrunk;
}

bool drop_message_members(ScenarioDoc& best, Search& search) {
  bool shrunk = false;
  for (std::size_t i = 0; i < best.steps.size() && !search.exhausted(); ++i) {
    if (!best.steps[i].contains("send") || !best.steps[i]["send"].is_object()) continue;
    std::vector<std::string> keys;
    for (auto it = best.steps[i]["send"].begin(); it != best.steps[i]["send"].end(); ++it)
      if (it.key() != "type") keys.push_back(it.key());
    for (const auto& key : keys) {
      ScenarioDoc candidate = best;
      candidate.steps[i]["send"].erase(key);
      shrunk |= search.accept(best, std::move(candidate));
    }
    for (const char* key : {"chunks", "gap_ms"}) {
      if (!best.steps[i].contains(key)) continue;
      ScenarioDoc candidate = best;
      candidate.steps[i].erase(key);
      shrunk |= search.accept(best, std::move(candidate));
    }
  }
  return shrunk;
}

// Long strings: message strings over 64 bytes become their first 16; raw and stderr texts over
// 64 bytes are halved (keeping a final newline) while that still fails.
void long_strings_in(const Json& value, const Json::json_pointer& at,
                     std::vector<Json::json_pointer>& out) {
  if (value.is_string() && value.get_ref<const std::string&>().size() > 64) {
    out.push_back(at);
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) long_strings_in(*it, at / it.key(), out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) long_strings_in(value[i], at / i, out);
  }
}

// The first `bytes` of `text` (a longer text), backed up to the start of a UTF-8 character.
std::string utf8_head(const std::string& text, std::size_t bytes) {
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return text.substr(0, bytes);
}

std::string halved(const std::string& text) {
  return utf8_head(text, text.size() / 2) + (text.ends_with('\n') ? "\n" : "");
}

bool shorten_strings(ScenarioDoc& best, Search& search) {
  bool shrunk = false;
  for (std::size_t i = 0; i < best.steps.size() && !search.exhausted(); ++i) {
    for (const char* key : {"raw", "stderr"}) {
      while (best.steps[i].contains(key) && best.steps[i][key].is_string() &&
             best.steps[i][key].get_ref<const std::string&>().size() > 64 && !search.exhausted()) {
        ScenarioDoc candidate = best;
        candidate.steps[i][key] = halved(best.steps[i][key].get<std::string>());
        if (!search.accept(best, std::move(candidate))) break;
        shrunk = true;
      }
    }
    if (!best.steps[i].contains("send")) continue;
    std::vector<Json::json_pointer> strings;
    long_strings_in(best.steps[i]["send"], Json::json_pointer(), strings);
    // Shortening a string moves no other: the paths stay valid.
    for (const auto& at : strings) {
      if (search.exhausted()) break;
      ScenarioDoc candidate = best;
      Json& text = candidate.steps[i]["send"][at];
      text = utf8_head(text.get_ref<const std::string&>(), 16);
      shrunk |= search.accept(best, std::move(candidate));
    }
  }
  return shrunk;
}

}  // namespace

Minimized minimize(ScenarioDoc doc, const std::function<bool(const ScenarioDoc&)>& still_fails,
                   const MinimizeBudget& budget) {
  Search search(still_fails, budget);
  bool shrunk = true;
  while (shrunk && !search.exhausted()) {
    shrunk = drop_step_blocks(doc, search);
    shrunk |= drop_header_members(doc, search);
    shrunk |= drop_message_members(doc, search);
    shrunk |= shorten_strings(doc, search);
  }
  return {std::move(doc), search.runs()};
}

}  // namespace claude::fuzzing
