// `harness record-set`: regenerates a recorded set by running every case's driver spec through
// `record_offline` once per SDK.
#include "claude/harness/recorded_set.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <regex>
#include <sstream>

#include "claude/base/cli.hpp"
#include "claude/base/excerpt.hpp"
#include "claude/base/input_file.hpp"
#include "claude/conformance/progress_line.hpp"
#include "claude/harness/exit_codes.hpp"
#include "claude/harness/offline_record.hpp"
#include "claude/harness/tool_locator.hpp"

namespace claude::harness {
namespace {

namespace fs = std::filesystem;
using PlainJson = nlohmann::json;

constexpr const char* kRecordedSetHelp =
    R"(Usage: harness record-set SET_DIR [-o OUT_DIR] [--real-cli PATH] [--sdk cpp|ts]...
                          [--case NAME]... [--netns auto|required|off] [--quiet|--verbose]

Regenerates a recorded set (docs/recording-offline.md): for every case listed in
SET_DIR/set.json and every SDK of the case (or each --sdk given), runs the SDK's driver with the
case's spec.json under `harness record --offline` with the case's model-script.ndjson, and writes
<case>/<sdk>.ndjson (the recording), <case>/<sdk>.observations.json (what the driver reported)
and <case>/<sdk>.model-log.ndjson (the stub's request log) into OUT_DIR (default: SET_DIR
itself), then OUT_DIR/set.json with the recording CLI's version. A driver that cannot express a
case (exit 4) is dropped from that case, with the reason under "skipped".
Drivers: claude-harness-driver-cpp beside harness; `node drivers/ts/driver.mjs` from the source
tree (install the TS SDK first: tests/peers/ts-sdk/install-sdk).
On a terminal a live line shows recordings done, failures and the elapsed time; --quiet prints
only failures and the summary, --verbose also each offline run's own output.
Exit status: 0 every recording made; 2 usage, bad set.json, no real CLI; 3 a recording failed.
)";

const std::vector<std::string> kKnownSdks{"cpp", "ts"};

std::optional<PlainJson> read_json(const fs::path& file, std::string& why) {
  std::string error;
  const auto text = base::read_input_file(file, error, {base::kMaxConfigFileBytes});
  if (!text) {
    why = file.string() + ": " + error;
    return std::nullopt;
  }
  try {
    return PlainJson::parse(*text);
  } catch (const PlainJson::parse_error& e) {
    // Turn the byte offset into a line number.
    const std::string& s = *text;
    const auto upto = std::min<std::size_t>(e.byte, s.size());
    const auto line =
        1 + std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(upto), '\n');
    why =
        file.string() + ":" + std::to_string(line) + ": not valid JSON: " + base::excerpt(e.what());
    return std::nullopt;
  }
}

// Checks set.json; returns the reason it is bad.
std::optional<std::string> validate_set(const PlainJson& set, const fs::path& file,
                                        const fs::path& set_dir) {
  const std::string where = file.string() + ": ";
  if (!set.is_object()) return where + "must be a JSON object";
  if (!set.contains("cli_version") || !set["cli_version"].is_string()) {
    return where + "\"cli_version\" must be a string";
  }
  if (!set.contains("cases") || !set["cases"].is_array() || set["cases"].empty()) {
    return where + "\"cases\" must be a non-empty array";
  }
  static const std::regex name_re("[a-z0-9][a-z0-9._-]*");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < set["cases"].size(); ++i) {
    const PlainJson& c = set["cases"][i];
    const std::string at = where + "cases[" + std::to_string(i) + "]: ";
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string()) {
      return at + "needs a string \"name\"";
    }
    const std::string name = c["name"];
    if (!std::regex_match(name, name_re)) return at + "name '" + name + "' is not [a-z0-9._-]+";
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return at + "name '" + name + "' is listed twice";
    }
    names.push_back(name);
    if (!c.contains("sdks") || !c["sdks"].is_array()) return at + "needs an array \"sdks\"";
    for (const auto& s : c["sdks"]) {
      if (!s.is_string() ||
          std::ranges::find(kKnownSdks, s.get<std::string>()) == kKnownSdks.end()) {
        return at + "unknown sdk " + s.dump() + " (known: cpp, ts)";
      }
    }
    for (const char* f : {"model-script.ndjson", "spec.json"}) {
      std::error_code ec;
      if (!fs::is_regular_file(set_dir / name / f, ec)) {
        return at + (set_dir / name / f).string() + " is missing";
      }
    }
  }
  return std::nullopt;
}

