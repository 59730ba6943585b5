#include "claude/model_stub/request_log.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <string>

#include "claude/base/json.hpp"
#include "claude/base/private_file.hpp"
#include "claude/base/write_all.hpp"
#include "claude/emulator/pattern.hpp"
#include "claude/recorder/redactor.hpp"

namespace claude::model_stub {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_secret_header(std::string_view name) {
  static constexpr std::array<std::string_view, 5> kSecret = {
      "x-api-key", "authorization", "proxy-authorization", "cookie", "set-cookie"};
  return std::ranges::find(kSecret, lower(name)) != kSecret.end();
}

}  // namespace

Json request_log_entry(std::size_t seq, const ApiRequest& request, const ApiResponse& response) {
  Json headers = Json::object();
  for (const auto& [name, value] : request.headers) {
    headers[lower(name)] = is_secret_header(name) ? std::string("[redacted]") : value;
  }
  Json body = claude::base::parse_json_or_discarded(request.body);
  if (body.is_discarded()) body = request.body;
  return Json{{"seq", seq},
              {"method", request.method},
              {"target", request.target},
              {"headers", std::move(headers)},
              {"body", std::move(body)},
              {"status", response.status},
              {"rule_line", response.rule_line ? Json(*response.rule_line) : Json(nullptr)},
              {"outcome", response.outcome}};
}

RequestLog::RequestLog(const std::filesystem::path& path, bool replace)
    : path_(path), opened_(std::chrono::steady_clock::now()) {
  std::string reason;
  fd_ = base::open_private_file(path, replace, reason);
  if (fd_ < 0) {
    throw std::runtime_error("cannot create request log " + path.string() + ": " + reason);
  }
}

RequestLog::~RequestLog() {
  if (fd_ >= 0) ::close(fd_);
}

void RequestLog::record(const ApiRequest& request, const ApiResponse& response) {
  Json entry = request_log_entry(++seq_, request, response);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - opened_;
  Json line{{"seq", entry["seq"]}, {"t", elapsed.count()}};
  for (auto it = entry.begin(); it != entry.end(); ++it) {
    if (it.key() != "seq") line[it.key()] = it.value();
  }
  // Request bodies carry prompts and tool results, which may quote keys and credentials files:
  // the line goes through the recorder's rules, which also find secrets inside escaped strings.
  static const recorder::Redactor redactor = recorder::Redactor::with_builtin_rules();
  std::string text = redactor.redact_copy(base::dump_json(line));
  text.push_back('\n');
  if (!base::write_all(fd_, text)) {
    throw std::runtime_error("cannot write request log " + path_.string());
  }
}

}  // namespace claude::model_stub
