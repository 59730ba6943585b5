// convert, lint and diff: thin command lines over the emulator's loader.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>
#include <vector>

#include "claude/base/cli.hpp"
#include "claude/base/json.hpp"
#include "claude/base/private_file.hpp"
#include "claude/emulator/message_shapes.hpp"
#include "claude/emulator/scenario.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/harness_cli.hpp"
#include "claude/harness/structural_diff.hpp"

namespace claude::harness {

int convert_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static constexpr const char* kHelp =
      R"(Usage: harness convert RECORDING... [-o SCENARIO [--force]]

Writes the editable scenario equivalent to RECORDING (or to any scenario file): SDK lines become
`expect` steps, CLI lines `send` steps, with request ids captured and volatile fields generalised
by the emulator's loader. Several RECORDINGs (several runs of one app) become one multi-run
scenario, one part per recording in the order given: run N of a replay plays part N
(docs/scenario.md, "Several runs"). Without -o the scenario goes to stdout. SCENARIO is created
0600 (it holds the session); an existing SCENARIO (or a symlink there) is kept unless --force
replaces it.
Exit status: 0 written, 2 usage error or a RECORDING that does not load (file:line: reason).
)";
  std::vector<std::string> inputs;
  std::string output;
  bool force = false;
  CLI::App app;
  app.add_option("RECORDING", inputs);
  app.add_option("-o,--output", output);
  app.add_flag("--force", force);
  if (auto exit =
          base::parse_command_line(app, args, {"harness convert", kHelp, kHelp}, out, err)) {
    return *exit;
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
    for (auto& part : loaded.parts) {
      if (part.truncated) {
        err << "harness convert: warning: " << *part.truncated
            << "; the scenario keeps this note in its header and never passes a replay\n";
      }
      parts.emplace_back(input, std::move(part));
    }
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
  if (auto problem = base::write_private_file(output, text, force)) {
    err << output << ": cannot write: " << *problem << '\n';
    return kExitUsage;
  }
  return kExitPass;
}

