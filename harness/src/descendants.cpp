#include "claude/harness/descendants.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "claude/base/subprocess.hpp"

namespace claude::harness {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kScanInterval{20};
// How long descendants may run on after CMD exited before they are ended.
constexpr std::chrono::milliseconds kGrace{2000};
// Up to this long in all while one that `awaited` names is still running.
constexpr std::chrono::milliseconds kAwaitedLimit{15000};
constexpr std::chrono::milliseconds kTermWait{1000};  // between SIGTERM and SIGKILL
// SIGKILL cannot be refused; this only bounds a process stuck in the kernel.
constexpr std::chrono::milliseconds kKillWait{5000};

void reap_exited_children() {
  int status = 0;
  while (::waitpid(-1, &status, WNOHANG) > 0) {
  }
}

// Every process's parent, zombies left out, from /proc/<pid>/stat.
std::unordered_multimap<pid_t, pid_t> children_by_parent() {
  std::unordered_multimap<pid_t, pid_t> children;
  for (const auto& process : base::list_processes()) {
    if (process.running()) children.emplace(process.ppid, process.pid);
  }
  return children;
}

// Processes below this one (not this one), running or stopped; exited children are reaped first.
std::vector<pid_t> living_descendants() {
  reap_exited_children();
  const auto children = children_by_parent();
  std::vector<pid_t> found;
  std::vector<pid_t> frontier{::getpid()};
  while (!frontier.empty()) {
    const pid_t parent = frontier.back();
    frontier.pop_back();
    const auto [first, last] = children.equal_range(parent);
    for (auto it = first; it != last; ++it) {
      found.push_back(it->second);
      frontier.push_back(it->second);
    }
  }
  return found;
}

}  // namespace

bool adopt_orphans() {
  return ::prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0;
}

bool runs_executable(pid_t pid, const std::filesystem::path& executable) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec);
  if (ec) return false;
  const auto target = std::filesystem::weakly_canonical(executable, ec);
  return exe == (ec ? executable : target);
}

void settle_descendants(const std::function<bool(pid_t)>& awaited) {
  const auto start = Clock::now();
  while (true) {
    const auto running = living_descendants();
    if (running.empty()) return;
    const auto elapsed = Clock::now() - start;
    const bool waiting_for_one = awaited && std::any_of(running.begin(), running.end(), awaited);
    if (elapsed >= kGrace && (!waiting_for_one || elapsed >= kAwaitedLimit)) break;
    std::this_thread::sleep_for(kScanInterval);
  }
  // SIGTERM once to each, then SIGKILL to whatever is left, at every scan.
  for (const auto& [sig, wait] : {std::pair{SIGTERM, kTermWait}, {SIGKILL, kKillWait}}) {
    std::set<pid_t> sent;
    const auto until = Clock::now() + wait;
    while (Clock::now() < until) {
      const auto running = living_descendants();
      if (running.empty()) return;
      for (const pid_t pid : running) {
        if (sent.insert(pid).second || sig == SIGKILL) ::kill(pid, sig);
      }
      std::this_thread::sleep_for(kScanInterval);
    }
  }
}

}  // namespace claude::harness
