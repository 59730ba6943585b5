// ObservationLog: the driver's NDJSON output (docs/drivers.md §3).
//
// What it is: one JSON object per line on the given stream, each stamped with `t_ms`
// (milliseconds since the log was created, i.e. since the driver started). Callbacks, control
// calls and the message loop run on different threads; a mutex keeps lines whole and in the
// order they were written, and every line is flushed at once so a grader that kills a hung
// driver still has everything up to that point.
//
// How it fails: a write error on stdout is not recoverable for a driver; it is ignored here and
// shows up as missing observations. What it costs: one serialisation and one flush per line.
#pragma once

#include <chrono>
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>

namespace claude::driver {

class ObservationLog {
 public:
  explicit ObservationLog(std::FILE* out);

  // Writes `observation` (an object with at least `obs`) plus `t_ms`.
  void write(nlohmann::json observation);

 private:
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
};

}  // namespace claude::driver
