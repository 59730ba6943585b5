// Descendants: what CMD leaves running after it exits, found and ended by harness.
//
// What it is: adopt_orphans() makes this process a child subreaper (PR_SET_CHILD_SUBREAPER), so
// every process CMD starts stays in harness's tree even after its parent exits, `setsid`,
// double forks and daemons included. living_descendants() lists that tree from /proc (reaping
// children that already exited, so an ended orphan is gone, not a zombie). settle_descendants()
// is what harness does once CMD has exited: let them end on their own for a grace period (longer
// while a process it was told to wait for, such as a fake-claude that has not written its
// report, is alive), then SIGTERM, then SIGKILL, until none is left.
//
// How it fails: without /proc nothing is found and nothing is ended; a process that exits while
// it is being listed or signalled is simply gone. It reaps every child of this process that has
// exited, so call it only when no other part of the process waits for a child of its own.
//
// What it costs: one read of /proc/<pid>/stat per process on the machine per scan, every 20 ms
// while it waits.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <vector>

namespace claude::harness {

// Becomes a child subreaper; false when the kernel refuses (then orphans go to init).
bool adopt_orphans();

// Processes below this one (not this one), running or stopped; exited children are reaped first.
std::vector<pid_t> living_descendants();

// Whether process `pid` runs `executable` (/proc/<pid>/exe).
bool runs_executable(pid_t pid, const std::filesystem::path& executable);

struct SettleTimes {
  // How long descendants may run on after CMD exited before they are ended.
  std::chrono::milliseconds grace{2000};
  // Up to this long in all while one that `awaited` names is still running.
  std::chrono::milliseconds awaited_limit{15000};
  // Between SIGTERM and SIGKILL.
  std::chrono::milliseconds term_wait{1000};
};

struct SettleResult {
  std::size_t terminated = 0;  // outlived the grace period: sent SIGTERM
  std::size_t killed = 0;      // still there after term_wait: sent SIGKILL
};

// Waits for and ends every descendant as described above; returns when none is left.
SettleResult settle_descendants(const SettleTimes& times,
                                const std::function<bool(pid_t)>& awaited = {});

}  // namespace claude::harness
