// Soak: many SDK ⇄ fake-claude sessions in this process, sequential then 8 at a time, over every
// conformance scenario the C++ driver can run; afterwards open fds, child processes and RSS are
// back to where they started, and no child stays a zombie at any point.
//
// Sessions: $CLAUDE_HARNESS_SOAK_SESSIONS (default 160, about a minute on 2 cores; the full run is
// CLAUDE_HARNESS_SOAK_SESSIONS=2000, see tests/soak/README.md). Numbers go to stdout and to the
// test's XML properties.
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "driver_run.hpp"
#include "driver_spec.hpp"
#include "observation_log.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

fs::path source_dir() {
  const char* dir = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  return dir != nullptr ? fs::path(dir) : fs::current_path();
}

std::size_t open_fds() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// Resident memory after returning free heap pages to the system, so allocator caches do not
// count as growth.
long rss_kib() {
  ::malloc_trim(0);
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

// Bytes malloc hands out right now (small chunks plus mmapped ones): growth here is memory the
// program still holds; RSS growth without it is the allocator's.
long heap_in_use_kib() {
  const struct mallinfo2 info = ::mallinfo2();
  return static_cast<long>((info.uordblks + info.hblkhd) / 1024);
}

struct ChildInfo {
  int pid;
  char state;
};

// This process's children (any state), from /proc/<pid>/stat.
std::vector<ChildInfo> children() {
  std::vector<ChildInfo> out;
  const int self = ::getpid();
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "stat");
    std::string text;
    std::getline(in, text);
    const auto close = text.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(text.substr(close + 2));
    char state = '?';
    int ppid = 0;
    rest >> state >> ppid;
    if (ppid == self) out.push_back({std::stoi(name), state});
  }
  return out;
}

struct Case {
  fs::path scenario;
  claude::driver::DriverSpec spec;
};

// Runs one session; true when the driver carried it out (exit 0).
bool run_session(const Case& c) {
  static std::FILE* sink = std::fopen("/dev/null", "w");
  claude::driver::ObservationLog log(sink);
  claude::driver::DriverInvocation invocation;
  invocation.fake_claude = FAKE_CLAUDE_PATH;
  invocation.scenario = c.scenario.string();
  invocation.spec = c.spec;
  return claude::driver::run_driver(invocation, log) == 0;
}

// Every conformance case the C++ driver accepts and that ends within a second on its own (cases
// about hung CLIs and timeouts would only measure their timeouts).
std::vector<Case> runnable_cases(std::vector<std::string>& skipped) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(source_dir() / "scenarios/conformance"))
    if (entry.path().extension() == ".ndjson") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<Case> out;
  for (const auto& file : files) {
    std::ifstream in(file);
    nlohmann::json header;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      header = nlohmann::json::parse(line, nullptr, false);
      break;
    }
    if (!header.is_object() || !header.contains("driver")) {
      skipped.push_back(file.filename().string() + " (no driver)");
      continue;
    }
    try {
      Case c{file, claude::driver::parse_driver_spec(header["driver"])};
      claude::driver::check_options(c.spec);
      const auto start = std::chrono::steady_clock::now();
      const bool ok = run_session(c);
      if (!ok || std::chrono::steady_clock::now() - start > 1s) {
        skipped.push_back(file.filename().string() + (ok ? " (slow)" : " (driver exit != 0)"));
        continue;
      }
      out.push_back(std::move(c));
    } catch (const std::exception& e) {
      skipped.push_back(file.filename().string() + " (" + e.what() + ")");
    }
  }
  return out;
}

// Samples children every 20 ms; a zombie is a child seen in state Z in two samples 500 ms apart
// (a child between its exit and the SDK's waitpid is briefly Z, which is fine).
class ChildMonitor {
 public:
  ChildMonitor() : thread_([this] { loop(); }) {}
  ~ChildMonitor() {
    stop_ = true;
    thread_.join();
  }
  std::size_t max_children() const { return max_children_; }
  std::vector<int> zombies() const {
    std::lock_guard lock(mutex_);
    return {lingering_.begin(), lingering_.end()};
  }

 private:
  void loop() {
    std::map<int, std::chrono::steady_clock::time_point> first_seen_zombie;
    while (!stop_) {
      const auto now = std::chrono::steady_clock::now();
      const auto kids = children();
      max_children_ = std::max<std::size_t>(max_children_, kids.size());
      std::map<int, std::chrono::steady_clock::time_point> still;
      for (const auto& k : kids) {
        if (k.state != 'Z') continue;
        const auto it = first_seen_zombie.find(k.pid);
        still[k.pid] = it == first_seen_zombie.end() ? now : it->second;
        if (now - still[k.pid] > 500ms) {
          std::lock_guard lock(mutex_);
          lingering_.insert(k.pid);
        }
      }
      first_seen_zombie = std::move(still);
      std::this_thread::sleep_for(20ms);
    }
  }

  std::atomic<bool> stop_{false};
  std::atomic<std::size_t> max_children_{0};
  mutable std::mutex mutex_;
  std::set<int> lingering_;
  std::thread thread_;
};

