#include "claude/fuzzing/seed_corpus.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>

#include "claude/base/input_file.hpp"
#include "claude/base/json.hpp"
#include "claude/conformance/driver_spec_schema.hpp"

namespace claude::fuzzing {
namespace {

namespace fs = std::filesystem;

bool is_side_file(const fs::path& file) {
  const std::string name = file.filename().string();
  return name == "model-script.ndjson" || name.ends_with(".model-log.ndjson");
}

bool matches(const std::string& glob, const std::string& text) {
  return ::fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

// Adds the seed of `file` to `load` (or its error); `id` names it.
void add_seed(const fs::path& file, std::string id, const LenientBounds& bounds, SeedLoad& load) {
  auto loaded = claude::emulator::load_scenario_file(file);
  if (!loaded.ok()) {
    for (const auto& e : loaded.errors) load.errors.push_back(e.to_string());
    return;
  }
  ScenarioDoc doc = doc_of(*loaded.scenario);
  // Where the spec came from, for its problems: the header line, or the spec.json beside it.
  std::string spec_at = file.string() + ":" + std::to_string(loaded.scenario->header.line);
  if (!doc.header.contains("driver") || !doc.header["driver"].is_object()) {
    const fs::path spec_file = file.parent_path() / "spec.json";
    std::error_code ec;
    if (!fs::exists(spec_file, ec)) {
      ++load.without_spec;
      return;
    }
    std::string error;
    const auto text = base::read_input_file(spec_file, error, {base::kMaxConfigFileBytes});
    Json spec = base::parse_json_or_discarded(text.value_or(""));
    if (!spec.is_object()) {
      load.errors.push_back(spec_file.string() + ":1: not a JSON object (a driver spec)");
      return;
    }
    doc.header["driver"] = std::move(spec);
    spec_at = spec_file.string() + ":1";
  }
  if (auto problems = claude::conformance::driver_spec_problems(doc.header["driver"]);
      !problems.empty()) {
    for (const auto& p : problems) load.errors.push_back(spec_at + ": " + p);
    return;
  }
  make_lenient(doc, bounds);
  if (auto errors = load_errors(doc, file.string()); !errors.empty()) {
    load.errors.insert(load.errors.end(), errors.begin(), errors.end());
    return;
  }
  load.seeds.push_back({std::move(id), file, std::move(doc)});
}

}  // namespace

SeedLoad load_seeds(const std::vector<fs::path>& directories,
                    const std::vector<std::string>& exclude, const LenientBounds& bounds) {
  SeedLoad load;
  for (const auto& dir : directories) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      load.errors.push_back(dir.string() + ":0: not a directory of scenarios");
      continue;
    }
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".ndjson" && !is_side_file(it->path()))
        files.push_back(it->path());
    }
    if (ec) load.errors.push_back(dir.string() + ":0: " + ec.message());
    std::sort(files.begin(), files.end());
    // "scenarios/conformance/" names its seeds "conformance/…" too.
    const fs::path name = dir.filename().empty() ? dir.parent_path().filename() : dir.filename();
    for (const auto& file : files) {
      const std::string relative = file.lexically_relative(dir).string();
      const bool excluded = std::any_of(exclude.begin(), exclude.end(), [&](const auto& glob) {
        if (matches(glob, relative) || matches(glob, file.string())) return true;
        std::ifstream in(file);
        std::string first;
        std::getline(in, first);
        Json header = claude::base::parse_json_or_discarded(first);
        return header.is_object() && header.contains("name") && header["name"].is_string() &&
               matches(glob, header["name"].get<std::string>());
      });
      if (excluded) {
        ++load.excluded;
        continue;
      }
      add_seed(file, (name / relative).string(), bounds, load);
    }
  }
  return load;
}

SeedLoad load_seed_file(const fs::path& file, const LenientBounds& bounds) {
  SeedLoad load;
  add_seed(file, file.filename().string(), bounds, load);
  if (load.errors.empty() && load.seeds.empty())
    load.errors.push_back(file.string() +
                          ":1: no driver spec (a `driver` header member or a spec.json beside it)");
  return load;
}

}  // namespace claude::fuzzing
