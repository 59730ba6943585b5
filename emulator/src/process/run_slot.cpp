#include "process/run_slot.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace claude::emulator::detail {

std::optional<RunSlot> claim_run(const std::string& dir, std::string& error) {
  // Bounded: a directory holding this many claims is not a harness run any more.
  constexpr std::size_t kMaxRuns = 100000;
  for (std::size_t number = 1; number <= kMaxRuns; ++number) {
    const std::string base = dir + "/run-" + std::to_string(number);
    const std::string claim = base + ".started";
    const int fd = ::open(claim.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) {
      error = "cannot claim a run in " + dir + ": " + std::strerror(errno);
      return std::nullopt;
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    [[maybe_unused]] const ssize_t n = ::write(fd, pid.data(), pid.size());
    ::close(fd);
    return RunSlot{number, base + ".json"};
  }
  error = "cannot claim a run in " + dir + ": " + std::to_string(kMaxRuns) + " runs taken";
  return std::nullopt;
}

}  // namespace claude::emulator::detail
