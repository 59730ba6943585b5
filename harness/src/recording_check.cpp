#include "recording_check.hpp"

#include "claude/emulator/scenario.hpp"

namespace claude::harness {

std::optional<std::string> unusable_recording(const std::filesystem::path& path) {
  const auto loaded = emulator::load_scenario_file(path);
  if (!loaded.ok()) {
    std::string why = "it does not load:";
    for (const auto& e : loaded.errors) why += "\n  " + e.to_string();
    return why;
  }
  if (loaded.scenario->truncated) return "it is incomplete: " + *loaded.scenario->truncated;
  return std::nullopt;
}

bool command_recorded(const CommandResult& result, bool recorded, std::ostream& err) {
  if (!result.started) {
    err << "harness: " << result.describe() << '\n';
  } else if (!recorded) {
    err << "harness: CMD ended (" << result.describe()
        << ") without running claude: nothing recorded\n";
  }
  return result.started && recorded;
}

}  // namespace claude::harness
