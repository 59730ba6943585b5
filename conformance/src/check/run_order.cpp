#include "claude/conformance/run_order.hpp"

#include <algorithm>
#include <numeric>

namespace claude::conformance {
namespace {

std::int64_t driver_delays_ms(const Json& value) {
  std::int64_t total = 0;
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      if (key == "delay_ms" && member.is_number_integer()) {
        total += std::max<std::int64_t>(0, member.get<std::int64_t>());
      } else {
        total += driver_delays_ms(member);
      }
    }
  } else if (value.is_array()) {
    for (const auto& element : value) total += driver_delays_ms(element);
  }
  return total;
}

}  // namespace

std::int64_t estimated_ms(const claude::emulator::Scenario& scenario, const Json& driver) {
  using claude::emulator::Verb;
  std::int64_t total = driver_delays_ms(driver);
  for (const auto& step : scenario.steps) {
    if (step.verb == Verb::sleep) total += std::max<std::int64_t>(0, step.ms);
    if (step.verb == Verb::send && !step.chunks.empty()) {
      total +=
          std::max<std::int64_t>(0, step.gap_ms) * static_cast<std::int64_t>(step.chunks.size());
    }
    if (step.verb == Verb::hang) total += kNeverExitingCliMs;
  }
  return total;
}

std::vector<std::size_t> longest_first(const std::vector<ConformanceCase>& cases) {
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return cases[a].estimated_ms > cases[b].estimated_ms;
  });
  return order;
}

}  // namespace claude::conformance
