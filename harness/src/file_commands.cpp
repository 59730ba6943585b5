// convert, lint and diff: thin command lines over the emulator's loader.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>
#include <vector>

#include "claude/emulator/scenario.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/harness_cli.hpp"
#include "claude/harness/structural_diff.hpp"

namespace claude::harness {
namespace {

bool wants_help(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

void print_errors(const emulator::LoadResult& result, std::ostream& err) {
  for (const auto& e : result.errors) err << e.to_string() << '\n';
}

// Writes `text` to `path` (created or truncated). O_NONBLOCK on open: a FIFO without a reader
// fails at once (ENXIO) instead of blocking forever; the writes themselves block as usual.
std::optional<std::string> write_text_file(const std::string& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) {
    if (errno == ENXIO) return std::string("a FIFO with no reader");
    return std::string(std::strerror(errno));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string reason = std::strerror(errno);
      ::close(fd);
      return reason;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0) return std::string(std::strerror(errno));
  return std::nullopt;
}

}  // namespace

int convert_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static constexpr const char* kHelp = R"(Usage: harness convert RECORDING... [-o SCENARIO]

Writes the editable scenario equivalent to RECORDING (or to any scenario file): SDK lines become
`expect` steps, CLI lines `send` steps, with request ids captured and volatile fields generalised
by the emulator's loader. Several RECORDINGs (several runs of one app) become one multi-run
scenario, one part per recording in the order given: run N of a replay plays part N
(docs/scenario.md, "Several runs"). Without -o the scenario goes to stdout. An existing SCENARIO
file is replaced.
Exit status: 0 written, 2 usage error or a RECORDING that does not load (file:line: reason).
)";
  if (wants_help(args)) {
    out << kHelp;
    return kExitPass;
  }
  std::vector<std::string> inputs;
  std::string output;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "-o" || args[i] == "--output") && i + 1 < args.size()) {
      output = args[++i];
    } else if (!args[i].starts_with("-")) {
      inputs.push_back(args[i]);
    } else {
      err << "harness convert: unexpected argument '" << args[i] << "'\n" << kHelp;
      return kExitUsage;
    }
  }
  if (inputs.empty()) {
    err << kHelp;
    return kExitUsage;
  }
  std::vector<std::pair<std::string, emulator::Scenario>> parts;
  bool loaded_all = true;
  for (const auto& input : inputs) {
    auto loaded = emulator::load_scenario_parts(input);
    for (const auto& e : loaded.errors) err << e.to_string() << '\n';
    if (!loaded.ok()) {
      loaded_all = false;
      continue;
    }
    for (auto& part : loaded.parts) parts.emplace_back(input, std::move(part));
  }
  if (!loaded_all) return kExitUsage;
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts.size() > 1) {
      text += "# run " + std::to_string(i + 1) + " of " + std::to_string(parts.size()) + ", from " +
              parts[i].first + "\n";
    }
    text += emulator::to_ndjson(parts[i].second);
  }
  if (output.empty()) {
    out << text;
    return kExitPass;
  }
  if (auto problem = write_text_file(output, text)) {
    err << output << ": cannot write: " << *problem << '\n';
    return kExitUsage;
  }
  return kExitPass;
}

int lint_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static constexpr const char* kHelp = R"(Usage: harness lint FILE...

Loads each scenario or recording the way fake-claude does and prints every problem as
`file:line: reason` (line 0 = the file as a whole).
Exit status: 0 every file is valid, 2 some file is not (or usage error).
)";
  if (wants_help(args)) {
    out << kHelp;
    return kExitPass;
  }
  if (args.empty()) {
    err << kHelp;
    return kExitUsage;
  }
  std::size_t bad = 0;
  for (const auto& file : args) {
    const auto loaded = emulator::load_scenario_parts(file);  // a multi-run file: every part
    if (!loaded.ok()) {
      ++bad;
      for (const auto& e : loaded.errors) err << e.to_string() << '\n';
    }
  }
  out << args.size() - bad << " of " << args.size() << " file(s) valid\n";
  return bad == 0 ? kExitPass : kExitUsage;
}

int diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static constexpr const char* kHelp = R"(Usage: harness diff A B

Compares two scenarios or recordings step by step: verbs, order, message types and subtypes, and
the fields present. Values (ids, uuids, timestamps, durations, costs, text) are ignored, and
pattern operators match anything. Prints `- A:line …` for steps only in A, `+ B:line …` for
steps only in B.
Exit status: 0 equivalent, 1 different, 2 usage error or a file that does not load.
)";
  if (wants_help(args)) {
    out << kHelp;
    return kExitPass;
  }
  if (args.size() != 2) {
    err << kHelp;
    return kExitUsage;
  }
  const auto a = emulator::load_scenario_file(args[0]);
  const auto b = emulator::load_scenario_file(args[1]);
  if (!a.ok() || !b.ok()) {
    print_errors(a, err);
    print_errors(b, err);
    return kExitUsage;
  }
  const auto changes = structural_diff(*a.scenario, *b.scenario);
  for (const auto& c : changes) {
    const bool removed = c.kind == StepChange::Kind::removed;
    out << (removed ? "- " : "+ ") << (removed ? args[0] : args[1]) << ":" << c.line << ": "
        << c.summary << '\n';
  }
  if (changes.empty()) out << "equivalent\n";
  return changes.empty() ? kExitPass : kExitVerdictFailed;
}

}  // namespace claude::harness
