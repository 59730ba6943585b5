#include "claude/harness/drift_report.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "claude/base/input_file.hpp"
#include "claude/base/json.hpp"
#include "claude/emulator/pattern.hpp"

namespace claude::harness {
namespace {

namespace fs = std::filesystem;
using emulator::Json;

// Objects whose keys are names chosen at run time (model ids, subagent types), not field names.
bool keys_are_names(std::string_view path) {
  return path.ends_with("/modelUsage") || path.ends_with("/model_usage_since_last_result") ||
         path == "/subagent_stats/by_type";
}

void collect_fields(const Json& value, const std::string& path, const std::string& kind,
                    std::size_t line, std::map<FieldKey, std::size_t>& out) {
  if (!path.empty()) out.try_emplace(FieldKey{kind, path, value.type_name()}, line);
  if (value.is_object()) {
    const bool named = keys_are_names(path);
    for (const auto& [key, member] : value.items()) {
      collect_fields(member,
                     path + "/" + (named ? std::string("*") : emulator::escape_pointer_token(key)),
                     kind, line, out);
    }
  } else if (value.is_array()) {
    for (const auto& element : value) collect_fields(element, path + "/[]", kind, line, out);
  }
}

using base::member;
using base::string_member;

// Subtypes of the control requests seen so far, by the request_id the answer will carry.
using RequestSubtypes = std::unordered_map<std::string, std::string>;

std::string with_subtype(const std::string& kind, const std::string& subtype) {
  return subtype.empty() ? kind : kind + "/" + subtype;
}

// The kind of one message. `sent` records this side's control requests; `received` holds the
// other side's, so a control_response names the subtype it answers.
std::string kind_of(const Json& message, RequestSubtypes& sent, const RequestSubtypes& received) {
  if (!message.is_object()) return "(not an object)";
  std::string type = string_member(message, "type");
  if (type.empty()) return "(no type)";
  if (type == "control_request") {
    const Json* request = member(message, "request");
    const std::string subtype = request != nullptr ? string_member(*request, "subtype") : "";
    if (const Json* id = member(message, "request_id"); id != nullptr) {
      if (id->is_string()) {
        sent[id->get<std::string>()] = subtype;
      } else if (const Json* name = member(*id, "$capture"); name != nullptr && name->is_string()) {
        // The loader captured the SDK's id; the CLI's answer refers to it as ${name}.
        sent["${" + name->get<std::string>() + "}"] = subtype;
      }
    }
    return with_subtype(type, subtype);
  }
  if (type == "control_response") {
    const Json* response = member(message, "response");
    if (response == nullptr) return type;
    std::string kind = with_subtype(type, string_member(*response, "subtype"));
    if (const auto it = received.find(string_member(*response, "request_id"));
        it != received.end() && !it->second.empty()) {
      kind += "/" + it->second;
    }
    return kind;
  }
  if (type == "stream_event") {
    const Json* event = member(message, "event");
    return with_subtype(type, event != nullptr ? string_member(*event, "type") : std::string());
  }
  return with_subtype(type, string_member(message, "subtype"));
}

// The first line of a file without BOM and CR; nullopt when it cannot be opened.
std::optional<std::string> first_line(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string line;
  std::getline(in, line);
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

// Kinds and fields of a whole set, each with where it was first seen (sessions in name order).
struct PooledSet {
  std::map<std::pair<Direction, std::string>, SeenAt> kinds;
  std::map<FieldKey, SeenAt> fields;
};

PooledSet pool(const RecordedSet& set) {
  PooledSet pooled;
  for (const auto& session : set.sessions) {
    for (const auto& m : session.cli_messages) {
      pooled.kinds.try_emplace({Direction::cli_to_sdk, m.kind}, SeenAt{session.name, m.line});
    }
    for (const auto& m : session.sdk_messages) {
      pooled.kinds.try_emplace({Direction::sdk_to_cli, m.kind}, SeenAt{session.name, m.line});
    }
    for (const auto& [key, line] : session.fields) {
      pooled.fields.try_emplace(key, SeenAt{session.name, line});
    }
  }
  return pooled;
}

SetSummary summarise(const RecordedSet& set) {
  SetSummary summary;
  summary.dir = set.dir;
  summary.sessions = set.sessions.size();
  std::set<std::string> versions;
  for (const auto& session : set.sessions) {
    if (session.cli_version) versions.insert(*session.cli_version);
  }
  summary.cli_versions.assign(versions.begin(), versions.end());
  return summary;
}

// Kinds of `from` missing in `other`, split into data and control kinds.
void kinds_only_in(const PooledSet& from, const PooledSet& other, std::vector<KindChange>& data,
                   std::vector<KindChange>& control) {
  for (const auto& [key, seen] : from.kinds) {
    if (other.kinds.contains(key)) continue;
    KindChange change{key.first, key.second, seen, {}};
    for (const auto& [field, unused] : from.fields) {
      if (key.first == Direction::cli_to_sdk && field.kind == key.second) {
        change.fields.emplace_back(field.path, field.type);
      }
    }
    (key.second.starts_with("control_") ? control : data).push_back(std::move(change));
  }
}

// Fields of kinds both sets have, present in `from` only.
std::vector<FieldChange> fields_only_in(const PooledSet& from, const PooledSet& other) {
  std::vector<FieldChange> changes;
  for (const auto& [field, seen] : from.fields) {
    if (!other.kinds.contains({Direction::cli_to_sdk, field.kind})) continue;
    if (other.fields.contains(field)) continue;
    changes.push_back(FieldChange{field.kind, field.path, field.type, seen});
  }
  return changes;
}

std::vector<OrderStep> align(const std::vector<MessageKind>& x, const std::vector<MessageKind>& y) {
  const std::size_t n = x.size(), m = y.size();
  // lcs[i][j]: length of the longest common subsequence of x[i..] and y[j..].
  std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      lcs[i][j] =
          x[i].kind == y[j].kind ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::vector<OrderStep> steps;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i].kind == y[j].kind) {
      steps.push_back({OrderStep::Op::same, x[i].kind, i, x[i].line, j, y[j].line});
      ++i;
      ++j;
    } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      steps.push_back({OrderStep::Op::removed, x[i].kind, i, x[i].line, 0, 0});
      ++i;
    } else {
      steps.push_back({OrderStep::Op::added, y[j].kind, 0, 0, j, y[j].line});
      ++j;
    }
  }
  return steps;
}

