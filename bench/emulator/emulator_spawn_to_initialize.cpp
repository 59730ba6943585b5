// Spawn → initialize reply latency of fake-claude: the time from fork to the first byte of the
// reply line, as an SDK that writes `initialize` first sees it. Budget: median ≤ 5 ms over 100
// runs.
//
//   emulator_spawn_to_initialize [SCENARIO] [RUNS]   (default scenarios/verbs/basic-turn.ndjson,
//   100)
#include <poll.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "child_process.hpp"

using claude::emulator::bench::ChildProcess;

namespace {

// Median etc. of spawn -> first reply line containing `marker`, over `runs` runs of `args`.
std::vector<double> measure(const std::vector<std::string>& args, const std::string& input,
                            const std::string& marker, int runs) {
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    ChildProcess child = ChildProcess::spawn(args);
    claude::emulator::bench::write_all(child.in, input);
    std::string got;
    char buffer[4096];
    while (got.find(marker) == std::string::npos) {
      pollfd fd{child.out, POLLIN, 0};
      if (::poll(&fd, 1, 5000) <= 0) break;
      const ssize_t n = ::read(child.out, buffer, sizeof buffer);
      if (n <= 0) break;
      got.append(buffer, static_cast<std::size_t>(n));
    }
    const auto elapsed = std::chrono::steady_clock::now() - start;
    ::kill(child.pid, SIGKILL);
    child.wait_with_peak_rss();
    if (got.find(marker) == std::string::npos) return {};
    samples.push_back(std::chrono::duration<double, std::milli>(elapsed).count());
  }
  std::sort(samples.begin(), samples.end());
  return samples;
}

double quantile(const std::vector<double>& sorted, double q) {
  return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
}

void print(const char* what, const std::vector<double>& s) {
  std::printf("%s over %zu runs: min %.2f ms, median %.2f ms, p90 %.2f ms, max %.2f ms\n", what,
              s.size(), s.front(), quantile(s, 0.5), quantile(s, 0.9), s.back());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string scenario = argc > 1 ? argv[1] : "scenarios/verbs/basic-turn.ndjson";
  const int runs = argc > 2 ? std::stoi(argv[2]) : 100;
  const std::string init =
      R"({"request_id":"bench0001","type":"control_request","request":{"subtype":"initialize","systemPrompt":[""]}})"
      "\n";
  const auto fake = measure({FAKE_CLAUDE_PATH, "--output-format", "stream-json", "--verbose",
                             "--input-format", "stream-json", "--scenario", scenario},
                            init, "bench0001", runs);
  // The floor of this machine: the same spawn and pipe round trip through /bin/cat.
  const auto floor = measure({"/bin/cat"}, init, "bench0001", runs);
  if (fake.empty() || floor.empty()) {
    std::fprintf(stderr, "no reply (is the scenario path right?)\n");
    return 1;
  }
  print("fake-claude: spawn -> initialize reply", fake);
  print("/bin/cat:    spawn -> echo (machine floor)", floor);
  std::printf("budget: median <= 5 ms -> %s\n", quantile(fake, 0.5) <= 5.0 ? "met" : "NOT met");
  return quantile(fake, 0.5) <= 5.0 ? 0 : 1;
}