// claude-harness-driver-cpp beside the running harness, else in the build tree's bin/.
fs::path cpp_driver() {
  std::vector<fs::path> dirs;
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back(self.parent_path());
#ifdef HARNESS_BUILD_BIN_DIR
  dirs.emplace_back(HARNESS_BUILD_BIN_DIR);
#endif
  for (const auto& d : dirs) {
    fs::path candidate = d / "claude-harness-driver-cpp";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return dirs.empty() ? fs::path("claude-harness-driver-cpp")
                      : dirs.front() / "claude-harness-driver-cpp";
}

fs::path ts_driver() {
#ifdef HARNESS_SOURCE_DIR
  return fs::path(HARNESS_SOURCE_DIR) / "drivers/ts/driver.mjs";
#else
  return "drivers/ts/driver.mjs";
#endif
}

// The driver's NDJSON stdout as a JSON array, one observation per line in the file.
std::optional<std::string> observations_array(const fs::path& ndjson, PlainJson& array,
                                              std::string& unsupported) {
  std::ifstream in(ndjson);
  if (!in) return ndjson.string() + ": cannot read the driver's observations";
  array = PlainJson::array();
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    PlainJson obs = PlainJson::parse(line, nullptr, false);
    if (obs.is_discarded() || !obs.is_object()) {
      return ndjson.string() + ":" + std::to_string(number) + ": not a JSON observation";
    }
    if (obs.value("obs", "") == "unsupported") unsupported = obs.value("feature", "");
    array.push_back(std::move(obs));
  }
  return std::nullopt;
}

void write_array_by_line(const PlainJson& array, const fs::path& file) {
  std::ofstream f(file, std::ios::trunc);
  f << "[\n";
  for (std::size_t i = 0; i < array.size(); ++i) {
    f << array[i].dump() << (i + 1 < array.size() ? ",\n" : "\n");
  }
  f << "]\n";
}

std::optional<std::string> recording_cli_version(const fs::path& recording) {
  std::ifstream in(recording);
  std::string first;
  if (!std::getline(in, first)) return std::nullopt;
  const PlainJson header = PlainJson::parse(first, nullptr, false);
  if (!header.is_object() || !header.contains("cli_version") ||
      !header["cli_version"].is_string()) {
    return std::nullopt;
  }
  return header["cli_version"].get<std::string>();
}

// A driver reports an SDK error as an observation and exits 0, so a CLI that never ran a session
// (crashed, not a CLI at all) shows only in the recording: no `result` on its stdout.
bool recorded_a_result(const fs::path& recording) {
  std::ifstream in(recording);
  for (std::string text; std::getline(in, text);) {
    if (text.find("\"dir\":\"out\"") == std::string::npos) continue;
    const PlainJson event = PlainJson::parse(text, nullptr, false);
    if (!event.is_object() || !event.contains("line") || !event["line"].is_string()) continue;
    const PlainJson line = PlainJson::parse(event["line"].get<std::string>(), nullptr, false);
    if (line.is_object() && line.value("type", "") == "result") return true;
  }
  return false;
}

}  // namespace