// Runs sessions [from, to) on 8 threads; returns the most fds seen open.
std::size_t run_parallel(const std::vector<Case>& cases, std::size_t from, std::size_t to,
                         std::atomic<std::size_t>& failures) {
  std::atomic<std::size_t> next{from};
  std::atomic<std::size_t> max_fds{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 8; ++w) {
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < to; i = next++) {
        if (!run_session(cases[i % cases.size()])) ++failures;
        const std::size_t fds = open_fds();
        for (std::size_t seen = max_fds; fds > seen && !max_fds.compare_exchange_weak(seen, fds);) {
        }
      }
    });
  }
  for (auto& t : workers) t.join();
  return max_fds;
}

std::size_t session_count() {
  const char* value = std::getenv("CLAUDE_HARNESS_SOAK_SESSIONS");
  return value != nullptr && *value != '\0' ? std::stoul(value) : 160;
}

TEST(Soak, SessionsLeaveNoFdChildOrMemoryBehindAndNoZombieAtAnyPoint) {
  // glibc raises its mmap and trim thresholds after a large block is freed (up to 32 and 64 MiB)
  // and malloc_trim never trims the top of a thread arena, so each arena a session thread used
  // keeps up to tens of MiB of free pages resident. Fixed thresholds turn that off: RSS then
  // shows what the program holds, which is what this test is about.
  ::mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  ::mallopt(M_TRIM_THRESHOLD, 128 * 1024);
  std::vector<std::string> skipped;
  const std::vector<Case> cases = runnable_cases(skipped);  // also warms every code path up
  ASSERT_GE(cases.size(), 10u) << "too few runnable conformance cases";
  for (const auto& s : skipped) std::printf("soak: not in the mix: %s\n", s.c_str());
  // One parallel round before the baseline: malloc's per-thread arenas and the SDK's threads
  // reach their steady size here, not during the measured run.
  std::atomic<std::size_t> warm_up_failures{0};
  run_parallel(cases, 0, 32, warm_up_failures);

  const std::size_t total = session_count();
  const std::size_t fds_before = open_fds();
  const long rss_before = rss_kib();
  const long heap_before = heap_in_use_kib();
  std::atomic<std::size_t> failures{0};
  std::size_t max_fds = fds_before;
  const auto started = std::chrono::steady_clock::now();
  {
    ChildMonitor monitor;
    // Half sequential...
    const std::size_t sequential = total / 2;
    for (std::size_t i = 0; i < sequential; ++i) {
      if (!run_session(cases[i % cases.size()])) ++failures;
      max_fds = std::max(max_fds, open_fds());
    }
    // ...and half 8 at a time.
    max_fds = std::max(max_fds, run_parallel(cases, sequential, total, failures));
    // The monitor sees the last exits reaped before it stops.
    std::this_thread::sleep_for(600ms);
    const auto zombies = monitor.zombies();
    EXPECT_TRUE(zombies.empty()) << zombies.size() << " child(ren) stayed zombies";
    std::printf("soak: max children at once: %zu\n", monitor.max_children());
    ::testing::Test::RecordProperty("max_children", static_cast<int>(monitor.max_children()));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::size_t fds_after = open_fds();
  const long rss_after = rss_kib();
  const long heap_after = heap_in_use_kib();
  std::printf("soak: heap in use before %ld KiB, after %ld KiB\n", heap_before, heap_after);
  std::printf(
      "soak: %zu sessions over %zu cases in %.1f s; failures %zu; fds before %zu, max %zu, after "
      "%zu; RSS before %ld KiB, after %ld KiB\n",
      total, cases.size(), seconds, failures.load(), fds_before, max_fds, fds_after, rss_before,
      rss_after);
  ::testing::Test::RecordProperty("sessions", static_cast<int>(total));
  ::testing::Test::RecordProperty("rss_before_kib", static_cast<int>(rss_before));
  ::testing::Test::RecordProperty("rss_after_kib", static_cast<int>(rss_after));
  ::testing::Test::RecordProperty("heap_before_kib", static_cast<int>(heap_before));
  ::testing::Test::RecordProperty("heap_after_kib", static_cast<int>(heap_after));

  EXPECT_EQ(failures.load(), 0u);
  EXPECT_EQ(fds_after, fds_before);
  EXPECT_TRUE(children().empty());
  // Measured (tests/soak/README.md): RSS +0.9 MiB after 600 sessions and +1.0 MiB after 2,000
  // (thread stacks and allocator bookkeeping settling), heap in use +22 / +37 KiB. The bounds do
  // not grow with the session count: a buffer or a message kept per session fails them.
#if defined(__SANITIZE_ADDRESS__)  // gcc
#define SOAK_UNDER_ASAN 1
#elif defined(__has_feature)  // clang 14 says it only this way
#if __has_feature(address_sanitizer)
#define SOAK_UNDER_ASAN 1
#endif
#endif
#if !defined(SOAK_UNDER_ASAN)
  // Under AddressSanitizer freed memory sits in quarantine, so RSS says nothing about leaks there
  // (LeakSanitizer checks them instead).
  EXPECT_LE(rss_after - rss_before, 4 * 1024)
      << "RSS grew by " << rss_after - rss_before << " KiB over " << total << " sessions";
  EXPECT_LE(heap_after - heap_before, 256)
      << "heap in use grew by " << heap_after - heap_before << " KiB over " << total << " sessions";
#endif
}

}  // namespace
