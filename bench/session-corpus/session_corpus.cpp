#include "session_corpus.hpp"

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

namespace claude::bench {
namespace {

// Members in the order written, as the CLI writes them (`type` first), not sorted by name.
using Json = nlohmann::ordered_json;

// splitmix64: tiny, fast and identical on every platform, unlike std::distributions.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  std::size_t between(std::size_t lo, std::size_t hi) { return lo + below(hi - lo + 1); }

 private:
  std::uint64_t state_;
};

constexpr std::array<std::string_view, 32> kWords{
    "the",    "file",   "function", "returns",     "value", "error",  "test",       "build",
    "line",   "parser", "buffer",   "request",     "tool",  "result", "session",    "output",
    "config", "path",   "é",        "naïve",       "—",     "→",      "\"quoted\"", "tab\t",
    "cmake",  "ninja",  "const",    "std::string", "0x1F",  "42",     "{brace}",    "\\back"};

std::string text_of(Random& random, std::size_t bytes) {
  std::string out;
  while (out.size() < bytes) {
    if (!out.empty()) out += random.below(12) == 0 ? '\n' : ' ';
    out += kWords[random.below(kWords.size())];
  }
  return out;
}

// At most `bytes` bytes of `text`, never cutting a UTF-8 sequence in two.
std::string utf8_prefix(const std::string& text, std::size_t bytes) {
  if (bytes >= text.size()) return text;
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return text.substr(0, bytes);
}

std::string uuid_of(Random& random) {
  char text[40];
  const std::uint64_t a = random.next();
  const std::uint64_t b = random.next();
  std::snprintf(text, sizeof text, "%08x-%04x-4%03x-8%03x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xFFFF), static_cast<unsigned>(a & 0xFFF),
                static_cast<unsigned>((b >> 48) & 0xFFF),
                static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFull));
  return text;
}

class SessionWriter {
 public:
  SessionWriter(std::string& out, std::uint64_t seed)
      : out_(out), random_(seed), session_id_(uuid_of(random_)) {}

  void init() {
    emit({{"type", "system"},
          {"subtype", "init"},
          {"cwd", "/home/user/project"},
          {"model", kModel},
          {"permissionMode", "default"},
          {"apiKeySource", "ANTHROPIC_API_KEY"},
          {"claude_code_version", "2.1.332"},
          {"tools", {"Bash", "Read", "Edit", "Write", "Glob", "Grep", "WebSearch"}},
          {"mcp_servers", Json::array()},
          {"slash_commands", {"compact", "review"}},
          {"output_style", "default"}});
  }

  void turn(std::size_t number) {
    if (number % 5 == 0) {
      emit({{"type", "rate_limit_event"},
            {"rate_limit_info", {{"status", "allowed"}, {"resetsAt", 1767225600 + number}}}});
    }
    const std::string message_id = "msg_" + std::to_string(random_.next() % 100000000000ull);
    event({{"type", "message_start"},
           {"message",
            {{"id", message_id},
             {"type", "message"},
             {"role", "assistant"},
             {"model", kModel},
             {"content", Json::array()},
             {"usage", {{"input_tokens", random_.below(100000)}, {"output_tokens", 1}}}}}});
    std::string thinking = deltas(0, "thinking", "thinking_delta", "thinking", 8);
    assistant(message_id,
              {{{"type", "thinking"}, {"thinking", thinking}, {"signature", "EqQBCkYIARgCKkB2"}}});
    std::string text = deltas(1, "text", "text_delta", "text", random_.between(10, 40));
    assistant(message_id, {{{"type", "text"}, {"text", text}}});
    const std::string tool_id = "toolu_" + std::to_string(random_.next() % 1000000000000ull);
    const Json input = {{"command", "grep -rn " + text_of(random_, 20)},
                        {"description", text_of(random_, 40)}};
    event({{"type", "content_block_start"},
           {"index", 2},
           {"content_block",
            {{"type", "tool_use"}, {"id", tool_id}, {"name", "Bash"}, {"input", Json::object()}}}});
    event({{"type", "content_block_delta"},
           {"index", 2},
           {"delta", {{"type", "input_json_delta"}, {"partial_json", input.dump()}}}});
    event({{"type", "content_block_stop"}, {"index", 2}});
    assistant(message_id,
              {{{"type", "tool_use"}, {"id", tool_id}, {"name", "Bash"}, {"input", input}}});
    event({{"type", "message_delta"},
           {"delta", {{"type", "stop_reason"}, {"stop_reason", "tool_use"}}},
           {"usage", {{"output_tokens", random_.below(4000)}}}});
    event({{"type", "message_stop"}});
    tool_result(tool_id);
    if (number % 3 == 2) result(number);
  }

