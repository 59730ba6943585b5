// convert, lint and diff: thin command lines over the emulator's loader.
#include <optional>
#include <ostream>
#include <string_view>

#include "claude/emulator/scenario.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/harness_cli.hpp"
#include "claude/harness/structural_diff.hpp"
#include "claude/recorder/private_file.hpp"

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

}  // namespace

int convert_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static constexpr const char* kHelp = R"(Usage: harness convert RECORDING [-o SCENARIO [--force]]

Writes the editable scenario equivalent to RECORDING (or to any scenario file): SDK lines become
`expect` steps, CLI lines `send` steps, with request ids captured and volatile fields generalised
by the emulator's loader. Without -o the scenario goes to stdout. SCENARIO is created 0600 (it
holds the session); an existing SCENARIO (or a symlink there) is kept unless --force replaces it.
Exit status: 0 written, 2 usage error or a RECORDING that does not load (file:line: reason).
)";
  if (wants_help(args)) {
    out << kHelp;
    return kExitPass;
  }
  std::string input, output;
  bool force = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "-o" || args[i] == "--output") && i + 1 < args.size()) {
      output = args[++i];
    } else if (args[i] == "--force") {
      force = true;
    } else if (input.empty() && !args[i].starts_with("-")) {
      input = args[i];
    } else {
      err << "harness convert: unexpected argument '" << args[i] << "'\n" << kHelp;
      return kExitUsage;
    }
  }
  if (input.empty()) {
    err << kHelp;
    return kExitUsage;
  }
  const auto loaded = emulator::load_scenario_file(input);
  if (!loaded.ok()) {
    print_errors(loaded, err);
    return kExitUsage;
  }
  if (loaded.scenario->truncated) {
    err << "harness convert: warning: " << *loaded.scenario->truncated
        << "; the scenario keeps this note in its header and never passes a replay\n";
  }
  const std::string text = emulator::to_ndjson(*loaded.scenario);
  if (output.empty()) {
    out << text;
    return kExitPass;
  }
  if (auto problem = recorder::write_private_file(output, text, force)) {
    err << output << ": cannot write: " << *problem << '\n';
    return kExitUsage;
  }
  return kExitPass;
}

int lint_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static constexpr const char* kHelp = R"(Usage: harness lint FILE...

Loads each scenario or recording the way fake-claude does and prints every problem as
`file:line: reason` (line 0 = the file as a whole). A recording cut short (no exit or signal
event; only its last line may be torn) loads, with a `warning: … truncated recording` line: its
replay never passes.
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
    const auto loaded = emulator::load_scenario_file(file);
    if (!loaded.ok()) {
      ++bad;
      print_errors(loaded, err);
    } else if (loaded.scenario->truncated) {
      err << "warning: " << *loaded.scenario->truncated << '\n';
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
steps only in B, `> A:line moved to B:line …` for a step found at another place, and
`~ A:line -> B:line …` for a step whose fields changed, followed by one indented
`/pointer: what differs` line per field.
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
    switch (c.kind) {
      case StepChange::Kind::removed:
        out << "- " << args[0] << ":" << c.line << ": " << c.summary << '\n';
        break;
      case StepChange::Kind::added:
        out << "+ " << args[1] << ":" << c.line << ": " << c.summary << '\n';
        break;
      case StepChange::Kind::moved:
        out << "> " << args[0] << ":" << c.line << " moved to " << args[1] << ":" << c.line_b
            << ": " << c.summary << '\n';
        break;
      case StepChange::Kind::changed:
        out << "~ " << args[0] << ":" << c.line << " -> " << args[1] << ":" << c.line_b << ": "
            << c.summary << '\n';
        for (const auto& field : c.fields) out << "    " << field << '\n';
        break;
    }
  }
  if (changes.empty()) out << "equivalent\n";
  return changes.empty() ? kExitPass : kExitVerdictFailed;
}

}  // namespace claude::harness
