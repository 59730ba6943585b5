#include "claude/harness/harness_cli.hpp"

#include <ostream>

#include "claude/base/cli.hpp"
#include "claude/conformance/check_command.hpp"
#include "claude/harness/drift_report.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/fuzz_command.hpp"
#include "claude/harness/offline_record.hpp"
#include "claude/harness/recorded_set.hpp"

namespace claude::harness {

namespace {

constexpr const char* kUsage = R"(Usage: harness SUBCOMMAND [OPTIONS] [-- CMD...]

  replay SCENARIO -- CMD...      run CMD against fake-claude playing SCENARIO
  record -o FILE [--real-cli PATH] -- CMD...
                                 run CMD against the real CLI through claude-tee
  record --offline --model-script FILE -o FILE [--real-cli PATH] -- CMD...
                                 the same, offline: model-stub answers the real CLI
  record-set SET_DIR [-o OUT_DIR] [--real-cli PATH] [--sdk cpp|ts]...
                                 regenerate a recorded set (scenarios/recorded/cli-*)
  run --cassette FILE [--mode auto|once|replay|record] -- CMD...
                                 replay FILE if present, else record it (VCR style)
  convert RECORDING... [-o SCENARIO [--force]]
                                 write the editable scenario of a recording
  lint [--strict-shapes] FILE|DIR...
                                 check scenarios and recordings (shapes, typos)
  diff A B                       structural diff of two scenarios or recordings
  drift BASE_DIR CANDIDATE_DIR | drift SET_DIR --real-cli PATH
                                 CLI drift report between two recorded sets
  check --sdk NAME|CMD [ID-PREFIX...]
                                 grade an SDK against the conformance suite
  fuzz --sdk NAME|CMD [--time SECONDS] [--seed N] [-j N] [--out DIR] [--replay FILE]
                                 fuzz an SDK through fake-claude; findings become scenarios

`harness SUBCOMMAND --help` describes one subcommand.
Exit status: 0 pass, 1 failed verdict (or differences), 2 usage or bad input file,
3 CMD failed without a verdict. See docs/exit-codes.md.
)";

}  // namespace

int run_harness(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const base::CommandLineText text{"harness", kUsage, kUsage, true};
  CLI::App app;
  app.prefix_command();  // the subcommand's name and every argument after it stay in remaining()
  if (auto exit = base::parse_command_line(app, args, text, out, err)) return *exit;
  const std::vector<std::string> remaining = app.remaining();
  if (remaining.empty()) {
    err << kUsage;
    return kExitUsage;
  }
  const std::string& sub = remaining[0];
  const std::vector<std::string> rest(remaining.begin() + 1, remaining.end());
  if (sub == "help") {
    out << kUsage;
    return kExitPass;
  }
  if (sub == "replay") return replay_command(rest, out, err);
  if (sub == "record" && wants_offline_record(rest)) return record_offline_command(rest, out, err);
  if (sub == "record") return record_command(rest, out, err);
  if (sub == "record-set") return record_set_command(rest, out, err);
  if (sub == "run") return run_cassette_command(rest, out, err);
  if (sub == "convert") return convert_command(rest, out, err);
  if (sub == "lint") return lint_command(rest, out, err);
  if (sub == "diff") return diff_command(rest, out, err);
  if (sub == "drift") return drift_command(rest, out, err);
  if (sub == "check") return claude::conformance::run_check(rest, out, err);
  if (sub == "fuzz") return fuzz_command(rest, out, err);
  return base::usage_error(text, "unknown subcommand '" + sub + "'", err);
}

}  // namespace claude::harness
