#include "claude/fuzzing/finding.hpp"

namespace claude::fuzzing {

std::string finding_slug(const std::string& signature) {
  std::string slug;
  for (char c : signature) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    if (keep) {
      slug.push_back(c);
    } else if (!slug.empty() && slug.back() != '-') {
      slug.push_back('-');
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "finding" : slug;
}

std::string finding_file_name(const std::string& signature) {
  return finding_slug(signature) + ".ndjson";
}

std::string finding_text(ScenarioDoc doc, const Violation& violation, const FindingOrigin& origin) {
  const std::string signature = violation.signature();
  doc.header["name"] = "fuzz." + finding_slug(signature);
  doc.header["description"] = "harness fuzz finding " + signature + ": " + violation.message;
  std::string mutations;
  for (const auto& site : origin.sites) mutations += (mutations.empty() ? "" : "; ") + site;
  const std::vector<std::string> comments = {
      "harness fuzz finding: " + signature, violation.message,
      "seed: " + origin.seed_file + " (--seed " + std::to_string(origin.run_seed) + ", exec " +
          std::to_string(origin.exec) + ")",
      "mutations: " + (mutations.empty() ? std::string("none") : mutations),
      "minimized; replay: harness fuzz --sdk " + origin.sdk + " --replay THIS_FILE"};
  return render(doc, comments);
}

}  // namespace claude::fuzzing
