// control_rtt_cli: the CLI side of the control round-trip benchmark.
//
// Speaks just enough stream-json to stand in for `claude`: answers `initialize`, waits for the
// first `user` frame, then sends `--requests N` `can_use_tool` requests one at a time and times
// each until the line carrying its request_id comes back. Writes a `result`, an `idle` state
// frame, waits for stdin EOF and writes {"requests":N,"p50_us":…,"p99_us":…,"mean_us":…} to
// `--report FILE`. The SDK under test and the floor responder both talk to this same program, so
// its own costs are identical in both runs. Unknown flags (the SDK's argv) are ignored.
//
// Exit codes: 0 ok, 2 usage, 3 the peer closed stdin before all answers came.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

class LineReader {
 public:
  // False at EOF.
  bool next(std::string& line) {
    for (;;) {
      auto nl = buf_.find('\n', pos_);
      if (nl != std::string::npos) {
        line.assign(buf_, pos_, nl - pos_);
        pos_ = nl + 1;
        return true;
      }
      buf_.erase(0, pos_);
      pos_ = 0;
      char chunk[65536];
      ssize_t n = ::read(0, chunk, sizeof chunk);
      if (n <= 0) return false;
      buf_.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  std::string buf_;
  std::size_t pos_ = 0;
};

void write_line(const std::string& line) {
  std::string out = line + "\n";
  std::size_t off = 0;
  while (off < out.size()) {
    ssize_t n = ::write(1, out.data() + off, out.size() - off);
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}

// The value of "request_id" in a line, found without parsing the JSON.
std::string request_id_of(const std::string& line) {
  static constexpr std::string_view key = "\"request_id\":\"";
  auto at = line.find(key);
  if (at == std::string::npos) return {};
  auto start = at + key.size();
  auto end = line.find('"', start);
  return end == std::string::npos ? std::string() : line.substr(start, end - start);
}

}  // namespace

int main(int argc, char** argv) {
  int requests = 10000;
  std::string report;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--help") {
      std::puts(
          "control_rtt_cli --requests N --report FILE [ignored SDK flags]\n"
          "Plays the CLI for the control round-trip benchmark. Exit: 0 ok, 2 usage, 3 peer "
          "closed early.");
      return 0;
    }
    if (a == "--requests" && i + 1 < argc)
      requests = std::atoi(argv[++i]);
    else if (a == "--report" && i + 1 < argc)
      report = argv[++i];
  }
  if (requests <= 0 || report.empty()) {
    std::fputs("control_rtt_cli: --requests N (>0) and --report FILE are required\n", stderr);
    return 2;
  }
  LineReader in;
  std::string line;
  for (;;) {
    if (!in.next(line)) return 3;
    if (line.find("\"initialize\"") != std::string::npos)
      write_line(R"({"type":"control_response","response":{"subtype":"success","request_id":")" +
                 request_id_of(line) + R"(","response":{"commands":[]}}})");
    if (line.find("\"type\":\"user\"") != std::string::npos) break;
  }
  write_line(
      R"({"type":"system","subtype":"session_state_changed","state":"running","sdk_host_only":true,"uuid":"u0","session_id":"bench"})");
  std::vector<double> micros;
  micros.reserve(static_cast<std::size_t>(requests));
  for (int i = 0; i < requests; ++i) {
    std::string id = "rtt-" + std::to_string(i);
    std::string request =
        R"({"type":"control_request","request_id":")" + id +
        R"(","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"touch /tmp/x"},"tool_use_id":"toolu_)" +
        std::to_string(i) + R"("}})";
    auto begin = std::chrono::steady_clock::now();
    write_line(request);
    for (;;) {
      if (!in.next(line)) return 3;
      if (request_id_of(line) == id) break;
    }
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin)
            .count());
  }
  write_line(
      R"({"type":"result","subtype":"success","is_error":false,"duration_ms":1,"duration_api_ms":1,"num_turns":1,"result":"ok","session_id":"bench","uuid":"u1"})");
  write_line(
      R"({"type":"system","subtype":"session_state_changed","state":"idle","sdk_host_only":true,"uuid":"u2","session_id":"bench"})");
  while (in.next(line)) {
  }
  std::vector<double> sorted = micros;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (double m : sorted) sum += m;
  auto pct = [&](double p) {
    return sorted[std::min(sorted.size() - 1,
                           static_cast<std::size_t>(p * static_cast<double>(sorted.size())))];
  };
  std::ofstream(report) << "{\"requests\":" << requests << ",\"p50_us\":" << pct(0.50)
                        << ",\"p99_us\":" << pct(0.99)
                        << ",\"mean_us\":" << sum / static_cast<double>(sorted.size()) << "}\n";
  return 0;
}