// --- Markdown -----------------------------------------------------------------------------------

std::string arrow(Direction direction) {
  return direction == Direction::cli_to_sdk ? "CLI → SDK" : "SDK → CLI";
}

std::string versions_text(const SetSummary& set) {
  if (set.cli_versions.empty()) return "unknown";
  std::string out;
  for (const auto& v : set.cli_versions) out += (out.empty() ? "" : ", ") + v;
  return out;
}

std::string code(const std::string& text) {
  return "`" + text + "`";
}

std::string seen_text(const SeenAt& seen) {
  return code(seen.session + ":" + std::to_string(seen.line));
}

// The diff body of one ordering change: changed lines with up to two unchanged lines of context
// on each side; longer unchanged runs are elided.
std::string order_diff(const std::vector<OrderStep>& steps) {
  constexpr std::size_t kContext = 2;
  std::vector<bool> shown(steps.size(), false);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].op == OrderStep::Op::same) continue;
    const std::size_t from = i >= kContext ? i - kContext : 0;
    const std::size_t to = std::min(steps.size(), i + kContext + 1);
    for (std::size_t k = from; k < to; ++k) shown[k] = true;
  }
  std::string out;
  for (std::size_t i = 0; i < steps.size();) {
    if (!shown[i]) {
      std::size_t run = 0;
      while (i < steps.size() && !shown[i]) {
        ++run;
        ++i;
      }
      out += "  … " + std::to_string(run) + " unchanged\n";
      continue;
    }
    const auto& s = steps[i];
    out += s.op == OrderStep::Op::same ? "  " : s.op == OrderStep::Op::removed ? "- " : "+ ";
    out += s.kind + "\n";
    ++i;
  }
  return out;
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// A table of the kinds added and removed, then the top-level fields of each; nested fields are
// counted here and listed in the JSON report.
void kind_section(std::ostringstream& md, const std::vector<KindChange>& added,
                  const std::vector<KindChange>& removed) {
  md << "| change | direction | kind | first seen |\n|---|---|---|---|\n";
  for (const auto* list : {&removed, &added}) {
    for (const auto& c : *list) {
      md << "| " << (list == &added ? "added" : "removed") << " | " << arrow(c.direction) << " | "
         << code(c.kind) << " | " << seen_text(c.first_seen) << " |\n";
    }
  }
  for (const auto* list : {&removed, &added}) {
    for (const auto& c : *list) {
      if (c.fields.empty()) continue;
      md << "\nTop-level fields of " << (list == &added ? "added" : "removed") << " "
         << code(c.kind) << ": ";
      std::string joined;
      std::size_t nested = 0;
      for (const auto& [path, type] : c.fields) {
        if (path.find('/', 1) != std::string::npos) {
          ++nested;
          continue;
        }
        joined += (joined.empty() ? "" : ", ") + code(path) + " " + type;
      }
      md << joined;
      if (nested > 0) md << "; " << plural(nested, "nested field", "nested fields");
      md << "\n";
    }
  }
}

