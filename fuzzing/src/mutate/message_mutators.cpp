// message.*: lines that are valid framing but say something the SDK may not expect.
#include <array>

#include "claude/base/json.hpp"
#include "mutate/mutation_kit.hpp"

namespace claude::fuzzing::kit {
namespace {

// A member (not `type`) of the message at a random depth whose value `keep` accepts.
template <typename Keep>
std::optional<MemberRef> pick_member_where(Json& message, FuzzRng& rng, Keep keep) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    auto ref = pick_member(message, rng);
    if (ref && keep((*ref->parent)[ref->key])) return ref;
  }
  return std::nullopt;
}

std::optional<MemberRef> pick_string(Json& message, FuzzRng& rng) {
  return pick_member_where(message, rng, [](const Json& v) { return v.is_string(); });
}

// A member, chosen by `pick`, of the message of a send `keep` accepts.
struct Target {
  std::size_t step;
  Json& message;
  MemberRef ref;
  Json& value() const { return (*ref.parent)[ref.key]; }
  std::string site(std::string_view name) const {
    return std::string(name) + " " + kind_of(message) + " " + ref.path;
  }
};
template <typename Pick>
std::optional<Target> pick_target(ScenarioDoc& doc, FuzzRng& rng, bool (*keep)(const Json&),
                                  Pick pick) {
  const auto i = pick_send(doc, rng, keep);
  if (!i) return std::nullopt;
  Json& message = doc.steps[*i]["send"];
  auto ref = pick(message, rng);
  if (!ref) return std::nullopt;
  return Target{*i, message, std::move(*ref)};
}

Site drop_field(ScenarioDoc& doc, FuzzRng& rng) {
  auto t = pick_target(doc, rng, is_object_send, pick_member);
  if (!t) return std::nullopt;
  t->ref.parent->erase(t->ref.key);
  return t->site("message.drop_field");
}

Site duplicate_field(ScenarioDoc& doc, FuzzRng& rng) {
  const auto i = pick_send(doc, rng, is_plain_send);
  if (!i) return std::nullopt;
  const Json& message = doc.steps[*i]["send"];
  if (message.empty()) return std::nullopt;
  // The same key twice at the top: first a decoy value, then the real one (most parsers keep
  // the last; some keep the first).
  auto it = message.begin();
  std::advance(it, static_cast<std::ptrdiff_t>(rng.below(message.size())));
  static constexpr std::array<std::string_view, 4> kDecoys = {"null", "\"decoy\"", "0", "{}"};
  const std::string key = it.key();
  const std::string line = line_of(doc.steps[*i]);
  const std::string doubled = "{" + claude::base::dump_json(Json(key)) + ":" +
                              std::string(kDecoys[rng.below(kDecoys.size())]) + "," +
                              line.substr(1);
  const std::string kind = kind_of(message);
  doc.steps[*i] = raw_like(doc.steps[*i], doubled + "\n");
  return "message.duplicate_field " + kind + " " + key;
}

Site retype_field(ScenarioDoc& doc, FuzzRng& rng) {
  auto t = pick_target(doc, rng, is_object_send, pick_member);
  if (!t) return std::nullopt;
  Json& v = t->value();
  static const std::array<Json, 6> kValues = {Json(nullptr), Json("text"),  Json(7),
                                              Json(true),    Json::array(), Json::object()};
  std::size_t pick = rng.below(kValues.size());
  if (kValues[pick].type() == v.type()) pick = (pick + 1) % kValues.size();
  v = kValues[pick];
  return t->site("message.retype_field") + " " + v.type_name();
}

Site unknown_type(ScenarioDoc& doc, FuzzRng& rng) {
  Json message = {{"type", "fuzz_unknown_type"},
                  {"uuid", "00000000-0000-4000-8000-00000000f022"},
                  {"session_id", "fuzz-session"},
                  {"data", {{"n", 1}}}};
  insert_at(doc, insert_position(doc, rng), Json::object({{"send", std::move(message)}}));
  return "message.unknown_type";
}

Site unknown_subtype(ScenarioDoc& doc, FuzzRng& rng) {
  const auto sends = steps_where(
      doc, [](const Json& s) { return is_object_send(s) && s["send"].contains("subtype"); });
  const auto i = pick_message(doc, sends, rng);
  if (!i) return std::nullopt;
  Json& message = doc.steps[*i]["send"];
  const std::string kind = kind_of(message);
  message["subtype"] = "fuzz_unknown_subtype";
  return "message.unknown_subtype " + kind;
}

Site unknown_block(ScenarioDoc& doc, FuzzRng& rng) {
  const auto sends = steps_where(doc, [](const Json& s) {
    return is_object_send(s) && s["send"].contains("message") && s["send"]["message"].is_object() &&
           s["send"]["message"].contains("content") && s["send"]["message"]["content"].is_array();
  });
  const auto i = pick_any(sends, rng);
  if (!i) return std::nullopt;
  Json& content = doc.steps[*i]["send"]["message"]["content"];
  const std::size_t at = rng.below(content.size() + 1);
  content.insert(content.begin() + static_cast<std::ptrdiff_t>(at),
                 Json{{"type", "fuzz_unknown_block"}, {"payload", {{"x", 1}}}});
  return "message.unknown_block " + kind_of(doc.steps[*i]["send"]);
}

