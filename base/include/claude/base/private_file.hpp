// Private files: how every tool writes a file that can hold session content (recordings,
// cassettes, reports, converted scenarios, model-stub logs, HTML pages).
//
// What it is: one overwrite rule for all tools. A file is created with mode 0600 whatever the
// umask; an existing path (file, directory or symlink) is refused unless `replace` (the tools'
// `--force`); a symlink is never followed: with `replace` it is replaced by the new file, the file
// it pointed to is left alone. Whole texts are written beside the target and then linked (refuse:
// fails if the path appeared meanwhile) or renamed (replace) into place, so no reader sees half.
//
// How it fails: each function returns the reason (strerror text, or "exists; files are never
// overwritten without --force") instead of throwing; nothing is left behind on failure.
//
// What it costs: an open, the writes, a close and a link or rename; no fsync.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace claude::base {

// Why `path` cannot take a new private file, checked before a long run: it exists and `replace`
// is false, it is a directory, or its parent folder does not exist.
[[nodiscard]] std::optional<std::string> private_file_problem(const std::filesystem::path& path,
                                                              bool replace);

// Writes `text` as the whole new content of `path` (see above).
[[nodiscard]] std::optional<std::string> write_private_file(const std::filesystem::path& path,
                                                            std::string_view text, bool replace);

// Opens `path` for a file that grows while the tool runs (a log): created 0600 with O_EXCL and
// O_NOFOLLOW; with `replace` an existing file or symlink at `path` is removed first. Returns the
// descriptor (close-on-exec), or -1 with `reason` set.
[[nodiscard]] int open_private_file(const std::filesystem::path& path, bool replace,
                                    std::string& reason);

}  // namespace claude::base
