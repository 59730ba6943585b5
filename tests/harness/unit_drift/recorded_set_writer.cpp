#include "recorded_set_writer.hpp"

#include <stdlib.h>

#include <fstream>
#include <stdexcept>

namespace claude::harness::testing {

namespace fs = std::filesystem;

Wire cli(Json message) {
  return {Wire::From::cli, std::move(message)};
}

Wire sdk(Json message) {
  return {Wire::From::sdk, std::move(message)};
}

Json initialize_request(const std::string& request_id) {
  return {{"type", "control_request"},
          {"request_id", request_id},
          {"request", {{"subtype", "initialize"}, {"hooks", nullptr}}}};
}

Json control_success(const std::string& request_id) {
  return {{"type", "control_response"},
          {"response", {{"subtype", "success"}, {"request_id", request_id}, {"response", {}}}}};
}

Json user_prompt(const std::string& tag) {
  return {{"type", "user"},
          {"session_id", ""},
          {"message", {{"role", "user"}, {"content", "say " + tag}}},
          {"parent_tool_use_id", nullptr}};
}

Json init_message(const std::string& cli_version, const std::string& tag) {
  return {{"type", "system"},
          {"subtype", "init"},
          {"uuid", "uuid-init-" + tag},
          {"session_id", "session-" + tag},
          {"cwd", "/work/" + tag},
          {"tools", {"Bash", "Read"}},
          {"claude_code_version", cli_version}};
}

Json assistant_text(const std::string& tag) {
  return {{"type", "assistant"},
          {"uuid", "uuid-assistant-" + tag},
          {"session_id", "session-" + tag},
          {"parent_tool_use_id", nullptr},
          {"message",
           {{"id", "msg_" + tag},
            {"role", "assistant"},
            {"content", {{{"type", "text"}, {"text", "hello " + tag}}}},
            {"usage", {{"input_tokens", tag.size()}, {"output_tokens", 7}}}}}};
}

Json result_success(const std::string& tag) {
  return {{"type", "result"},
          {"subtype", "success"},
          {"is_error", false},
          {"uuid", "uuid-result-" + tag},
          {"session_id", "session-" + tag},
          {"result", "hello " + tag},
          {"duration_ms", 10 + tag.size()},
          {"total_cost_usd", 0.25 * static_cast<double>(tag.size())},
          {"modelUsage", {{"claude-model-" + tag, {{"inputTokens", 3}}}}}};
}

std::vector<Wire> text_turn(const std::string& cli_version, const std::string& tag) {
  return {sdk(initialize_request("req_1_" + tag)),
          cli(control_success("req_1_" + tag)),
          sdk(user_prompt(tag)),
          cli(init_message(cli_version, tag)),
          cli(assistant_text(tag)),
          cli(result_success(tag))};
}

void write_recording(const fs::path& file, const std::vector<Wire>& lines,
                     const std::string& header_version) {
  Json header{{"recording", 1},
              {"argv", {"--output-format", "stream-json"}},
              {"env", Json::object()},
              {"cwd", "/work"},
              {"cli", "/usr/bin/claude"},
              {"cli_version", header_version.empty() ? Json() : Json(header_version)},
              {"started_at", "2026-11-30T00:00:00.000Z"}};
  std::string text = header.dump() + "\n";
  double t = 0.001;
  for (const auto& wire : lines) {
    text += Json{{"t", t},
                 {"dir", wire.from == Wire::From::cli ? "out" : "in"},
                 {"line", wire.message.dump()}}
                .dump() +
            "\n";
    t += 0.001;
  }
  text += Json{{"t", t}, {"eof", "in"}}.dump() + "\n";
  text += Json{{"t", t + 0.001}, {"exit", 0}}.dump() + "\n";
  write_text(file, text);
}

void write_text(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace claude::harness::testing
