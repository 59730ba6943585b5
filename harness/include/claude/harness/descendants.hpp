// Descendants: what CMD leaves running after it exits, found and ended by harness.
//
// What it is: adopt_orphans() makes this process a child subreaper (PR_SET_CHILD_SUBREAPER), so
// every process CMD starts stays in harness's tree even after its parent exits, `setsid`,
// double forks and daemons included. settle_descendants() is what harness does once CMD has
// exited: it lists that tree from /proc (reaping children that already exited, so an ended orphan
// is gone, not a zombie), lets them end on their own for 2 s (up to 15 s while a process it was
// told to wait for, such as a fake-claude that has not written its report, is alive), then sends
// SIGTERM, then SIGKILL a second later, until none is left.
//
// How it fails: without /proc nothing is found and nothing is ended; a process that exits while
// it is being listed or signalled is simply gone. It reaps every child of this process that has
// exited, so call it only when no other part of the process waits for a child of its own.
//
// What it costs: one read of /proc/<pid>/stat per process on the machine per scan, every 20 ms
// while it waits.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>

namespace claude::harness {

// Becomes a child subreaper; false when the kernel refuses (then orphans go to init).
bool adopt_orphans();

// Whether process `pid` runs `executable` (/proc/<pid>/exe).
bool runs_executable(pid_t pid, const std::filesystem::path& executable);

// Waits for and ends every descendant as described above; returns when none is left.
void settle_descendants(const std::function<bool(pid_t)>& awaited = {});

}  // namespace claude::harness
