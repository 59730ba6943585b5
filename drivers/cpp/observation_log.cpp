#include "observation_log.hpp"

#include <string>

#include "claude/base/json.hpp"

namespace claude::driver {

ObservationLog::ObservationLog(std::FILE* out)
    : out_(out), start_(std::chrono::steady_clock::now()) {}

void ObservationLog::write(nlohmann::json observation) {
  std::lock_guard lock(mutex_);
  const auto elapsed = std::chrono::steady_clock::now() - start_;
  observation["t_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  // Invalid UTF-8 from the SDK (echoed binary tool output) must not cost the whole line.
  std::string line = base::dump_json(observation);
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

}  // namespace claude::driver
