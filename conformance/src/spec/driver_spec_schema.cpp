#include "claude/conformance/driver_spec_schema.hpp"

#include "claude/conformance/json_schema.hpp"

namespace claude::conformance {

std::vector<std::string> driver_spec_problems(const claude::emulator::Json& spec) {
  static const JsonSchema schema(claude::emulator::Json::parse(driver_spec_schema_text()));
  std::vector<std::string> out;
  for (const auto& p : schema.validate(spec))
    out.push_back("driver spec " + (p.pointer.empty() ? std::string("/") : p.pointer) + ": " +
                  p.reason);
  return out;
}

}  // namespace claude::conformance
