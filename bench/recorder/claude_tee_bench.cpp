// bench_claude_tee: what claude-tee costs an SDK, measured against a direct pipe to the CLI and
// against a minimal forwarder without recording (the floor: the price of one extra process and
// pipe hop, which no tee can avoid). All three run in the same process, interleaved in rounds so
// that load from other processes hits them alike.
//
//   bench_claude_tee [--round-trips N] [--stream-mib N] [--repeats N] [--recording-dir DIR]
//
// Latency: N request/answer round trips of a 230-byte NDJSON line through an echoing CLI
// stand-in; p50/p99 per path and the added latency over the direct pipe.
// Throughput: the CLI stand-in writes N MiB of NDJSON to stdout; time until the reader sees EOF,
// and for claude-tee also until it exits (its recording is then complete: while the recorder
// lags, the backlog waits in its spill file and is recorded after the CLI's stdout ended).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "claude/base/subprocess.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  pid_t pid = -1;
  int to = -1;    // its stdin
  int from = -1;  // its stdout
};

Child spawn(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) std::exit(2);
  std::vector<std::string> env_strings = extra_env;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  const claude::base::Spawned spawned = claude::base::spawn(
      {.argv = argv,
       .env = env_strings,
       .fds = {claude::base::ChildFd::dup(in[0], 0), claude::base::ChildFd::dup(out[1], 1),
               claude::base::ChildFd::open(2, "/dev/null", O_WRONLY)}});
  if (!spawned.started()) {
    std::fprintf(stderr, "cannot start %s\n", argv[0].c_str());
    std::exit(2);
  }
  Child child;
  child.pid = spawned.pid;
  ::close(in[0]);
  ::close(out[1]);
  child.to = in[1];
  child.from = out[0];
  return child;
}

void finish(Child& child) {
  if (child.to >= 0) ::close(child.to);
  char buf[4096];
  while (::read(child.from, buf, sizeof buf) > 0) {
  }
  ::close(child.from);
  claude::base::wait_exit(child.pid);
}

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