// "--resume [value]" plus what the flags do not say: hidden, choices.
std::string option_text(const emulator::CliOption& option) {
  std::string text = option.flags;
  if (option.hidden) text += " (hidden)";
  if (!option.choices.empty()) {
    text += " (choices:";
    for (const auto& c : option.choices) text += " " + c;
    text += ")";
  }
  return text;
}

void compare_options(const emulator::CliOptionTable& base,
                     const emulator::CliOptionTable& candidate, DriftReport& report) {
  std::map<std::string, const emulator::CliOption*> in_base;
  for (const auto& option : base.options) in_base[option.names.back()] = &option;
  for (const auto& option : candidate.options) {
    const std::string& name = option.names.back();
    const auto it = in_base.find(name);
    if (it == in_base.end()) {
      report.options_added.push_back({name, option.flags, "", option_text(option)});
      continue;
    }
    const std::string was = option_text(*it->second);
    const std::string now = option_text(option);
    if (was != now) report.options_changed.push_back({name, option.flags, was, now});
    in_base.erase(it);
  }
  for (const auto& [name, option] : in_base) {
    report.options_removed.push_back({name, option->flags, option_text(*option), ""});
  }
  auto by_name = [](const OptionChange& a, const OptionChange& b) { return a.name < b.name; };
  std::sort(report.options_added.begin(), report.options_added.end(), by_name);
  std::sort(report.options_changed.begin(), report.options_changed.end(), by_name);
}

// "cli_to_sdk" / "sdk_to_cli" (the JSON report's spelling).
std::string_view direction_name(Direction direction) {
  return direction == Direction::cli_to_sdk ? "cli_to_sdk" : "sdk_to_cli";
}

// Reduces a loaded recording to what a drift report compares.
SessionShape session_shape(const emulator::Scenario& recording, std::string name,
                           std::optional<std::string> header_cli_version) {
  SessionShape shape;
  shape.name = std::move(name);
  RequestSubtypes cli_requests, sdk_requests;
  for (const auto& step : recording.steps) {
    switch (step.verb) {
      case emulator::Verb::send: {
        Json message = step.verbatim ? base::parse_json_or_discarded(step.text) : step.value;
        if (message.is_discarded()) {
          shape.cli_messages.push_back({"(not JSON)", step.line});
          break;
        }
        const std::string kind = kind_of(message, cli_requests, sdk_requests);
        shape.cli_messages.push_back({kind, step.line});
        if (kind == "system/init" && !shape.cli_version) {
          if (const std::string v = string_member(message, "claude_code_version"); !v.empty()) {
            shape.cli_version = v;
          }
        }
        collect_fields(message, "", kind, step.line, shape.fields);
        break;
      }
      case emulator::Verb::raw:
        shape.cli_messages.push_back({"(partial line)", step.line});
        break;
      case emulator::Verb::expect:
        shape.sdk_messages.push_back({kind_of(step.value, sdk_requests, cli_requests), step.line});
        break;
      default:
        break;  // stderr, end of input, exit: not messages
    }
  }
  if (!shape.cli_version) shape.cli_version = std::move(header_cli_version);
  return shape;
}

}  // namespace

