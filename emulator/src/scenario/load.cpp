#include <algorithm>
#include <csignal>
#include <variant>

#include "claude/base/excerpt.hpp"
#include "claude/base/json.hpp"
#include "line_source.hpp"
#include "parsers.hpp"

namespace claude::emulator {
namespace {

bool is_comment_or_blank(std::string_view line) {
  const auto first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#';
}

// A header line after the first one starts the next part of a multi-run file: a JSON object
// with a top-level "scenario" or "recording" key (no step or recording event has one). Lines
// that cannot hold such a key are not parsed.
bool starts_a_part(std::string_view line) {
  if (line.find("\"scenario\"") == std::string_view::npos &&
      line.find("\"recording\"") == std::string_view::npos) {
    return false;
  }
  const Json value = base::parse_json_or_discarded(line);
  return value.is_object() && (value.contains("scenario") || value.contains("recording"));
}

// Feeds numbered lines to whichever parser the header line selects.
class Loader {
 public:
  explicit Loader(std::string file) : file_(std::move(file)) {}

  bool line(std::size_t line_no, const base::LineEvent& event) {
    if (event.kind == base::LineEvent::Kind::oversized) {
      add_error(line_no, "line of " + std::to_string(event.size) + " bytes is longer than " +
                             std::to_string(detail::kMaxFileLineBytes) + " bytes");
      return true;
    }
    if (is_comment_or_blank(event.text)) return true;
    if (auto* recording = std::get_if<detail::RecordingParser>(&parser_)) {
      recording->event(line_no, event.text, event.partial);
      return true;
    }
    Json value;
    try {
      value = base::parse_json(event.text);
    } catch (const Json::exception& e) {
      if (std::holds_alternative<std::monostate>(parser_))
        parser_.emplace<detail::ScenarioParser>(file_);
      add_error(line_no, "invalid JSON: " + base::excerpt(e.what()));
      return true;
    }
    if (std::holds_alternative<std::monostate>(parser_)) {
      if (value.is_object() && value.contains("recording")) {
        parser_.emplace<detail::RecordingParser>(file_).header(line_no, value);
      } else {
        parser_.emplace<detail::ScenarioParser>(file_).header(line_no, value);
      }
      return true;
    }
    std::get<detail::ScenarioParser>(parser_).step(line_no, std::move(value));
    return true;
  }

  LoadResult finish(std::optional<std::string> io_error) {
    if (io_error) return LoadResult{std::nullopt, {LoadError{file_, 0, *io_error}}};
    LoadResult result;
    if (auto* scenario = std::get_if<detail::ScenarioParser>(&parser_)) {
      result = scenario->finish();
    } else if (auto* recording = std::get_if<detail::RecordingParser>(&parser_)) {
      result = recording->finish();
    } else {
      result.errors.push_back(LoadError{file_, 0, "empty file: no header line"});
    }
    for (auto& e : early_errors_) result.errors.push_back(std::move(e));
    if (!early_errors_.empty()) result.scenario.reset();
    return result;
  }

 private:
  void add_error(std::size_t line_no, std::string reason) {
    if (auto* scenario = std::get_if<detail::ScenarioParser>(&parser_)) {
      scenario->error(line_no, std::move(reason));
    } else {
      early_errors_.push_back(LoadError{file_, line_no, std::move(reason)});
    }
  }

  std::string file_;
  std::variant<std::monostate, detail::ScenarioParser, detail::RecordingParser> parser_;
  std::vector<LoadError> early_errors_;
};

}  // namespace

namespace detail {

bool is_printable(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7F) return false;
    // C1 controls U+0080..U+009F (CSI is U+009B) are 0xC2 0x80..0x9F in UTF-8.
    if (byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      return false;
    }
  }
  return true;
}

std::string quoted_for_terminal(const Json& value) {
  constexpr std::size_t kMaxQuoted = 200;
  std::string text = value.dump(-1, ' ', true, Json::error_handler_t::replace);  // \uXXXX
  for (std::size_t at = text.find('\x7f'); at != std::string::npos; at = text.find('\x7f', at)) {
    text.replace(at, 1, "\\u007f");
  }
  if (text.size() > kMaxQuoted) text = text.substr(0, kMaxQuoted) + "...";
  return text;
}

}  // namespace detail

std::string LoadError::to_string() const {
  return file + ":" + std::to_string(line) + ": " + reason;
}

LoadResult load_scenario_file(const std::filesystem::path& path) {
  Loader loader(path.string());
  auto io_error = detail::for_each_file_line(
      path, [&](std::size_t n, const base::LineEvent& e) { return loader.line(n, e); });
  return loader.finish(std::move(io_error));
}

PartsLoadResult load_scenario_parts(const std::filesystem::path& path) {
  PartsLoadResult result;
  std::optional<Loader> loader;
  bool header_seen = false;
  auto finish_part = [&] {
    if (!loader) return;
    LoadResult part = loader->finish(std::nullopt);
    for (auto& e : part.errors) result.errors.push_back(std::move(e));
    if (part.scenario) result.parts.push_back(std::move(*part.scenario));
    loader.reset();
  };
  auto io_error = detail::for_each_file_line(path, [&](std::size_t n, const base::LineEvent& e) {
    if (e.kind == base::LineEvent::Kind::line && header_seen && starts_a_part(e.text)) {
      finish_part();
      header_seen = false;
    }
    if (!loader) loader.emplace(path.string());
    if (e.kind == base::LineEvent::Kind::line && !is_comment_or_blank(e.text)) {
      header_seen = true;
    }
    return loader->line(n, e);
  });
  if (io_error) return PartsLoadResult{{}, {LoadError{path.string(), 0, *io_error}}};
  if (!loader && result.parts.empty()) loader.emplace(path.string());  // an empty file
  finish_part();
  if (!result.errors.empty()) result.parts.clear();
  return result;
}

LoadResult load_scenario_text(std::string_view text, std::string name) {
  Loader loader(std::move(name));
  detail::for_each_text_line(
      text, [&](std::size_t n, const base::LineEvent& e) { return loader.line(n, e); });
  return loader.finish(std::nullopt);
}

std::optional<std::string> read_cli_version(const std::filesystem::path& path) {
  std::optional<std::string> version;
  detail::for_each_file_line(path, [&](std::size_t, const base::LineEvent& e) {
    if (e.kind != base::LineEvent::Kind::line || is_comment_or_blank(e.text)) return true;
    const Json header = base::parse_json_or_discarded(e.text);
    if (const Json* v = base::member(header, "cli_version");
        v != nullptr && v->is_string() && detail::is_printable(v->get_ref<const std::string&>())) {
      version = v->get<std::string>();
    }
    return false;
  });
  return version;
}

bool is_wait(Verb verb) {
  return verb == Verb::expect || verb == Verb::expect_eof || verb == Verb::expect_prompt;
}

std::optional<int> signal_number(std::string_view name) {
  if (name.starts_with("SIG")) name.remove_prefix(3);
  static constexpr std::pair<std::string_view, int> kSignals[] = {
      {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ILL", SIGILL},
      {"TRAP", SIGTRAP}, {"ABRT", SIGABRT}, {"BUS", SIGBUS},   {"FPE", SIGFPE},
      {"KILL", SIGKILL}, {"USR1", SIGUSR1}, {"SEGV", SIGSEGV}, {"USR2", SIGUSR2},
      {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM}};
  const auto* it = std::ranges::find(kSignals, name, &std::pair<std::string_view, int>::first);
  return it == std::end(kSignals) ? std::nullopt : std::optional<int>(it->second);
}

}  // namespace claude::emulator
