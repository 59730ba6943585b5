// The two line-by-line readers behind load_scenario_file/text: one for scenario files, one that
// generalises a recording into scenario steps. Both collect errors instead of stopping.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "claude/emulator/scenario.hpp"
#include "sdk_line_grading.hpp"

namespace claude::emulator::detail {

// Header strings end up on terminals (lint, verdicts, `--version`): text with C0 or C1 control
// characters (an escape sequence) is refused.
bool is_printable(std::string_view text);

// A bad value as JSON (control characters escaped), cut to a few hundred bytes, for messages.
std::string quoted_for_terminal(const Json& value);

// Checks `label`/`after` and fills Step::waits_for (causal order); then the scenario if neither
// this nor the parser before it found an error, else every error.
LoadResult resolve_waits(Scenario scenario, std::vector<LoadError> errors);

// What both parsers build: the scenario, and the errors found so far.
class ScenarioBuilder {
 public:
  void error(std::size_t line, std::string reason) {
    errors_.push_back(LoadError{scenario_.file, line, std::move(reason)});
  }
  LoadResult finish() { return resolve_waits(std::move(scenario_), std::move(errors_)); }

 protected:
  explicit ScenarioBuilder(std::string file) { scenario_.file = std::move(file); }

  Scenario scenario_;
  std::vector<LoadError> errors_;
};

class ScenarioParser : public ScenarioBuilder {
 public:
  explicit ScenarioParser(std::string file) : ScenarioBuilder(std::move(file)) {}
  void header(std::size_t line, const Json& header);
  // Takes the step by value: its strings and values move into the Step (raw steps are large).
  void step(std::size_t line, Json step);

 private:
  bool check_names_known(std::size_t line, const std::vector<std::string>& names);
  bool check_pattern_at(std::size_t line, const Json& pattern, std::string_view what,
                        bool allow_captures);

  std::set<std::string, std::less<>> defined_;  // captures and request names so far
  bool after_end_ = false;                      // an exit/kill/hang step was seen
  bool seen_expect_ = false;
};

class RecordingParser : public ScenarioBuilder {
 public:
  explicit RecordingParser(std::string file);
  void header(std::size_t line, const Json& header);
  // `unterminated`: the file ended before this line's '\n' (it is the last line and may be torn).
  void event(std::size_t line, std::string_view text, bool unterminated = false);
  LoadResult finish();

 private:
  void complete_line(std::size_t line, char dir, std::string text, bool partial);
  void sdk_line(std::size_t line, const std::string& text);
  void cli_line(std::size_t line, std::string text, bool partial);
  // An output step (send, raw, stderr) of the CLI: its causal dependency, then the step.
  void add_output(Step step, const std::string* reply_to);
  void expect_recorded_prompt(std::size_t line);
  // A step of the session's end (or stdin EOF), after the print-mode prompt if any.
  Step& add_step(std::size_t line, Verb verb);
  void order_among_turns(Step& step, const Json& message, const std::string& label);

  std::map<std::string, std::string, std::less<>> sdk_request_names_;  // recorded id -> var
  GradingContext grading_;  // what the recording showed so far that grades later SDK lines
  // Causal order: the label of the last SDK line that drives what the CLI writes next (a user
  // turn, an SDK request, an answer to a CLI request), and the labels earlier outputs already
  // wait for (outputs run in file order, so a later one needs them no more).
  std::string driver_;
  std::set<std::string, std::less<>> awaited_;
  std::size_t turns_ = 0;
  // State changes keep their place among the turns: the last turn's label, whether the CLI had
  // started answering it, and the state changes recorded since it did.
  std::string last_turn_;
  bool turn_answered_ = false;
  std::vector<std::string> changes_since_turn_;
  std::size_t answers_ = 0;
  // Print mode with a text prompt.
  bool text_prompt_ = false;
  std::optional<std::string> prompt_argument_;
  std::string prompt_text_;
  bool prompt_expected_ = false;
  // Pieces of a line split with "more":true, per direction.
  std::string pieces_[3];
  std::size_t piece_line_[3] = {0, 0, 0};
  bool ended_ = false;
  // The recorded SDK set CLAUDE_CODE_SDK_READS_SESSION_STATE=1: its session_state_changed lines
  // replay only to SDKs that set it too.
  bool session_state_gated_ = false;
  std::size_t last_event_line_ = 0;
  std::size_t torn_line_ = 0;  // the last line, cut short by a recorder that stopped mid-write
  std::optional<std::string> gap_note_;  // the first gap event: events the recorder could not write
};

}  // namespace claude::emulator::detail
