#include "claude/conformance/report_file.hpp"

#include "claude/base/private_file.hpp"

namespace claude::conformance {

bool write_report_file(const std::filesystem::path& path, std::string_view text, bool replace,
                       std::string_view command, std::ostream& err) {
  const auto problem = base::write_private_file(path, text, replace);
  if (!problem) return true;
  err << command << ": cannot write " << path.string() << ": " << *problem << "\n";
  return false;
}

}  // namespace claude::conformance