SetLoadResult load_recorded_set(const fs::path& dir) {
  SetLoadResult result;
  const std::string dir_text = dir.string();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    result.errors.push_back({dir_text, 0, "not a directory (a recorded set is a directory)"});
    return result;
  }
  std::vector<fs::path> files;
  fs::recursive_directory_iterator it(dir, fs::directory_options::follow_directory_symlink, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".ndjson") files.push_back(it->path());
  }
  if (ec) {
    result.errors.push_back({dir_text, 0, "cannot list: " + ec.message()});
    return result;
  }
  RecordedSet set;
  set.dir = dir_text;
  for (const auto& path : files) {
    const std::string file = path.string();
    const auto header_text = first_line(path);
    if (!header_text) {
      result.errors.push_back({file, 0, "cannot open"});
      continue;
    }
    if (header_text->empty() && fs::file_size(path, ec) == 0) continue;
    const Json header = base::parse_json_or_discarded(*header_text);
    if (!header.is_object()) {
      result.errors.push_back(
          {file, 1, "first line is not a JSON object (not a recording nor a model script or log)"});
      continue;
    }
    if (!header.contains("recording")) continue;
    auto loaded = emulator::load_scenario_file(path);
    if (!loaded.ok()) {
      for (auto& e : loaded.errors) result.errors.push_back(std::move(e));
      continue;
    }
    std::optional<std::string> header_version;
    if (const Json* v = member(header, "cli_version"); v != nullptr && v->is_string()) {
      header_version = v->get<std::string>();
    }
    set.sessions.push_back(session_shape(
        *loaded.scenario, fs::relative(path, dir, ec).generic_string(), std::move(header_version)));
  }
  if (const fs::path table = dir / "options.json"; fs::exists(table, ec)) {
    std::string unread, why;
    const auto text = base::read_input_file(table, unread, {base::kMaxConfigFileBytes});
    set.options =
        emulator::parse_cli_option_table(base::parse_json_or_discarded(text.value_or("")), why);
    if (!set.options) {
      result.errors.push_back({table.string(), 0, "not an option table: " + why});
    }
  }
  if (result.errors.empty() && set.sessions.empty()) {
    result.errors.push_back(
        {dir_text, 0, "no recordings (.ndjson files starting with a {\"recording\":1,…} header)"});
  }
  if (!result.errors.empty()) return result;
  std::sort(set.sessions.begin(), set.sessions.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  result.set = std::move(set);
  return result;
}

bool DriftReport::has_drift() const {
  return !only_in_base.empty() || !only_in_candidate.empty() || !kinds_added.empty() ||
         !kinds_removed.empty() || !control_added.empty() || !control_removed.empty() ||
         !fields_added.empty() || !fields_removed.empty() || !ordering.empty() ||
         !options_added.empty() || !options_removed.empty() || !options_changed.empty();
}

DriftReport compare_sets(const RecordedSet& base, const RecordedSet& candidate) {
  DriftReport report;
  report.base = summarise(base);
  report.candidate = summarise(candidate);
  const PooledSet b = pool(base), c = pool(candidate);
  kinds_only_in(c, b, report.kinds_added, report.control_added);
  kinds_only_in(b, c, report.kinds_removed, report.control_removed);
  report.fields_added = fields_only_in(c, b);
  report.fields_removed = fields_only_in(b, c);

  std::map<std::string, const SessionShape*> candidates;
  for (const auto& s : candidate.sessions) candidates[s.name] = &s;
  for (const auto& s : base.sessions) {
    const auto other = candidates.find(s.name);
    if (other == candidates.end()) {
      report.only_in_base.push_back(s.name);
      continue;
    }
    ++report.sessions_compared;
    for (const auto direction : {Direction::cli_to_sdk, Direction::sdk_to_cli}) {
      const bool cli = direction == Direction::cli_to_sdk;
      auto steps = align(cli ? s.cli_messages : s.sdk_messages,
                         cli ? other->second->cli_messages : other->second->sdk_messages);
      const bool changed = std::any_of(steps.begin(), steps.end(), [](const OrderStep& step) {
        return step.op != OrderStep::Op::same;
      });
      if (changed) report.ordering.push_back({s.name, direction, std::move(steps)});
    }
    candidates.erase(other);
  }
  for (const auto& [name, unused] : candidates) report.only_in_candidate.push_back(name);
  if (base.options && candidate.options) {
    report.options_compared = true;
    compare_options(*base.options, *candidate.options, report);
  }
  return report;
}

