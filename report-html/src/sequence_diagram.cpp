#include "sequence_diagram.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "case_view.hpp"
#include "claude/report_html/html_report.hpp"
#include "claude/report_html/html_text.hpp"

namespace claude::report_html {
namespace {

using Json = nlohmann::json;

constexpr int kSdkX = 130;
constexpr int kCliX = 610;
constexpr int kTop = 56;
constexpr int kRowGap = 26;
constexpr int kWidth = 960;
// Time is drawn at most this many pixels per millisecond; long sessions are compressed so the
// page stays a few screens tall.
constexpr double kMaxPixelsPerMs = 1.5;
constexpr double kMinTimeHeight = 400;

struct Entry {
  std::size_t index = 0;
  double t_ms = 0;
  std::string dir;  // in (SDK to CLI), out (CLI to SDK), err (CLI stderr)
  std::string line;
  std::string label;
  std::string request_id;  // control_request: its id; control_response: the id it answers
  bool is_request = false;
  bool is_response = false;
  bool auto_answered = false;  // fake-claude answered this SDK request itself (initialize, …)
  bool failed = false;         // an error reply, or a result that reports an error
  int y = 0;
};

// The string value of `"key":"…"` in a cut preview (no escapes expected in ids and subtypes).
std::string scan_member(std::string_view line, std::string_view key) {
  const std::string needle = "\"" + std::string(key) + "\":\"";
  const auto at = line.find(needle);
  if (at == std::string_view::npos) return {};
  const auto start = at + needle.size();
  const auto end = line.find('"', start);
  return end == std::string_view::npos ? std::string()
                                       : std::string(line.substr(start, end - start));
}

// A preview cut before its end is no JSON, yet its start still says what it was: the type, the
// control subtype and the request_id come early in every control line.
void describe_cut(Entry& e) {
  const std::string type = scan_member(e.line, "type");
  if (type != "control_request" && type != "control_response") {
    e.label = e.dir == "err" ? "stderr: " + shorten(e.line, 60) : shorten(e.line, 48);
    return;
  }
  e.is_request = type == "control_request";
  e.is_response = !e.is_request;
  e.request_id = scan_member(e.line, "request_id");
  const std::string subtype = scan_member(e.line, "subtype");
  e.failed = e.is_response && subtype == "error";
  e.label = type + (subtype.empty() ? "" : " " + subtype) + " (cut)";
}

// "type/subtype", or the control subtype, when the preview is whole JSON; else the start of the
// text, since previews of long lines are cut.
void describe(Entry& e) {
  const Json j = Json::parse(e.line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return describe_cut(e);
  const std::string type = string_member(j, "type");
  e.label = type;
  if (type == "control_request") {
    e.is_request = true;
    e.request_id = string_member(j, "request_id");
    const auto request = j.find("request");
    if (request != j.end()) e.label += " " + string_member(*request, "subtype");
  } else if (type == "control_response") {
    e.is_response = true;
    const auto response = j.find("response");
    if (response != j.end()) {
      e.request_id = string_member(*response, "request_id");
      e.label += " " + string_member(*response, "subtype");
      e.failed = string_member(*response, "subtype") == "error";
    }
  } else if (const std::string subtype = string_member(j, "subtype"); !subtype.empty()) {
    e.label += "/" + subtype;
    e.failed = type == "result" &&
               ((j.contains("is_error") && j["is_error"] == true) || subtype.starts_with("error"));
  }
}

std::optional<std::size_t> closest_index(const Json& report) {
  // contains() is false, never a throw, where a member on the way is missing or no object.
  static const Json::json_pointer kIndex("/failure/closest/transcript_index");
  if (!report.contains(kIndex) || !report.at(kIndex).is_number_unsigned()) return std::nullopt;
  return report.at(kIndex).get<std::size_t>();
}

std::string number(double value) {
  if (value == static_cast<double>(static_cast<long long>(value))) {
    return std::to_string(static_cast<long long>(value));
  }
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  return text;
}

}  // namespace

std::string sequence_diagram_svg(const Json& fake_report, std::string_view anchor) {
  std::vector<Entry> entries;
  std::size_t not_drawn = 0;
  if (const auto t = fake_report.find("transcript"); t != fake_report.end() && t->is_array()) {
    double last_t = 0;
    for (std::size_t i = 0; i < t->size(); ++i) {
      const Json& item = (*t)[i];
      if (!item.is_object()) continue;
      if (entries.size() == kMaxDrawnEntries) {
        ++not_drawn;
        continue;
      }
      Entry e;
      const auto index = item.find("index");
      e.index = index != item.end() && index->is_number_unsigned() ? index->get<std::size_t>() : i;
      const auto t_ms = item.find("t_ms");
      e.t_ms =
          std::max(last_t, t_ms != item.end() && t_ms->is_number() ? t_ms->get<double>() : last_t);
      last_t = e.t_ms;
      e.dir = string_member(item, "dir");
      e.line = string_member(item, "line");
      e.auto_answered = item.contains("auto_answered") && item["auto_answered"] == true;
      describe(e);
      if (!e.request_id.empty()) e.label += " #" + shorten(e.request_id, 8);
      entries.push_back(std::move(e));
    }
  }
  if (entries.empty()) {
    return "<p class=\"empty\">fake-claude's report has no transcript: nothing passed between "
           "the SDK and the CLI.</p>\n";
  }

  const double span_ms = std::max(1.0, entries.back().t_ms - entries.front().t_ms);
  // Time may stretch the diagram to three times its packed height (at least kMinTimeHeight), so
  // pauses stand out without a long session turning into pages of empty space.
  const double time_height =
      std::max(kMinTimeHeight, 3.0 * static_cast<double>(entries.size()) * kRowGap);
  const double pixels_per_ms = std::min(kMaxPixelsPerMs, time_height / span_ms);
  int y = kTop - kRowGap;
  for (auto& e : entries) {
    const int by_time = kTop + static_cast<int>((e.t_ms - entries.front().t_ms) * pixels_per_ms);
    y = std::max(y + kRowGap, by_time);
    e.y = y;
  }

  // Pairs: a response answers the most recent unanswered request with its id.
  std::map<std::string, std::size_t> open_requests;  // request id -> position in entries
  std::vector<std::optional<std::size_t>> partner(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (e.request_id.empty()) continue;
    if (e.is_request) {
      open_requests[e.request_id] = i;
    } else if (e.is_response) {
      if (const auto it = open_requests.find(e.request_id); it != open_requests.end()) {
        partner[i] = it->second;
        partner[it->second] = i;
        open_requests.erase(it);
      }
    }
  }
  const auto mismatch = closest_index(fake_report);
  const std::string prefix(anchor);

  const int height = entries.back().y + 48;
  std::string svg;
  svg += "<svg class=\"sequence\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         std::to_string(kWidth) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
         std::to_string(kWidth) + " " + std::to_string(height) + "\" role=\"img\">\n";
  svg += "<defs><marker id=\"" + prefix +
         "-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" "
         "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" "
         "fill=\"context-stroke\"/></marker></defs>\n";
  svg += "<text class=\"lifeline-name\" x=\"" + std::to_string(kSdkX) +
         "\" y=\"20\" text-anchor=\"middle\">SDK</text>\n";
  svg += "<text class=\"lifeline-name\" x=\"" + std::to_string(kCliX) +
         "\" y=\"20\" text-anchor=\"middle\">CLI (fake-claude)</text>\n";
  svg += "<text class=\"axis\" x=\"4\" y=\"20\">t (ms)</text>\n";
  for (const int x : {kSdkX, kCliX}) {
    svg += "<line class=\"lifeline\" x1=\"" + std::to_string(x) + "\" y1=\"30\" x2=\"" +
           std::to_string(x) + "\" y2=\"" + std::to_string(height - 10) + "\"/>\n";
  }

  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    std::string classes = "msg " + (e.dir.empty() ? std::string("unknown") : e.dir);
    if (mismatch && *mismatch == e.index) classes += " mismatch";
    // Coloured by what happened: a request nobody answered, a reply or result that failed.
    const bool unanswered = e.is_request && !partner[i] && !e.auto_answered;
    if (unanswered) classes += " unanswered";
    if (e.failed) classes += " failed";
    std::string pair_attr;
    if (partner[i]) {
      const std::size_t first = std::min(i, *partner[i]);
      pair_attr = " data-pair=\"" + prefix + "-p" + std::to_string(first) + "\"";
    }
    const std::string y_text = std::to_string(e.y);
    svg += "<g class=\"" + classes + "\" id=\"" + prefix + "-t" + std::to_string(e.index) + "\"" +
           pair_attr + ">";
    svg += "<title>#" + std::to_string(e.index) + " " + e.dir + " t=" + number(e.t_ms) + " ms\n" +
           escape_html(e.line) + "</title>";
    svg += "<text class=\"time\" x=\"4\" y=\"" + y_text + "\">" + number(e.t_ms) + "</text>";
    if (e.dir == "err") {
      svg += "<circle cx=\"" + std::to_string(kCliX) + "\" cy=\"" + y_text + "\" r=\"3\"/>";
      svg += "<text class=\"label\" x=\"" + std::to_string(kCliX + 30) + "\" y=\"" +
             std::to_string(e.y + 4) + "\">" + escape_html(e.label) + "</text>";
    } else {
      const bool to_cli = e.dir == "in";
      const int from = to_cli ? kSdkX : kCliX;
      const int to = to_cli ? kCliX : kSdkX;
      svg += "<line x1=\"" + std::to_string(from) + "\" y1=\"" + y_text + "\" x2=\"" +
             std::to_string(to) + "\" y2=\"" + y_text + "\" marker-end=\"url(#" + prefix +
             "-arrow)\"/>";
      svg += "<text class=\"label\" x=\"" + std::to_string((kSdkX + kCliX) / 2) + "\" y=\"" +
             std::to_string(e.y - 5) + "\" text-anchor=\"middle\">" + escape_html(e.label) +
             (unanswered ? " \u2014 no reply" : "") + "</text>";
    }
    if (mismatch && *mismatch == e.index) {
      svg += "<text class=\"mismatch-note\" x=\"" + std::to_string(kCliX + 30) + "\" y=\"" +
             std::to_string(e.y + 4) + "\">\u2190 closest to the first mismatch</text>";
    }
    svg += "</g>\n";
  }

