// sdk-query-throughput: fake-claude streams a 64 MiB session into query(); compared with `cat`
// of the same lines through a pipe, and with fake-claude streaming into a reader that parses
// nothing, in the same run.
//
// Writes, in a temp dir, session.ndjson (assistant messages of 200–4000 bytes, `--mib` MiB in
// all) and a scenario that replays those bytes (`raw` steps of ~64 KiB) after the prompt. Then
// times (1) `cat session.ndjson` read through a pipe into a buffer, (2) query() consuming every
// message, (3) the same fake-claude run read as the SDK's transport reads it (a 1 MiB pipe, 1 MiB
// reads) but thrown away: the producer's own rate, the most an SDK reading that way can get. It
// prints MB/s for each.
// The SDK's and the producer's times run from the spawn (fake-claude's scenario load included)
// to the end of the stream.
//
// With --inputs DIR the two files are kept in DIR and reused when they are there already, so that
// a caller can alternate single rounds with a peer that replays the same scenario.
//
// With --session FILE the session is FILE's lines instead (a recorded or make-session-corpus
// session: stream events, tool results, results), replayed the same way.
//
// Usage: sdk-query-throughput [--mib N | --session FILE] [--rounds R] [--inputs DIR]
// Exit: 0 ok, 2 usage, 3 a run failed.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "child_process.hpp"
#include "claude/base/subprocess.hpp"
#include "claude/sdk/query.hpp"
#include "client/message_queue_stats.hpp"

extern char** environ;

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using claude::emulator::bench::ChildProcess;
using claude::emulator::bench::write_all;

// session.ndjson and a scenario that replays its lines after the prompt, in `raw` steps of
// ~64 KiB, written together line by line.
class InputsWriter {
 public:
  explicit InputsWriter(const fs::path& dir)
      : session_(dir / "session.ndjson", std::ios::binary),
        scenario_(dir / "scenario.ndjson", std::ios::binary) {
    scenario_ << R"({"scenario":1,"name":"bench.throughput","description":"64 MiB stream"})"
              << "\n"
              << R"({"expect":{"type":"user"},"within_ms":10000})"
              << "\n";
  }

  // `line` ends with its newline.
  void add(const std::string& line) {
    session_ << line;
    written_ += line.size();
    chunk_ += line;
    if (chunk_.size() >= (64u << 10)) flush();
  }

  // The last step, then the exit; the bytes of the session.
  std::size_t finish() {
    if (!chunk_.empty()) flush();
    scenario_ << R"({"exit":0})"
              << "\n";
    return written_;
  }

  [[nodiscard]] std::size_t written() const { return written_; }

 private:
  void flush() {
    scenario_ << json{{"raw", chunk_}}.dump() << "\n";
    chunk_.clear();
  }

  std::ofstream session_;
  std::ofstream scenario_;
  std::string chunk_;
  std::size_t written_ = 0;
};

// The inputs of `--session FILE`: FILE's lines as they are.
std::size_t write_inputs_from(const fs::path& dir, const fs::path& from) {
  std::ifstream in(from, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + from.string());
  InputsWriter inputs(dir);
  for (std::string line; std::getline(in, line);) inputs.add(line + '\n');
  if (inputs.written() == 0) throw std::runtime_error(from.string() + " holds no lines");
  return inputs.finish();
}

// Assistant messages of 200-4000 bytes, `bytes` in all, and a result.
std::size_t write_inputs(const fs::path& dir, std::size_t bytes) {
  InputsWriter inputs(dir);
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> len(200, 4000);
  for (int i = 0; inputs.written() < bytes; ++i) {
    // Members in the order written, as the CLI writes them (`type` first).
    nlohmann::ordered_json line = {
        {"type", "assistant"},
        {"uuid", "u-" + std::to_string(i)},
        {"session_id", "bench"},
        {"parent_tool_use_id", nullptr},
        {"message",
         {{"id", "msg_" + std::to_string(i)},
          {"type", "message"},
          {"role", "assistant"},
          {"model", "claude-fake"},
          {"content", nlohmann::ordered_json::array(
                          {{{"type", "text"}, {"text", std::string(len(rng), 'x')}}})},
          {"stop_reason", nullptr}}}};
    inputs.add(line.dump() + "\n");
  }
  nlohmann::ordered_json result = {{"type", "result"}, {"subtype", "success"},  {"is_error", false},
                                   {"duration_ms", 1}, {"duration_api_ms", 1},  {"num_turns", 1},
                                   {"result", "ok"},   {"session_id", "bench"}, {"uuid", "u-end"}};
  inputs.add(result.dump() + "\n");
  return inputs.finish();
}