std::string to_markdown(const DriftReport& r) {
  std::ostringstream md;
  md << "# CLI drift report: " << versions_text(r.base) << " → " << versions_text(r.candidate)
     << "\n\n"
     << "| | base | candidate |\n|---|---|---|\n"
     << "| set | " << code(r.base.dir) << " | " << code(r.candidate.dir) << " |\n"
     << "| CLI version | " << versions_text(r.base) << " | " << versions_text(r.candidate) << " |\n"
     << "| recordings | " << r.base.sessions << " | " << r.candidate.sessions << " |\n\n";
  if (!r.has_drift()) {
    md << "**No drift**: the " << plural(r.sessions_compared, "recording", "recordings")
       << " compared have the same message kinds, fields, control subtypes and order.\n";
    return md.str();
  }
  md << "**Drift found**: "
     << plural(r.only_in_base.size() + r.only_in_candidate.size(), "recording", "recordings")
     << " in one set only; message kinds " << r.kinds_added.size() << " added, "
     << r.kinds_removed.size() << " removed; control subtypes " << r.control_added.size()
     << " added, " << r.control_removed.size() << " removed; fields " << r.fields_added.size()
     << " added, " << r.fields_removed.size() << " removed; order changed in "
     << plural(r.ordering.size(), "session direction", "session directions") << " (of "
     << r.sessions_compared << " recordings compared)"
     << (r.options_compared
             ? "; command-line options " + std::to_string(r.options_added.size()) + " added, " +
                   std::to_string(r.options_removed.size()) + " removed, " +
                   std::to_string(r.options_changed.size()) + " changed"
             : "")
     << ".\n\n"
     << "Values are not compared, only shape and order. Locations are `recording:line` in the "
        "set that has the item (base for removed, candidate for added).\n";

  if (!r.only_in_base.empty() || !r.only_in_candidate.empty()) {
    md << "\n## Recordings in one set only\n\n";
    for (const auto& name : r.only_in_base) md << "- only in base: " << code(name) << "\n";
    for (const auto& name : r.only_in_candidate) {
      md << "- only in candidate: " << code(name) << "\n";
    }
  }
  if (!r.kinds_added.empty() || !r.kinds_removed.empty()) {
    md << "\n## Message kinds\n\n";
    kind_section(md, r.kinds_added, r.kinds_removed);
  }
  if (!r.control_added.empty() || !r.control_removed.empty()) {
    md << "\n## Control subtypes\n\n"
       << "`control_response/<subtype>/<request subtype>` names the request it answers.\n\n";
    kind_section(md, r.control_added, r.control_removed);
  }
  if (!r.fields_added.empty() || !r.fields_removed.empty()) {
    md << "\n## Fields\n\nCLI → SDK messages of kinds both sets have; `[]` stands for any array "
          "element, `*` for any key of a map keyed by names (`modelUsage`).\n";
    std::map<std::string, std::vector<std::pair<bool, const FieldChange*>>> by_kind;
    for (const auto& f : r.fields_removed) by_kind[f.kind].emplace_back(false, &f);
    for (const auto& f : r.fields_added) by_kind[f.kind].emplace_back(true, &f);
    for (auto& [kind, changes] : by_kind) {
      // Path order with '/' first, so a field's fields follow it directly.
      std::stable_sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) {
        return std::lexicographical_compare(
            a.second->path.begin(), a.second->path.end(), b.second->path.begin(),
            b.second->path.end(), [](char x, char y) {
              auto rank = [](char c) { return c == '/' ? 0 : static_cast<unsigned char>(c) + 1; };
              return rank(x) < rank(y);
            });
      });
      md << "\n### " << code(kind)
         << "\n\n| change | field | type | first seen | fields inside |\n|---|---|---|---|---|\n";
      for (std::size_t i = 0; i < changes.size();) {
        const auto& [added, f] = changes[i];
        // Fields inside a field changed the same way go on its row, relative to it.
        std::string inside;
        std::size_t next = i + 1;
        for (; next < changes.size() && changes[next].first == added &&
               changes[next].second->path.starts_with(f->path + "/");
             ++next) {
          const FieldChange& child = *changes[next].second;
          inside += (inside.empty() ? "" : ", ") + code(child.path.substr(f->path.size() + 1)) +
                    " " + child.type;
        }
        md << "| " << (added ? "added" : "removed") << " | " << code(f->path) << " | " << f->type
           << " | " << seen_text(f->first_seen) << " | " << inside << " |\n";
        i = next;
      }
    }
  }
  if (!r.ordering.empty()) {
    md << "\n## Message order\n\nPer recording and direction, the sequence of message kinds "
          "aligned by longest common subsequence: `-` only in base, `+` only in candidate. "
          "Recordings with the same change are listed together.\n";
    // Identical diffs in the same direction are printed once, in order of first appearance.
    struct Group {
      Direction direction;
      std::string diff;
      std::string sessions;
    };
    std::vector<Group> groups;
    for (const auto& change : r.ordering) {
      std::string diff = order_diff(change.steps);
      auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
        return g.direction == change.direction && g.diff == diff;
      });
      if (it == groups.end()) it = groups.insert(it, {change.direction, std::move(diff), ""});
      it->sessions += (it->sessions.empty() ? "" : ", ") + code(change.session);
    }
    for (const auto& g : groups) {
      md << "\n### " << arrow(g.direction) << " in " << g.sessions << "\n\n```diff\n"
         << g.diff << "```\n";
    }
  }
  if (!r.options_added.empty() || !r.options_removed.empty() || !r.options_changed.empty()) {
    md << "\n## Command-line options\n\nFrom each set's `options.json` "
          "(scripts/capture-cli-options): "
          "an option added is one the candidate CLI accepts and the base CLI rejects as "
          "unknown.\n\n"
       << "| change | option | base | candidate |\n|---|---|---|---|\n";
    for (const auto& [change, list] : {std::pair{"added", &r.options_added},
                                       {"removed", &r.options_removed},
                                       {"changed", &r.options_changed}}) {
      for (const auto& o : *list) {
        md << "| " << change << " | " << code(o.name) << " | "
           << (o.was.empty() ? "" : code(o.was) + " ") << "| "
           << (o.now.empty() ? "" : code(o.now) + " ") << "|\n";
      }
    }
  }
  return md.str();
}