int record_set(const RecordSetOptions& options, std::ostream& out, std::ostream& err) {
  const fs::path set_file = options.set_dir / "set.json";
  std::string why;
  const auto set = read_json(set_file, why);
  if (!set) {
    err << "harness record-set: " << why << '\n';
    return kExitUsage;
  }
  if (const auto bad = validate_set(*set, set_file, options.set_dir)) {
    err << "harness record-set: " << *bad << '\n';
    return kExitUsage;
  }
  for (const auto& s : options.sdks) {
    if (std::ranges::find(kKnownSdks, s) == kKnownSdks.end()) {
      err << "harness record-set: unknown --sdk '" << s << "' (known: cpp, ts)\n";
      return kExitUsage;
    }
  }
  for (const auto& name : options.cases) {
    const auto& cases = (*set)["cases"];
    if (std::none_of(cases.begin(), cases.end(),
                     [&](const PlainJson& c) { return c["name"] == name; })) {
      err << "harness record-set: " << set_file.string() << " has no case '" << name << "'\n";
      return kExitUsage;
    }
  }
  const auto netns = parse_netns(options.netns);
  if (!netns) {
    err << "harness record-set: --netns must be auto, required or off\n";
    return kExitUsage;
  }
  const auto tee_found = locate_tool("claude-tee", "harness record-set", err);
  if (!tee_found) return kExitUsage;
  const fs::path& tee = *tee_found;
  const fs::path out_dir = options.out_dir.empty() ? options.set_dir : options.out_dir;
  const bool in_place = options.out_dir.empty() || fs::weakly_canonical(options.out_dir) ==
                                                       fs::weakly_canonical(options.set_dir);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    err << "harness record-set: " << out_dir.string() << ": " << ec.message() << '\n';
    return kExitUsage;
  }

  const auto chosen = [&](const PlainJson& c) {
    return options.cases.empty() ||
           std::find(options.cases.begin(), options.cases.end(), c["name"]) != options.cases.end();
  };
  // In place, set.json keeps every case; elsewhere it lists only the cases recorded there.
  PlainJson written = *set;
  if (!in_place) {
    PlainJson selected = PlainJson::array();
    std::copy_if(written["cases"].begin(), written["cases"].end(), std::back_inserter(selected),
                 chosen);
    written["cases"] = selected;
  }
  std::optional<std::string> cli_version;
  int rc = kExitPass;
  int made = 0, skipped_count = 0;
  std::size_t total = 0;
  for (const auto& c : written["cases"]) {
    if (chosen(c)) total += options.sdks.empty() ? c["sdks"].size() : options.sdks.size();
  }
  conformance::ProgressLine progress(out, "harness record-set", total,
                                     options.progress && !options.quiet);
  const auto say = [&](const std::string& line) {
    if (!options.quiet) progress.print_above(line);
  };
  for (auto& c : written["cases"]) {
    if (!chosen(c)) continue;
    const std::string name = c["name"];
    const fs::path case_in = options.set_dir / name;
    const fs::path case_out = out_dir / name;
    fs::create_directories(case_out, ec);
    if (!in_place) {
      for (const char* f : {"model-script.ndjson", "spec.json"}) {
        fs::copy_file(case_in / f, case_out / f, fs::copy_options::overwrite_existing, ec);
        if (ec) {
          err << "harness record-set: " << (case_out / f).string() << ": " << ec.message() << '\n';
          return kExitUsage;
        }
      }
    }
    const auto case_sdks = c["sdks"].get<std::vector<std::string>>();
    const std::vector<std::string>& sdks = options.sdks.empty() ? case_sdks : options.sdks;
    std::vector<std::string> listed = in_place ? case_sdks : std::vector<std::string>{};
    PlainJson skipped = c.value("skipped", PlainJson::object());
    for (const auto& sdk : sdks) {
      const fs::path recording = fs::absolute(case_out / (sdk + ".ndjson"));
      const fs::path observations = case_out / (sdk + ".observations.json");
      const fs::path model_log = fs::absolute(case_out / (sdk + ".model-log.ndjson"));
      const fs::path raw = case_out / (sdk + ".observations.ndjson.tmp");
      for (const auto& f : {recording, observations, model_log, raw}) fs::remove(f, ec);
      OfflineRecordOptions run;
      run.model_script = fs::absolute(case_in / "model-script.ndjson");
      run.output = recording;
      run.model_log = model_log;
      run.real_cli = options.real_cli;
      run.netns = *netns;
      run.command_stdout = fs::absolute(raw);
      run.fresh_cwd = true;
      const std::string spec = fs::absolute(case_in / "spec.json").string();
      run.command = sdk == "cpp"
                        ? std::vector{fs::absolute(cpp_driver()).string()}
                        : std::vector<std::string>{"node", fs::absolute(ts_driver()).string()};
      run.command.insert(run.command.end(), {"--spec", spec, "--fake-claude", tee.string()});
      std::ostringstream run_out;
      const OfflineRecordResult r = record_offline(run, run_out, err);
      if (options.verbose) progress.print_above(run_out.str());
      PlainJson array;
      std::string unsupported;
      const auto bad_obs = observations_array(raw, array, unsupported);
      fs::remove(raw, ec);
      const std::string label = name + "/" + sdk;
      if (r.command_started && !r.command_signaled && r.command_value == 4) {
        for (const auto& f : {recording, model_log}) fs::remove(f, ec);
        skipped[sdk] = unsupported.empty() ? "the driver cannot express this case" : unsupported;
        listed.erase(std::remove(listed.begin(), listed.end(), sdk), listed.end());
        say("record-set: " + label + ": skipped, the " + sdk +
            " driver cannot express it: " + skipped[sdk].get<std::string>() + "\n");
        ++skipped_count;
        progress.advance(false);
        continue;
      }
      if (r.exit_code == kExitUsage) {
        err << run_out.str();
        return kExitUsage;
      }
      const bool session = r.exit_code == kExitPass && recorded_a_result(recording);
      if (r.exit_code != kExitPass || bad_obs || !session) {
        err << run_out.str();
        if (bad_obs) err << "harness record-set: " << *bad_obs << '\n';
        if (r.exit_code == kExitPass && !session) {
          err << "harness record-set: " << recording.string()
              << ": the CLI printed no `result`: it did not run the session\n";
        }
        err << "harness record-set: " << label << ": recording failed\n";
        rc = kExitCommandFailed;
        progress.advance(true);
        continue;
      }
      write_array_by_line(array, observations);
      skipped.erase(sdk);
      if (std::find(listed.begin(), listed.end(), sdk) == listed.end()) listed.push_back(sdk);
      const auto version = recording_cli_version(recording);
      if (version) {
        if (cli_version && *cli_version != *version) {
          err << "harness record-set: " << recording.string() << " was made by CLI " << *version
              << " but earlier recordings by " << *cli_version << '\n';
          rc = kExitCommandFailed;
        }
        cli_version = version;
      }
      ++made;
      say("record-set: " + label + ": recorded" + (r.isolated ? " (isolated)" : "") + ", " +
          std::to_string(array.size()) + " observations\n");
      progress.advance(false);
    }
    std::ranges::sort(listed, {},
                      [](const std::string& s) { return std::ranges::find(kKnownSdks, s); });
    c["sdks"] = listed;
    if (skipped.empty()) {
      c.erase("skipped");
    } else {
      c["skipped"] = skipped;
    }
  }
  if (cli_version) written["cli_version"] = *cli_version;
  std::ofstream f(out_dir / "set.json", std::ios::trunc);
  f << written.dump(2) << '\n';
  progress.print_above("record-set: " + std::to_string(made) + " recordings, " +
                       std::to_string(skipped_count) + " skipped, CLI " +
                       written["cli_version"].get<std::string>() + " -> " + out_dir.string() +
                       "\n");
  return rc;
}

int record_set_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  RecordSetOptions options;
  std::vector<std::string> positionals;
  CLI::App app;
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("SET_DIR", positionals);
  app.add_flag("-q,--quiet", options.quiet);
  app.add_flag("-v,--verbose", options.verbose);
  app.add_option("-o,--output", options.out_dir);
  app.add_option("--real-cli", options.real_cli);
  base::add_repeatable(app, "--sdk", options.sdks);
  base::add_repeatable(app, "--case", options.cases);
  app.add_option("--netns", options.netns);
  const base::CommandLineText text{"harness record-set", kRecordedSetHelp, kRecordedSetHelp};
  if (auto exit = base::parse_command_line(app, args, text, out, err)) return *exit;
  if (positionals.size() != 1) return base::usage_error(text, "need exactly one SET_DIR", err);
  options.set_dir = positionals[0];
  options.progress = &out == &std::cout && conformance::is_interactive_terminal(STDOUT_FILENO);
  return record_set(options, out, err);
}

}  // namespace claude::harness
