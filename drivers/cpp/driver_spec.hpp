// DriverSpec: what a conformance case asks the SDK under test to do (docs/drivers.md §2), as
// plain values.
//
// The session options stay the spec's JSON (driver_run.cpp maps them onto claude::sdk::Options);
// the defaults docs/drivers.md gives are filled in.
//
// How it fails: the harness checks every spec against docs/driver-spec.schema.json first, so
// `parse_driver_spec` does not check it again; it throws UnsupportedFeature for a valid request
// the C++ SDK cannot carry out (exit 4; the message names the feature) and nlohmann's
// json::exception for a spec that skipped the harness. SpecError is the driver's usage error
// (exit 2: a bad command line, an unreadable spec file).
// What it costs: a copy of the spec's values.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace claude::driver {

class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class UnsupportedFeature : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Trigger {
  enum class Kind { start, never, delay, message };
  Kind kind = Kind::start;
  nlohmann::json pattern;  // message
  int nth = 1;             // message
  int delay_ms = 0;        // delay, and the pause after a message match
};

struct Turn {
  nlohmann::json frame;  // the complete user frame to write
  Trigger when;
};

struct PermissionRule {
  std::optional<std::string> tool;
  std::optional<nlohmann::json> input;
  std::optional<std::string> throw_text;
  bool allow = true;
  std::optional<nlohmann::json> updated_input;
  std::optional<nlohmann::json> updated_permissions;
  std::string message;
  std::optional<bool> interrupt;
  int delay_ms = 0;
};

struct HookSpec {
  std::string event;
  std::optional<std::string> matcher;
  std::optional<int> timeout;
  nlohmann::json returns;  // null when `throw_text` is set
  std::optional<std::string> throw_text;
  int delay_ms = 0;
};

struct McpToolSpec {
  std::string name;
  std::string description;
  nlohmann::json input_schema;
  nlohmann::json returns;  // an MCP CallToolResult; null when `throw_text` is set
  std::optional<std::string> throw_text;
  int delay_ms = 0;
};

struct McpServerSpec {
  std::string name;
  std::string version = "1.0.0";
  std::vector<McpToolSpec> tools;
};

struct ControlCall {
  std::string call;
  nlohmann::json args = nlohmann::json::object();
  Trigger when;
};

struct DriverSpec {
  std::optional<std::string> prompt;
  std::vector<Turn> turns;  // streaming input when non-empty
  // turns only; nullopt: the input ends right after the last turn is written
  std::optional<Trigger> end_input;
  nlohmann::json options = nlohmann::json::object();
  std::optional<std::vector<PermissionRule>> can_use_tool;  // present = callback registered
  std::vector<HookSpec> hooks;
  std::vector<McpServerSpec> mcp_servers;
  std::vector<ControlCall> control;
  bool capture_stderr = false;
  int timeout_ms = 20000;

  // Something can call back into the host (the SDK must keep stdin open for it).
  [[nodiscard]] bool has_callbacks() const {
    return can_use_tool.has_value() || !hooks.empty() || !mcp_servers.empty();
  }
};

[[nodiscard]] DriverSpec parse_driver_spec(const nlohmann::json& spec);

}  // namespace claude::driver