Site string_escapes(ScenarioDoc& doc, FuzzRng& rng) {
  auto t = pick_target(doc, rng, is_object_send, pick_string);
  if (!t) return std::nullopt;
  using namespace std::string_view_literals;
  static constexpr std::array<std::string_view, 4> kTexts = {
      "quote \" backslash \\ slash / controls \b\f\n\r\t end"sv,
      "line\u2028separator\u2029paragraph"sv, "nul \0 inside"sv, "emoji \U0001F600 and \u00e9"sv};
  const std::size_t which = rng.below(kTexts.size());
  t->value() = std::string(kTexts[which]);
  return t->site("message.string_escapes") + " " + std::to_string(which);
}

// The member `pick` chooses in a plain send, written as raw bytes holding one of `literals`
// instead (JSON text no value can hold: a lone surrogate escape, a number beyond double).
template <typename Pick>
Site write_literal(ScenarioDoc& doc, FuzzRng& rng, std::string_view name, Pick pick,
                   std::span<const std::string_view> literals) {
  auto t = pick_target(doc, rng, is_plain_send, pick);
  if (!t) return std::nullopt;
  const std::string site = t->site(name);
  constexpr std::string_view kPlaceholder = "@@fuzz-placeholder@@";
  t->value() = std::string(kPlaceholder);
  const std::string_view literal = literals[rng.below(literals.size())];
  std::string line = line_of(doc.steps[t->step]);
  const std::string quoted = "\"" + std::string(kPlaceholder) + "\"";
  if (auto at = line.find(quoted); at != std::string::npos)
    line.replace(at, quoted.size(), literal);
  doc.steps[t->step] = raw_like(doc.steps[t->step], line + "\n");
  return site;
}

Site lone_surrogate(ScenarioDoc& doc, FuzzRng& rng) {
  static constexpr std::array<std::string_view, 3> kLiterals = {"\"\\ud800\"", "\"tail \\udfff\"",
                                                                "\"\\ud83d\\u0041\""};
  return write_literal(doc, rng, "message.lone_surrogate", pick_string, kLiterals);
}

Site huge_number(ScenarioDoc& doc, FuzzRng& rng) {
  static constexpr std::array<std::string_view, 5> kLiterals = {
      "1e400", "123456789012345678901234567890", "-0", "1.7976931348623157e308",
      "-9223372036854775809"};
  auto pick_number = [](Json& message, FuzzRng& r) {
    return pick_member_where(message, r, [](const Json& v) { return v.is_number(); });
  };
  return write_literal(doc, rng, "message.huge_number", pick_number, kLiterals);
}

Site extra_field(ScenarioDoc& doc, FuzzRng& rng) {
  const auto i = pick_send(doc, rng);
  if (!i) return std::nullopt;
  Json& message = doc.steps[*i]["send"];
  Json* target = &message;
  if (message.contains("message") && message["message"].is_object() && rng.chance(1, 2))
    target = &message["message"];
  static const std::array<Json, 3> kValues = {Json("extra"), Json{{"nested", {1, 2, 3}}},
                                              Json(nullptr)};
  (*target)["fuzz_extra_field"] = kValues[rng.below(kValues.size())];
  return "message.extra_field " + kind_of(message);
}

Site drop_message(ScenarioDoc& doc, FuzzRng& rng) {
  const auto i = pick_send(doc, rng);
  if (!i) return std::nullopt;
  const std::string kind = kind_of(doc.steps[*i]["send"]);
  doc.steps.erase(doc.steps.begin() + static_cast<std::ptrdiff_t>(*i));
  return "message.drop_message " + kind;
}

Site duplicate_message(ScenarioDoc& doc, FuzzRng& rng) {
  const auto i = pick_send(doc, rng);
  if (!i) return std::nullopt;
  Json copy = doc.steps[*i];
  const std::string kind = kind_of(copy["send"]);
  insert_at(doc, *i + 1, std::move(copy));
  return "message.duplicate_message " + kind;
}

constexpr Mutator kMessage[] = {
    {"message.drop_field", "a field of a message removed", drop_field, false, 3},
    {"message.duplicate_field", "a top-level key written twice, a decoy value first",
     duplicate_field},
    {"message.retype_field", "a field given another JSON type", retype_field, false, 2},
    {"message.unknown_type", "a message of a type no SDK knows", unknown_type},
    {"message.unknown_subtype", "a message's subtype replaced by an unknown one", unknown_subtype},
    {"message.unknown_block", "an unknown content block type in a message's content",
     unknown_block},
    {"message.string_escapes", "a string full of escapes, U+2028/U+2029, NUL or astral characters",
     string_escapes},
    {"message.lone_surrogate", "a string with a lone UTF-16 surrogate escape", lone_surrogate},
    {"message.huge_number", "a number beyond double or int64 range, or -0", huge_number},
    {"message.extra_field", "a field no SDK knows", extra_field},
    {"message.drop_message", "a message never sent", drop_message},
    {"message.duplicate_message", "a message sent twice", duplicate_message},
};

}  // namespace

std::span<const Mutator> message_mutators() {
  return kMessage;
}

}  // namespace claude::fuzzing::kit