namespace {

// A file `harness lint DIR` picks up: an .ndjson whose first line is a scenario or recording
// header (model scripts and model-stub logs of a recorded set are skipped).
bool is_scenario_file(const std::filesystem::path& path) {
  if (path.extension() != ".ndjson") return false;
  std::ifstream in(path, std::ios::binary);
  std::string first;
  while (std::getline(in, first)) {
    const auto start = first.find_first_not_of(" \t\r");
    if (start == std::string::npos || first[start] == '#') continue;
    const emulator::Json header = base::parse_json_or_discarded(first);
    return header.is_object() && (header.contains("scenario") || header.contains("recording"));
  }
  return false;
}

// The files to lint: each FILE, and the scenario files below each DIR (sorted). A DIR holding
// none is added to `empty_dirs`: linting nothing must not pass.
std::vector<std::string> lint_files(const std::vector<std::string>& args,
                                    std::vector<std::string>& empty_dirs) {
  std::vector<std::string> files;
  for (const auto& arg : args) {
    std::error_code ec;
    if (!std::filesystem::is_directory(arg, ec)) {
      files.push_back(arg);
      continue;
    }
    std::vector<std::string> found;
    for (std::filesystem::recursive_directory_iterator it(arg, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->is_regular_file(ec) && is_scenario_file(it->path())) {
        found.push_back(it->path().string());
      }
    }
    std::sort(found.begin(), found.end());
    if (found.empty()) empty_dirs.push_back(arg);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace

int lint_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static constexpr const char* kHelp = R"(Usage: harness lint [--strict-shapes] FILE|DIR...

Loads each scenario or recording the way fake-claude does and prints every problem as
`file:line: reason` (line 0 = the file as a whole). A DIR stands for every scenario and recording
below it (.ndjson files whose first line is a scenario or recording header). A recording cut short
(no exit or signal event; only its last line may be torn) loads, with a `warning: … truncated
recording` line: its replay never passes.

Each message a scenario sends is also checked against the message shapes of the CLI version it
emulates (scenarios/recorded/cli-VERSION/shapes.json, derived from the recordings): a message
without a string "type", a type, subtype or key that is a typo of one the CLI sends ("tpye",
"type":"reslt"), a field of another JSON type, an object the CLI never sends empty ("modelUsage":{}).
--strict-shapes also reports fields the CLI always sends that are missing, and kinds and keys the
recordings never show. A step marked "malformed":"why" is not checked. See docs/scenario.md, "Lint".
Exit status: 0 every file is valid, 2 some file is not (or usage error).
)";
  std::vector<std::string> paths;
  bool strict = false;
  CLI::App app;
  app.add_option("FILE", paths);
  app.add_flag("--strict-shapes", strict);
  if (auto exit = base::parse_command_line(app, args, {"harness lint", kHelp, kHelp}, out, err)) {
    return *exit;
  }
  if (paths.empty()) {
    err << kHelp;
    return kExitUsage;
  }
  std::vector<std::string> empty_dirs;
  const std::vector<std::string> files = lint_files(paths, empty_dirs);
  for (const auto& dir : empty_dirs) {
    err << dir << ":0: a folder with no scenario or recording file (*.ndjson) below it\n";
  }
  std::size_t bad = 0;
  for (const auto& file : files) {
    const auto loaded = emulator::load_scenario_parts(file);  // a multi-run file: every part
    if (!loaded.ok()) {
      ++bad;
      for (const auto& e : loaded.errors) err << e.to_string() << '\n';
      continue;
    }
    bool file_ok = true;
    for (const auto& part : loaded.parts) {
      if (part.truncated) err << "warning: " << *part.truncated << '\n';
      const auto findings = emulator::check_message_shapes(part, strict);
      for (const auto& f : findings) err << file << ":" << f.line << ": " << f.reason << "\n";
      if (!findings.empty()) file_ok = false;
    }
    if (!file_ok) ++bad;
  }
  out << files.size() - bad << " of " << files.size() << " file(s) valid\n";
  return bad == 0 && empty_dirs.empty() ? kExitPass : kExitUsage;
}

int diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static constexpr const char* kHelp = R"(Usage: harness diff A B

Compares two scenarios or recordings step by step: verbs, order, message types and subtypes, and
the fields present. Values (ids, uuids, timestamps, durations, costs, text) are ignored, and
pattern operators match anything. Prints `- A:line …` for steps only in A, `+ B:line …` for
steps only in B, `> A:line moved to B:line …` for a step found at another place, and
`~ A:line -> B:line …` for a step whose fields changed, followed by one indented
`/pointer: what differs` line per field.
Exit status: 0 equivalent, 1 different, 2 usage error or a file that does not load.
)";
  std::vector<std::string> files;
  CLI::App app;
  app.add_option("FILE", files);
  if (auto exit = base::parse_command_line(app, args, {"harness diff", kHelp, kHelp}, out, err)) {
    return *exit;
  }
  if (files.size() != 2) {
    err << kHelp;
    return kExitUsage;
  }
  const auto a = emulator::load_scenario_file(files[0]);
  const auto b = emulator::load_scenario_file(files[1]);
  if (!a.ok() || !b.ok()) {
    for (const auto* loaded : {&a, &b}) {
      for (const auto& e : loaded->errors) err << e.to_string() << '\n';
    }
    return kExitUsage;
  }
  const auto changes = structural_diff(*a.scenario, *b.scenario);
  for (const auto& c : changes) {
    switch (c.kind) {
      case StepChange::Kind::removed:
        out << "- " << files[0] << ":" << c.line << ": " << c.summary << '\n';
        break;
      case StepChange::Kind::added:
        out << "+ " << files[1] << ":" << c.line << ": " << c.summary << '\n';
        break;
      case StepChange::Kind::moved:
        out << "> " << files[0] << ":" << c.line << " moved to " << files[1] << ":" << c.line_b
            << ": " << c.summary << '\n';
        break;
      case StepChange::Kind::changed:
        out << "~ " << files[0] << ":" << c.line << " -> " << files[1] << ":" << c.line_b << ": "
            << c.summary << '\n';
        for (const auto& field : c.fields) out << "    " << field << '\n';
        break;
    }
  }
  if (changes.empty()) out << "equivalent\n";
  return changes.empty() ? kExitPass : kExitVerdictFailed;
}

}  // namespace claude::harness