double round_trip_us(Child& child, const std::string& line) {
  static char buf[1 << 16];
  const auto start = Clock::now();
  if (!write_all(child.to, line.data(), line.size())) std::exit(3);
  std::size_t got = 0;
  while (got < line.size()) {
    const ssize_t n = ::read(child.from, buf, sizeof buf);
    if (n <= 0) std::exit(3);
    got += static_cast<std::size_t>(n);
  }
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

struct StreamRate {
  double to_eof = 0;   // MiB/s until the reader saw EOF
  double to_exit = 0;  // MiB/s until the process exited (claude-tee: the recording is complete)
};

StreamRate stream_mib_per_s(const std::vector<std::string>& argv,
                            const std::vector<std::string>& env, std::size_t bytes) {
  const auto start = Clock::now();
  Child child = spawn(argv, env);
  ::close(child.to);
  child.to = -1;
  std::vector<char> buf(256u << 10);
  std::size_t got = 0;
  while (true) {
    const ssize_t n = ::read(child.from, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  finish(child);
  const double exit_secs = std::chrono::duration<double>(Clock::now() - start).count();
  if (got != bytes) {
    std::fprintf(stderr, "stream: expected %zu bytes, got %zu\n", bytes, got);
    std::exit(3);
  }
  const double mib = static_cast<double>(bytes) / (1 << 20);
  return {mib / secs, mib / exit_secs};
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t round_trips = 100'000;
  std::size_t stream_mib = 256;
  int repeats = 3;
  std::filesystem::path recording_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--round-trips" && i + 1 < argc) {
      round_trips = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--stream-mib" && i + 1 < argc) {
      stream_mib = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--repeats" && i + 1 < argc) {
      repeats = std::atoi(argv[++i]);
    } else if (arg == "--recording-dir" && i + 1 < argc) {
      recording_dir = argv[++i];
    } else {
      std::printf(
          "Usage: bench_claude_tee [--round-trips N] [--stream-mib N] [--repeats N] "
          "[--recording-dir DIR]\n");
      return arg == "--help" ? 0 : 2;
    }
  }
  bool own_dir = false;
  if (recording_dir.empty()) {
    char tmpl[] = "/tmp/bench-claude-tee-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) return 2;
    recording_dir = tmpl;
    own_dir = true;
  }
  const std::vector<std::string> tee_env{"CLAUDE_TEE_REAL_CLI=" PEER_PATH,
                                         "CLAUDE_TEE_OUT=" + recording_dir.string() + "/",
                                         "CLAUDE_TEE_CLI_VERSION=bench"};
  const char* names[3] = {"direct pipe", "floor forwarder", "claude-tee"};

  // Latency.
  {
    const std::string line =
        R"({"type":"control_request","request_id":"req_1_0b1f4a52","request":{"subtype":"can_use_tool",)"
        R"("tool_name":"Bash","input":{"command":"ls -la /tmp"},"tool_use_id":"toolu_01ABCDEFGHIJKLMNOPQRSTUV"}})"
        "\n";
    Child children[3] = {spawn({PEER_PATH, "echo"}, {}), spawn({FLOOR_PATH, PEER_PATH, "echo"}, {}),
                         spawn({CLAUDE_TEE_PATH, "echo"}, tee_env)};
    std::vector<double> samples[3];
    for (auto& c : children) {
      for (int i = 0; i < 1000; ++i) round_trip_us(c, line);
    }
    constexpr std::size_t kRounds = 10;
    for (std::size_t round = 0; round < kRounds; ++round) {
      for (std::size_t k = 0; k < 3; ++k) {
        const std::size_t which = (round + k) % 3;
        for (std::size_t i = 0; i < round_trips / kRounds; ++i) {
          samples[which].push_back(round_trip_us(children[which], line));
        }
      }
    }
    for (auto& c : children) finish(c);
    double p50[3], p99[3];
    std::printf("round trips: %zu per path, %zu-byte line\n", samples[0].size(), line.size());
    std::printf("%-16s %10s %10s %12s %12s\n", "path", "p50 us", "p99 us", "added p50",
                "added p99");
    for (int i = 0; i < 3; ++i) {
      p50[i] = percentile(samples[i], 0.50);
      p99[i] = percentile(samples[i], 0.99);
      std::printf("%-16s %10.1f %10.1f %12.1f %12.1f\n", names[i], p50[i], p99[i], p50[i] - p50[0],
                  p99[i] - p99[0]);
    }
    std::printf(
        "claude-tee added latency / floor added latency: p50 %.2fx, p99 %.2fx (target <= 1.2x)\n",
        (p50[2] - p50[0]) / (p50[1] - p50[0]), (p99[2] - p99[0]) / (p99[1] - p99[0]));
  }

  // Throughput.
  {
    const std::size_t bytes = stream_mib << 20;
    const std::string count = std::to_string(bytes);
    std::vector<double> rates[3];
    std::vector<double> tee_to_exit;
    for (int r = 0; r < repeats; ++r) {
      rates[0].push_back(stream_mib_per_s({PEER_PATH, "generate", count}, {}, bytes).to_eof);
      rates[1].push_back(
          stream_mib_per_s({FLOOR_PATH, PEER_PATH, "generate", count}, {}, bytes).to_eof);
      const StreamRate tee = stream_mib_per_s({CLAUDE_TEE_PATH, "generate", count}, tee_env, bytes);
      rates[2].push_back(tee.to_eof);
      tee_to_exit.push_back(tee.to_exit);
      for (const auto& entry : std::filesystem::directory_iterator(recording_dir)) {
        std::filesystem::remove(entry.path());
      }
    }
    std::printf("throughput: %zu MiB from the CLI's stdout, median of %d\n", stream_mib, repeats);
    double median[3];
    for (int i = 0; i < 3; ++i) {
      median[i] = percentile(rates[i], 0.5);
      std::printf("%-16s %10.0f MiB/s\n", names[i], median[i]);
    }
    const double tee_exit = percentile(tee_to_exit, 0.5);
    std::printf("%-16s %10.0f MiB/s (until claude-tee exits: the recording is complete)\n",
                "claude-tee exit", tee_exit);
    std::printf(
        "claude-tee / direct: %.2f (target >= 0.8); floor / direct: %.2f; "
        "claude-tee until exit / direct: %.2f; claude-tee / floor: %.2f\n",
        median[2] / median[0], median[1] / median[0], tee_exit / median[0], median[2] / median[1]);
  }
  if (own_dir) std::filesystem::remove_all(recording_dir);
  return 0;
}
