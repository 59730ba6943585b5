// sdk-control-rtt: control round trip of the C++ SDK against its floor, in one run.
//
// Runs control_rtt_cli (the CLI side, which times each can_use_tool request until its answer
// line comes back) twice per round: once against floor_responder (copies the request_id back,
// parses nothing) and once under query() with a can_use_tool callback that allows. Prints one
// JSON line per round and a summary with the ratio of p50s.
//
// Usage: sdk-control-rtt [--requests N] [--rounds R]   Exit: 0 ok, 2 usage, 3 a run failed.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "claude/sdk/query.hpp"
#include "process/argv_builder.hpp"
#include "process/subprocess_transport.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using namespace claude::sdk;

json read_report(const fs::path& p) {
  std::ifstream in(p);
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("no report at " + p.string());
  return j;
}

json run_floor(int requests, const fs::path& report) {
  SubprocessTransport t({{FLOOR_RESPONDER_PATH, CONTROL_RTT_CLI_PATH, "--requests",
                          std::to_string(requests), "--report", report.string()},
                         host_environment(),
                         "",
                         false});
  t.connect();
  for (;;) {
    ReadResult r = t.read();
    if (auto* end = std::get_if<StreamEnd>(&r)) {
      if (end->status.exit_code != 0)
        throw std::runtime_error("floor run failed: " + end->status.describe() + " " +
                                 end->stderr_tail);
      break;
    }
  }
  return read_report(report);
}

json run_sdk(int requests, const fs::path& report) {
  Options o;
  o.cli_path = CONTROL_RTT_CLI_PATH;
  o.cli_prefix_args = {"--requests", std::to_string(requests), "--report", report.string()};
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    return PermissionDecision::allowed();
  };
  query("go", o).collect();
  return read_report(report);
}

}  // namespace

int main(int argc, char** argv) {
  int requests = 10000;
  int rounds = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help") {
      std::cout << "sdk-control-rtt [--requests N] [--rounds R]\n"
                   "C++ SDK can_use_tool round trip vs the floor responder. Exit: 0 ok, 2 usage, "
                   "3 a run failed.\n";
      return 0;
    }
    if (a == "--requests" && i + 1 < argc)
      requests = std::stoi(argv[++i]);
    else if (a == "--rounds" && i + 1 < argc)
      rounds = std::stoi(argv[++i]);
    else {
      std::cerr << "sdk-control-rtt: unknown argument " << a << "\n";
      return 2;
    }
  }
  fs::path report = fs::temp_directory_path() / ("sdk-rtt-" + std::to_string(::getpid()) + ".json");
  try {
    for (int r = 0; r < rounds; ++r) {
      json floor = run_floor(requests, report);
      json sdk = run_sdk(requests, report);
      double ratio = sdk["p50_us"].get<double>() / floor["p50_us"].get<double>();
      std::cout << json{{"round", r}, {"floor", floor}, {"sdk", sdk}, {"p50_ratio", ratio}}.dump()
                << std::endl;
    }
    fs::remove(report);
  } catch (const std::exception& e) {
    std::cerr << "sdk-control-rtt: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