  // Brackets beside the lifeline of whoever asked: SDK requests on the left, CLI requests on the
  // right.
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!partner[i] || *partner[i] < i) continue;
    const Entry& request = entries[i];
    const Entry& response = entries[*partner[i]];
    const bool sdk_asked = request.dir == "in";
    const int edge = sdk_asked ? kSdkX - 4 : kCliX + 4;
    const int bulge = sdk_asked ? kSdkX - 26 : kCliX + 26;
    svg += "<path class=\"pair\" data-pair=\"" + prefix + "-p" + std::to_string(i) + "\" d=\"M" +
           std::to_string(edge) + "," + std::to_string(request.y) + " C" + std::to_string(bulge) +
           "," + std::to_string(request.y) + " " + std::to_string(bulge) + "," +
           std::to_string(response.y) + " " + std::to_string(edge) + "," +
           std::to_string(response.y) + "\"><title>request " + escape_html(request.request_id) +
           ": #" + std::to_string(request.index) + " \u2192 #" + std::to_string(response.index) +
           "</title></path>\n";
  }
  svg += "</svg>\n";
  if (not_drawn > 0) {
    svg += "<p class=\"empty\">" + std::to_string(not_drawn) +
           " more transcript entries are not drawn.</p>\n";
  }
  return svg;
}

}  // namespace claude::report_html
