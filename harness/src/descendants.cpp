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

#include "claude/base/subprocess.hpp"

namespace claude::harness {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kScanInterval{20};
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

}  // namespace

bool adopt_orphans() {
  return ::prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0;
}

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

bool runs_executable(pid_t pid, const std::filesystem::path& executable) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec);
  if (ec) return false;
  const auto target = std::filesystem::weakly_canonical(executable, ec);
  return exe == (ec ? executable : target);
}

SettleResult settle_descendants(const SettleTimes& times,
                                const std::function<bool(pid_t)>& awaited) {
  SettleResult result;
  const auto start = Clock::now();
  while (true) {
    const auto running = living_descendants();
    if (running.empty()) return result;
    const auto elapsed = Clock::now() - start;
    const bool waiting_for_one = awaited && std::any_of(running.begin(), running.end(), awaited);
    if (elapsed >= times.grace && (!waiting_for_one || elapsed >= times.awaited_limit)) break;
    std::this_thread::sleep_for(kScanInterval);
  }
  std::set<pid_t> sent_term;
  const auto term_until = Clock::now() + times.term_wait;
  while (Clock::now() < term_until) {
    const auto running = living_descendants();
    if (running.empty()) return result;
    for (const pid_t pid : running) {
      if (sent_term.insert(pid).second && ::kill(pid, SIGTERM) == 0) ++result.terminated;
    }
    std::this_thread::sleep_for(kScanInterval);
  }
  std::set<pid_t> sent_kill;
  const auto kill_until = Clock::now() + kKillWait;
  while (Clock::now() < kill_until) {
    const auto running = living_descendants();
    if (running.empty()) return result;
    for (const pid_t pid : running) {
      ::kill(pid, SIGKILL);
      if (sent_kill.insert(pid).second) ++result.killed;
    }
    std::this_thread::sleep_for(kScanInterval);
  }
  return result;
}

}  // namespace claude::harness