Json to_json(const DriftReport& r) {
  auto options_json = [](const std::vector<OptionChange>& list) {
    Json out = Json::array();
    for (const auto& o : list) {
      Json entry{{"name", o.name}, {"flags", o.flags}};
      if (!o.was.empty()) entry["was"] = o.was;
      if (!o.now.empty()) entry["now"] = o.now;
      out.push_back(std::move(entry));
    }
    return out;
  };
  auto set_json = [](const SetSummary& s) {
    return Json{{"dir", s.dir}, {"cli_versions", s.cli_versions}, {"recordings", s.sessions}};
  };
  auto seen_json = [](const SeenAt& seen) {
    return Json{{"recording", seen.session}, {"line", seen.line}};
  };
  auto kinds_json = [&](const std::vector<KindChange>& list) {
    Json out = Json::array();
    for (const auto& c : list) {
      Json fields = Json::array();
      for (const auto& [path, type] : c.fields) fields.push_back({{"path", path}, {"type", type}});
      out.push_back({{"direction", direction_name(c.direction)},
                     {"kind", c.kind},
                     {"first_seen", seen_json(c.first_seen)},
                     {"fields", std::move(fields)}});
    }
    return out;
  };
  auto fields_json = [&](const std::vector<FieldChange>& list) {
    Json out = Json::array();
    for (const auto& f : list) {
      out.push_back({{"direction", direction_name(Direction::cli_to_sdk)},
                     {"kind", f.kind},
                     {"path", f.path},
                     {"type", f.type},
                     {"first_seen", seen_json(f.first_seen)}});
    }
    return out;
  };
  Json ordering = Json::array();
  for (const auto& change : r.ordering) {
    Json edits = Json::array();
    for (const auto& s : change.steps) {
      if (s.op == OrderStep::Op::same) continue;
      const bool removed = s.op == OrderStep::Op::removed;
      const std::string side = removed ? "base" : "candidate";
      edits.push_back({{"op", removed ? "removed" : "added"},
                       {"kind", s.kind},
                       {side + "_index", removed ? s.base_index : s.candidate_index},
                       {side + "_line", removed ? s.base_line : s.candidate_line}});
    }
    ordering.push_back({{"recording", change.session},
                        {"direction", direction_name(change.direction)},
                        {"edits", std::move(edits)}});
  }
  return Json{
      {"drift_report", 1},
      {"drift", r.has_drift()},
      {"base", set_json(r.base)},
      {"candidate", set_json(r.candidate)},
      {"recordings",
       {{"compared", r.sessions_compared},
        {"only_in_base", r.only_in_base},
        {"only_in_candidate", r.only_in_candidate}}},
      {"message_kinds",
       {{"added", kinds_json(r.kinds_added)}, {"removed", kinds_json(r.kinds_removed)}}},
      {"control_subtypes",
       {{"added", kinds_json(r.control_added)}, {"removed", kinds_json(r.control_removed)}}},
      {"fields",
       {{"added", fields_json(r.fields_added)}, {"removed", fields_json(r.fields_removed)}}},
      {"ordering", std::move(ordering)},
      {"options",
       {{"compared", r.options_compared},
        {"added", options_json(r.options_added)},
        {"removed", options_json(r.options_removed)},
        {"changed", options_json(r.options_changed)}}}};
}

}  // namespace claude::harness