 private:
  static constexpr const char* kModel = "claude-sonnet-4-5";

  void emit(Json frame) {
    frame["uuid"] = uuid_of(random_);
    frame["session_id"] = session_id_;
    out_ += frame.dump();
    out_ += '\n';
  }

  void event(Json event) {
    emit({{"type", "stream_event"}, {"parent_tool_use_id", nullptr}, {"event", std::move(event)}});
  }

  // Streams one block as ~250-byte delta frames; returns the block's full text.
  std::string deltas(int index, const char* block_type, const char* delta_type, const char* field,
                     std::size_t count) {
    event({{"type", "content_block_start"},
           {"index", index},
           {"content_block", {{"type", block_type}, {field, ""}}}});
    std::string full;
    for (std::size_t i = 0; i < count; ++i) {
      std::string piece = text_of(random_, random_.between(30, 80));
      full += piece;
      event({{"type", "content_block_delta"},
             {"index", index},
             {"delta", {{"type", delta_type}, {field, std::move(piece)}}}});
    }
    event({{"type", "content_block_stop"}, {"index", index}});
    return full;
  }

  void assistant(const std::string& message_id, Json content) {
    emit({{"type", "assistant"},
          {"parent_tool_use_id", nullptr},
          {"message",
           {{"id", message_id},
            {"type", "message"},
            {"role", "assistant"},
            {"model", kModel},
            {"content", std::move(content)},
            {"stop_reason", nullptr},
            {"usage",
             {{"input_tokens", random_.below(100000)}, {"output_tokens", random_.below(4000)}}}}}});
  }

  void tool_result(const std::string& tool_id) {
    // Mostly small outputs, some medium, a few file reads of up to ~200 KiB.
    const std::size_t roll = random_.below(100);
    const std::size_t bytes = roll < 80   ? random_.between(200, 4096)
                              : roll < 95 ? random_.between(4096, 32768)
                                          : random_.between(65536, 200 * 1024);
    std::string output = text_of(random_, bytes);
    emit({{"type", "user"},
          {"parent_tool_use_id", nullptr},
          {"message",
           {{"role", "user"},
            {"content",
             {{{"type", "tool_result"},
               {"tool_use_id", tool_id},
               {"content", output},
               {"is_error", false}}}}}},
          {"tool_use_result",
           {{"stdout", utf8_prefix(output, 256)}, {"stderr", ""}, {"interrupted", false}}}});
  }

  void result(std::size_t number) {
    emit({{"type", "result"},
          {"subtype", "success"},
          {"is_error", false},
          {"duration_ms", random_.between(1000, 60000)},
          {"duration_api_ms", random_.between(800, 50000)},
          {"num_turns", number + 1},
          {"result", text_of(random_, 300)},
          {"stop_reason", "end_turn"},
          {"total_cost_usd", static_cast<double>(number) * 0.0123},
          {"usage",
           {{"input_tokens", random_.below(100000)}, {"output_tokens", random_.below(9000)}}},
          {"permission_denials", Json::array()},
          {"terminal_reason", "completed"}});
  }

  std::string& out_;
  Random random_;
  std::string session_id_;
};

}  // namespace

std::string make_session_corpus(std::size_t min_bytes, std::uint64_t seed) {
  std::string out;
  out.reserve(min_bytes + 256 * 1024);
  SessionWriter writer(out, seed);
  writer.init();
  for (std::size_t turn = 0; out.size() < min_bytes; ++turn) writer.turn(turn);
  return out;
}

}  // namespace claude::bench