double cat_seconds(const fs::path& file) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  auto begin = Clock::now();
  const auto cat = claude::base::spawn({.argv = {"cat", file.string()},
                                        .search_path = true,
                                        .fds = {claude::base::ChildFd::dup(fds[1], 1)}});
  if (!cat.started()) throw std::runtime_error("spawn cat");
  ::close(fds[1]);
  std::string buf(256u << 10, '\0');
  while (::read(fds[0], buf.data(), buf.size()) > 0) {
  }
  ::close(fds[0]);
  claude::base::wait_exit(cat.pid);
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// fake-claude replaying `scenario` after the `initialize` request and the prompt an SDK writes,
// its stdout read through a 1 MiB pipe in 1 MiB reads (as SubprocessTransport reads it) and thrown
// away; the seconds from the spawn to the end of its output.
double producer_seconds(const fs::path& scenario, std::size_t bytes) {
  const std::string requests =
      R"({"type":"control_request","request_id":"init","request":{"subtype":"initialize"}})"
      "\n"
      R"({"type":"user","message":{"role":"user","content":"stream"},"parent_tool_use_id":null,)"
      R"("session_id":"default"})"
      "\n";
  auto begin = Clock::now();
  auto child =
      ChildProcess::spawn({FAKE_CLAUDE_PATH, "--scenario", scenario.string(), "--output-format",
                           "stream-json", "--verbose", "--input-format", "stream-json"});
  ::fcntl(child.out, F_SETPIPE_SZ, 1 << 20);
  if (!write_all(child.in, requests)) throw std::runtime_error("write to fake-claude");
  std::string buf(1u << 20, '\0');
  std::size_t received = 0;
  for (ssize_t n; (n = ::read(child.out, buf.data(), buf.size())) > 0;) {
    received += static_cast<std::size_t>(n);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  // Its verdict line, a few bytes, waits in the stderr pipe.
  const int status = child.wait_with_peak_rss().first;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("fake-claude (producer run) failed");
  if (received < bytes) throw std::runtime_error("producer run: lost bytes");
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t mib = 64;
  int rounds = 1;
  fs::path inputs;        // empty: a temporary directory, removed at the end
  fs::path session_file;  // empty: generated assistant messages
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help") {
      std::cout << "sdk-query-throughput [--mib N | --session FILE] [--rounds R] [--inputs DIR]\n"
                   "query() throughput from fake-claude vs cat through a pipe. Exit: 0 ok, "
                   "2 usage, 3 a run failed.\n";
      return 0;
    }
    if (a == "--mib" && i + 1 < argc)
      mib = std::stoul(argv[++i]);
    else if (a == "--rounds" && i + 1 < argc)
      rounds = std::stoi(argv[++i]);
    else if (a == "--inputs" && i + 1 < argc)
      inputs = argv[++i];
    else if (a == "--session" && i + 1 < argc)
      session_file = argv[++i];
    else {
      std::cerr << "sdk-query-throughput: unknown argument " << a << "\n";
      return 2;
    }
  }
  const bool keep_inputs = !inputs.empty();
  const fs::path dir =
      keep_inputs ? inputs : fs::temp_directory_path() / ("sdk-tput-" + std::to_string(::getpid()));
  const auto clean_up = [&] {
    if (!keep_inputs) fs::remove_all(dir);
  };
  try {
    fs::create_directories(dir);
    const bool reuse =
        keep_inputs && fs::exists(dir / "scenario.ndjson") && fs::exists(dir / "session.ndjson");
    const std::size_t bytes = reuse
                                  ? static_cast<std::size_t>(fs::file_size(dir / "session.ndjson"))
                              : session_file.empty() ? write_inputs(dir, mib << 20)
                                                     : write_inputs_from(dir, session_file);
    for (int r = 0; r < rounds; ++r) {
      double cat_s = cat_seconds(dir / "session.ndjson");
      claude::sdk::Options o;
      o.cli_path = FAKE_CLAUDE_PATH;
      o.cli_prefix_args = {"--scenario", (dir / "scenario.ndjson").string()};
      auto begin = Clock::now();
      Clock::time_point first{};
      std::size_t got = 0, messages = 0;
      auto q = claude::sdk::query("stream", o);
      while (auto m = q.next()) {
        if (messages++ == 0) first = Clock::now();
        got += m->line().size() + 1;
      }
      auto end = Clock::now();
      const auto stats = message_queue_stats(q);
      const double producer_s = producer_seconds(dir / "scenario.ndjson", bytes);
      double sdk_s = std::chrono::duration<double>(end - begin).count();
      double stream_s = std::chrono::duration<double>(end - first).count();
      double mb = static_cast<double>(bytes) / 1e6;
      std::cout << json{{"round", r},
                        {"bytes", bytes},
                        {"bytes_received", got},
                        {"messages", messages},
                        {"cat_mb_s", mb / cat_s},
                        {"sdk_mb_s", mb / sdk_s},
                        {"sdk_mb_s_from_first_message", mb / stream_s},
                        {"producer_mb_s", mb / producer_s},
                        {"ratio_to_cat", cat_s / sdk_s},
                        {"consumer_wakeups", stats.consumer_wakeups},
                        {"reader_waits", stats.reader_waits}}
                       .dump()
                << std::endl;
      if (got != bytes) throw std::runtime_error("lost bytes: got " + std::to_string(got));
    }
  } catch (const std::exception& e) {
    std::cerr << "sdk-query-throughput: " << e.what() << "\n";
    clean_up();
    return 3;
  }
  clean_up();
  return 0;
}
