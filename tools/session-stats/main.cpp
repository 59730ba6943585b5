// session-stats FILE: a count per message type of a stream-json session file.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "claude/base/cli.hpp"
#include "claude/base/input_file.hpp"
#include "claude/base/json.hpp"
#include "session_stats.hpp"

namespace {

constexpr const char* kUsage =
    "usage: session-stats [--json] FILE\n"
    "Parses FILE (stream-json NDJSON, one message per line) and prints one line per message\n"
    "type, '<type> <count>', sorted by type, then 'total <count>'. --json prints one JSON object\n"
    "{\"file\",\"messages\",\"counts\":{type:count},\"problems\":[{\"line\",\"reason\"}]} "
    "instead.\n"
    "Lines that are not messages are reported on stderr as FILE:LINE: reason.\n"
    "Exit codes: 0 every line is a message, 2 usage error, FILE unreadable, or a bad line.\n";

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  std::string path;
  CLI::App app;
  app.add_flag("--json", json);
  app.add_option("FILE", path);
  if (auto exit = claude::base::parse_command_line(app, claude::base::arguments(argc, argv),
                                                   {"session-stats", kUsage, kUsage}, std::cout,
                                                   std::cerr)) {
    return *exit;
  }
  if (path.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  claude::tools::SessionStats stats;
  const auto failed = claude::base::for_each_input_chunk(path, [&](std::string_view chunk) {
    stats.feed(chunk);
    return true;
  });
  if (failed) {
    std::cerr << "session-stats: " << path << ": " << *failed << '\n';
    return 2;
  }
  stats.finish();

  for (const auto& problem : stats.problems()) {
    std::cerr << path << ":" << problem.line << ": " << problem.reason << "\n";
  }
  if (json) {
    // Bytes that are not UTF-8 (a path, a reason quoting the bad line) become U+FFFD.
    auto problems = claude::base::Json::array();
    for (const auto& problem : stats.problems()) {
      problems.push_back({{"line", problem.line}, {"reason", problem.reason}});
    }
    const claude::base::Json report{{"file", path},
                                    {"messages", stats.messages()},
                                    {"counts", stats.counts()},
                                    {"problems", std::move(problems)}};
    std::cout << claude::base::dump_json(report) << '\n';
  } else {
    for (const auto& [type, count] : stats.counts()) std::cout << type << " " << count << "\n";
    std::cout << "total " << stats.messages() << "\n";
  }
  return stats.problems().empty() ? 0 : 2;
}
