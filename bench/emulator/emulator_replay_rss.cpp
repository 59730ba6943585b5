// Peak RSS of fake-claude replaying a large recording. Writes a recording of about SIZE MiB
// (default 64) of assistant frames to DIR, replays it with a scripted SDK side that sends the
// recorded initialize and prompt, drains stdout, and reports the child's peak RSS from wait4.
// Budget: peak RSS ≤ 2 × file size + 16 MiB.
//
//   emulator_replay_rss [SIZE_MIB] [DIR]   (defaults: 64, /tmp)
#include <poll.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "child_process.hpp"

using claude::emulator::bench::ChildProcess;

namespace {

std::string escape(const std::string& json) {
  std::string out;
  for (char c : json) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const long size_mib = argc > 1 ? std::stol(argv[1]) : 64;
  const std::filesystem::path dir = argc > 2 ? argv[2] : "/tmp";
  const auto path = dir / ("emulator-replay-" + std::to_string(::getpid()) + ".ndjson");
  {
    std::ofstream file(path, std::ios::binary);
    file
        << R"({"recording":1,"argv":["claude"],"env":{},"cwd":"/","cli":"claude","cli_version":"2.1.332","started_at":"2026-01-01T00:00:00Z"})"
        << "\n";
    file
        << R"({"t":0.001,"dir":"in","line":")"
        << escape(
               R"({"request_id":"r1","type":"control_request","request":{"subtype":"initialize"}})")
        << "\"}\n";
    file << R"({"t":0.002,"dir":"in","line":")"
         << escape(R"({"type":"user","message":{"role":"user","content":"go"}})") << "\"}\n";
    file
        << R"({"t":0.003,"dir":"out","line":")"
        << escape(
               R"({"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{}}})")
        << "\"}\n";
    const std::string text(900, 'x');
    const std::uintmax_t target = static_cast<std::uintmax_t>(size_mib) << 20;
    for (long i = 0; static_cast<std::uintmax_t>(file.tellp()) < target; ++i) {
      const std::string frame =
          R"({"type":"assistant","uuid":"u)" + std::to_string(i) +
          R"(","session_id":"s","message":{"id":"m","role":"assistant","content":[{"type":"text","text":")" +
          text + R"("}]}})";
      file << R"({"t":0.1,"dir":"out","line":")" << escape(frame) << "\"}\n";
    }
    file << R"({"t":1,"eof":"in"})"
         << "\n"
         << R"({"t":1,"exit":0})"
         << "\n";
  }
  const auto file_size = std::filesystem::file_size(path);

  ChildProcess child = ChildProcess::spawn({FAKE_CLAUDE_PATH, "--scenario", path.string()});
  claude::emulator::bench::write_all(
      child.in,
      R"({"request_id":"live1","type":"control_request","request":{"subtype":"initialize"}})"
      "\n"
      R"({"type":"user","message":{"role":"user","content":"go"}})"
      "\n");
  child.close_in();
  std::uintmax_t received = 0;
  char buffer[1 << 16];
  for (;;) {
    pollfd fds[2] = {{child.out, POLLIN, 0}, {child.err, POLLIN, 0}};
    if (::poll(fds, 2, 60000) <= 0) break;
    bool open = false;
    for (auto& fd : fds) {
      if ((fd.revents & (POLLIN | POLLHUP)) == 0) {
        open = true;
        continue;
      }
      const ssize_t n = ::read(fd.fd, buffer, sizeof buffer);
      if (n > 0) {
        if (fd.fd == child.out) received += static_cast<std::uintmax_t>(n);
        open = true;
      }
    }
    if (!open) break;
  }
  const auto [status, peak_kib] = child.wait_with_peak_rss();
  std::filesystem::remove(path);
  const double file_mib = static_cast<double>(file_size) / (1 << 20);
  const double peak_mib = static_cast<double>(peak_kib) / 1024;
  const double budget = 2 * file_mib + 16;
  std::printf(
      "replay of a %.1f MiB recording: exit %d, %.1f MiB sent, peak RSS %.1f MiB "
      "(budget %.1f MiB)\n",
      file_mib, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
      static_cast<double>(received) / (1 << 20), peak_mib, budget);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && peak_mib <= budget ? 0 : 1;
}
