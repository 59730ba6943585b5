// Writing the files `harness check` and `harness fuzz` leave behind: reports and findings.
//
// What it is: one write of a whole text to a path, by the one overwrite rule of
// claude/base/private_file.hpp: created private (0600, as every report the harness writes:
// they hold session transcripts), never through a symlink; without `replace` an existing file is
// kept and the message says that --force replaces it.
//
// How it fails: returns false after one line on `err`, "<command>: cannot write PATH: reason".
//
// What it costs: one open, as many write(2) calls as the kernel needs, one close.
#pragma once

#include <filesystem>
#include <ostream>
#include <string_view>

namespace claude::conformance {

bool write_report_file(const std::filesystem::path& path, std::string_view text, bool replace,
                       std::string_view command, std::ostream& err);

}  // namespace claude::conformance
