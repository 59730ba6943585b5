// framing.*: the same messages, delivered in ways a pipe, a wrapper or a dying CLI can deliver
// them.
#include <array>

#include "mutate/mutation_kit.hpp"

namespace claude::fuzzing::kit {
namespace {

// Inserts a `raw` step writing one of `lines`; returns which.
std::size_t insert_raw(ScenarioDoc& doc, FuzzRng& rng, std::span<const std::string_view> lines) {
  const std::size_t which = rng.below(lines.size());
  insert_at(doc, insert_position(doc, rng), Json::object({{"raw", std::string(lines[which])}}));
  return which;
}

Site split(ScenarioDoc& doc, FuzzRng& rng) {
  const auto i = pick_send(doc, rng);
  if (!i) return std::nullopt;
  Json& step = doc.steps[*i];
  const std::size_t size = line_of(step).size();
  if (size < 2) return std::nullopt;
  Json chunks = Json::array();
  const std::size_t pieces = rng.between(1, 3);
  for (std::size_t p = 0; p < pieces; ++p) chunks.push_back(rng.between(1, size - 1));
  step["chunks"] = chunks;
  if (rng.chance(1, 2)) step["gap_ms"] = rng.between(1, 20);
  return "framing.split " + kind_of(step["send"]);
}

Site byte_at_a_time(ScenarioDoc& doc, FuzzRng& rng) {
  const auto i = pick_send(doc, rng);
  if (!i) return std::nullopt;
  Json& step = doc.steps[*i];
  // One byte per write up to 512 bytes (the rest in one more write), back to back.
  const std::size_t size = std::min<std::size_t>(line_of(step).size(), 512);
  step["chunks"] = Json(std::vector<std::size_t>(size, 1));
  step.erase("gap_ms");
  return "framing.byte_at_a_time " + kind_of(step["send"]);
}

// A plain send rewritten as raw bytes: its line between `before` and `after`.
Site rewrite_line(ScenarioDoc& doc, FuzzRng& rng, std::string_view before, std::string_view after,
                  const std::string& name) {
  const auto i = pick_send(doc, rng, is_plain_send);
  if (!i) return std::nullopt;
  const std::string kind = kind_of(doc.steps[*i]["send"]);
  doc.steps[*i] =
      raw_like(doc.steps[*i], std::string(before) + line_of(doc.steps[*i]) + std::string(after));
  return name + " " + kind;
}

Site crlf(ScenarioDoc& doc, FuzzRng& rng) {
  return rewrite_line(doc, rng, "", "\r\n", "framing.crlf");
}

Site bom(ScenarioDoc& doc, FuzzRng& rng) {
  return rewrite_line(doc, rng, "\xEF\xBB\xBF", "\n", "framing.bom");
}

Site blank_lines(ScenarioDoc& doc, FuzzRng& rng) {
  static constexpr std::array<std::string_view, 4> kBlanks = {"\n", "\n\n\n", "   \n", "\t \r\n"};
  return "framing.blank_lines " + std::to_string(insert_raw(doc, rng, kBlanks));
}

Site noise(ScenarioDoc& doc, FuzzRng& rng) {
  static constexpr std::array<std::string_view, 8> kNoise = {"[debug] warming up the cache\n",
                                                             "{not json\n",
                                                             "null\n",
                                                             "42\n",
                                                             "[]\n",
                                                             "\"a string\"\n",
                                                             "{\"type\":\n",
                                                             "Warning: something odd happened\n"};
  return "framing.noise " + std::to_string(insert_raw(doc, rng, kNoise));
}

Site long_line(ScenarioDoc& doc, FuzzRng& rng) {
  const auto i = pick_send(doc, rng);
  if (!i) return std::nullopt;
  static constexpr std::array<std::size_t, 3> kSizes = {std::size_t{64} << 10, std::size_t{1} << 20,
                                                        std::size_t{4} << 20};
  const std::size_t size = kSizes[rng.below(kSizes.size())];
  Json& message = doc.steps[*i]["send"];
  message["fuzz_padding"] = std::string(size, 'x');
  return "framing.long_line " + kind_of(message) + " " + std::to_string(size);
}

Site no_final_newline(ScenarioDoc& doc, FuzzRng&) {
  // The last writing step before the ending, when it is a plain send.
  const std::size_t end = ending_index(doc);
  for (std::size_t i = end; i-- > 0;) {
    const std::string verb = verb_of(doc.steps[i]);
    if (verb == "expect" || verb == "expect_eof" || verb == "sleep_ms") continue;
    if (!is_plain_send(doc.steps[i])) return std::nullopt;
    const std::string kind = kind_of(doc.steps[i]["send"]);
    doc.steps[i] = raw_like(doc.steps[i], line_of(doc.steps[i]));
    return "framing.no_final_newline " + kind;
  }
  return std::nullopt;
}

Site cut_mid_line(ScenarioDoc& doc, FuzzRng& rng) {
  const auto i = pick_send(doc, rng, is_plain_send);
  if (!i) return std::nullopt;
  const std::string line = line_of(doc.steps[*i]);
  if (line.size() < 2) return std::nullopt;
  const std::string kind = kind_of(doc.steps[*i]["send"]);
  // Cut on a byte that is not inside a UTF-8 sequence: raw text is a JSON string.
  std::size_t cut = rng.between(1, line.size() - 1);
  while (cut > 1 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  Json raw = raw_like(doc.steps[*i], line.substr(0, cut));
  truncate_with(doc, *i, std::move(raw));
  doc.steps.push_back(Json::object({{"exit", rng.chance(1, 2) ? 0 : 1}}));
  return "framing.cut_mid_line " + kind;
}

constexpr Mutator kFraming[] = {
    {"framing.split", "a line written in 2–4 pieces, sometimes with pauses", split},
    {"framing.byte_at_a_time", "a line written one byte per write", byte_at_a_time},
    {"framing.crlf", "a line ended by CRLF", crlf},
    {"framing.bom", "a UTF-8 byte order mark before a line", bom},
    {"framing.blank_lines", "blank or whitespace-only lines between messages", blank_lines},
    {"framing.noise", "a line that is not a JSON object (debug text, null, 42, [])", noise},
    {"framing.long_line", "a message padded to 64 KiB, 1 MiB or 4 MiB", long_line},
    {"framing.no_final_newline", "the last line before the end without its newline",
     no_final_newline},
    {"framing.cut_mid_line", "the stream cut in the middle of a line, then exit", cut_mid_line},
};

}  // namespace

std::span<const Mutator> framing_mutators() {
  return kFraming;
}

}  // namespace claude::fuzzing::kit
